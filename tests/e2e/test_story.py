"""The story of the game in a real browser: from the end screen on the host and on a phone at
360 px, axe-clean, no sideways scrolling; screenshots in test-artifacts/story-*.png."""

import re

import pytest
from playwright.sync_api import expect

from ..web.test_story import EVENING
from .conftest import NARROW, check_accessible, start_game
from .test_buildings import player_id, store_act

pytestmark = pytest.mark.e2e


def test_the_story_from_the_end_screens_on_the_host_and_a_phone(contexts, server, artifacts):
    from banker.rules import Actor

    host, code, (ann, _) = start_game(contexts, [("Ann", "Car"), ("Bob", "Dog")])
    seats = {1: Actor(player=player_id(server, code, "Ann")), 2: Actor(player=player_id(server, code, "Bob"))}
    for who, action in EVENING:
        store_act(server, code, seats[who], **action)
    store_act(server, code, Actor(banker=True), type="end_game")

    host.get_by_role("link", name="The story of the game").click()
    expect(host.get_by_role("heading", level=1)).to_have_text(f"The story of game {code}")
    expect(host.get_by_role("img", name="Money between players")).to_be_visible()
    check_accessible(host, "the story on the host")
    host.screenshot(path=artifacts / "story-host.png", full_page=True)
    # Printed, it is one page (A4, as app.css's print rules ask).
    pdf = host.pdf(path=artifacts / "story-printed.pdf", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    host.emulate_media(media="print")
    host.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi, to look at
    host.screenshot(path=artifacts / "story-printed.png", full_page=True)
    host.emulate_media(media="screen")

    ann.set_viewport_size({"width": NARROW, "height": 780})
    ann.get_by_role("link", name="The story of the game").tap()
    expect(ann.get_by_role("heading", name="Your story, Ann")).to_be_visible()
    assert ann.evaluate("document.documentElement.scrollWidth") <= NARROW
    check_accessible(ann, "the story on a phone")
    ann.screenshot(path=artifacts / "story-phone-360.png", full_page=True)
