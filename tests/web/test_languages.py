"""Each device in its own language, and the editions' boards: names, money, cards and defaults."""

import re
from html import unescape

import pytest
from babel.numbers import format_decimal
from babel.support import Translations
from flask_babel import force_locale
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker import store
from banker.cli import banner
from banker.words import languages
from banker.words.amounts import money, typed

from .games import new_game, page_form, play

TRANSLATIONS = "banker/translations"
NNBSP, NBSP = "\u202f", "\u00a0"


def translated(language: str, english: str, **values) -> str:
    """The catalog's words for `english` in `language` (compiled .mo, as the app reads it)."""
    text = Translations.load(TRANSLATIONS, [language]).gettext(english)
    return text % values if values else text


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


# Choosing a language


@pytest.mark.parametrize(("header", "lang"), [("fr-FR,fr;q=0.9,en;q=0.5", "fr"), ("ja", "ja"), ("pt-PT", "pt-PT"),
                                              ("pt-BR,pt;q=0.8", "pt-PT"), ("de-DE", "en"), ("", "en")])
def test_a_device_starts_in_its_browsers_language(client, header, lang):
    html = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert html_lang(html) == lang
    expected = translated(lang[:2], "New game") if lang != "en" else "New game"
    assert expected in html


def test_a_lang_link_switches_and_is_remembered_for_that_device_only(client, app):
    first = client.get("/?lang=ja", headers={"Accept-Language": "fr"})
    assert html_lang(first.get_data(as_text=True)) == "ja"
    assert "lang=ja" in first.headers["Set-Cookie"] and "HttpOnly" in first.headers["Set-Cookie"]
    # Later pages keep Japanese without the link, whatever the browser's header says.
    assert html_lang(client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)) == "ja"
    # Another device at the same table is untouched.
    other = app.test_client()
    assert html_lang(other.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)) == "fr"


def test_an_unknown_lang_is_ignored(client):
    response = client.get("/?lang=xx", headers={"Accept-Language": "fr"})
    assert html_lang(response.get_data(as_text=True)) == "fr"
    assert "Set-Cookie" not in response.headers or "lang=" not in response.headers["Set-Cookie"]


def test_every_page_has_the_switch_to_itself_in_each_language(host, game):
    html = host(game).page()
    switch = re.search(r'<nav class="languages".*?</nav>', html, re.S).group(0)
    links = re.findall(r'href="([^"]+)" lang="(\w+)"', switch)
    assert [lang for _, lang in links] == ["en", "fr", "pt", "ja"]
    assert all(unescape(href) == f"/t/{game.code}?lang={lang}" for href, lang in links)
    assert 'aria-current="true">English' in switch and "日本語" in switch


def test_pages_vary_by_language_for_caches(client):
    response = client.get("/")
    assert {"Cookie", "Accept-Language"} <= set(response.vary)


def test_the_api_answers_in_the_accept_language(client):
    response = client.post("/api/games", json={"edition": "monaco"}, headers={"Accept-Language": "fr"})
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == translated(
        "fr", "Unknown edition; the editions are: {editions}.").format(editions="us, uk, fr, pt, ja")
    assert response.get_json()["error"]["code"] == "unknown_edition"  # codes stay for programs


def test_the_terminal_banner_speaks_the_terminals_language(app):
    said = banner(app, "http://192.168.1.20:8000/", "0.0.0.0", "fr")
    assert translated("fr", "Tabletop Banker is running. Open %(url)s on this laptop to create a game.",
                      url="http://192.168.1.20:8000/") in said
    assert translated("fr", "Phones on the same Wi-Fi join by scanning the code the game shows.") in said


# Money, numbers and times by locale


@pytest.mark.parametrize(("locale", "symbol", "amount", "shown"), [
    ("en", "$", 1500, "$1,500"), ("en", "£", 1500, "£1,500"), ("en", "$", -50, "−\u2060$50"),
    ("fr", "€", 1500, f"1{NNBSP}500{NBSP}€"), ("fr", "$", 60, f"60{NBSP}$"),
    ("pt_PT", "€", 1500, f"1500{NBSP}€"), ("pt_PT", "€", 15000, f"15{NBSP}000{NBSP}€"),
    ("ja", "$", 1500, "$1,500"), ("ja", "$", 200000, "$200,000"),
])
def test_money_puts_the_editions_symbol_where_the_locale_does(app, locale, symbol, amount, shown):
    with app.test_request_context(), force_locale(locale):
        assert money(amount, symbol) == shown


