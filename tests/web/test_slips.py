"""The wording slips a French family met (issue 34), and the same kinds looked for in Portuguese and
Japanese, in test_no_english's way: one evening on each language's board, read on every screen it
reaches (host, seat panels, phones, the timeline, the story, the CSV ledger), and each kind of slip
looked for on all of them, its patterns derived from the catalogs where a catalog says them.

- plurals: a count with the wrong form of the language's plural rules (« 0 hôtels »: French
  counts 0 as one; "1 casas");
- elision: a French « de » or « que » left whole before a vowel sound (« Carte de Ann »);
- colons: a French colon without its non-breaking space before it (« Achat: »), a Portuguese one
  with a space, a Japanese one in ASCII;
- minus signs: a negative amount with a hyphen (« a rapporté -60 € ») where the screens use −;
- an undo told so that what it took back reads as standing."""

import csv
import io
import re
from functools import cache
from gettext import c2py

import pytest
from babel.messages.pofile import read_po

from banker.rules.cards import printing_decks
from banker.words.languages import elide

from ..apps import close, make_app, sqlite_database
from .conftest import badged
from .games import BROWN, Browser, new_game, play
from .test_no_english import ReadText

LANGUAGES = ("fr", "pt", "ja")  # each on its own board
NBSP = "\u00a0"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(sqlite_database(tmp_path_factory.mktemp("slips")))
    yield app
    close(app)


def _card(edition: str, deck: str, kind: str) -> str | None:
    return next((c["id"] for c in printing_decks({"ja": "ja_2008"}.get(edition, edition))[deck]
                 if c["effect"]["kind"] == kind), None)


@pytest.fixture(scope="module", params=LANGUAGES)
def evening(request, app) -> tuple[str, dict[str, str]]:
    """(language, {screen: the words a reader meets on it}) for one evening on the language's board:
    Ann builds four houses on her browns and draws a repairs card, pays Bob 500 and takes it back;
    Bob buys a lot and mortgages it (a buy that returned less than nothing); Ann is asked to pay a
    fine or draw a Chance card where the deck has one."""
    language = request.param
    client = app.test_client()
    game = new_game(client, players=3, edition=language)
    play(game, *BROWN, (1, {"type": "set_buildings", "levels": {"1": 2, "3": 2}}),
         (1, {"type": "roll", "dice": [1, 3]}),  # to Chance (7)
         (1, {"type": "draw", "deck": "chance", "card": _card(language, "chance", "repairs")}))
    repairs = game.state()["version"]
    play(game, (1, {"type": "pay", "to": 2, "amount": 500}), (1, {"type": "take_back"}))
    taken_back = game.state()["version"]
    play(game, (1, {"type": "end_turn"}), (2, {"type": "roll", "dice": [2, 4]}), (2, {"type": "buy"}),
         (2, {"type": "mortgage", "square": 6}), (2, {"type": "end_turn"}),
         (3, {"type": "roll", "dice": [6, 4]}), (3, {"type": "end_turn"}),  # Cy just visiting
         ("banker", {"type": "move", "player": 1, "square": 14}), (1, {"type": "roll", "dice": [1, 2]}))  # to 17
    fine = _card(language, "chest", "pay_or_draw")
    if fine:
        play(game, (1, {"type": "draw", "deck": "chest", "card": fine}))
    code = game.code
    host = Browser(badged(app, game, "banker"), code, f"/t/{code}")
    ann, bob = (Browser(badged(app, game, "seat", pid), code, f"/p/{code}") for pid in (1, 2))
    for browser in (host, ann, bob):
        browser.client.set_cookie("lang", language)
    screens = {"host": host.page(), "Ann's seat": host.page(f"/t/{code}/seats/1"),
               "Bob's seat": host.page(f"/t/{code}/seats/2"), "Ann's phone": ann.page(), "Bob's phone": bob.page(),
               "the timeline at the repairs": host.page(f"/t/{code}/timeline?v={repairs}"),
               "the timeline at the take-back": host.page(f"/t/{code}/timeline?v={taken_back}"),
               "the story": host.page(f"/t/{code}/story")}
    read = {name: words(html) for name, html in screens.items()}
    ledger = host.client.get(f"/t/{code}/ledger.csv").get_data(as_text=True)
    read["the CSV ledger"] = " | ".join(" | ".join(row) for row in csv.reader(io.StringIO(ledger.lstrip("\ufeff"))))
    return language, read


def words(html: str) -> str:
    """A page's words as a reader meets them: its text as the HTML spaces it (a colon after a
    <strong> name stays where it is), white space run together, but no-break spaces kept."""
    reader = ReadText()
    reader.feed(html)
    return re.sub(r"[ \t\r\n]+", " ", "".join(reader.parts))


def slips(evening, pattern: re.Pattern) -> list[str]:
    """Each screen's slips: the text around every match of `pattern`."""
    _, read = evening
    return [f"{screen}: …{text[max(m.start() - 30, 0):m.end() + 30]}…" for screen, text in read.items()
            for m in pattern.finditer(text)]


@cache
def catalog(language: str):
    with open(f"banker/translations/{language}/LC_MESSAGES/messages.po", "rb") as f:
        return read_po(f)


def plural_index(language: str, n: int) -> int:
    """The form a count takes, by the catalog's own Plural-Forms (gettext reads it so too)."""
    return c2py(catalog(language).plural_expr)(n)


