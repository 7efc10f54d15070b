"""Joining from the QR code's page and moving a seat to a new phone, with CSRF protection on."""

import re
import time
from html import unescape

import pytest
from sqlalchemy import text

from banker import store
from banker.models import db

from .games import CSRF, Browser, bearer, csrf_token, new_game, page_forms, rejoin_address, take_seat

NONCE = re.compile(r'name="nonce" value="([^"]+)"')


def join_form(client, code: str) -> dict:
    """The hidden fields of the join page's form, as the phone received them."""
    html = client.get(f"/j/{code}").get_data(as_text=True)
    return {"csrf_token": CSRF.search(html).group(1), "nonce": NONCE.search(html).group(1)}


def join(client, code: str, name: str, token: str):
    return client.post(f"/j/{code}", data={**join_form(client, code), "name": name, "token": token})


def names(game) -> list[str]:
    return [p["name"] for p in game.state()["players"]]


def test_joining_from_the_join_page_takes_a_seat_and_opens_the_phone_screen(client, lobby):
    response = join(client, lobby.code, "Cy", "dog")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/p/{lobby.code}"
    page = client.get(f"/p/{lobby.code}")
    assert page.status_code == 200
    assert "Cy" in page.get_data(as_text=True)
    assert names(lobby) == ["Ann", "Bob", "Cy"]


def test_the_join_page_offers_the_free_tokens(client, lobby):
    html = client.get(f"/j/{lobby.code}").get_data(as_text=True)
    assert re.search(r'value="dog" required\s*>', html)
    assert re.search(r'value="hat" required disabled', html)


def test_reloading_the_phone_keeps_the_seat(client, lobby):
    join(client, lobby.code, "Cy", "dog")
    for _ in range(2):
        page = client.get(f"/p/{lobby.code}")
        assert page.status_code == 200
        assert "Cy" in page.get_data(as_text=True)
    again = client.get(f"/j/{lobby.code}")
    assert again.status_code == 302
    assert again.headers["Location"] == f"/p/{lobby.code}"
    assert names(lobby) == ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize("name, token, says", [
    ("ann", "dog", "ann is already playing; pick another name."),
    ("Cy", "hat", "The Top hat is taken; pick another token."),
    ("   ", "dog", "Type a name."),
    ("", "dog", "Type a name."),
    ("x" * 21, "dog", "name must be at most 20 printable characters."),
    ("Cy", "unicorn", "Pick one of the eight tokens."),
])
def test_a_refused_join_says_why_on_the_page_and_takes_no_seat(client, lobby, name, token, says):
    response = join(client, lobby.code, name, token)
    assert response.status_code == 422
    html = unescape(response.get_data(as_text=True))
    assert says in html
    assert 'role="alert"' in html and "<form" in html
    assert names(lobby) == ["Ann", "Bob"]
    assert client.get(f"/p/{lobby.code}").status_code == 302


def test_joining_after_the_start_is_refused_with_a_message(client, game):
    page = client.get(f"/j/{game.code}").get_data(as_text=True)
    assert "joining is closed" in page
    response = client.post(f"/j/{game.code}", data={
        "csrf_token": csrf_token(client, f"/j/{game.code}"), "nonce": "late", "name": "Cy", "token": "dog"})
    assert response.status_code == 422
    assert "The game has already started; joining is closed." in response.get_data(as_text=True)
    assert names(game) == ["Ann", "Bob"]