def test_what_is_drawn_speaking_a_language_is_in_it_and_the_request_is_in_its_own_again_after(app):
    """languages.speaking (the live path draws each screen within it): the locale, its name, its
    sentences (French elided), its money; then the request's own language, as it was."""
    with app.test_request_context(headers={"Accept-Language": "ja"}):
        assert (languages.locale_name(), languages.gettext("Dog")) == ("ja", translated("ja", "Dog"))
        with languages.speaking("fr"):
            assert str(languages.locale()) == languages.locale_name() == languages.tag() == "fr"
            assert languages.gettext("Waiting for %(name)s.", name="Ann") == "En attente d'Ann."
            assert money(1500, "€") == f"1{NNBSP}500{NBSP}€"
        assert (languages.locale_name(), languages.gettext("Dog"), money(1500, "$")) == ("ja", translated("ja", "Dog"),
                                                                                         "$1,500")


@pytest.mark.parametrize(("typed_in", "read"), [("1 500", "1500"), ("1.500", "1500"), ("1,500", "1500"),
                                                (f"1{NNBSP}500", "1500"), ("12 000 000", "12000000"),
                                                ("1500", "1500"), ("1,5", "1,5"), ("15 00", "15 00"), ("abc", "abc")])
def test_amounts_typed_with_group_separators_are_read_as_whole_numbers(typed_in, read):
    assert typed(typed_in) == read


def test_a_french_phone_pays_an_amount_typed_the_french_way(phone, game):
    ann = phone(game, 1)
    ann.client.set_cookie("lang", "fr")
    assert page_form(ann.page(), "pay").get("amount") == ""  # the form the phone shows
    # More than half her cash: sent as its second tap (web/answers/second_tap.py), already sure.
    response = ann.post({"type": "pay", "to": 2, "amount": "1 200", "sure": "1"}, htmx=True)
    assert response.status_code == 200
    assert game.cash() == {1: 300, 2: 2700}
    refused = ann.post({"type": "pay", "to": 2, "amount": "1,5"}, htmx=True)
    assert refused.status_code == 422 and game.cash() == {1: 300, 2: 2700}


def test_history_times_follow_the_locale(host, game):
    play(game, (1, {"type": "roll", "dice": [1, 2]}))
    screen = host(game)
    english = re.findall(r"<time>([^<]+)</time>", screen.page())
    screen.client.set_cookie("lang", "ja")
    japanese = re.findall(r"<time>([^<]+)</time>", screen.page())
    assert english and all(re.fullmatch(r"\d{1,2}:\d\d\s?[AP]M", t.replace(NNBSP, " ")) for t in english)
    assert japanese and all(re.fullmatch(r"\d{1,2}:\d\d", t) for t in japanese)


# Editions


@pytest.mark.parametrize(("edition", "lang", "names"), [
    ("us", "en", ["Boardwalk", "Mediterr.", "Reading RR"]),
    ("uk", "en", ["Mayfair", "Old Kent Rd", "King's Cross", "Super Tax"]),
    ("fr", "fr", ["Rue de la Paix", "Bd de Belleville", "Gare Montp.", "Départ"]),
    ("pt", "pt", ["Rossio", "Campo Grande", "Fontes P. de Melo"]),
    ("ja", "ja", ["ボードウォーク", "地中海", "リーディング鉄道"]),
])
def test_the_host_board_shows_the_editions_names(client, host, edition, lang, names):
    game = new_game(client, edition=edition)
    screen = host(game)
    screen.client.set_cookie("lang", lang)
    board = re.search(r'<div class="board.*?</ol>', screen.page(), re.S)
    shown = text_of(board.group(0) if board else screen.page())
    for name in names:
        assert unescape(name) in shown


def test_places_keep_their_printed_names_and_terms_follow_the_reader(client, host):
    """A Japanese guest at a French table: Rue de la Paix stays, Départ reads as GO in Japanese."""
    game = new_game(client, edition="fr")
    screen = host(game)
    screen.client.set_cookie("lang", "ja")
    shown = text_of(screen.page())
    assert "Rue de la Paix" in shown
    assert translated("ja", "GO") in shown and "Départ" not in shown
    assert translated("ja", "Community Chest") in shown or translated("ja", "Comm. Chest") in shown


@pytest.mark.parametrize(("edition", "lang", "square", "rent"), [
    ("uk", "en", "Whitechapel Road", "£4"), ("fr", "fr", "Rue Lecourbe", f"4{NBSP}€"),
    ("pt", "pt", "Av. Fernão de Magalhães (Porto)", f"4{NBSP}€"), ("ja", "ja", "バルティック通り", "$4"),
])
def test_rent_messages_name_the_editions_square_in_its_money(client, host, phone, edition, lang, square, rent):
    game = new_game(client, edition=edition)
    play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}), (1, {"type": "end_turn"}),
         (2, {"type": "roll", "dice": [1, 2]}))
    bob = phone(game, 2)
    bob.client.set_cookie("lang", lang)
    shown = text_of(bob.page())
    assert square in shown and rent in shown
    screen = host(game)
    screen.client.set_cookie("lang", lang)
    expected = translated(lang, "{from} paid {to} {amount} rent for {square}.") if lang != "en" else \
        "{from} paid {to} {amount} rent for {square}."
    assert expected.format(**{"from": "Bob", "to": "Ann", "amount": rent, "square": square}) in text_of(screen.page())