@cache
def wrong_plurals(language: str) -> tuple[str, ...]:
    """Counts from 0 to 2 written in a form the language's plural rules do not give them, for each
    plural message of the catalog that starts with its count: "0 hôtels", "1 casas"."""
    wrong = set()
    for message in catalog(language):
        if not isinstance(message.id, tuple):
            continue
        for n in (0, 1, 2):
            heads = [re.match(r"%\(num\)[sd] \w+", form) for form in message.string]
            right = heads[plural_index(language, n)]
            for head in heads:
                if head and right and head.group(0) != right.group(0):
                    wrong.add(re.sub(r"%\(num\)[sd]", str(n), head.group(0)))
    return tuple(sorted(wrong))


def test_the_plural_rules_are_each_languages():
    """French counts 0 as one (« 0 hôtel »), Portugal counts 0 as many (« 0 casas »), Japanese has
    one form; and the check finds the slips it is for."""
    assert [plural_index("fr", n) for n in (0, 1, 2)] == [0, 0, 2]
    assert [plural_index("pt", n) for n in (0, 1, 2)] == [2, 0, 2]
    assert "0 hôtels" in wrong_plurals("fr") and "1 hôtels" in wrong_plurals("fr") and "2 hôtel" in wrong_plurals("fr")
    assert "1 casas" in wrong_plurals("pt") and "0 casa" in wrong_plurals("pt")
    assert wrong_plurals("ja") == ()


def test_no_count_takes_a_plural_form_its_language_does_not_give_it(evening):
    language, _ = evening
    pattern = re.compile("|".join(rf"(?<![\w]){re.escape(w)}(?![\w])" for w in wrong_plurals(language)) or "(?!)")
    assert not slips(evening, pattern)
    repairs = {"fr": "(4 maisons, 0 hôtel)", "pt": "(4 casas, 0 hotéis)", "ja": "（家4軒、ホテル0軒）"}[language]
    assert repairs in evening[1]["the timeline at the repairs"]


@pytest.mark.parametrize("evening", ["fr"], indirect=True)  # Portuguese and Japanese do not elide
def test_french_elides_de_and_que_before_a_vowel_sound(evening):
    _, read = evening
    assert not slips(evening, re.compile(r"(?<![\w'’])(?:[Dd]e|[Qq]ue) (?=[AEIOUHÀÂÉÈÊÎÔÛŒaeiouhàâéèêîôûœ]|Y[^aeiouy])"))
    assert "Titres d'Ann" in read["Ann's seat"] and "Carte d'Ann" in read["Ann's seat"]


@pytest.mark.parametrize(("text", "values", "said"), [
    ("Carte de %(name)s", {"name": "Hugo"}, "Carte d'Hugo"),            # a mute h
    ("Carte de %(name)s", {"name": "Léa"}, "Carte de Léa"),
    ("Titres de %(name)s", {"name": "Ève"}, "Titres d'Ève"),
    ("Carte de %(name)s", {"name": "Yann"}, "Carte de Yann"),           # a y before a vowel is a consonant
    ("Carte de %(name)s", {"name": "Yves"}, "Carte d'Yves"),
    ("Ce que {debtor} devait", {"debtor": "Ann"}, "Ce qu'Ann devait"),  # str.format's placeholders too
    ("De %(name)s", {"name": "Olga"}, "D'Olga"),
    ("Il faut %(num)s maisons de plus", {"num": 8}, "Il faut 8 maisons de plus"),
    ("Vendre de %(what)s", {"what": "<strong>Ann</strong>"}, "Vendre d'<strong>Ann</strong>"),  # a name in markup
])
def test_french_de_and_que_elide_before_the_value_filled_in(text, values, said):
    filled = elide(text, values)
    assert (filled.format(**values) if "{" in text else filled % values) == said


# A colon as each language writes it: French after a non-breaking space, Portuguese with none,
# Japanese in full width. (A time, 20:17, is no colon of a sentence.)
COLON_SLIPS = {"fr": re.compile(r"(?<![\u00a0\u202f\d]):|(?<=\d):(?!\d)"), "pt": re.compile(r"\s:"),
               "ja": re.compile(r"[^\x00-\x7f]:|:[^\x00-\x7f]")}


def test_colons_are_spaced_as_the_language_spaces_them(evening):
    language, read = evening
    assert not slips(evening, COLON_SLIPS[language])
    ledger = {"fr": f"Achat{NBSP}: ", "pt": "Compra: ", "ja": "購入："}[language]
    assert ledger in read["the CSV ledger"]


def test_a_negative_amount_has_a_minus_sign_not_a_hyphen(evening):
    assert not slips(evening, re.compile(r"(?<![\w-])-\s?[\d$€£]"))
    assert re.search(r"−\u2060?(?:\d|[$€£])", evening[1]["the story"])  # Bob's mortgaged buy returned less than nothing


def test_an_undo_says_that_what_it_took_back_no_longer_counts(evening):
    language, read = evening
    said = {"fr": "Ann a annulé son action, qui ne compte plus", "pt": "Ann anulou a sua jogada, que deixa de contar",
            "ja": "Annが自分の操作を取り消しました（無効）"}[language]
    assert said in read["the timeline at the take-back"]
