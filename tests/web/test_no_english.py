"""No English left on a translated screen: every screen in every state the scenarios reach, read
in French, Portuguese or Japanese on that language's board, shows no English phrase of the
catalog whose translation differs from it.

English left on a screen is a string that skipped the catalog, and that is the same in every
language; whether each language translates every string of the catalog is tests/test_catalogs.py's
to say. So each scenario is read in one of the three languages, in turn, and the pages before and
outside the game in all three."""

import re
from functools import cache
from html.parser import HTMLParser

import pytest
from babel.messages.pofile import read_po

from banker.rules.actions import UNDO
from banker.rules.declaration import ACTIONS
from banker.rules.board import load_board
from banker.rules.cards import printing_decks
from banker.web.pages.api import API_ONLY

from .games import SCENARIOS, new_game, on_board, page_forms, play, rejoin_address

LANGUAGES = {"fr": "fr", "pt": "pt", "ja": "ja"}  # language: the edition its table plays
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}|%%")
# Attributes a reader sees or hears: tooltips, names for screen readers, placeholders, and the
# confirmations app.js shows from data-* attributes.
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


@cache
def english_phrases(language: str) -> tuple[tuple[str, re.Pattern], ...]:
    """The catalog's English that must not show: each msgid translated differently, cut at its
    placeholders into the pieces that are whole phrases (two words or more), or the msgid itself
    when it is one word of five letters or more that the language does not use too (French has
    "place", its board "Place Pigalle")."""
    with open(f"banker/translations/{language}/LC_MESSAGES/messages.po", "rb") as f:
        catalog = read_po(f)
    board = load_board(LANGUAGES[language])
    native = " ".join([*(" ".join(m.string) if isinstance(m.string, tuple) else m.string for m in catalog),
                       *(f"{s.name} {s.short}" for s in board.squares)])
    native_words = {word.lower() for word in re.findall(r"\w+", native)}
    phrases = set()
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in english:
            if text in forms:
                continue
            for piece in PLACEHOLDER.split(text):
                piece = piece.strip(" .,:;!?()+−-–—·“”\"'")
                words = re.findall(r"[A-Za-z]+", piece)
                one_word = piece == text and len(words) == 1 and len(piece) >= 5 and piece.lower() not in native_words
                if len(words) >= 2 and len(piece) >= 8 or one_word:
                    phrases.add(piece)
    # Each with the phrase itself: most phrases are not on a page at all, and a plain substring test
    # says so far faster than the pattern (which then checks the phrase stands alone).
    return tuple((p, re.compile(rf"(?<![\w]){re.escape(p)}(?![\w])")) for p in sorted(phrases))


class ReadText(HTMLParser):
    """The words a reader meets on a page: text outside scripts and styles, and read attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (name.startswith("data-") and " " in value
                                                      and not value.lstrip().startswith(("{", "[")))):
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def english_on(html: str, language: str, printed: tuple[str, ...] = ()) -> list[str]:
    """The catalog's English phrases on the page, but in the `printed` words of the game's cards (a
    box's own text, such as the French « ... tirez une carte Chance », is not the app's to translate)."""
    reader = ReadText()
    reader.feed(html)
    text = " ".join(" ".join(reader.parts).split())
    for words in printed:
        text = text.replace(words.rstrip("."), " ")
    return [phrase for phrase, alone in english_phrases(language) if phrase in text and alone.search(text)]


def read(client, path: str, language: str) -> str:
    client.set_cookie("lang", language)
    response = client.get(path)
    assert response.status_code == (404 if "no-such" in path or "ZZZZZ" in path else 200), (path, response.status_code)
    return response.get_data(as_text=True)


def assert_translated(client, paths, language, printed: tuple[str, ...] = ()) -> list[str]:
    """Each page has no English left in `language`: the pages, read."""
    pages = []
    for path in paths:
        pages.append(read(client, path, language))
        left = english_on(pages[-1], language, printed)
        assert not left, f"{path} in {language}: {left[:8]}"
    return pages


@pytest.mark.parametrize("language", LANGUAGES)
def test_home_join_lobby_and_error_pages(client, host, phone, language):
    game = new_game(client, start=False, edition=LANGUAGES[language])
    assert_translated(client, ["/", f"/j/{game.code}", "/no-such-page", "/join?code=ZZZZZ"], language)
    banker = host(game)
    assert_translated(banker.client, [f"/t/{game.code}", f"/t/{game.code}/seats/1"], language)
    assert_translated(phone(game, 1).client, [f"/p/{game.code}"], language)
    assert_translated(client, [rejoin_address(banker, 1)], language)


@pytest.mark.parametrize(("name", "language"), [(name, list(LANGUAGES)[n % len(LANGUAGES)])
                                                for n, name in enumerate(SCENARIOS)])
def test_every_screen_before_and_after_each_action(client, host, phone, name, language):
    """Each scenario's situation (where its action is legal) and what follows the action, on the
    host screen, the seat panel, the trade composers and both phones."""
    scenario = SCENARIOS[name]
    rules, steps, action = on_board(LANGUAGES[language], scenario)  # the board's own cards
    game = new_game(client, players=scenario.players, start=not scenario.lobby, rules=rules,
                    edition=LANGUAGES[language])
    play(game, *steps)
    cards = game.state()["rules"]["cards"]  # the US cards are the app's to translate; the others are printed
    printed = () if cards.startswith("us") else tuple(c["text"] for deck in printing_decks(cards).values() for c in deck)
    banker, ann, bob = host(game), phone(game, 1), phone(game, 2)
    code = game.code
    screens = [(banker.client, [f"/t/{code}", f"/t/{code}/seats/1", f"/t/{code}/seats/2"]),
               (ann.client, [f"/p/{code}"]), (bob.client, [f"/p/{code}"])]
    state = game.state()
    if state["status"] == "playing" and not any(p["bankrupt"] for p in state["players"][:2]):
        screens += [(banker.client, [f"/t/{code}/seats/1/trade/2"]), (ann.client, [f"/p/{code}/trade/2"])]
    pages = [page for browser, paths in screens for page in assert_translated(browser, paths, language, printed)]
    game.ok("banker", **action)
    for browser, paths in screens[:3]:
        pages += assert_translated(browser, paths, language, printed)
    # A screen offers the action (here or, as "sell every building", once there is something to sell),
    # unless the API alone does.
    assert action["type"] in API_ONLY or any(offers(page, action["type"]) for page in pages), action["type"]


def offers(page: str, kind: str) -> bool:
    """Whether a form of the page takes the action `kind`: by its hidden type, or by the button
    that sends it (the bank's tools: one amount, "Bank pays" or "Bank charges")."""
    return bool(page_forms(page, kind)) or f'name="type" value="{kind}"' in page


def test_every_action_is_offered_by_a_screen_or_marked_api_only():
    """Each action has a situation above, whose screens must offer it (joining is the join page's,
    tests/web/test_join.py); an action no screen offers is named in web.api.API_ONLY."""
    assert {*ACTIONS, UNDO} - API_ONLY - {"join"} == {s.action["type"] for s in SCENARIOS.values()} - API_ONLY


def test_the_check_finds_english_when_there_is_some(client, phone):
    """The same check on an English page finds the catalog's phrases (it can fail)."""
    game = new_game(client)
    html = read(phone(game, 1).client, f"/p/{game.code}", "en")
    assert len(english_on(html, "fr")) > 5
