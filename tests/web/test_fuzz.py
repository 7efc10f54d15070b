"""Junk in, never a server error out: Hypothesis sends malformed bodies and forms through every way
into a game (the JSON API's create, join and actions; the home form; the host's and the phones'
action forms), in games at several stages, and a refusal changes nothing (docs/security.md, Who may do what).

Each example starts from a sane action and spoils it a little (a field of the wrong type, a huge or
fractional number, a missing or an unknown field, a junk nonce), so that most examples get past the
first check and reach the rules."""

import json
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from banker.models import Game as GameRow
from banker.models import db
from banker.rules.actions import UNDO
from banker.rules.declaration import ACTIONS
from banker.rules.board import EDITIONS
from banker.rules.state import TOKENS, Settings

from .games import HTMX, SCENARIOS, bearer, csrf_token, form, new_game, ready

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
FEW = settings(FUZZ, max_examples=100)

# The stages of a game the fuzz acts in: every scenario of games.py (each a situation in which its
# action is legal, so that a spoilt copy of it reaches the rules' deepest checks) and a game over.
STAGES = [*SCENARIOS, "ended"]
TYPES = sorted([*ACTIONS, UNDO])
FIELDS = {kind: [f.name for f in fields(cls)] for kind, cls in ACTIONS.items()}
FIELDS[UNDO] = []
CARDS = sorted(c["id"] for deck in json.loads((EDITIONS / "us_cards.json").read_text()).values()
               if isinstance(deck, list) for c in deck)  # (its printings are a dict)
OFFICIAL = vars(Settings())

# Leaves: numbers of every kind, text that looks like a number, and words the parsers know.
NUMBERS = st.one_of(
    st.integers(-3, 45),
    st.sampled_from([-1, 10**6, 10**6 + 1, 10**9 + 1, 2**31, 2**63, -(2**63), 10**300, -(10**300)]),
    st.floats(),
)
NUMERALS = st.sampled_from([
    "", " ", "0", "1", "-1", "--5", "-", "+5", " 12 ", "\u00a05", "١٢", "²", "½", "Ⅻ", "1e3", "0x10",
    "1_000", "1.5", "NaN", "inf", "0" * 19 + "1", "9" * 21, "9" * 400, "9" * 5000,
])
WORDS = st.sampled_from([
    "bank", "free_parking", "house", "hotel", "chance", "chest", "flat", "percent", "choice", "cost",
    "none", "2008", "2021", *TOKENS, *CARDS[:4], "Ann", "a" * 81, "a\x00b", "\u202e", "𝟘", "<b>x</b>",
    "{0}", "{player}", "%(kb)s", "__class__", "undo", "player",
])
FORM_TEXT = NUMERALS | WORDS | st.text(max_size=12)
LEAVES = st.none() | st.booleans() | NUMBERS | FORM_TEXT | st.just("\ud800")  # a lone surrogate: JSON only
JUNK = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6) | WORDS, inner, max_size=3), max_leaves=8)
WRITTEN = st.text(st.characters(categories=["L", "N", "P", "S"]), min_size=1, max_size=10)  # printable
NONCES = st.sampled_from(["n1", "n2"]) | WRITTEN  # reused: repeats and other actors'

# Where a request goes: mostly the game's own code; else that in lower case, a code no game has,
# or text that could not be a code.
PLACES = st.sampled_from(["own"] * 6 + ["lower", "ZZZZZ", "not-a-code"])
SQUARE = st.integers(0, 39)
SIDE = st.fixed_dictionaries({}, optional={"cash": st.integers(0, 300), "squares": st.lists(SQUARE, max_size=2),
                                           "jail_cards": st.lists(st.sampled_from(CARDS), max_size=1)})
# Values that pass a field's parser, so that junk in one field meets sane values in the others.
SANE = {
    "player": st.integers(1, 3), "to": st.sampled_from([1, 2, 3, "bank", "free_parking"]),
    "amount": st.integers(1, 2000), "memo": WRITTEN, "square": SQUARE,
    "dice": st.lists(st.integers(1, 6), min_size=2, max_size=2), "order": st.permutations([1, 2]),
    "levels": st.dictionaries(st.sampled_from(["1", "3", "6", "39"]), st.integers(0, 5), min_size=1, max_size=3),
    "give": SIDE, "get": SIDE, "lift": st.lists(SQUARE, max_size=2, unique=True),
    "trade": st.integers(1, 4), "debt": st.integers(1, 4), "deck": st.sampled_from(["chance", "chest"]),
    "card": st.sampled_from(CARDS), "building": st.sampled_from(["house", "hotel"]),
    "effect": st.sampled_from([{"kind": "pay", "amount": 20}, {"kind": "move_to", "square": 39},
                               {"kind": "advance_to_nearest", "type": "railroad"}, {"kind": "go_to_jail"}]),
    "choice": st.sampled_from(["flat", "percent"]), "high_bid": st.integers(0, 50),
    "name": st.sampled_from(["Cy", "Ann", "Dee"]), "token": st.sampled_from(TOKENS), "count": st.booleans(),
    # A round's clock (a tournament's table): an end long gone or far ahead; a paused clock's time left;
    # the last turn called or no longer called.
    "ends_at": st.sampled_from([0, 1_000, 2**40]), "paused_left": st.integers(0, 3_600), "last_turn": st.booleans(),
}


