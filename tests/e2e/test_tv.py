"""Issue 23, item 4: the TV screen at 1920×1080, read from a sofa: the join QR in the lobby, then the
board, the standings with cash and net worth side by side and the latest events, all pushed live with no
request of the TV's own; nothing scrolls, nothing is cut, the board's names are large enough for the
far side of a room (at 1280×720 too, smaller), and axe finds nothing. Beside an auction and eight
players the newest event still shows whole (never its title alone); tokens on one square all show;
houses are counted in large type. A new link, short enough to type on a TV's remote, stops the old
one; the first asks nothing, and its page has "Back to the table" in view on a 1366×768 laptop."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, LIVE, PHONE, check_accessible, join, roll

pytestmark = pytest.mark.e2e

TV = {"viewport": {"width": 1920, "height": 1080}}
NAMES = 22  # px: the least size of a square's name at 1080p, read from three metres

# Every element of the page that is partly on the screen and partly off it: past the window, or past
# a box that clips it (the latest events, which must show whole lines or none). Something wholly
# clipped away (an event that did not fit) is not shown, and not counted; nor is anything hidden.
# An element in pieces (the list of events, in columns of which the first alone shows) is measured
# piece by piece.
CUT = """() => [...document.querySelectorAll('main *')].flatMap((e) => {
  if (!e.checkVisibility({visibilityProperty: true})) return [];
  let [top, left, bottom, right] = [0, 0, innerHeight, innerWidth];
  for (let a = e.parentElement; a; a = a.parentElement) {
    if (getComputedStyle(a).overflow === 'visible') continue;
    const b = a.getBoundingClientRect();
    [top, left, bottom, right] = [Math.max(top, b.top), Math.max(left, b.left), Math.min(bottom, b.bottom), Math.min(right, b.right)];
  }
  return [...e.getClientRects()].filter((r) => r.width && r.height).flatMap((r) => {
    const seen = r.top < bottom && r.bottom > top && r.left < right && r.right > left;
    const whole = r.top >= top - .5 && r.left >= left - .5 && r.bottom <= bottom + .5 && r.right <= right + .5;
    return seen && !whole ? [`${e.tagName}#${e.id}.${e.className}: ${e.textContent.trim().slice(0, 40)}`] : [];
  });
})"""
# The standings' names that take more than one line (the play-test's TV broke "Mamie" under her token).
NAMES_WRAPPED = """() => [...document.querySelectorAll('.tv-ranking tbody th.name')].filter((th) => {
  const s = getComputedStyle(th);
  return th.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom) > 1.5 * parseFloat(s.lineHeight);
}).map((th) => th.textContent.trim())"""
# The board's names whose words or lines do not fit their tile (the tile clips them).
NAMES_CUT = """() => [...document.querySelectorAll('#board .sq-name')]
  .filter((n) => n.scrollWidth > n.clientWidth + .5 || n.scrollHeight > n.clientHeight + .5).map((n) => n.textContent)"""


def font_size(locator) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def fits(tv, what: str) -> None:
    """Nothing scrolls, and nothing on the screen is cut: not a line of the latest events, nor a
    square's name."""
    assert tv.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight "
                       "&& document.scrollingElement.scrollWidth <= innerWidth"), what
    assert tv.evaluate(CUT) == [], what
    assert tv.evaluate(NAMES_CUT) == [], what


def tv_link(host, *, earlier: bool) -> str:
    """The banker taps "Show on a TV" on the host screen and reads the link off its page. The button
    asks first when an `earlier` link would stop, and only then."""
    host.goto(re.sub(r"/tv/.*", "", host.url))
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept()

    host.on("dialog", answer)
    host.get_by_role("button", name="Show on a TV").click()
    expect(host.locator('[data-qr="tv"]')).to_be_visible()
    host.remove_listener("dialog", answer)
    assert asked == (["Make a new TV link? A TV showing an earlier link stops showing the game."] if earlier else [])
    return host.locator("main .url").inner_text()


