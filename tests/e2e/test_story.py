"""The story of the game in a real browser: from the end screen on the host and on a phone at
360 px, axe-clean, no sideways scrolling, the chart's words twice as large at 200% text and inside
its drawing (and the bars' words); every table readable at 360 px and with large text (its
rows as small cards); printed, the rows it leaves out counted. And a refused import, said where the
home page opens. Screenshots in test-artifacts/story-*.png and import-refused.png."""

import re

import pytest
from playwright.sync_api import expect

from ..web.test_story import EVENING
from .conftest import DESKTOP, NARROW, check_accessible, start_game, text_at_200_percent
from .test_end_and_assets import chart_labels_outside
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
    # The chart's words are the reader's size: at 200% text twice as large on the screen, inside the
    # drawing (chart.py leaves them room), and the page no wider.
    chart = ann.locator(".worth-chart")
    sizes = "(svg) => [...svg.querySelectorAll('text.tick, text.axis-title')].map((t) => t.getBoundingClientRect().height)"
    normal = chart.evaluate(sizes)
    text_at_200_percent(ann)
    assert all(1.8 <= large / small <= 2.2 for small, large in zip(normal, chart.evaluate(sizes), strict=True))
    assert chart_labels_outside(ann) == []
    assert ann.evaluate("document.documentElement.scrollWidth") <= NARROW
    chart.screenshot(path=artifacts / "story-chart-200-percent.png")


# The deeds Ann and Maximiliana buy in turn (each rolled onto with 1 + 2, the banker moving the token
# three squares before it): twelve deeds, more than a printed page lists; Maximiliana's last, Electric
# Company (« Compagnie de distribution d'électricité » in French: a long name in the bars).
PURCHASES = (3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 12)
# Every cell of the story's tables that is shown and ends to the right of the screen, of the
# scrolling region around it (where it would be cut off) or of its card (its column, printed), with
# its words; the tables to open opened.
CUT_OFF = """() => {
  document.querySelectorAll('.story-main details').forEach((d) => { d.open = true; });
  return [...document.querySelectorAll('.story-main table')].flatMap((table) => {
    const region = table.closest('.table-scroll'), card = table.closest('.card');
    const edge = Math.min(region ? region.getBoundingClientRect().left + region.clientLeft + region.clientWidth : innerWidth,
                          card ? card.getBoundingClientRect().right : innerWidth);
    return [...table.querySelectorAll('th, td')].flatMap((cell) => {
      const box = cell.getBoundingClientRect(), head = cell.closest('thead');
      if (!cell.checkVisibility() || !box.width || (head && head.getBoundingClientRect().width <= 1)) return [];
      const limit = Math.min(innerWidth, edge);
      return box.right <= limit + 0.5 ? [] : [`${cell.textContent.trim()}: ends at ${Math.round(box.right)} px, past ${Math.round(limit)}`];
    });
  });
}"""


def a_long_evening(server) -> str:
    """An ended game of Ann and Maximiliana (a long name) who bought PURCHASES between them, one rent
    paid (Ann's, for Electric Company); its code."""
    from banker import store

    from .test_host_screen import roll, store_act

    with server.app.app_context():
        code = store.create_game("us")[0].code
    ids = [store_act(server, code, None, type="join", name=name, token=token).player
           for name, token in (("Ann", "car"), ("Maximiliana", "dog"))]
    store_act(server, code, "banker", type="start", order=ids)
    for n, square in enumerate(PURCHASES):
        player = ids[n % 2]
        store_act(server, code, "banker", type="move", player=player, square=square - 3)
        store_act(server, code, player, **roll(1, 2))
        store_act(server, code, player, type="buy")
        store_act(server, code, player, type="end_turn")
    store_act(server, code, "banker", type="move", player=ids[0], square=PURCHASES[-1] - 3)
    store_act(server, code, ids[0], **roll(1, 2))  # Ann's turn: rent to Maximiliana
    store_act(server, code, "banker", type="end_game")
    return code