@st.composite
def spoiled(draw, sane: dict, keys: list, junk=JUNK) -> dict:
    """`sane` with up to two of `keys` given junk or left out."""
    spoilt = dict(sane)
    for _ in range(draw(st.integers(0, 2))):
        key = draw(st.sampled_from(keys))
        if draw(st.integers(0, 3)):
            spoilt[key] = draw(junk)
        else:
            spoilt.pop(key, None)
    return spoilt


@st.composite
def actions(draw) -> dict:
    """A sane action of any type, acting for a seat now and then."""
    kind = draw(st.sampled_from(TYPES))
    action = {"type": kind}
    for name in FIELDS[kind]:
        if name == "player" and draw(st.booleans()) or name != "player" and draw(st.integers(0, 4)):
            action[name] = draw(SANE[name])
    return action


@st.composite
def moves(draw, stage: str) -> tuple:
    """Who acts and a sane action: mostly the stage's own action, by Ann or by the banker for her;
    else any action by anyone (the banker, Ann, Bob, or nobody)."""
    scenario = SCENARIOS.get(stage)
    if scenario and draw(st.integers(0, 2)):
        who = "banker" if scenario.banker_only else draw(st.sampled_from([1, "banker"]))
        action = dict(scenario.by_banker() if who == "banker" else scenario.action)
    else:
        who, action = draw(st.sampled_from(["banker", 1, 2] * 4 + [None])), draw(actions())
    if draw(st.booleans()):
        action["nonce"] = draw(NONCES)
    return who, action


@st.composite
def api_moves(draw):
    """A stage, who acts and the body they send: a sane action spoilt a little; now and then not an
    object at all."""
    stage = draw(st.sampled_from(STAGES))
    who, action = draw(moves(stage))
    if draw(st.integers(0, 29)) == 0:
        return stage, who, draw(JUNK)
    return stage, who, draw(spoiled(action, [*FIELDS[action["type"]], "type", "nonce", "player", "extra"]))


class Stages:
    """One game per stage, made on first use for the whole test (not per example) and made again
    only when an accepted action moved it on and could not be undone."""

    def __init__(self, client):
        self.client = client
        self.games = {}

    def __getitem__(self, stage: str):
        if stage not in self.games:
            if stage == "ended":
                self.games[stage] = new_game(self.client)
                self.games[stage].ok("banker", type="end_game")
            else:
                self.games[stage] = ready(self.client, stage)
        return self.games[stage]

    def settle(self, stage: str, kind, before: dict, after: dict) -> None:
        """After a request: a moved game is put back by undoing the action, or dropped for a new one."""
        if after["version"] == before["version"]:
            return
        game = self.games[stage]
        if kind == UNDO or game.act("banker", type="undo").status_code != 200:
            del self.games[stage]


@pytest.fixture
def stages(client):
    return Stages(client)


def code_for(game, place: str) -> str:
    """The code in a request's path for one of PLACES."""
    return {"own": game.code, "lower": game.code.lower()}.get(place, place)