def test_the_tv_shows_the_game_across_the_room(contexts, server, artifacts):
    host = contexts.page("host", **DESKTOP)
    host.goto("/")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    join_url = host.locator(".join-panel .url").inner_text()

    # The lobby: the TV shows the join QR, and each player as they join.
    tv = contexts.page("tv", **TV)
    asked = []
    tv.on("request", lambda request: asked.append(request.url))
    link = tv_link(host, earlier=False)  # the game's first link: it stops nothing, so nothing is asked
    # Back to the table, on a laptop's 1366×768 screen, without scrolling.
    host.set_viewport_size({"width": 1366, "height": 768})
    back = host.get_by_role("link", name="Back to the table").bounding_box()
    assert back["y"] >= 0 and back["y"] + back["height"] <= 768, back
    host.screenshot(path=artifacts / "tv-link-1366x768.png")
    host.set_viewport_size(DESKTOP["viewport"])
    # Short enough to type on a remote: the view key is 8 characters without look-alikes, shown to
    # the banker in large type.
    assert re.search(r"/tv/[A-Z0-9]{5}/[A-HJ-NP-Z2-9]{8}\?lang=en$", link), link
    assert font_size(host.locator("main .url")) >= 28
    host.screenshot(path=artifacts / "tv-link.png")
    tv.goto(link)
    expect(tv.locator('#tv-lobby [data-qr="join"] svg')).to_be_visible()
    ann, bob = contexts.page("Ann", **PHONE), contexts.page("Bob", **PHONE)
    join(ann, join_url, "Ann", "Car")
    join(bob, join_url, "Bob", "Dog")
    code = re.search(r"/j/([A-Z0-9]+)", join_url).group(1)
    # A third seat with a longer name, as a family's (through the API: no phone of its own).
    added = server.app.test_client().post(f"/api/games/{code}/players", json={"name": "Mamie", "token": "cat"})
    assert added.status_code == 201
    added.close()  # the change is published once its answer is sent (closed)
    expect(tv.locator("#tv-lobby .seats li")).to_have_count(3, timeout=LIVE)
    fits(tv, "the TV in the lobby")
    check_accessible(tv, "the TV in the lobby")
    tv.screenshot(path=artifacts / "tv-lobby.png")

    # In play: the board, whose turn, the standings and the latest events, pushed as they change.
    host.goto(re.sub(r"/tv/.*", "", host.url))
    host.get_by_role("button", name="Start in this order").click()
    expect(tv.locator("#turn .whose")).to_contain_text("Ann's turn", timeout=LIVE)
    expect(tv.locator("#tv-lobby")).to_be_hidden()
    expect(ann.locator("#turn h2")).to_have_text("Your turn", timeout=LIVE)
    roll(ann, 1, 2)
    ann.locator("#turn").get_by_role("button", name="Buy for $60").tap()
    expect(tv.locator('#board [data-square="3"] .owner')).to_have_attribute("title", "owned by Ann", timeout=LIVE)
    expect(tv.locator("#tv-news li").first).to_have_text("Ann bought Baltic Avenue for $60.")
    # Cash and net worth side by side, each under a heading as large as a name, in its own colour, its
    # sums in the same colour (a TV that swapped them on one table was read as one sum, then another);
    # ranked by net worth, Ann's deed counted; a line says what net worth counts.
    standings = tv.locator('[data-ranking="worth"]')
    expect(standings.locator("thead th")).to_have_text(["Cash", "Net worth"])
    expect(standings.locator('tr[data-player="1"] .cash')).to_have_text("$1,440")
    expect(standings.locator('tr[data-player="1"] .worth')).to_have_text("$1,500")
    colours = standings.evaluate("""(t) => ['thead .cash', 'thead .worth', 'tbody .cash', 'tbody .worth']
      .map((s) => { const c = getComputedStyle(t.querySelector(s)); return [c.color, c.backgroundColor]; })""")
    assert colours[0][1] == colours[2][0] and colours[1][1] == colours[3][0] and colours[0][1] != colours[1][1]
    assert font_size(standings.locator("tbody .cash").first) >= 28
    expect(tv.locator(".worth-note")).to_contain_text("Net worth: cash, deeds at their printed price")
    # Readable from a sofa: the newest event and whose turn in large type; the board's names, and
    # its owners' badges, large enough for the far side of the room.
    assert font_size(tv.locator("#tv-news li").first) >= 36
    assert font_size(tv.locator("#turn .whose")) >= 48
    assert min(font_size(name) for name in tv.locator("#board .sq-name").all()) >= NAMES
    badge = tv.locator('#board [data-square="3"] .owner').bounding_box()
    assert min(badge["width"], badge["height"]) >= 30
    fits(tv, "the TV in play")
    assert tv.evaluate(NAMES_WRAPPED) == []
    assert [url for url in asked if "/live" not in url and url != tv.url and "/static/" not in url] == []
    assert len([url for url in asked if "/live" in url]) == 1  # one connection, kept open: no polling
    check_accessible(tv, "the TV in play")
    tv.screenshot(path=artifacts / "tv-playing.png")

    # An auction: its lot, the high bid and the countdown, large.
    from banker import store
    from banker.rules import Actor

    with server.app.app_context():
        for player, action in ((1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [2, 4]}),
                               (2, {"type": "decline"}), (1, {"type": "bid", "amount": 120})):
            store.act(code, action, actor=Actor(player=player))
    auction = tv.locator("#turn .auction")
    expect(auction.locator(".high-bid")).to_have_text("High bid $120 by Ann", timeout=LIVE)
    expect(auction.locator(".lot-for-sale")).to_contain_text("Oriental Avenue")
    expect(auction.locator(".countdown time")).to_be_visible()
    assert auction.locator("button, form").count() == 0
    expect(tv.locator("#tv-news li")).to_have_count(5)  # new events came one by one; five are kept
    expect(tv.locator("#tv-news li").first).to_have_text("Ann bids $120.")
    # Nothing cut: the events that fit are shown whole, the last one inside the screen, the others
    # not at all.
    tv.screenshot(path=artifacts / "tv-auction.png")
    fits(tv, "the TV during an auction")
    last = tv.evaluate("""() => [...document.querySelectorAll('#tv-news li')].map((li) => li.getBoundingClientRect())
      .filter((r) => r.right <= innerWidth).at(-1).bottom""")
    assert last <= 1080
    check_accessible(tv, "the TV during an auction")
    # A smaller TV (720p): the same screen, smaller, still whole.
    tv.set_viewport_size({"width": 1280, "height": 720})
    fits(tv, "the TV at 1280×720")
    assert tv.evaluate(NAMES_WRAPPED) == []
    tv.screenshot(path=artifacts / "tv-auction-720p.png")
    tv.set_viewport_size(TV["viewport"])

    # A new link: the TV on the old one says so.
    tv_link(host, earlier=True)
    expect(tv.get_by_role("heading", name="This TV link no longer works")).to_be_visible(timeout=LIVE)
    assert not contexts.errors and not contexts.blocked


