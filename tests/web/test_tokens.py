"""Issue 34, item 3: the tokens as their pieces. Every board (host, TV, timeline) and every list of
players (the host's balances and lobby, the TV's standings and lobby, the phone, the standings at the
end and the story) shows each player's token as its picture, named for screen readers by the token
and, where it stands for a player, by the player; the join form offers each token by its picture
and its name; a mortgaged deed's mark is like no token (no picture, no letter) and is named, and the
TV says what it means. Each page sends the eight drawings once."""

import re
from html.parser import HTMLParser

import pytest

from banker.rules.state import TOKENS

from .games import new_game
from .test_tv import tv, tv_link

EIGHT = [("Ann", "hat"), ("Bob", "car"), ("Cy", "dog"), ("Di", "iron"), ("Ed", "ship"),
         ("Flo", "wheelbarrow"), ("Gus", "thimble"), ("Hal", "cat")]
NAMES = {"hat": "Top hat", "car": "Car", "dog": "Dog", "iron": "Iron", "ship": "Ship",
         "wheelbarrow": "Wheelbarrow", "thimble": "Thimble", "cat": "Cat"}
# The deed each player buys (landing on it from three squares before), and stands on after: every
# token is both a pawn and an owner's badge. Ann mortgages hers.
DEEDS = [1, 3, 5, 6, 8, 9, 11, 12]
MORTGAGED = 1
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Pictures(HTMLParser):
    """The token pictures of a page, each with the classes and ids of the elements it is in; the
    drawings the page carries; and each mortgage mark, with what is inside it."""

    def __init__(self, html: str):
        super().__init__()
        self.open: list[tuple[str, str]] = []  # (tag, "#id .class .class") of each open element
        self.pictures: list[dict] = []
        self.drawings: list[str] = []
        self.marks: list[dict] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        where = " ".join(([f"#{a['id']}"] if a.get("id") else []) + [f".{c}" for c in (a.get("class") or "").split()])
        if tag == "svg" and "token" in (a.get("class") or "").split():
            self.pictures.append({"attrs": a, "in": " ".join(w for _t, w in self.open), "uses": []})
        elif tag == "use" and self.open and self.open[-1][0] == "svg" and self.pictures:
            self.pictures[-1]["uses"].append(a.get("href"))
        elif tag == "symbol":
            self.drawings.append(a.get("id"))
        if "mortgage-mark" in (a.get("class") or "").split():
            self.marks.append({"attrs": a, "in": " ".join(w for _t, w in self.open), "inside": ""})
        if tag not in VOID:
            self.open.append((tag, where))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag):
        if any(t == tag for t, _w in self.open):  # a stray end tag closes nothing
            while self.open.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if any(".mortgage-mark" in w for _t, w in self.open) and self.marks:
            self.marks[-1]["inside"] += data


def named(pictures: list[dict], within: str) -> dict[str, set[str]]:
    """The names of the token pictures inside elements matching `within` (an id or a class as
    Pictures writes them), by token; each picture shows one drawing, its token's."""
    found: dict[str, set[str]] = {}
    for p in pictures:
        if re.search(rf"(^| ){re.escape(within)}( |$)", p["in"]):
            kind = next(c[len("token-"):] for c in p["attrs"]["class"].split() if c.startswith("token-"))
            assert p["uses"] == [f"#piece-{kind}"], p
            if p["attrs"].get("aria-hidden") == "true":
                found.setdefault(kind, set()).add(None)
            else:
                assert p["attrs"].get("role") == "img", p
                found.setdefault(kind, set()).add(p["attrs"]["aria-label"])
    return found


def every_token(label) -> dict[str, set[str]]:
    """What `named` finds when each player's token is there once, named label(name, token name)."""
    return {kind: {label(name, NAMES[kind])} for name, kind in EIGHT}


def read(html: str) -> Pictures:
    """The page's pictures; and it carries each drawing once, and every drawing it uses."""
    page = Pictures(html)
    assert sorted(page.drawings) == sorted(f"piece-{kind}" for kind in TOKENS)
    assert {use for p in page.pictures for use in p["uses"]} <= {f"#{d}" for d in page.drawings}
    return page


@pytest.fixture
def eight(client):
    """A table of eight, one of each token, each on the deed they bought; Ann's mortgaged."""
    game = new_game(client, players=0, start=False)
    ids = [game.join(name, kind) for name, kind in EIGHT]
    game.ok("banker", type="start", order=ids)
    for player, square in zip(ids, DEEDS, strict=True):
        game.ok("banker", type="move", player=player, square=(square - 3) % 40)
        game.ok(player, type="roll", dice=[1, 2])
        game.ok(player, type="buy")
        game.ok(player, type="end_turn")
    game.ok(ids[0], type="mortgage", square=MORTGAGED)
    return game


