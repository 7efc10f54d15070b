"""Issue 9, item 10: the Content Security Policy in a real browser. The other e2e tests run every
screen under it (conftest fails any test with a violation); here the CDN fallback, the one place
that needs the nonce, and the check itself."""

import re

import pytest
from playwright.sync_api import Error, expect

from .conftest import CSP_VIOLATIONS, DESKTOP, LIVE, PHONE, Contexts, Server, join

pytestmark = pytest.mark.e2e


def test_with_the_cdn_out_of_reach_the_nonced_fallback_loads_htmx_and_pages_stay_live(browser, tmp_path):
    from banker import create_app
    from banker.web import SCRIPTS

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'banker.sqlite'}", "SECRET_KEY": "csp",
                      "HTMX_CDN": True}, instance_path=str(tmp_path / "instance"))
    server = Server(app).start()
    contexts = Contexts(browser, server)
    try:
        host = contexts.page("host", **DESKTOP)
        host.goto("/")
        host.get_by_role("button", name="Create game").click()
        expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
        phone = contexts.page("phone", **PHONE)
        join(phone, host.locator(".join-panel .url").inner_text(), "Ann", "Car")
        expect(host.locator("ol.seats li")).to_have_count(1, timeout=LIVE)  # pushed over the live connection
        assert host.evaluate("typeof htmx.createEventSource") == "function"
        assert sorted(set(contexts.blocked)) == sorted(script.cdn_url for script in SCRIPTS)
        assert not CSP_VIOLATIONS
    finally:
        contexts.close()
        server.stop()
        from banker.models import db
        with app.app_context():
            db.engine.dispose()


def test_a_refused_inline_script_or_style_is_caught(contexts):
    page = contexts.page("page")
    page.goto("/")
    with pytest.raises(Error):
        page.add_script_tag(content="window.injected = true")
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    expect(page.locator("body")).to_have_attribute("style", "color: red")
    def refused():
        return [v for v in CSP_VIOLATIONS if "inline script" in v or "inline style" in v]

    while len(refused()) < 2:  # the refusals reach the console
        page.wait_for_event("console", timeout=LIVE)
    assert page.evaluate("window.injected") is None
    assert len(refused()) == 2, CSP_VIOLATIONS
    CSP_VIOLATIONS.clear()  # what this test expected; any other test would fail on it