def test_eight_players_and_an_auction_still_fit(contexts, server, artifacts):
    """The fullest the side of the screen gets: eight players' standings under a bankrupt's deed
    auctioned (its seven bidders named), beside a board with houses, pawns and owners. The newest
    event, the longest there is (the bankruptcy), still shows whole beside the auction; houses are
    counted in large type; tokens on one square all show, side by side. Set up through the API in
    process; the TV is the only browser."""
    client = server.app.test_client()
    made = client.post("/api/games", json={}).get_json()
    code, banker = made["code"], {"Authorization": f"Bearer {made['banker_token']}"}
    names = ("Anna", "Bob", "Chloé", "Dmitri", "Eleonora", "Fabrice", "Gwendolyn", "Hiroshi")
    tokens = ("car", "dog", "hat", "ship", "cat", "iron", "thimble", "wheelbarrow")
    seats = [client.post(f"/api/games/{code}/players", json={"name": name, "token": token}).get_json()["player_token"]
             for name, token in zip(names, tokens)]

    def act(who, **action):
        token = made["banker_token"] if who == "banker" else seats[who - 1]
        answer = client.post(f"/api/games/{code}/actions", json=action, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.get_json()

    act("banker", type="start", order=list(range(1, 9)))
    act("banker", type="move", player=1, square=39)
    act(1, type="roll", dice=[1, 1]), act(1, type="buy"), act(1, type="roll", dice=[1, 1]), act(1, type="buy")
    act(1, type="set_buildings", levels={"1": 4, "3": 4})  # Mediterranean and Baltic Avenues, 4 houses each
    act(1, type="roll", dice=[2, 4]), act(1, type="buy")  # Connecticut Avenue, where Anna stays
    act(1, type="mortgage", square=9), act(1, type="end_turn")
    act(2, type="roll", dice=[2, 3]), act(2, type="buy"), act(2, type="end_turn")  # Bob buys Reading Railroad
    # Two tokens on Baltic Avenue (Anna's, four houses), put there by the banker.
    act("banker", type="move", player=3, square=3), act("banker", type="move", player=4, square=3)
    # Bob owes the bank more than he has: bankrupt, his railroad is auctioned to the seven others.
    act(2, type="pay", to="bank", amount=2000), act(2, type="bankrupt")
    url = client.post(f"/api/games/{code}/tv", headers=banker).get_json()["url"]

    tv = contexts.page("tv", **TV)
    tv.goto(re.sub(r"^https?://[^/]+", "", url))
    expect(tv.locator("#turn .auction .lot-for-sale")).to_contain_text("Reading Railroad")
    expect(tv.locator('[data-ranking="worth"] tbody tr')).to_have_count(8)
    assert min(font_size(name) for name in tv.locator("#board .sq-name").all()) >= NAMES
    fits(tv, "eight players and a bankrupt's auction")
    tv.screenshot(path=artifacts / "tv-eight-players.png")
    bankrupt = ("Bob is bankrupt; everything goes to the bank. Bob's last $1,300 goes to the bank. "
                "Reading Railroad is up for auction.")
    assert newest_shown(tv) == bankrupt
    # Each token is its picture, drawn (its piece found in the page), named by its player and token.
    assert tokens_shown(tv) == {
        "3": ["Chloé (Top hat)", "Dmitri (Ship)"], "9": ["Anna (Car)"],
        "0": ["Eleonora (Cat)", "Fabrice (Iron)", "Gwendolyn (Thimble)", "Hiroshi (Wheelbarrow)"]}
    assert tv.evaluate(UNDRAWN) == []
    # Anna's mortgaged deed is striped under her pawn, which shows over the stripes; the legend,
    # under the bank's supply, says what they mean.
    mortgaged = tv.locator('#board [data-square="9"]')
    expect(mortgaged.locator('.mortgage-mark[role="img"][aria-label="mortgaged"]')).to_be_visible()
    assert mortgaged.locator(".pawn").evaluate(SHOWN) and mortgaged.locator(".owner").evaluate(SHOWN)
    expect(tv.locator("#board .board-legend")).to_have_text("Mortgaged: no rent")
    expect(tv.locator("#board .board-legend .mortgage-mark")).to_be_visible()
    built = tv.locator('#board [data-square="3"] .built')
    expect(built).to_have_text("4")
    assert font_size(built) >= NAMES * .8
    check_accessible(tv, "eight players and a bankrupt's auction")
    # Were the newest event ever too long for the room left (here made three times larger), the
    # title would go with it: never a title over nothing.
    tv.evaluate("() => { document.querySelector('#tv-news li').style.fontSize = '8vh'; }")
    fits(tv, "a newest event too long for the room left")
    assert newest_shown(tv) is None and not title_shown(tv)
    tv.evaluate("() => { document.querySelector('#tv-news li').style.fontSize = ''; }")
    tv.set_viewport_size({"width": 1280, "height": 720})
    fits(tv, "eight players and a bankrupt's auction at 1280×720")
    tv.screenshot(path=artifacts / "tv-eight-players-720p.png")
    assert newest_shown(tv) == bankrupt
    tv.set_viewport_size(TV["viewport"])
    # A bid, pushed live: the countdown and the high bid too.
    from banker import store
    from banker.rules import Actor

    with server.app.app_context():
        store.act(code, {"type": "bid", "amount": 120}, actor=Actor(player=3))
    expect(tv.locator("#turn .auction .high-bid")).to_have_text("High bid $120 by Chloé", timeout=LIVE)
    fits(tv, "eight players and an auction")
    assert newest_shown(tv) == "Chloé bids $120."
    tv.screenshot(path=artifacts / "tv-eight-players-bid.png")
    tv.set_viewport_size({"width": 1280, "height": 720})
    fits(tv, "eight players and an auction at 1280×720")
    assert newest_shown(tv) == "Chloé bids $120."
    assert not contexts.errors and not contexts.blocked


def newest_shown(tv) -> str | None:
    """The newest of the latest events if it is on the screen, whole (fits checks that nothing is
    cut: here, that it is not wholly clipped away either), under its heading."""
    title, newest = tv.locator("#tv-news-title").bounding_box(), tv.locator("#tv-news li").first
    box, side = newest.bounding_box(), tv.locator(".tv-side").bounding_box()
    inside = (box["y"] >= title["y"] + title["height"] and box["y"] + box["height"] <= side["y"] + side["height"]
              and box["x"] >= side["x"] and box["x"] + box["width"] <= side["x"] + side["width"])
    return newest.inner_text() if inside else None


def title_shown(tv) -> bool:
    """Whether the title of the latest events is on the screen (not in a column clipped away)."""
    title, news = tv.locator("#tv-news-title").bounding_box(), tv.locator("#tv-news").bounding_box()
    return title["x"] + title["width"] <= news["x"] + news["width"]


# Each square's pawns that show whole, inside their square and over no other, by their pictures' names.
PAWNS = """() => Object.fromEntries([...document.querySelectorAll('#board .sq:has(.pawn)')].map((sq) => {
  const s = sq.getBoundingClientRect(), pawns = [...sq.querySelectorAll('.pawn')];
  const boxes = pawns.map((p) => p.getBoundingClientRect());
  const apart = (a, b) => a.right <= b.left + .5 || b.right <= a.left + .5 || a.bottom <= b.top + .5 || b.bottom <= a.top + .5;
  return [sq.dataset.square, pawns.filter((p, i) => {
    const r = boxes[i];
    return r.width > 0 && r.left >= s.left && r.right <= s.right && r.top >= s.top && r.bottom <= s.bottom
      && boxes.every((o, j) => j === i || apart(r, o));
  }).map((p) => p.querySelector('svg.token').getAttribute('aria-label'))];
}))"""
# The token pictures on the screen whose piece is not drawn (its drawing missing from the page).
UNDRAWN = """() => [...document.querySelectorAll('svg.token')].filter((svg) => svg.checkVisibility())
  .map((svg) => svg.querySelector('use')).filter((use) => !use.getBBox().width)
  .map((use) => use.getAttribute('href'))"""
# Whether an element is what a tap at its middle reaches: drawn over anything else there.
SHOWN = """(e) => { const r = e.getBoundingClientRect();
  return e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"""


def tokens_shown(tv) -> dict:
    return tv.evaluate(PAWNS)