@pytest.mark.parametrize(("edition", "lang", "cash"), [
    ("us", "en", "$1,500"), ("uk", "en", "£1,500"), ("fr", "fr", f"1{NNBSP}500{NBSP}€"),
    ("pt", "pt", f"1500{NBSP}€"), ("ja", "ja", "$1,500"), ("fr", "en", "€1,500"),
])
def test_the_wallet_shows_the_editions_currency(client, phone, edition, lang, cash):
    game = new_game(client, edition=edition)
    ann = phone(game, 1)
    ann.client.set_cookie("lang", lang)
    assert cash in text_of(ann.page())


def test_the_uk_board_has_super_tax_and_the_uk_double_rent_rule(client, host):
    game = new_game(client, edition="uk")
    assert game.state()["rules"]["double_rent_with_mortgaged_lot"] is False
    play(game, ("banker", {"type": "move", "player": 1, "square": 35}), (1, {"type": "roll", "dice": [1, 2]}))
    assert game.cash()[1] == 1400
    shown = text_of(host(game).page())
    assert "Super Tax" in shown and "£100" in shown and "Luxury Tax" not in shown
    # The US board keeps the classic US rule; a UK game may still choose it.
    us = new_game(client).state()["rules"]["double_rent_with_mortgaged_lot"]
    chosen = new_game(client, edition="uk", rules={"double_rent_with_mortgaged_lot": True}).state()
    assert us is True and chosen["rules"]["double_rent_with_mortgaged_lot"] is True


def test_cards_read_in_the_readers_language_with_the_editions_squares(client, phone):
    """The US cards, chosen on the French board, are told in French with its squares."""
    game = new_game(client, edition="fr", rules={"cards": "us_2021"})
    play(game, (1, {"type": "roll", "dice": [3, 4]}))  # Ann on Chance, to draw
    ann = phone(game, 1)
    ann.client.set_cookie("lang", "fr")
    shown = text_of(ann.page())
    assert translated("fr", "Advance to %(square)s.", square="Rue de la Paix") in shown
    assert translated("fr", "→ %(square)s", square="Rue de la Paix") in shown
    assert translated("fr", "Bank pays you dividend of %(amount)s.", amount=f"50{NBSP}€") in shown
    assert translated("fr", "Make general repairs on all your property. For each house pay %(house)s. "
                            "For each hotel pay %(hotel)s.", house=f"25{NBSP}€", hotel=f"100{NBSP}€") in shown


@pytest.mark.parametrize("lang", ["fr", "en", "ja"])
def test_a_boards_own_cards_read_as_printed_whatever_the_readers_language(client, phone, lang):
    game = new_game(client, edition="fr")
    play(game, (1, {"type": "roll", "dice": [3, 4]}))  # Ann on Chance, to draw
    ann = phone(game, 1)
    ann.client.set_cookie("lang", lang)
    shown = text_of(ann.page())
    assert "La banque vous verse un dividende de 50 €." in shown
    assert "Amende pour ivresse : 20 €." in shown
    assert "Avancez au Boulevard de la Villette. Si vous passez par la case Départ, recevez 200 €." in shown


def test_the_home_page_offers_the_readers_board_first_and_creates_the_chosen_one(app, client):
    html = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert re.search(r'<option value="fr" selected>', html)
    html = client.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    response = client.post("/games", data={"csrf_token": csrf, "preset": "official", "shown_preset": "official",
                                           "shown_edition": "us", "edition": "uk", "start_cash": "1,500",
                                           "go_salary": "200", "auctions": "on", "mortgage_transfer_fee": "on",
                                           "double_rent_with_mortgaged_lot": "on", "income_tax": "flat",
                                           "luxury_tax": "100", "community_chest": "2021",
                                           "income_tax_worth": "printed", "shortage_auction_floor": "none"})
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:300]
    code = response.headers["Location"].rsplit("/", 1)[-1]
    with app.app_context():
        game = store.find_game(code)
        assert game.edition == "uk"
        # The form showed the US board's rules (double rent on), and the board was changed without the
        # page refilling them (no JavaScript): as with a preset, fields left as shown take the UK's.
        assert game.settings["double_rent_with_mortgaged_lot"] is False
        assert game.settings["start_cash"] == 1500


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=-10_000_000, max_value=10_000_000), st.sampled_from(["en", "fr", "pt_PT", "ja"]))
def test_money_groups_digits_as_babel_does(app, amount, locale):
    with app.test_request_context(), force_locale(locale):
        number = money(amount, "X").replace("X", "").strip("\u00a0 ").removeprefix("−\u2060")
        grouped = abs(amount) >= (10_000 if locale == "pt_PT" else 0)
        assert number == format_decimal(abs(amount), format=None if grouped else "0", locale=locale)