BOARD_PAWNS = every_token(lambda name, token: f"{name} ({token})")
BOARD_OWNERS = every_token(lambda name, token: f"owned by {name} ({token})")
LISTED = every_token(lambda name, token: token)


def check_board(page: Pictures) -> None:
    """Every token on the board: a pawn named by its player and token, an owner's badge saying whose
    deed it is; and the one mortgage mark, on Ann's deed, is no token."""
    assert named(page.pictures, ".pawn") == BOARD_PAWNS
    assert named(page.pictures, ".owner") == BOARD_OWNERS
    marks = [m for m in page.marks if ".sq" in m["in"].split()]  # (the TV's legend shows one too)
    assert [(re.search(r"#sq-(\d+)", m["in"]).group(1), m["attrs"].get("role"), m["attrs"].get("aria-label"),
             m["inside"].strip()) for m in marks] == [(str(MORTGAGED), "img", "mortgaged", "")]
    assert not [p for p in page.pictures if ".mortgage-mark" in p["in"]]


def test_every_board_and_list_shows_each_token_as_its_named_picture(app, eight, host):
    banker = host(eight)
    page = read(banker.page())
    check_board(page)
    assert named(page.pictures, ".balances") == LISTED
    assert named(page.pictures, ".whose") == {"hat": {"Top hat"}}  # Ann's turn again
    assert named(page.pictures, ".seat-picker") == LISTED  # the banker's "Act for a seat"

    page = read(banker.page(f"/t/{eight.code}/timeline"))
    check_board(page)
    assert named(page.pictures, ".balances") == named(page.pictures, ".past-deeds") == LISTED

    html = tv(app, tv_link(eight)).page()
    page = read(html)
    check_board(page)
    # The standings (cash and net worth side by side) name every token; the legend says what the mark means.
    assert named(page.pictures, ".tv-standings") == LISTED
    assert len([p for p in page.pictures if ".tv-ranking" in p["in"]]) == len(EIGHT)  # one table: cash and worth
    assert '<p class="board-legend"><span class="mortgage-mark"></span> Mortgaged: no rent</p>' in html


def test_a_french_tv_names_the_tokens_in_french(app, eight):
    page = read(tv(app, tv_link(eight) + "?lang=fr").page())
    assert named(page.pictures, ".pawn")["dog"] == {"Cy (Chien)"}
    assert named(page.pictures, ".tv-standings")["thimble"] == {"Dé à coudre"}


def test_the_lobby_lists_each_token_by_its_picture(app, client, host, phone):
    game = new_game(client, players=0, start=False)
    for name, kind in EIGHT:
        game.join(name, kind)
    # The host and the TV write each token's name beside its picture, which is not named again.
    for html in (host(game).page(), tv(app, tv_link(game)).page()):
        assert named(read(html).pictures, ".seats") == {kind: {None} for kind in TOKENS}
        assert all(f"<strong>{name}</strong> · {NAMES[kind]}" in html for name, kind in EIGHT)
    # The phone names them: its own in its heading, everyone's "At the table".
    page = read(phone(game, 1).page())
    assert named(page.pictures, ".topbar") == {"hat": {"Top hat"}}
    assert named(page.pictures, "#turn") == LISTED


def test_the_standings_and_the_story_show_each_token(eight, host, phone):
    eight.ok("banker", type="end_game")
    banker = host(eight)
    for page in (read(banker.page()), read(phone(eight, 2).page()), read(banker.page(f"/t/{eight.code}/story"))):
        assert named(page.pictures, ".standings") == LISTED
    story = read(phone(eight, 2).page(f"/p/{eight.code}/story"))
    assert named(story.pictures, ".own-story") == {"car": {"Car"}}  # "Your story, Bob"


def test_the_join_form_offers_each_token_by_its_picture_and_its_name(client):
    game = new_game(client, players=2, start=False)  # Ann has the hat, Bob the car
    html = client.get(f"/j/{game.code}").get_data(as_text=True)
    page = read(html)
    # The radio is named by the token's name; its picture, beside it, is not named again.
    assert named(page.pictures, ".token-choice") == {kind: {None} for kind in TOKENS}
    for kind in TOKENS:
        label = re.search(rf'<label class="token-choice token-{kind}">(.*?)</label>', html, re.S).group(1)
        assert f'<use href="#piece-{kind}"/></svg>{NAMES[kind]}' in label
        assert ("disabled" in label) == (kind in ("hat", "car"))


def test_pages_without_tokens_carry_no_drawings(client):
    assert "piece-" not in client.get("/").get_data(as_text=True)