def games_made(app) -> int:
    """How many games the database holds."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(GameRow))


def send_json(client, path: str, body, token: str | None = None):
    """POST `body` as JSON exactly as given (NaN and infinities included), with a bearer token if any."""
    return client.post(path, data=json.dumps(body), content_type="application/json", headers=bearer(token))


def assert_answered(response, sent) -> None:
    assert response.status_code < 500, (sent, response.status_code, response.get_data(as_text=True)[:500])


def assert_refused_as_json(response) -> None:
    """A 4xx answer of the API: {"error": {"code", "message"}}, both non-empty text."""
    assert 400 <= response.status_code < 500, (response.status_code, response.get_data(as_text=True))
    error = response.get_json()["error"]
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]


def assert_money_is_whole(state: dict) -> None:
    """Money is int, never float (docs/design.md, Money is int): whatever was accepted kept it so."""
    sums = [state["free_parking"], *(p["cash"] for p in state["players"]), *(d["amount"] for d in state["debts"]),
            *(t[side]["cash"] for t in state["trades"] for side in ("give", "get")),
            (state["auction"] or {}).get("high_bid", 0)]
    assert all(type(amount) is int for amount in sums), sums
    assert all(type(value) is type(OFFICIAL[key]) for key, value in state["rules"].items()), state["rules"]


@FUZZ
@given(move=api_moves(), place=PLACES)
@example(move=("pay_player", 1, {"type": "pay", "to": 2, "amount": 1.0}), place="own")
@example(move=("bank_pay", "banker", {"type": "bank_pay", "player": 1, "amount": "9" * 5000}), place="own")
@example(move=("roll", 1, {"type": "roll", "dice": [3, 4], "nonce": 5}), place="ZZZZZ")
def test_junk_actions_through_the_api_are_refused_and_change_nothing(stages, move, place):
    stage, who, body = move
    game = stages[stage]
    before = game.state()
    response = send_json(game.client, f"/api/games/{code_for(game, place)}/actions", body, game.token(who))
    assert_answered(response, body)
    after = game.state()
    if response.status_code != 200:
        assert_refused_as_json(response)
        assert after == before, body
    assert_money_is_whole(after)
    stages.settle(stage, body.get("type") if isinstance(body, dict) else None, before, after)


SETTING_VALUES = st.sampled_from([0, 75, 100, 1500, True, False, "flat", "choice", "cost", "2008", "uk_modern", "fr"])


@st.composite
def new_game_bodies(draw):
    """A new game's body: sane settings spoilt a little (attribute names such as "parse" among the
    unknown ones), an edition or junk for it; now and then not an object at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JUNK)
    rules = draw(st.dictionaries(st.sampled_from(sorted(OFFICIAL)), SETTING_VALUES, max_size=4))
    rules = draw(spoiled(rules, [*OFFICIAL, "parse", "__dict__", "dragons"], JUNK | SETTING_VALUES))
    body = {"edition": "us", "rules": rules}
    return draw(spoiled(body, ["edition", "rules", "extra"]))


@FEW
@given(body=new_game_bodies())
@example(body={"rules": {"parse": 1}})
@example(body={"rules": "ab"})
@example(body={"rules": [1]})
@example(body={"rules": {"luxury_tax": 75.0}})
@example(body={"edition": ["us"]})
def test_a_junk_new_game_body_is_refused_and_makes_no_game(app, client, body):
    made = games_made(app)
    response = send_json(client, "/api/games", body)
    assert_answered(response, body)
    if response.status_code == 201:
        new = response.get_json()
        assert_money_is_whole(client.get(f"/api/games/{new['code']}", headers=bearer(new["banker_token"])).get_json())
    else:
        assert_refused_as_json(response)
        assert games_made(app) == made, body


@st.composite
def join_bodies(draw):
    """A join: a sane name and token spoilt a little; now and then not an object at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JUNK)
    body = {"name": draw(SANE["name"]), "token": draw(SANE["token"])}
    return draw(spoiled(body, ["name", "token", "player", "nonce", "type", "extra"]))


@FEW
@given(stage=st.sampled_from(["opening_roll", "roll"]), body=join_bodies(), place=PLACES)  # lobby, and started
def test_a_junk_join_is_refused_and_seats_nobody(stages, stage, body, place):
    game = stages[stage]
    before = game.state()
    response = send_json(game.client, f"/api/games/{code_for(game, place)}/players", body)
    assert_answered(response, body)
    after = game.state()
    if response.status_code == 201:
        del stages.games[stage]  # a seat cannot be undone: the next example gets a new game
    else:
        assert_refused_as_json(response)
        assert after == before, body


# Bodies no JSON encoder writes: nested past the parser's recursion limit, over the size limit,
# not UTF-8, cut short, a number literal past int()'s digit limit, literals JSON does not have.
RAW_BODIES = {
    "deep": b"[" * 20_000 + b"]" * 20_000,
    "oversized": b'{"type": "pay", "to": 2, "amount": 5, "memo": "' + b"x" * 70_000 + b'"}',
    "not-utf8": b'{"type": "join", "name": "\xff\xfe", "token": "cat"}',
    "cut-short": b'{"type": "roll", "dice": [1, 2]',
    "5000-digits": b'{"type": "bank_pay", "player": 1, "amount": ' + b"9" * 5000 + b"}",
    "infinity": b'{"type": "bank_pay", "player": 1, "amount": 1e400, "rules": {"start_cash": -Infinity}}',
    "nan": b'{"type": "pay", "to": 2, "amount": NaN, "rules": {"start_cash": NaN}}',
    "empty": b"",
}


@pytest.mark.parametrize("content_type", ["application/json", "text/plain"])
@pytest.mark.parametrize("body", RAW_BODIES.values(), ids=RAW_BODIES)
def test_a_body_that_is_not_sane_json_is_refused_everywhere_and_changes_nothing(app, client, lobby, body,
                                                                              content_type):
    before, made = lobby.state(), games_made(app)
    paths = {f"/api/games/{lobby.code}/actions": lobby.banker, f"/api/games/{lobby.code}/players": None,
             "/api/games": None}
    for path, token in paths.items():
        response = client.post(path, data=body, content_type=content_type, headers=bearer(token))
        assert_answered(response, (path, body[:50]))
        assert_refused_as_json(response)
    assert (lobby.state(), games_made(app)) == (before, made)


def form_values(values=FORM_TEXT):
    """A form field's value as a browser may send it: one, or several under one name."""
    return values | st.lists(values, min_size=2, max_size=3)


