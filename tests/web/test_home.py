"""The home page's new-game form: every setting, as a browser sends it, makes the game's rules, and
the host shows the house rules in words."""

from html import unescape

import pytest

from banker import store
from banker.models import Game, db
from banker.rules.state import CHOICES, Settings
from banker.rules.board import EDITION_LABELS, PRINTING_LABELS

from .games import Browser, page_forms

OFFICIAL = vars(Settings())
CHECKBOXES = [key for key, value in OFFICIAL.items() if isinstance(value, bool)]


def home_form(client):
    """The new-game form as the home page shows it."""
    return only_form(client.get("/").get_data(as_text=True))


def only_form(html: str):
    """The new-game form of a home page (the page has a "join a game" form too)."""
    found = [f for f in page_forms(html) if f.action == "/games"]
    assert len(found) == 1
    return found[0]


def create(client, check=(), uncheck=(), **typed):
    """Submit the home form as shown, ticking and unticking boxes and choosing or typing values;
    returns the new game's code, its rules (read through the API) and the banker's browser."""
    form = home_form(client)
    preset = typed.pop("preset", None)  # a radio button, picked
    data = form.data(**typed)
    if preset:
        data["preset"] = [preset]
    for key in check:
        data[key] = ["on"]
    for key in uncheck:
        data.pop(key, None)
    response = client.post(form.action, data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    code = response.headers["Location"].rsplit("/", 1)[1]
    with client.application.app_context():
        rules = vars(store.load_state(store.find_game(code)).settings)
    return code, rules, Browser(client, code, f"/t/{code}")


def test_the_form_offers_every_setting_with_the_official_defaults(client):
    form = home_form(client)
    assert form.action == "/games"
    names = {n for n, _ in form.fields} | {n for n, _, _ in form.boxes}
    assert names == set(OFFICIAL) | {"csrf_token", "shown_preset", "edition", "shown_edition"}
    assert {n: checked for n, _, checked in form.boxes if n != "preset"} == {k: OFFICIAL[k] for k in CHECKBOXES}
    assert [(v, checked) for n, v, checked in form.boxes if n == "preset"] == [
        ("official", True), ("classic", False), ("jma", False)]
    assert form.choices == {"edition": ["us", "uk", "fr", "pt", "ja"], "income_tax": ["flat", "choice"], "luxury_tax": ["100", "75"],
                            "community_chest": ["2021", "2008"], "income_tax_worth": ["printed", "half_mortgaged"],
                            "cards": ["us", "uk_classic", "uk_modern", "fr", "fr_variant", "pt", "ja_2008", "ja_classic"],
                            "shortage_auction_floor": ["none", "cost"]}
    assert form.get("start_cash") == "1500" and form.get("go_salary") == "200" and form.get("time_limit_minutes") == ""
    assert form.label == "Create game"


def test_the_form_as_shown_creates_an_official_game(client):
    code, rules, banker = create(client)
    assert rules == OFFICIAL
    page = unescape(banker.page())
    assert "Official rules." in page and "House rules:" not in page
    assert "Banker's screen" in page


def test_every_setting_changed_on_the_form_reaches_the_game_and_the_summary(client):
    code, rules, banker = create(
        client, check=["free_parking_jackpot", "go_exact_bonus"],
        uncheck=["auctions", "mortgage_transfer_fee", "double_rent_with_mortgaged_lot"],
        start_cash="2000", go_salary="250", time_limit_minutes="90", income_tax="choice", luxury_tax="75",
        community_chest="2008", shortage_auction_floor="cost")
    assert rules == {**OFFICIAL,
        "start_cash": 2000, "go_salary": 250, "go_exact_bonus": True, "free_parking_jackpot": True,
        "luxury_tax": 75, "double_rent_with_mortgaged_lot": False, "auctions": False,
        "mortgage_transfer_fee": False, "shortage_auction_floor": "cost", "income_tax": "choice",
        "community_chest": "2008", "time_limit_minutes": 90,
    }
    summary = ("House rules: start cash $2,000 · GO salary $250 · no auctions · Free Parking jackpot · "
               "double salary on GO · Income Tax 200 or 10% · Luxury Tax $75 · "
               "no 10% fee on mortgaged deeds changing hands · "
               "no double rent when a lot of the group is mortgaged · 2008 Community Chest · "
               "shortage auctions from building cost · 90-minute game")
    assert summary in unescape(banker.page())
    table_view = Browser(client.application.test_client(), code, f"/t/{code}").page()
    assert summary in unescape(table_view) and "Table view" in table_view


@pytest.mark.parametrize("key", CHECKBOXES)
def test_each_checkbox_is_read_ticked_and_unticked(client, key):
    _, ticked, _ = create(client, check=[key])
    _, unticked, _ = create(client, uncheck=[key])
    assert ticked[key] is True and unticked[key] is False
    others = {k: v for k, v in OFFICIAL.items() if k != key}
    assert {k: v for k, v in ticked.items() if k != key} == others
    assert {k: v for k, v in unticked.items() if k != key} == others


@pytest.mark.parametrize("typed, says", [
    pytest.param({"start_cash": "-5"}, "Starting cash must be a whole number from 0 to 100000.", id="cash-negative"),
    pytest.param({"go_salary": "lots"}, "GO salary must be a whole number from 0 to 100000.", id="salary-text"),
    pytest.param({"time_limit_minutes": "1.5"}, "Time limit must be a whole number from 0 to 100000.",
                 id="time-fraction"),
    pytest.param({"start_cash": "--5"}, "Starting cash must be a whole number from 0 to 100000.", id="cash-two-minuses"),
    pytest.param({"start_cash": "\u00b2"}, "Starting cash must be a whole number from 0 to 100000.", id="cash-superscript"),
    pytest.param({"start_cash": "\u0661\u0665\u0660\u0660"}, "Starting cash must be a whole number from 0 to 100000.",
                 id="cash-arabic-digits"),
    pytest.param({"go_salary": "9" * 5000}, "GO salary must be a whole number from 0 to 100000.", id="salary-5000-digits"),
    pytest.param({"time_limit_minutes": "100001"}, "Time limit must be a whole number from 0 to 100000.",
                 id="time-too-long"),
    pytest.param({"luxury_tax": "\u00b2"}, "Luxury Tax must be one of: 100, 75.", id="luxury-superscript"),
    pytest.param({"luxury_tax": "9" * 5000}, "Luxury Tax must be one of: 100, 75.", id="luxury-5000-digits"),
    pytest.param({"luxury_tax": "50"}, "Luxury Tax must be one of: 100, 75.", id="luxury-50"),
    pytest.param({"income_tax": "never"}, "Income Tax must be one of: flat, choice.", id="income-tax-never"),
    pytest.param({"community_chest": "1935"}, "Community Chest cards must be one of: 2021, 2008.", id="chest-1935"),
    pytest.param({"shortage_auction_floor": "free"}, "shortage_auction_floor must be one of: none, cost.",
                 id="floor-free"),
])
def test_a_bad_setting_on_the_home_form_is_a_422_with_the_message_and_no_game(app, client, typed, says):
    form = home_form(client)
    response = client.post(form.action, data=form.data(**typed))
    assert response.status_code == 422
    page = unescape(response.get_data(as_text=True))
    assert f'<p class="message error lasting" role="alert">{says}</p>' in page
    assert "Traceback" not in page
    again = only_form(page)  # the form comes back with what was typed
    assert all(again.get(k) == v for k, v in typed.items() if k in ("start_cash", "go_salary", "time_limit_minutes"))
    with app.app_context():
        assert db.session.query(Game).count() == 0


# Presets


def test_a_preset_picked_without_the_fields_refilled_gives_its_rules(client):
    """No JavaScript: the fields still show the official values, so none of them overrides."""
    code, rules, banker = create(client, preset="jma")
    assert rules == vars(Settings.parse({"preset": "jma"}))
    assert "Tournament rules (Japan Monopoly Association)." in unescape(banker.page())
    assert "House rules:" not in unescape(banker.page())


def test_a_field_changed_from_what_the_form_showed_overrides_the_preset(client):
    code, rules, banker = create(client, preset="jma", uncheck=["auctions"], start_cash="2000")
    assert rules == {**vars(Settings.parse({"preset": "jma"})), "auctions": False, "start_cash": 2000}
    assert ("Tournament rules (Japan Monopoly Association). House rules: start cash $2,000 · no auctions"
            in unescape(banker.page()))


def test_the_page_can_show_a_presets_values_and_then_a_field_turned_off_overrides_it(client):
    form = only_form(client.get("/?preset=jma").get_data(as_text=True))
    assert form.get("shown_preset") == "jma"
    assert ("deals_between_turns", "on", True) in form.boxes
    data = form.data()
    data.pop("deals_between_turns")
    response = client.post(form.action, data=data)
    code = response.headers["Location"].rsplit("/", 1)[1]
    with client.application.app_context():
        settings = store.load_state(store.find_game(code)).settings
    assert settings.preset == "jma" and not settings.deals_between_turns and settings.jail_card_on_third_miss
    assert "House rules: deals at any time" in unescape(client.get(f"/t/{code}").get_data(as_text=True))


def test_the_classic_preset_names_itself_on_the_host(client):
    code, rules, banker = create(client, preset="classic")
    assert (rules["income_tax"], rules["luxury_tax"], rules["community_chest"]) == ("choice", 75, "2008")
    assert "Classic rules (before 2008)." in unescape(banker.page())


def test_an_unknown_preset_on_the_form_is_a_422_with_the_message(app, client):
    form = home_form(client)
    response = client.post(form.action, data={**form.data(), "preset": "house"})
    assert response.status_code == 422
    assert "preset must be one of: official, classic, jma." in unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("edition, printing", [("us", "us"), ("uk", "uk_classic"), ("fr", "fr"), ("pt", "pt"),
                                               ("ja", "ja_2008")])
def test_each_board_shows_the_cards_of_its_own_box(client, edition, printing):
    """The form names the board's own printing (picking a board picks it: static/app.js fills the
    fields from data-presets), and a game made as shown plays it."""
    form = only_form(client.get(f"/?edition={edition}").get_data(as_text=True))
    assert form.get("cards") == printing
    response = client.post(form.action, data=form.data())
    with client.application.app_context():
        game = store.find_game(response.headers["Location"].rsplit("/", 1)[1])
        assert (game.edition, store.load_state(game).settings.cards) == (edition, printing)


def test_another_printing_on_the_form_reaches_the_game_and_the_summary(client):
    form = only_form(client.get("/?edition=uk").get_data(as_text=True))
    response = client.post(form.action, data=form.data(cards="uk_modern"))
    code = response.headers["Location"].rsplit("/", 1)[1]
    with client.application.app_context():
        assert store.load_state(store.find_game(code)).settings.cards == "uk_modern"
    assert "cards: United Kingdom, modern" in unescape(Browser(client, code, f"/t/{code}").page())


def test_every_board_and_printing_is_named_in_the_four_languages():
    """The form and the host's rules summary name them from their files, in the reader's language."""
    assert set(PRINTING_LABELS) == set(CHOICES["cards"])
    for label in (*EDITION_LABELS.values(), *PRINTING_LABELS.values()):
        assert set(label) == {"en", "fr", "pt", "ja"} and all(label.values())