def test_the_banker_rejoin_code_moves_a_seat_to_a_new_phone(app, game, host, phone):
    old = phone(game, 1)
    banker = host(game)
    made = banker.client.post(f"/t/{game.code}/seats/1/rejoin", data={"csrf_token": banker.csrf})
    assert made.status_code == 303
    response = banker.client.get(made.headers["Location"])
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    url = re.search(r'<p class="url">(http://localhost/j/[^<]+)</p>', html).group(1)
    assert 'data-qr="rejoin"' in html and "<svg" in html
    assert "works once, within 10 minutes" in unescape(html)

    new = app.test_client()
    opened = new.get(url)  # a link preview, or the phone before its owner taps
    assert opened.status_code == 200
    assert "Take Ann's seat" in unescape(opened.get_data(as_text=True))
    assert old.client.get(f"/p/{game.code}").status_code == 200  # opening it changed nothing
    assert new.get(f"/p/{game.code}").headers["Location"] == f"/j/{game.code}"

    taken = take_seat(new, url)
    assert taken.status_code == 303 and taken.headers["Location"] == f"/p/{game.code}"
    assert "Ann" in new.get(f"/p/{game.code}").get_data(as_text=True)

    stale = old.client.get(f"/p/{game.code}")
    assert stale.status_code == 302
    assert stale.headers["Location"] == f"/j/{game.code}"
    refused = old.post({"type": "roll", "dice": [3, 4]})
    assert refused.status_code == 303 and refused.headers["Location"] == f"/j/{game.code}"
    assert game.act(1, type="roll", dice=[3, 4]).status_code == 401  # the seat's API token is retired too
    assert game.state()["players"][0]["position"] == 0

    csrf = csrf_token(new, f"/p/{game.code}")
    moved = new.post(f"/p/{game.code}/act", data={"csrf_token": csrf, "nonce": "n1", "type": "roll",
                                                   "die1": "3", "die2": "4"})
    assert moved.status_code == 303
    assert game.state()["players"][0]["position"] == 7


def test_a_rejoin_code_works_once(app, game, host):
    url = rejoin_address(host(game), 2)
    first, second = app.test_client(), app.test_client()
    first_page = second.get(url)  # both phones opened it before either tapped
    assert first_page.status_code == 200
    assert take_seat(first, url).status_code == 303
    [take] = page_forms(first_page.get_data(as_text=True))
    again = second.post(take.action, data=take.data())
    assert again.status_code == 303 and again.headers["Location"] == take.action
    told = second.get(again.headers["Location"])
    assert told.status_code == 404 and "no longer valid" in told.get_data(as_text=True)
    assert "Bob" in first.get(f"/p/{game.code}").get_data(as_text=True)
    assert second.get(f"/p/{game.code}").status_code == 302


def test_a_rejoin_code_expires_after_ten_minutes(app, game, host, monkeypatch):
    url = rejoin_address(host(game), 1)
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + store.CLAIM_SECONDS + 1)
    phone = app.test_client()
    opened = phone.get(url)
    assert opened.status_code == 404 and "no longer valid" in opened.get_data(as_text=True)
    monkeypatch.setattr(time, "time", lambda: now + store.CLAIM_SECONDS - 1)
    assert take_seat(phone, url).status_code == 303


def test_a_newer_rejoin_code_replaces_the_older_one(app, game, host):
    banker = host(game)
    older, newer = rejoin_address(banker, 1), rejoin_address(banker, 1)
    assert older != newer
    assert app.test_client().get(older).status_code == 404
    assert take_seat(app.test_client(), newer).status_code == 303


def test_a_rejoin_code_opens_nothing_but_its_seat(app, game, host):
    """Not a bearer token: the API and the pages refuse it; it only claims its seat."""
    url = rejoin_address(host(game), 1)
    code = url.rsplit("/", 1)[1]
    assert game.client.get(f"/api/games/{game.code}", headers=bearer(code)).status_code == 401
    assert game.client.post(f"/api/games/{game.code}/actions", json={"type": "pay", "to": 2, "amount": 5},
                            headers=bearer(code)).status_code == 401
    assert game.client.post(f"/j/{game.code}/r/{code}").status_code == 400  # a tap needs the page's form
    assert take_seat(app.test_client(), url).status_code == 303


def test_a_stale_rejoin_address_is_refused_with_a_message(client, game):
    response = client.get(f"/j/{game.code}/r/not-a-secret")
    assert response.status_code == 404
    assert "no longer valid" in response.get_data(as_text=True)
    assert client.get(f"/p/{game.code}").status_code == 302