@pytest.fixture
def home_csrf(client):
    return csrf_token(client, "/")


@FEW
@given(fields=st.dictionaries(st.sampled_from(sorted(OFFICIAL)), form_values(st.sampled_from(
           ["on", "0", "75", "100", "1500", "2008", "cost", "choice"]) | FORM_TEXT), max_size=6)
       .flatmap(lambda sane: spoiled(sane, [*OFFICIAL, "parse", "dragons"], form_values())),
       htmx=st.booleans())
@example(fields={"start_cash": "--5"}, htmx=False)
@example(fields={"go_salary": "²"}, htmx=False)
@example(fields={"time_limit_minutes": "9" * 5000}, htmx=False)
def test_the_home_form_refuses_junk_settings_and_makes_no_game(app, client, home_csrf, fields, htmx):
    made = games_made(app)
    response = client.post("/games", data={**fields, "csrf_token": home_csrf}, headers=HTMX if htmx else {})
    assert_answered(response, fields)
    if response.status_code != 303:
        assert 400 <= response.status_code < 500
        assert games_made(app) == made, fields


class Screens:
    """The host's laptop (/t) and the phones of seats 1 and 2 (/p) for each stage's game: opened
    once per game, through the fixtures that open them for every web test."""

    def __init__(self, stages: Stages, host, phone):
        self.stages, self.host, self.phone = stages, host, phone
        self.browsers = {}

    def post(self, stage: str, who, fields: dict, htmx: bool, place: str = "own"):
        """Submit an action form on `who`'s screen (to the game at `place`); returns the answer and
        whether it was refused (a 4xx, or a plain form sent back with an error message)."""
        game = self.stages[stage]
        if (game.code, who) not in self.browsers:
            self.browsers[game.code, who] = self.host(game) if who == "banker" else self.phone(game, who)
        browser = self.browsers[game.code, who]
        path = f"/{'t' if who == 'banker' else 'p'}/{code_for(game, place)}/act"
        response = browser.client.post(path, data={"csrf_token": browser.csrf, **fields},
                                       headers=HTMX if htmx else {})
        with browser.client.session_transaction() as session:
            flashed = session.pop("_flashes", [])
        return response, 400 <= response.status_code < 500 or any(kind == "error" for kind, _ in flashed)


@pytest.fixture
def screens(stages, host, phone):
    return Screens(stages, host, phone)


FORM_KEYS = sorted({name for names in FIELDS.values() for name in names} | {
    "type", "nonce", "die1", "die2", "pos-1", "pos-2", "pos-x", "level-1", "level-3", "level-x", "give_cash",
    "give_squares", "give_cards", "get_cash", "get_squares", "get_cards", "csrf_token", "extra",
})


@st.composite
def form_moves(draw):
    """A stage, whose screen and the form it sends: a sane action as the pages' forms send it,
    spoilt a little."""
    stage = draw(st.sampled_from(STAGES))
    who, action = draw(moves(stage))
    who = who or "banker"  # each screen holds a badge; a screen without one is test_authorization's
    fields = form({k: v for k, v in action.items() if k != "nonce"}, None, action.get("nonce") or draw(NONCES))
    return stage, who, draw(spoiled(fields, FORM_KEYS, form_values()))


@FUZZ
@given(move=form_moves(), htmx=st.booleans(), place=PLACES)
@example(move=("roll", 1, {"type": "roll", "die1": "3", "die2": "9" * 5000}), htmx=False, place="own")
@example(move=("start_in_order", "banker", {"type": "start", "pos-1": "1_0", "pos-2": "²"}), htmx=True, place="own")
@example(move=("roll", 1, {"type": "roll", "die1": "3"}), htmx=False, place="ZZZZZ")
@example(move=("move", "banker", {"type": "move", "player": "1", "square": "5", "nonce": "\x00"}), htmx=True,
         place="ZZZZZ")
def test_junk_action_forms_are_refused_and_change_nothing(stages, screens, move, htmx, place):
    stage, who, fields = move
    before = stages[stage].state()
    response, refused = screens.post(stage, who, fields, htmx, place)
    assert_answered(response, fields)
    after = stages[stage].state()
    if refused:
        assert after == before, fields
    assert_money_is_whole(after)
    kind = fields.get("type")
    stages.settle(stage, kind[0] if isinstance(kind, list) else kind, before, after)