def test_the_story_at_360_px_and_printed_shows_every_row_or_says_how_many_are_left_out(contexts, server, artifacts):
    code = a_long_evening(server)
    page = contexts.page("reader", viewport={"width": NARROW, "height": 780}, is_mobile=True, has_touch=True)
    page.goto(f"/t/{code}/story")  # the game has ended: anyone may read its story
    returns = page.locator("table.returns tbody tr")
    expect(returns).to_have_count(len(PURCHASES))
    # At 360 px, then with twice the text: every table's every cell on the screen, nothing cut off at
    # the right, and each deed's figures named in its row; the pictures' words (the bars', the
    # flow's, the landings' counts: on a phone a square shows its count alone) twice as large,
    # inside their drawings.
    bars = page.locator("svg.bars, svg.flow, svg.heat")
    words = """(svgs) => svgs.flatMap((svg) => { const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')].filter((t) => t.checkVisibility()).map((t) => { const r = t.getBoundingClientRect();
        return {text: t.textContent, height: r.height, inside: r.left >= box.left - .5 && r.right <= box.right + .5
                                          && r.top >= box.top - .5 && r.bottom <= box.bottom + .5}; }); })"""
    normal = bars.evaluate_all(words)
    for what in ("360 px", "360 px, 200% text"):
        if what.endswith("text"):
            text_at_200_percent(page)
            large = bars.evaluate_all(words)
            assert all(1.8 <= b["height"] / a["height"] <= 2.2 for a, b in zip(normal, large, strict=True))
            assert all(w["inside"] for w in normal + large), [w for w in normal + large if not w["inside"]]
            bars.last.screenshot(path=artifacts / "story-bars-200-percent.png")
        cut_off = page.evaluate(CUT_OFF)
        assert not cut_off, f"{what}: {cut_off}"
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW, what
        assert page.evaluate("""() => [...document.querySelectorAll('.returns td[data-label], .flows td[data-label]')]
            .every((td) => getComputedStyle(td, '::before').content !== 'none')"""), what
        page.screenshot(path=artifacts / f"story-{what.replace(' ', '-').replace(',', '').replace('%', '')}.png",
                        full_page=True)
    check_accessible(page, "the story at 360 px with large text")
    page.goto(f"/t/{code}/story?lang=fr")
    cut_off = page.evaluate(CUT_OFF)
    assert not cut_off, f"in French at 360 px: {cut_off}"
    # « Compagnie de distribution d'électricité » on two lines over its bar, inside the drawing at 200%.
    text_at_200_percent(page)
    assert [w for w in bars.evaluate_all(words) if not w["inside"]] == []
    page.locator("svg.bars").last.screenshot(path=artifacts / "story-bars-french-200-percent.png")
    page.locator("svg.flow").screenshot(path=artifacts / "story-flow-french-200-percent.png")
    page.locator("svg.heat").first.screenshot(path=artifacts / "story-landings-french-200-percent.png")
    page.goto(f"/t/{code}/story?lang=en")  # the language chosen is kept: back to English

    # On screen, every deed and no "more"; printed, the five best and how many more there are, on one page.
    more = page.get_by_text("… and 7 more deeds.")
    expect(returns.filter(visible=True)).to_have_count(len(PURCHASES))
    expect(more).to_be_hidden()
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    expect(returns.filter(visible=True)).to_have_count(5)
    expect(more).to_be_visible()
    expect(page.locator("table.flows")).to_be_hidden()  # the picture says it, on paper
    expect(page.locator(".heat-note").first).to_be_visible()  # what the heat map's ≈ means, on paper too
    cut_off = page.evaluate(CUT_OFF)
    assert not cut_off, f"printed: {cut_off}"
    page.screenshot(path=artifacts / "story-printed-long.png", full_page=True)
    pdf = page.pdf(path=artifacts / "story-printed-long.pdf", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1


def test_a_refused_import_is_said_at_the_top_of_the_home_page(contexts, server, artifacts):
    laptop = contexts.page("laptop", **DESKTOP)
    laptop.goto("/")
    exported = b'{"format": "tabletop-banker-game", "version": 1, "edition": "us", "settings": {'
    laptop.locator("input[type=file][name=archive]").set_input_files(
        {"name": "game.json", "mimeType": "application/json", "buffer": exported})
    laptop.get_by_role("button", name="Import and go on playing").click()
    refused = laptop.get_by_role("alert")
    expect(refused).to_have_text(re.compile("This file is cut short: it may not have been copied whole."))
    expect(refused).to_be_in_viewport(ratio=1)  # where the page opens, not by the form at its foot
    assert laptop.evaluate("scrollY") == 0
    assert refused.evaluate("(e) => getComputedStyle(e).animationName") == "none"  # it stays to be read
    laptop.screenshot(path=artifacts / "import-refused.png")
    check_accessible(laptop, "the home page with a refused import")
    refused.get_by_role("link", name="Choose another file").click()
    expect(laptop.get_by_role("button", name="Import and go on playing")).to_be_in_viewport()
