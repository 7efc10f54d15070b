"""Languages and editions in a real browser: a short game in French on the Paris board, a shorter
one in Japanese on the Japanese board, and a table where one phone reads Japanese while the host
stays French.

Each device picks its language one of three ways, all used here: a `?lang=` link, the language
switch (nav.languages, remembered in a cookie for that device only) and the browser's
Accept-Language. The words expected on screen are read from the compiled catalogs
(banker/translations/<lang>/LC_MESSAGES/messages.mo) and the square names from the edition files
(banker/rules/editions/<edition>.json), so a translator's rewording keeps the tests true; what
must not move is the money format (1 440 € with a narrow no-break space and a no-break space
before the euro sign; $1,440 in Japanese) and the html lang attribute. The French host and the
Japanese phone are checked with axe-core; every screen is left in test-artifacts/ as lang-*.png."""

import json
import re
from functools import cache
from pathlib import Path

import pytest
from babel.support import Translations
from playwright.sync_api import Page, expect

from banker.rules.board import EDITION_LABELS
from banker.rules.cards import printing_decks
from banker.words.languages import elide

from .conftest import DESKTOP, LIVE, NARROW, PHONE, axe_violations, check_phone_layout

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "banker" / "translations"
EDITIONS = ROOT / "banker" / "rules" / "editions"
START_CASH = 1500
GO, BROWN_1, BROWN_2, CHANCE, LAST = 0, 1, 3, 7, 39   # on the US board: GO, Mediterranean, Baltic, Chance, Boardwalk
PRICE, RENT = 60, 4                                 # the second brown lot's price and bare rent
NNBSP, NBSP = "\u202f", "\u00a0"


class Catalog:
    """The compiled catalog of one language: `t(msgid, **values)` is what its screens show for an
    English msgid (python-format placeholders); `t.brace(...)` for the ledger's {name} sentences."""

    def __init__(self, language: str):
        self.language = language
        mo = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"
        if not mo.exists():
            pytest.fail(f"{mo} is missing: run `pybabel compile -d banker/translations`", pytrace=False)
        with mo.open("rb") as compiled:
            self._catalog = Translations(compiled)

    def __call__(self, msgid: str, **values) -> str:
        text = self._filled(msgid, values)
        return text % values if values else text

    def brace(self, msgid: str, **values) -> str:
        return self._filled(msgid, values).format(**values)

    def _filled(self, msgid: str, values: dict) -> str:
        """The translation as the app fills it: French elides « de » before a vowel (« propriété d'Ann »)."""
        text = self._catalog.gettext(msgid)
        return elide(text, values) if self.language == "fr" else text

    def translated(self, msgid: str, **values) -> str:
        """Words the test relies on to tell the language apart: they must differ from the English."""
        assert self._catalog.gettext(msgid) != msgid, f"{self.language}: {msgid!r} is not translated in the catalog"
        return self(msgid, **values)


@cache
def squares(edition: str) -> list[dict]:
    """An edition's forty squares as its file names them (name and short name)."""
    return json.loads((EDITIONS / f"{edition}.json").read_text(encoding="utf-8"))["squares"]


def euros(amount: int) -> str:
    """Money as a French reader sees it: 60 €, 1 440 € (U+202F between groups, U+00A0 before €)."""
    return f"{amount:,}".replace(",", NNBSP) + NBSP + "€"


def dollars(amount: int) -> str:
    """Money as a Japanese reader sees it on the Japanese board: $60, $1,440."""
    return f"${amount:,}"