def test_a_refused_tap_goes_on_to_a_page_that_a_reload_or_back_only_reads(app, game, host):
    """Post/redirect/get: a tap on a spent code (another phone's first, or this phone's own double
    tap) answers with a redirect to the code's address, which a reload asks with GET and which says
    why, offering no button to tap again; no cache keeps it, so Back asks the server again too."""
    url = rejoin_address(host(game), 2)
    path = url.removeprefix("http://localhost")
    first, second = app.test_client(), app.test_client()
    opened = {phone: phone.get(url) for phone in (first, second)}  # both opened it before either tapped
    assert all(page.headers["Cache-Control"] == "no-store" for page in opened.values())
    taps = {phone: page_forms(page.get_data(as_text=True))[0] for phone, page in opened.items()}
    assert first.post(taps[first].action, data=taps[first].data()).headers["Location"] == f"/p/{game.code}"
    for phone, says, status in ((second, "This rejoin code is no longer valid", 404),
                                (first, "This phone plays Bob's seat", 200)):  # a double tap's second
        refused = phone.post(taps[phone].action, data=taps[phone].data())
        assert refused.status_code == 303 and refused.headers["Location"] == path
        for _ in range(2):  # the page the redirect opens, and its reload
            page = phone.get(path)
            assert page.status_code == status and page.headers["Cache-Control"] == "no-store"
            html = unescape(page.get_data(as_text=True))
            assert says in html and not page_forms(html)
    assert "Bob" in first.get(f"/p/{game.code}").get_data(as_text=True)
    assert second.get(f"/p/{game.code}").status_code == 302


def test_back_from_the_phone_screen_after_the_tap_says_the_phone_has_the_seat(app, game, host):
    """Back from the phone screen lands on the rejoin address again: it tells the phone it holds
    the seat and links to its screen (a page, not a redirect, so a second Back goes on past it),
    rather than that its own code is void."""
    url = rejoin_address(host(game), 1)
    new = app.test_client()
    assert take_seat(new, url).headers["Location"] == f"/p/{game.code}"
    back = new.get(url)
    assert back.status_code == 200 and back.headers["Cache-Control"] == "no-store"
    html = unescape(back.get_data(as_text=True))
    assert "<h1>This phone plays Ann's seat</h1>" in html
    assert "This rejoin code no longer works, and this phone needs none: it already has its seat in game" in html
    assert f'<a class="button primary" href="/p/{game.code}">Back to the game</a>' in html
    assert "no longer valid" not in html and not page_forms(html)
    assert "Ann" in new.get(f"/p/{game.code}").get_data(as_text=True)
    # Any other code it opens says the same, but counts as an unknown code (a 404: limits.py).
    other = new.get(f"/j/{game.code}/r/never-given-0123456789")
    assert other.status_code == 404 and "This phone plays Ann's seat" in unescape(other.get_data(as_text=True))


