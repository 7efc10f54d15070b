"""A tournament in the store (store/tournaments.py), on SQLite and PostgreSQL: its actions are a
log like a game's, replaying it gives the snapshot, undo takes back the newest of the organiser's
actions by replay, a refusal writes nothing, a seating makes each table's game with the entrants'
tokens, and a table's game ending scores the table."""

import pytest
from sqlalchemy import func, select

from banker import store
from banker.models import Entrant, Game, Seat, Tournament, TournamentAction, db
from banker.rules import Actor, GameError
from banker.rules.tournament import EventActor
from banker.store import tournaments

pytestmark = pytest.mark.storage  # each action is a transaction under the tournament's lock

ORGANISER = tournaments.ORGANISER
SETTINGS = {"name": "Club night", "rounds": 2, "round_minutes": 60, "table_size": 4,
            "scoring": {"kind": "placings", "placings": [4, 2, 1, 0]}}


def fresh(code: str) -> Tournament:
    db.session.rollback()  # a read transaction begun before the last commit would see the old row
    return tournaments.find_tournament(code)


def logged(code: str) -> list[tuple[str, bool]]:
    tournament = fresh(code)
    return [(a.type, a.undone) for a in db.session.scalars(
        select(TournamentAction).where(TournamentAction.tournament_id == tournament.id).order_by(TournamentAction.seq))]


def test_the_log_undo_and_replay_of_an_evening(app):
    tournament, organiser_token = tournaments.create_tournament(SETTINGS)
    code = tournament.code
    tokens = {}
    for name in ("Ann", "Bob", "Cy", "Di", "Ed"):
        acted, tokens[name] = tournaments.register(code, name)
    with pytest.raises(GameError):  # names are unique whatever their case; nothing is written
        tournaments.register(code, "ann")
    with pytest.raises(GameError):  # a player may not seat a round
        tournaments.act(code, {"type": "seat_round"}, EventActor(player=1))
    assert db.session.scalar(select(func.count()).select_from(Entrant)) == 5
    assert fresh(code).version == 5

    tournaments.act(code, {"type": "withdraw", "player": 5}, ORGANISER)
    tournaments.act(code, {"type": "undo"}, ORGANISER)  # Ed is back
    assert not tournaments.load(fresh(code)).players[4].withdrawn
    tournaments.act(code, {"type": "draw_seed", "seed": 77}, ORGANISER)

    seated = tournaments.act(code, {"type": "seat_round"}, ORGANISER)
    table = seated.state.round.tables[0]
    assert [len(t.seats) for t in seated.state.round.tables] == [5] and table.game
    game = store.find_game(table.game)
    assert [p.name for p in store.load_state(game).players] == [
        seated.state.player(p).name for p in table.seats]
    # Each seat holds its entrant's token, and the organiser's token is the game's banker's.
    first = next(name for name, _ in tokens.items() if seated.state.player(table.seats[0]).name == name)
    assert store.visit(table.game, tokens[first])[1] == Actor(player=1)
    assert store.visit(table.game, organiser_token)[1] == Actor(banker=True)
    with pytest.raises(GameError):  # what the store recorded of its games is not undone
        tournaments.act(code, {"type": "undo"}, ORGANISER)
    # The table's seats are the seating's: a stranger's join is refused, and nothing changes.
    with pytest.raises(GameError) as refused:
        store.act(table.game, {"type": "join", "name": "Stranger", "token": "ship"})
    seated_game = store.find_game(table.game)
    assert refused.value.code == "seats_fixed" and seated_game.version == len(table.seats) + 1
    assert store.replay_game(seated_game).to_dict() == seated_game.state and seated_game.state["seats_fixed"]

    # Real times (the server's clock keeper calls the last turn of a round whose time is up), later on.
    now = tournaments.now()
    tournaments.act(code, {"type": "start_round"}, ORGANISER, at=now)
    assert store.load_state(store.find_game(table.game)).status == "playing"
    tournaments.act(code, {"type": "pause_clock"}, ORGANISER, at=now + 600)
    tournaments.act(code, {"type": "resume_clock"}, ORGANISER, at=now + 1_000)
    assert tournaments.load(fresh(code)).clock.ends_at == now + 1_000 + 3_000
    tournaments.act(code, {"type": "undo"}, ORGANISER)
    assert tournaments.load(fresh(code)).clock.paused_remaining == 3_000
    # Each table's game was told the clock each time: its own screens show it paused, as it is now.
    told = [a for _, a in store.live_log(store.find_game(table.game).id) if a["type"] == "round_clock"]
    assert told == [{"type": "round_clock", "ends_at": now + 3_600}, {"type": "round_clock", "paused_left": 3_000},
                    {"type": "round_clock", "ends_at": now + 4_000}, {"type": "round_clock", "paused_left": 3_000, "last_turn": False}]
    assert store.load_state(store.find_game(table.game)).round_paused_left == 3_000

    # The table's game ends (the organiser ends it as its banker): the table is scored, by the hook.
    store.act(table.game, {"type": "bank_pay", "player": 2, "amount": 100, "memo": "prize"}, organiser_token)
    store.act(table.game, {"type": "end_game"}, organiser_token)
    state = tournaments.load(fresh(code))
    assert state.status == "between"
    points = {r.player: r.points for r in state.round.tables[0].results}
    assert points[table.seats[1]] == 4 and sorted(points.values()) == [0, 0, 0, 0, 4]  # four tied second share 2+1+0+0

    assert [kind for kind, _ in logged(code)] == [
        "register"] * 5 + ["withdraw", "undo", "draw_seed", "seat_round", "tables_created", "start_round",
                           "pause_clock", "resume_clock", "undo", "table_result"]
    assert [kind for kind, undone in logged(code) if undone] == ["withdraw", "resume_clock"]
    assert tournaments.replay(fresh(code)).to_dict() == fresh(code).state


def test_a_refused_action_writes_nothing_and_an_unknown_tournament_is_not_found(app):
    tournament, _ = tournaments.create_tournament(SETTINGS)
    before = db.session.scalar(select(func.count()).select_from(TournamentAction))
    for data in ({"type": "fly"}, {"type": "start_round"}, {"type": "undo"}, {"type": "seat_round", "x": 1}):
        with pytest.raises(GameError):
            tournaments.act(tournament.code, data, ORGANISER)
    assert db.session.scalar(select(func.count()).select_from(TournamentAction)) == before
    assert fresh(tournament.code).version == 0
    with pytest.raises(tournaments.TournamentNotFound):
        tournaments.act("ZZZZZ", {"type": "seat_round"}, ORGANISER)
    with pytest.raises(GameError):
        tournaments.create_tournament({**SETTINGS, "rounds": 0})
    assert db.session.scalar(select(func.count()).select_from(Game)) == 0
    assert db.session.scalar(select(func.count()).select_from(Seat)) == 0
