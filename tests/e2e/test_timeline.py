"""Issue 23, item 2: the banker's timeline in a real browser: the slider and the steps swap in the
version asked for without loading a page, the slider follows the steps, and it is axe clean."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import MIN_TARGET, check_accessible, roll, start_game
from .test_accessibility import SMALL_TARGETS

pytestmark = pytest.mark.e2e


def test_the_slider_and_the_steps_show_past_versions_without_a_page_load(contexts, artifacts):
    host, code, (ann, bob) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    roll(ann, 1, 2)
    ann.locator("#turn").get_by_role("button", name="Buy for $60").tap()
    ann_cash = host.locator("#balance-1 [data-cash]")
    expect(ann_cash).to_have_attribute("data-cash", "1440")

    host.get_by_role("link", name="Timeline: the game at any point").click()
    expect(host).to_have_url(re.compile(rf"/t/{code}/timeline$"))
    expect(host.get_by_role("heading", name="Version 5 of 5")).to_be_visible()
    loads = list(contexts.loads["host"])

    # The slider, one step back by the keyboard: Ann has not bought Baltic Avenue yet.
    slider = host.get_by_role("slider", name="Version")
    slider.focus()
    slider.press("ArrowLeft")
    expect(host.get_by_role("heading", name="Version 4 of 5")).to_be_visible()
    expect(ann_cash).to_have_attribute("data-cash", "1500")
    expect(host.locator('#sq-3 .owner')).to_have_count(0)
    # A step link: the first version; the slider follows.
    host.get_by_role("link", name="The first version").click()
    expect(host.get_by_role("heading", name="Version 0 of 5")).to_be_visible()
    expect(slider).to_have_value("0")
    host.get_by_role("link", name="The game now").click()
    expect(host.locator('#sq-3 .owner')).to_have_attribute("title", "owned by Ann")
    expect(slider).to_have_value("5")
    assert contexts.loads["host"] == loads  # no page was loaded: htmx swapped the version in
    host.screenshot(path=artifacts / "timeline.png")
    check_accessible(host, "the timeline")
    assert host.evaluate(SMALL_TARGETS, MIN_TARGET) == []
    assert not contexts.errors
