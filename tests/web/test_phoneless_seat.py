"""A seat without a phone: the banker adds it in the lobby, plays it from "Act for", and a rejoin
code gives it a phone later."""

import re
from html import unescape

import pytest

from .games import messages, page_form, page_forms, take_seat


def names(game) -> list[str]:
    return [p["name"] for p in game.state()["players"]]


def add(host, name: str, token: str, htmx: bool = False):
    """Fill in and send the lobby's "Add a player without a phone" form, as the host screen shows it."""
    return host.submit(page_form(host.page(), "join"), htmx=htmx, name=name, token=token)


def test_the_banker_adds_a_player_without_a_phone_who_is_then_played_and_given_a_phone(app, host, lobby):
    banker = host(lobby)
    html = banker.page()
    assert "Add a player without a phone" in html
    # The tokens offered are the free ones: Ann's hat and Bob's car are not.
    assert page_form(html, "join").choices["token"] == ["dog", "iron", "ship", "wheelbarrow", "thimble", "cat"]
    form = page_form(html, "join")
    answer = banker.submit(form, name="Hugo", token="dog")
    assert answer.status_code == 303
    assert "Hugo joined" in messages(banker.page(answer.headers["Location"]))
    assert names(lobby) == ["Ann", "Bob", "Hugo"]
    banker.submit(form, name="Hugo", token="dog")  # a double tap: the same nonce seats nobody more
    assert names(lobby) == ["Ann", "Bob", "Hugo"]
    # The banker holds no badge for Hugo's seat: the host's browser has no phone screen.
    assert banker.client.get(f"/p/{lobby.code}").status_code == 302
    assert "Hugo" in banker.page()  # and is still the banker's screen, with Hugo in the seats
    lobby.ok("banker", type="start", order=[3, 1, 2])

    # Hugo's turn, from the "Act for" box.
    html = banker.page()
    assert "Act for Hugo" in html
    assert page_forms(html, "roll", player="3")
    moved = banker.post({"type": "roll", "player": 3, "dice": [1, 2]})
    assert moved.status_code == 303
    hugo = next(p for p in lobby.state()["players"] if p["id"] == 3)
    assert hugo["position"] == 3

    # Hugo finds a phone: the seat's rejoin code moves it there, and the phone plays it. The code's
    # page points a phone-less player at the lobby's button.
    made = banker.client.post(f"/t/{lobby.code}/seats/3/rejoin", data={"csrf_token": banker.csrf})
    code_page = unescape(banker.client.get(made.headers["Location"]).get_data(as_text=True))
    assert "“Add a player without a phone”" in code_page
    address = re.search(r'<p class="url">([^<]+)</p>', code_page).group(1)
    phone = app.test_client()
    taken = take_seat(phone, address)
    assert taken.status_code == 303 and taken.headers["Location"] == f"/p/{lobby.code}"
    screen = phone.get(f"/p/{lobby.code}").get_data(as_text=True)
    assert "Hugo" in screen
    assert page_forms(screen, "buy")  # Hugo stands on Baltic Avenue, his to buy, from his phone


@pytest.mark.parametrize("name, token, says", [
    ("ann", "dog", "ann is already playing; pick another name."),
    ("Hugo", "hat", "The Top hat is taken; pick another token."),
    ("   ", "dog", "Type a name."),
])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_seat_says_why_and_seats_nobody(host, lobby, name, token, says, htmx):
    banker = host(lobby)
    answer = add(banker, name, token, htmx=htmx)
    if htmx:
        assert answer.status_code == 422
        assert says in unescape(answer.get_data(as_text=True))
    else:
        assert answer.status_code == 303
        assert says in messages(banker.page(answer.headers["Location"]))
    assert names(lobby) == ["Ann", "Bob"]


def test_no_seat_is_added_once_the_game_has_started(host, lobby):
    banker = host(lobby)
    form = page_form(banker.page(), "join")
    lobby.ok("banker", type="start", order=[1, 2])
    assert "Add a player without a phone" not in banker.page()
    answer = banker.submit(form, name="Hugo", token="dog")  # a form left open in the lobby
    assert "joining is closed" in messages(banker.page(answer.headers["Location"]))
    assert names(lobby) == ["Ann", "Bob"]


def test_a_full_table_offers_no_seat_and_only_the_banker_sees_the_form(host, stranger, client, lobby):
    for name, token in [("Cy", "dog"), ("Di", "iron"), ("Ed", "ship"), ("Flo", "wheelbarrow"),
                        ("Gus", "thimble")]:
        lobby.join(name, token)
    assert "Add a player without a phone" not in stranger(lobby).page()
    banker = host(lobby)
    form = page_form(banker.page(), "join")
    assert form.choices["token"] == ["cat"]
    lobby.join("Hal", "cat")
    assert "Add a player without a phone" not in banker.page()
    answer = banker.submit(form, name="Ivy", token="cat")
    assert "The table is full" in messages(banker.page(answer.headers["Location"]))
    assert len(names(lobby)) == 8


def test_the_banker_types_the_opening_roll_of_a_seat_without_a_phone(host, lobby):
    """In the lobby the host offers each seat's opening roll, folded under its name, as its phone
    would: the roll goes in for that seat, and the places follow it."""
    banker = host(lobby)
    add(banker, "Hugo", "dog")
    html = banker.page()
    assert "Type Hugo&#39;s opening roll" in html or "Type Hugo's opening roll" in unescape(html)
    roll = page_form(html, "opening_roll", player="3")
    answer = banker.client.post(roll.action, data={**roll.data(), "die1": "6", "die2": "5"}, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and "Hugo rolled 11 for the seat order." in unescape(answer.get_data(as_text=True))
    hugo = next(p for p in lobby.state()["players"] if p["name"] == "Hugo")
    assert hugo["opening_rolls"] == [11]
    # The roll is Hugo's: a second one is refused, and no other seat's roll was sent.
    assert not page_forms(banker.page(), "opening_roll", player="3")
    assert [p["opening_rolls"] for p in lobby.state()["players"] if p["name"] != "Hugo"] == [[], []]
    # Only the banker's screen offers it.
    assert not page_forms(banker.client.application.test_client().get(f"/t/{lobby.code}").get_data(as_text=True),
                          "opening_roll")


def test_the_seat_panel_says_it_acts_for_any_seat(host, game):
    """It lists every seat (a phone may be flat or away), and its hint says so."""
    html = unescape(host(game).page())
    assert "Any seat, for a player without a phone or whose phone is away" in html
    assert "For a player without a phone: bids" not in html