def html_lang(page: Page, tag: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", tag)


def switch_language(page: Page, code: str) -> None:
    """Tap a language in the page's switch; the page comes back in it, marked as the current one."""
    page.locator(f"nav.languages a[hreflang={code}]").click()
    expect(page).to_have_url(re.compile(rf"[?&]lang={code}$"))
    html_lang(page, code)
    expect(page.locator("nav.languages a[aria-current=true]")).to_have_attribute("hreflang", code)


def join(phone: Page, t: Catalog, name: str, token: str) -> None:
    """On a phone showing the join page in t's language: type a name, pick a token, join."""
    phone.get_by_label(t("Your name")).fill(name)
    phone.get_by_text(t(token), exact=True).tap()
    expect(phone.get_by_role("radio", name=t(token), exact=True)).to_be_checked()
    phone.get_by_role("button", name=t("Join"), exact=True).tap()
    expect(phone).to_have_url(re.compile(r"/p/[A-Z0-9]+$"))
    expect(phone.get_by_role("heading", level=1)).to_contain_text(name)
    html_lang(phone, t.language)


def roll(phone: Page, t: Catalog, a: int, b: int) -> None:
    """On a phone's turn panel: the chip for each die, then Move, in t's language."""
    turn = phone.locator("#turn")
    for n, value in ((1, a), (2, b)):
        turn.get_by_role("group", name=t("Die %(n)s", n=n)).get_by_text(str(value), exact=True).tap()
        expect(turn.get_by_role("group", name=t("Die %(n)s", n=n)).get_by_role("radio", name=str(value))
               ).to_be_checked()
    turn.get_by_role("button", name=t("Move"), exact=True).tap()


def shows_money(locator, amount: int, text: str) -> None:
    """The amount is shown, live, and written exactly so (spaces included: to_have_text would
    treat a plain space, U+00A0 and U+202F alike)."""
    expect(locator).to_have_attribute("data-cash", str(amount), timeout=LIVE)
    assert locator.text_content().strip() == text


def no_axe_violations(page: Page, what: str) -> None:
    found = axe_violations(page)
    assert not found, f"{what}: " + "; ".join(found)


def no_overflow_at_360(phone: Page, what: str) -> None:
    size = phone.viewport_size
    phone.set_viewport_size({"width": NARROW, "height": size["height"]})
    try:
        scroll, client = phone.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll <= client, f"{what}: {scroll}px of content in a {client}px wide page"
    finally:
        phone.set_viewport_size(size)


def open_table(contexts, host_url: str, t: Catalog, edition: str):
    """The host opens the home page at `host_url` and creates a game on `edition`, which the page
    offers first to a reader of t's language; (host, code, join URL)."""
    host = contexts.page("host", **DESKTOP)
    host.goto(host_url)
    html_lang(host, t.language)
    expect(host.locator("select[name=edition]")).to_have_value(edition)
    host.get_by_role("button", name=t("Create game")).click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    html_lang(host, t.language)
    return host, host.url.rsplit("/", 1)[1], host.locator(".join-panel .url").inner_text()


def start(host: Page, t: Catalog, phones: list[Page], first: str) -> None:
    expect(host.locator("ol.seats li")).to_have_count(len(phones), timeout=LIVE)
    host.get_by_role("button", name=t("Start in this order")).click()
    expect(host.locator("#turn .whose")).to_contain_text(t("%(name)s's turn", name=first), timeout=LIVE)
    expect(phones[0].locator("#turn h2")).to_have_text(t("Your turn"), timeout=LIVE)


def test_a_short_game_in_french_on_the_paris_board(contexts, artifacts):
    fr = Catalog("fr")
    paris = squares("fr")
    lot, chance_street = paris[BROWN_2]["name"], paris[LAST]["name"]     # Rue Lecourbe, Rue de la Paix

    # The host opens the home page in English, with the US board offered, and switches to French:
    # the page is French and offers the Paris board.
    host = contexts.page("host", **DESKTOP, locale="en-US")
    host.goto("/")
    html_lang(host, "en")
    expect(host.locator("select[name=edition]")).to_have_value("us")
    switch_language(host, "fr")
    expect(host.get_by_role("heading", level=2).first).to_have_text(fr.translated("New game"))
    expect(host.locator("nav.languages")).to_have_attribute("aria-label", fr.translated("Language"))
    edition = host.locator("select[name=edition]")
    expect(edition).to_have_value("fr")
    expect(host.locator("label", has=edition)).to_contain_text(fr.translated("Board"))
    expect(edition.locator("option:checked")).to_have_text(EDITION_LABELS["fr"]["fr"])  # the board file names itself
    expect(host.locator("input[name=start_cash]")).to_have_value(str(START_CASH))
    host.screenshot(path=artifacts / "lang-fr-home.png", full_page=True)
    host.get_by_role("button", name=fr.translated("Create game")).click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    html_lang(host, "fr")
    code = host.url.rsplit("/", 1)[1]
    expect(host.get_by_role("heading", level=1)).to_have_text(f"{fr.translated('Game')} {code}")
    expect(host.locator(".join-how h2")).to_have_text(fr.translated("Scan to join"))
    join_url = host.locator(".join-panel .url").inner_text()

    # Ann's phone opens a ?lang=fr link; Bob's opens the plain join link in English and switches.
    ann = contexts.page("phone 1", **PHONE)
    bob = contexts.page("phone 2", **PHONE, locale="en-US")
    ann.goto(f"{join_url}?lang=fr")
    html_lang(ann, "fr")
    expect(ann.get_by_role("heading", level=1)).to_have_text(fr.translated("Join game %(code)s", code=code))
    join(ann, fr, "Ann", "Car")
    expect(ann.locator("#turn h2")).to_have_text(fr.translated("Waiting for the banker to start"))
    bob.goto(join_url)
    html_lang(bob, "en")
    switch_language(bob, "fr")
    expect(bob.get_by_text(f"{fr('Car')} · {fr('taken')}")).to_be_visible()
    check_phone_layout(bob, "the French join page")
    bob.screenshot(path=artifacts / "lang-fr-join.png", full_page=True)
    join(bob, fr, "Bob", "Dog")
    host.screenshot(path=artifacts / "lang-fr-host-lobby.png", full_page=True)
    start(host, fr, [ann, bob], "Ann")
    expect(bob.locator("#turn h2")).to_have_text(fr.translated("%(name)s's turn", name="Ann"))

    # The host's board carries the Paris names; GO is "Départ", the board's own word for it.
    board = host.locator("#board")
    for index in (GO, BROWN_1, BROWN_2, CHANCE, LAST):
        square = board.locator(f'[data-square="{index}"]')
        expect(square).to_have_attribute("title", paris[index]["name"])
        expect(square.locator(".sq-name")).to_have_text(paris[index]["short"])

    # Ann: 1 + 2 onto Rue Lecourbe, offered at 60 €; she buys it and has 1 440 €.
    roll(ann, fr, 1, 2)
    expect(ann.locator("#wallet .where")).to_have_text(fr.translated("On %(square)s", square=lot), timeout=LIVE)
    expect(ann.locator("#turn .offer")).to_have_text(
        fr.translated("%(square)s is for sale at %(price)s.", square=lot, price=euros(PRICE)))
    assert euros(PRICE) in ann.locator("#turn .offer").text_content()
    expect(host.locator("#turn .act-for .offer")).to_have_text(  # the banker's box for Ann offers it too
        fr("%(square)s is for sale at %(price)s.", square=lot, price=euros(PRICE)), timeout=LIVE)
    expect(host.locator("#turn .pending")).to_have_count(0)             # said once
    check_phone_layout(ann, "the French buy offer")
    ann.screenshot(path=artifacts / "lang-fr-phone-buy.png", full_page=True)
    ann.locator("#turn").get_by_role("button", name=fr.translated("Buy for %(price)s", price=euros(PRICE))).tap()
    ann_cash = START_CASH - PRICE
    shows_money(ann.locator("#wallet [data-cash]"), ann_cash, "1\u202f440\u00a0€")
    expect(board.locator(f'[data-square="{BROWN_2}"] .owner')).to_have_attribute(
        "title", fr.translated("owned by %(name)s", name="Ann"), timeout=LIVE)
    expect(host.locator("#history li").first).to_contain_text(
        fr.brace("{from} bought {square} for {amount}.", **{"from": "Ann", "square": lot, "amount": euros(PRICE)}),
        timeout=LIVE)
    ann.locator("#turn").get_by_role("button", name=fr.translated("End turn")).tap()

    # Bob: 1 + 2 onto Ann's Rue Lecourbe; the rent is paid at once and the host tells it in French.
    expect(bob.locator("#turn h2")).to_have_text(fr("Your turn"), timeout=LIVE)
    expect(host.locator("#turn .whose")).to_contain_text(fr("%(name)s's turn", name="Bob"), timeout=LIVE)
    roll(bob, fr, 1, 2)
    ann_cash, bob_cash = ann_cash + RENT, START_CASH - RENT
    rent_line = fr.brace("{from} paid {to} {amount} rent for {square}.",
                         **{"from": "Bob", "to": "Ann", "amount": euros(RENT), "square": lot})
    assert rent_line != f"Bob paid Ann {euros(RENT)} rent for {lot}.", "the rent sentence is not translated"
    expect(host.locator("#history li", has_text=rent_line)).to_have_count(1, timeout=LIVE)
    expect(host.locator("#turn .latest")).to_contain_text(rent_line)
    expect(bob.locator("#history")).to_contain_text(rent_line, timeout=LIVE)
    shows_money(bob.locator("#wallet [data-cash]"), bob_cash, euros(bob_cash))
    shows_money(ann.locator("#wallet [data-cash]"), ann_cash, euros(ann_cash))
    balances = host.locator("table.balances")
    for name, cash in (("Ann", ann_cash), ("Bob", bob_cash)):
        shows_money(balances.locator("tr", has_text=name).locator("td.cash"), cash, euros(cash))
    expect(balances.locator("tr", has_text="Bob").locator("small")).to_have_text(lot)
    expect(host.locator("#history-title")).to_have_text(fr.translated("History"))
    expect(host.locator("#players-title")).to_have_text(fr.translated("Players"))
    bob.locator("#turn").get_by_role("button", name=fr("End turn")).tap()

    # Ann: 1 + 3 onto Chance; she draws "Advance to Rue de la Paix", told with the Paris name.
    expect(ann.locator("#turn h2")).to_have_text(fr("Your turn"), timeout=LIVE)
    roll(ann, fr, 1, 3)
    expect(ann.locator("#turn .offer")).to_have_text(fr.translated("Draw the top Chance card and tap the one you got:"),
                                                     timeout=LIVE)
    # The picker and the history name the card by the words printed on it, in the French box's own deck.
    printed = next(c["text"] for c in printing_decks("fr")["chance"]
                   if c["effect"] == {"kind": "move_to", "square": LAST}).rstrip(".")
    card = ann.locator("#turn .card-picker").get_by_role("button", name=re.compile("^" + re.escape(printed)))
    expect(card).to_contain_text(fr("→ %(square)s", square=chance_street))
    card.tap()
    drew = fr.brace("{player} drew “{card}”.", player="Ann", card=printed)
    expect(host.locator("#turn .latest")).to_contain_text(drew, timeout=LIVE)
    expect(ann.locator("#wallet .where")).to_have_text(fr("On %(square)s", square=chance_street), timeout=LIVE)
    expect(ann.locator("#turn .offer")).to_have_text(
        fr("%(square)s is for sale at %(price)s.", square=chance_street, price=euros(400)))
    expect(board.locator(f'[data-square="{LAST}"] .pawn[title="Ann"]')).to_have_count(1, timeout=LIVE)

    html_lang(host, "fr")
    no_axe_violations(host, "the French host screen")
    host.screenshot(path=artifacts / "lang-fr-host.png", full_page=True)
    ann.screenshot(path=artifacts / "lang-fr-phone1.png", full_page=True)
    bob.screenshot(path=artifacts / "lang-fr-phone2.png", full_page=True)
    assert contexts.blocked == [], "a page tried to reach the internet"
    assert contexts.errors == [], "the pages logged errors"


def test_a_short_game_in_japanese_on_the_japanese_board(contexts, artifacts):
    ja = Catalog("ja")
    names = squares("ja")
    lot = names[BROWN_2]["name"]    # バルティック通り

    host, code, join_url = open_table(contexts, "/?lang=ja", ja, "ja")
    expect(host.get_by_role("heading", level=1)).to_have_text(f"{ja.translated('Game')} {code}")
    # Ann's phone is set to Japanese (its Accept-Language); Bob's opens a ?lang=ja link.
    ann = contexts.page("phone 1", **PHONE, locale="ja-JP")
    bob = contexts.page("phone 2", **PHONE)
    ann.goto(join_url)
    html_lang(ann, "ja")
    expect(ann.get_by_role("heading", level=1)).to_have_text(ja.translated("Join game %(code)s", code=code))
    join(ann, ja, "Ann", "Car")
    bob.goto(f"{join_url}?lang=ja")
    join(bob, ja, "Bob", "Dog")
    start(host, ja, [ann, bob], "Ann")
    for index in (BROWN_1, BROWN_2, LAST):
        expect(host.locator(f'#board [data-square="{index}"]')).to_have_attribute("title", names[index]["name"])

    # Ann: 1 + 2 onto Baltic Avenue under its Japanese name, offered at $60; she buys it.
    roll(ann, ja, 1, 2)
    expect(ann.locator("#wallet .where")).to_have_text(ja.translated("On %(square)s", square=lot), timeout=LIVE)
    offer = ann.locator("#turn .offer")
    expect(offer).to_have_text(ja.translated("%(square)s is for sale at %(price)s.", square=lot, price=dollars(PRICE)))
    assert "$60" in offer.text_content()
    no_overflow_at_360(ann, "the Japanese buy offer")
    ann.screenshot(path=artifacts / "lang-ja-phone-buy.png", full_page=True)
    ann.locator("#turn").get_by_role("button", name=ja.translated("Buy for %(price)s", price=dollars(PRICE))).tap()
    shows_money(ann.locator("#wallet [data-cash]"), START_CASH - PRICE, "$1,440")
    shows_money(host.locator("table.balances tr", has_text="Ann").locator("td.cash"), START_CASH - PRICE, "$1,440")
    expect(host.locator(f'#board [data-square="{BROWN_2}"] .owner')).to_have_attribute(
        "title", ja.translated("owned by %(name)s", name="Ann"), timeout=LIVE)
    expect(ann.locator(f'#wallet [data-square="{BROWN_2}"]')).to_contain_text(lot)
    expect(ann.locator("#history")).to_contain_text(
        ja.brace("{from} bought {square} for {amount}.", **{"from": "Ann", "square": lot, "amount": dollars(PRICE)}),
        timeout=LIVE)
    expect(ann.locator("#history-title")).to_have_text(ja.translated("My history"))
    expect(ann.locator("#turn").get_by_role("button", name=ja.translated("End turn"))).to_be_visible()
    expect(bob.locator("#turn h2")).to_have_text(ja.translated("%(name)s's turn", name="Ann"))

    html_lang(ann, "ja")
    no_overflow_at_360(ann, "the Japanese phone with a deed")
    check_phone_layout(ann, "the Japanese phone with a deed")
    no_axe_violations(ann, "the Japanese phone")
    ann.screenshot(path=artifacts / "lang-ja-phone.png", full_page=True)
    ann.set_viewport_size({"width": NARROW, "height": PHONE["viewport"]["height"]})
    ann.screenshot(path=artifacts / "lang-ja-phone-360.png", full_page=True)
    host.screenshot(path=artifacts / "lang-ja-host.png", full_page=True)
    assert contexts.blocked == [], "a page tried to reach the internet"
    assert contexts.errors == [], "the pages logged errors"


def test_one_phone_reads_japanese_at_a_french_table(contexts, artifacts):
    fr, ja = Catalog("fr"), Catalog("ja")
    paris = squares("fr")
    lot = paris[BROWN_2]["name"]

    host, code, join_url = open_table(contexts, "/?lang=fr", fr, "fr")
    ann = contexts.page("phone 1", **PHONE)
    bob = contexts.page("phone 2", **PHONE)
    for phone, name, token in ((ann, "Ann", "Car"), (bob, "Bob", "Dog")):
        phone.goto(f"{join_url}?lang=fr")
        join(phone, fr, name, token)
    start(host, fr, [ann, bob], "Ann")

    # Bob switches his phone to Japanese: his screen only.
    switch_language(bob, "ja")
    expect(bob.locator("#turn h2")).to_have_text(ja.translated("%(name)s's turn", name="Ann"))
    expect(bob.locator("#history-title")).to_have_text(ja("My history"))
    shows_money(bob.locator("#wallet [data-cash]"), START_CASH, f"€{START_CASH:,}")
    # A square that is a game term is named in each reader's language (GO: Départ on the French
    # host, which is the board's own word), a place by its printed name everywhere.
    expect(bob.locator("#wallet .where")).to_have_text(ja("On %(square)s", square=ja("GO")))
    expect(host.locator("table.balances tr", has_text="Bob").locator("small")).to_have_text(paris[GO]["name"])

    # Each device keeps its own language on a reload: the host and Ann in French, Bob in Japanese
    # (his page opened again without ?lang=, from the cookie).
    host.reload()
    ann.reload()
    bob.goto(f"/p/{code}")
    html_lang(host, "fr")
    html_lang(ann, "fr")
    html_lang(bob, "ja")
    expect(host.locator("#turn .whose")).to_contain_text(fr("%(name)s's turn", name="Ann"))
    expect(ann.locator("#turn h2")).to_have_text(fr("Your turn"))
    expect(bob.locator("#turn h2")).to_have_text(ja("%(name)s's turn", name="Ann"))

    # Ann buys Rue Lecourbe: the news reaches each screen live, each in its own language.
    roll(ann, fr, 1, 2)
    ann.locator("#turn").get_by_role("button", name=fr("Buy for %(price)s", price=euros(PRICE))).tap()
    bought = {"from": "Ann", "square": lot}
    expect(host.locator("#history li").first).to_contain_text(
        fr.brace("{from} bought {square} for {amount}.", **bought, amount=euros(PRICE)), timeout=LIVE)
    expect(bob.locator("#history li").first).to_contain_text(
        ja.brace("{from} bought {square} for {amount}.", **bought, amount=f"€{PRICE}"), timeout=LIVE)
    shows_money(ann.locator("#wallet [data-cash]"), START_CASH - PRICE, euros(START_CASH - PRICE))
    html_lang(host, "fr")
    html_lang(bob, "ja")
    host.screenshot(path=artifacts / "lang-mixed-host-fr.png", full_page=True)
    bob.screenshot(path=artifacts / "lang-mixed-phone-ja.png", full_page=True)
    assert contexts.blocked == [], "a page tried to reach the internet"
    assert contexts.errors == [], "the pages logged errors"
