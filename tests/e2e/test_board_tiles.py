"""Issues 20 (item 6) and 34 (item 5): the boards' tiles read whole. Each of the five boards, read in
each of the four languages, on the host at a laptop's size, on the TV at 1080p and 720p and on the
banker's timeline, at a table of eight with deeds owned, houses built, a deed mortgaged and tokens on
the longest names: no word of a square's name breaks across lines, the name stays inside its tile
(a name too long for it is set smaller, to three quarters at most: static/app.js, fitNames), and
neither the owner's badge nor a pawn covers it. A hyphenated name may break after its hyphen
(Champs-|Élysées); Japanese, which sets no spaces between words, between its characters; a Latin
word in it may not break. One page load per kind of screen: the twenty boards are put into it in
turn, as the server draws them."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from .conftest import LIVE, check_accessible
from .test_host_screen import SEATS, SIZES, roll, store_act
from .test_timeline import READABLE

pytestmark = pytest.mark.e2e

# Each board, read in its own language. Read in another, a board names the squares that are game
# terms (GO, the taxes, the utilities...) as the reader's own board prints them (banker/words/names.py),
# in the same places: these five views show those names too.
BOARDS = {"us": "en", "uk": "en", "fr": "fr", "pt": "pt", "ja": "ja"}
# Two rounds of purchases, in seat order (each lands on its deed from three squares before it): the
# deeds with the longest names on some board, in every row and column, and two whole groups (the
# browns at the foot, the dark blues up the right side) for houses.
PURCHASES = [37, 1, 9, 5, 14, 24, 12, 32,
             39, 3, 34, 25, 18, 23, 29, 16]
HOUSES = {0: (37, 39), 1: (1, 3)}   # seat: the group it builds a house on each lot of
MORTGAGED = (3, 5)                  # seat, deed
# Where the eight tokens stand at the end: most on a long name, owned or not, three on one square.
TOKENS = [1, 9, 34, 34, 34, 23, 15, 26]

# The words of an element's text, each with the number of lines it is on and its box (a JavaScript
# function, put into the measuring scripts). A word is a run of characters that are neither spaces,
# hyphens nor Japanese (kana, kanji and the prolonged sound mark).
WORDS = r"""const box = (e) => {
  const r = e.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
};
const wordsOf = (element) => {
  const words = [];
  const walk = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let text = walk.nextNode(); text; text = walk.nextNode()) {
    for (const m of text.data.matchAll(/[^\s\-\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+/gu)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0);
      words.push({word: m[0], lines: new Set(lines.map((r) => Math.round(r.top))).size, box: box(range)});
    }
  }
  return words;
};"""
# For every tile: its name's box, the words of the name with the lines each is on, and the boxes of
# the owner's badge and the pawns (a mortgaged tile's stripes lie under everything, its name too).
MEASURE = "() => { " + WORDS + r"""
return [...document.querySelectorAll('#board .sq')].map((tile) => {
  const name = tile.querySelector('.sq-name');
  return {square: tile.dataset.square, text: name.textContent, tile: box(tile), box: box(name),
          font: parseFloat(getComputedStyle(name).fontSize),
          scroll: {width: name.scrollWidth, height: name.scrollHeight,
                   client_width: name.clientWidth, client_height: name.clientHeight},
          words: wordsOf(name), covers: [...tile.querySelectorAll('.owner, .pawn')]
            .map((e) => ({what: e.className, box: box(e)}))};
}); }"""
MIN_FONT = 8  # px: the smallest name the laptop shows


def inside(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["top"] >= outer["top"] - slack
            and inner["right"] <= outer["right"] + slack and inner["bottom"] <= outer["bottom"] + slack)


def overlap(a: dict, b: dict) -> bool:
    return (a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5
            and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)


def problems(tile: dict, least: float = MIN_FONT) -> list[str]:
    """What is wrong with one tile's name, as measured by MEASURE, in type of at least `least` px."""
    found = []
    if tile["font"] < least:
        found.append(f"type of {tile['font']}px")
    found += [f"{w['word']!r} on {w['lines']} lines" for w in tile["words"] if w["lines"] > 1]
    box = tile["box"]
    found += [f"{w['word']!r} sticks out of the name's box" for w in tile["words"]
              if w["box"]["left"] < box["left"] - 0.5 or w["box"]["right"] > box["right"] + 0.5]
    # A glyph may reach a pixel past its line box (Japanese at this line height): not clipped.
    scroll = tile["scroll"]
    if scroll["width"] > scroll["client_width"] + 1 or scroll["height"] > scroll["client_height"] + 1:
        found.append(f"clipped ({scroll})")
    if not inside(tile["box"], tile["tile"]):
        found.append("the name's box outside the tile")
    found += [f"under {c['what']}" for c in tile["covers"] if overlap(c["box"], box)]
    found += [f"{c['what']} outside the tile" for c in tile["covers"] if not inside(c["box"], tile["tile"])]
    return found