def moved_notice(html: str) -> str | None:
    """The join page's word to a phone whose seat went to another phone, as text."""
    found = re.search(r'<section class="card gone"[^>]*>(.*?)</section>', unescape(html), re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else None


def test_the_old_phone_is_told_its_seat_is_played_on_another_phone(app, game, host, phone):
    old, stranger = phone(game, 1), app.test_client()
    take_seat(app.test_client(), rejoin_address(host(game), 1))
    reloaded = old.client.get(f"/p/{game.code}")
    assert reloaded.status_code == 302 and reloaded.headers["Location"] == f"/j/{game.code}"
    html = old.client.get(reloaded.headers["Location"]).get_data(as_text=True)
    told = moved_notice(html)
    assert told.startswith("Ann's seat is now played on another phone The banker gave this seat's rejoin code "
                           "to another phone, which now plays it; this phone can no longer act for it.")
    assert "ask the banker for a new rejoin code for it and open that code here." in told
    assert f'<a class="button" href="/t/{game.code}">Watch the game</a>' in html
    assert "joining is closed" not in html  # said to newcomers, not to a player of the game
    stranger_page = stranger.get(f"/j/{game.code}").get_data(as_text=True)
    assert moved_notice(stranger_page) is None and "joining is closed" in stranger_page
    assert moved_notice(phone(game, 2).client.get(f"/j/{game.code}").get_data(as_text=True)) is None


def test_in_the_lobby_the_old_phone_may_join_as_someone_else(app, lobby, host, phone):
    old = phone(lobby, 2)
    take_seat(app.test_client(), rejoin_address(host(lobby), 2))
    html = old.client.get(f"/j/{lobby.code}").get_data(as_text=True)
    assert moved_notice(html).startswith("Bob's seat is now played on another phone")
    assert "<h2>Join as someone else</h2>" in html
    [form] = page_forms(html)
    assert old.client.post(form.action, data={**form.data(), "name": "Cy", "token": "dog"}).status_code == 303
    assert names(lobby) == ["Ann", "Bob", "Cy"]
    assert "Cy" in old.client.get(f"/p/{lobby.code}").get_data(as_text=True)


def code_page(banker: Browser, pid: int) -> str:
    """Make a rejoin code for a seat with the host screen's button: the address it redirects to."""
    made = banker.client.post(f"/t/{banker.code}/seats/{pid}/rejoin", data={"csrf_token": banker.csrf})
    assert made.status_code == 303, made.status_code
    return made.headers["Location"]


def shown_address(html: str) -> str | None:
    found = re.search(r'<p class="url">([^<]+)</p>', html)
    return unescape(found.group(1)) if found else None


def claims(app) -> int:
    with app.app_context():
        return db.session.scalar(text("SELECT count(*) FROM claims"))


def test_a_rejoin_code_page_shows_the_same_code_on_every_reload_and_makes_none(app, game, host):
    banker = host(game)
    page = code_page(banker, 1)
    assert re.fullmatch(rf"/t/{game.code}/seats/1/rejoin/[\w-]{{20,}}", page)
    first, reloaded = banker.client.get(page), banker.client.get(page)
    assert first.status_code == reloaded.status_code == 200
    assert first.headers["Cache-Control"] == reloaded.headers["Cache-Control"] == "no-store"
    address = shown_address(first.get_data(as_text=True))
    assert address.rsplit("/", 1)[1] == page.rsplit("/", 1)[1]
    assert shown_address(reloaded.get_data(as_text=True)) == address
    assert "no longer works" in banker.page(f"/t/{game.code}/seats/1/rejoin/never-made")
    assert claims(app) == 1
    assert take_seat(app.test_client(), address).status_code == 303  # the code shown still works


def test_a_rejoin_code_page_and_its_live_connection_are_the_bankers_only(game, host, stranger, phone):
    page = code_page(host(game), 1)
    for browser in (stranger(game), phone(game, 1)):
        for path in (page, f"{page}/live?v=0"):
            response = browser.client.get(path)
            assert response.status_code == 403, path
            assert 'data-qr="rejoin"' not in response.get_data(as_text=True)
    assert host(game).client.get(page.replace("/seats/1/", "/seats/9/")).status_code == 404


def test_a_used_code_page_says_the_seat_is_on_the_new_phone_and_goes_back_to_the_table(app, game, host):
    banker = host(game)
    page = code_page(banker, 1)
    address = shown_address(banker.page(page))
    watching, seen = Browser(banker.client, game.code, page), game.state()["version"]
    assert watching.live(seen) == []  # quiet while the code works
    take_seat(app.test_client(), address)
    [told] = watching.live(seen)
    assert '<div id="live" hidden hx-swap-oob="true"></div>' in told.data  # its live connection ends
    for html in (unescape(told.data), unescape(banker.page(page))):
        assert "Ann's seat is on the new phone." in html
        assert f'<meta http-equiv="refresh" content="2;url=/t/{game.code}">' in html
        assert 'data-qr="rejoin"' not in html and address not in html
    assert claims(app) == 1  # reading it made nothing


def test_an_expired_or_replaced_code_page_offers_to_make_a_new_one(app, game, host, monkeypatch):
    banker = host(game)
    replaced, expired = code_page(banker, 2), code_page(banker, 2)
    monkeypatch.setattr(time, "time", lambda now=time.time(): now + store.CLAIM_SECONDS + 1)
    [told] = Browser(banker.client, game.code, expired).live(game.state()["version"])
    for html in (banker.page(replaced), banker.page(expired), told.data):
        assert "This code no longer works: it expired, or a newer one replaced it." in unescape(html)
        assert f'action="/t/{game.code}/seats/2/rejoin"' in html
        assert 'data-qr="rejoin"' not in html and "sse-connect" not in html
        assert "Bob's seat is on the new phone." not in unescape(html)


def test_a_double_submitted_join_form_takes_one_seat_for_both_requests(app, lobby):
    first = app.test_client()
    fields = {**join_form(first, lobby.code), "name": "Cy", "token": "dog"}
    second = app.test_client()  # the same browser before the first answer arrived: the same cookie
    second.set_cookie("session", first.get_cookie("session").value)

    answers = [browser.post(f"/j/{lobby.code}", data=fields) for browser in (first, second)]

    assert [a.status_code for a in answers] == [303, 303]
    assert all(a.headers["Location"] == f"/p/{lobby.code}" for a in answers)
    assert names(lobby) == ["Ann", "Bob", "Cy"]
    for browser in (first, second):
        page = browser.get(f"/p/{lobby.code}")
        assert page.status_code == 200
        assert "Cy" in page.get_data(as_text=True)


def test_a_repeated_api_join_takes_one_seat_and_never_hands_out_its_token_again(client, lobby):
    """An API client's nonce may be guessable, so repeating it must not reveal the seat's secret."""
    body = {"name": "Cy", "token": "dog", "nonce": "join-cy"}
    first, again = (client.post(f"/api/games/{lobby.code}/players", json=body) for _ in range(2))
    assert first.status_code == 201
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "already_joined"
    assert "player_token" not in again.get_json()
    assert names(lobby) == ["Ann", "Bob", "Cy"]


def test_a_full_table_refuses_a_ninth_player(client):
    game = new_game(client, players=0, start=False)
    for name, token in zip("ABCDEFGH", ["hat", "car", "dog", "iron", "ship", "wheelbarrow", "thimble", "cat"]):
        game.join(name, token)
    response = client.post(f"/api/games/{game.code}/players", json={"name": "I", "token": "hat"})
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "table_full"


def test_the_browser_key_is_kept_in_an_httponly_samesite_cookie(client, lobby):
    cookie = client.get(f"/j/{lobby.code}").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_secrets_are_stored_only_as_hashes(app, game):
    with app.app_context():
        stored = "\n".join(
            str(row) for table in ("games", "seats", "events")
            for row in db.session.execute(text(f"SELECT * FROM {table}"))
        )
    for secret in (game.banker, *game.seats.values()):
        assert secret not in stored


def test_two_api_joiners_with_one_nonce_each_get_a_seat_and_a_token(client, lobby):
    """A nonce is its joiner's, not every newcomer's (issue 22, item 6): a second person sending the
    same (or a pre-empted, predictable) nonce is seated too, and each one's token opens its own seat;
    the first one's retry is still answered as already joined."""
    answers = [client.post(f"/api/games/{lobby.code}/players", json={"name": name, "token": token, "nonce": "1"})
               for name, token in (("Cy", "dog"), ("Dee", "cat"), ("Cy", "dog"))]
    assert [a.status_code for a in answers] == [201, 201, 409]
    assert [a.get_json()["player_id"] for a in answers[:2]] == [3, 4]
    assert answers[2].get_json()["error"]["code"] == "already_joined"
    assert names(lobby) == ["Ann", "Bob", "Cy", "Dee"]
    for answer in answers[:2]:
        joined = answer.get_json()
        rolled = client.post(f"/api/games/{lobby.code}/actions", json={"type": "opening_roll", "dice": [1, 2]},
                             headers={"Authorization": f"Bearer {joined['player_token']}"})
        assert rolled.status_code == 200
        newest = client.get(f"/api/games/{lobby.code}/events", headers={"Authorization": f"Bearer {joined['player_token']}"})
        assert newest.get_json()["events"][-1]["actor"] == str(joined["player_id"])