def set_up(server, edition: str, banker=None) -> str:
    """A game on `edition` at a table of eight, two rounds of purchases in, houses on two groups, a
    deed mortgaged and the tokens moved onto the squares of TOKENS; its code. `banker`, a browser's
    key, makes that browser its banker."""
    from banker import store

    with server.app.app_context():
        code = store.create_game(edition, browser=banker and store.Browser(banker, "banker"))[0].code
    ids = [store_act(server, code, None, type="join", name=name, token=token).player for name, token in SEATS]
    store_act(server, code, "banker", type="start", order=ids)
    for n, square in enumerate(PURCHASES):
        player = ids[n % len(ids)]
        store_act(server, code, "banker", type="move", player=player, square=(square - 3) % 40)
        store_act(server, code, player, **roll(1, 2))
        store_act(server, code, player, type="buy")
        store_act(server, code, player, type="end_turn")
    for seat, lots in HOUSES.items():
        for lot in lots:
            store_act(server, code, ids[seat], type="build", square=lot)
    store_act(server, code, ids[MORTGAGED[0]], type="mortgage", square=MORTGAGED[1])
    for player, square in zip(ids, TOKENS, strict=True):
        store_act(server, code, "banker", type="move", player=player, square=square)
    return code


# Puts the tiles of another game's board, read in another language (its host page, as the server
# draws it), into the page as it stands (its screen's layout and type), then lets the page fit its names (static/app.js, fitNames, after a
# resize) and waits for it: one page load per kind of screen measures all twenty boards.
SWAP = """async (html) => {
  const page = new DOMParser().parseFromString(html, 'text/html');
  document.getElementById('board-cells').replaceWith(document.importNode(page.getElementById('board-cells'), true));
  document.documentElement.lang = page.documentElement.lang;
  dispatchEvent(new Event('resize'));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""
LANGUAGES = ("en", "fr", "pt", "ja")


def test_every_tile_of_every_board_shows_its_whole_name_uncovered(contexts, server, artifacts):
    """Every square of the five boards, read in each of the four languages, on the host at a laptop's
    size (its smallest tiles), on the TV at 1080p and 720p, and on the timeline: no name clipped, no word of
    it broken or under a badge or pawn, in type no smaller than each screen's least."""
    from banker import store

    from .test_tv import NAMES

    host = contexts.page("host", viewport=SIZES["laptop"])
    # The host browser is the games' banker, for their timeline (the banker's only): its cookie holds
    # the key the games were created with.
    banker = store.new_token()
    session = server.app.session_interface.get_signing_serializer(server.app).dumps({"browser": banker})
    host.context.add_cookies([{"name": server.app.config["SESSION_COOKIE_NAME"], "value": session,
                               "url": server.url}])
    with ThreadPoolExecutor(max_workers=1) as table:  # the next board's game is played while this one is measured
        codes = {edition: table.submit(set_up, server, edition, banker) for edition in BOARDS}
        codes = {edition: code.result() for edition, code in codes.items()}
    with server.app.app_context():
        tv_key = store.new_view_key(store.find_game(codes["us"]))
    reader = server.app.test_client()
    pages = {(edition, language): reader.get(f"/t/{codes[edition]}?lang={language}").get_data(as_text=True)
             for edition in BOARDS for language in LANGUAGES}
    # Each kind of screen: its page, its sizes, and the least size of type its names may be fitted to
    # at a size (fitNames sets a name no smaller than three quarters of the board's; the TV's type is
    # in the screen's height).
    screens = (("host", f"/t/{codes['us']}", [SIZES["laptop"]], lambda size: MIN_FONT),
               ("timeline", f"/t/{codes['us']}/timeline", [SIZES["laptop"]], lambda size: READABLE * .75),
               ("tv", f"/tv/{codes['us']}/{tv_key}", [SIZES["tv"], {"width": 1280, "height": 720}],
                lambda size: NAMES * .75 * size["height"] / 1080))
    found = []
    for screen, path, viewports, least in screens:
        host.set_viewport_size(SIZES["laptop"])
        host.goto(path)
        expect(host.locator("#board .sq .house")).to_have_count(4, timeout=LIVE)
        for viewport in viewports:
            host.set_viewport_size(viewport)
            for (edition, language), html in pages.items():
                host.evaluate(SWAP, html)
                own = BOARDS[edition]
                view = f"{screen} {edition} board in {language} at {viewport['width']}x{viewport['height']}"
                if language == own:
                    host.locator("#board").screenshot(path=artifacts / f"board-{screen}-{edition}-{viewport['width']}x{viewport['height']}.png")
                for tile in host.evaluate(MEASURE):
                    found += [f"{view}, square {tile['square']} {tile['text']!r}: {p}" for p in problems(tile, least(viewport))]
    assert not found, "\n".join(found)
    check_accessible(host, "the Japanese board on a TV")
