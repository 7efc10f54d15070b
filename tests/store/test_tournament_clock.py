"""The round's time is up: the server calls the last turn by itself, on SQLite and PostgreSQL,
whether or not a screen is open (issue 36). Each process's clock keeper calls it at the deadline,
also one started after the deadline went by (a restart); the first action on a table after the
deadline calls it before it is applied; two processes calling it at once record it once, and every
table is told once."""

import threading
from types import SimpleNamespace

import pytest
from flask import current_app
from sqlalchemy import func, select

from banker import gunicorn_config, store
from banker.models import TournamentAction, db
from banker.rules import Actor, GameError
from banker.store import tournaments

from ..apps import close, make_app

pytestmark = pytest.mark.storage

ORGANISER = tournaments.ORGANISER
SETTINGS = {"name": "Clock night", "rounds": 2, "round_minutes": 60, "table_size": 4}


def keeper_off(app) -> None:
    """This process's clock keeper hears nothing from now on (as if it were another process's)."""
    app.extensions["banker.notifier"].listeners.remove(app.extensions["banker.round_clock"].heard)


def a_round(ends_in: int) -> tuple[str, list[str]]:
    """A tournament of eight players in two tables whose round started so that its time is up
    `ends_in` seconds from now (already, when negative): its code and its tables' games."""
    code = tournaments.create_tournament(SETTINGS)[0].code
    for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
        tournaments.register(code, name)
    seated = tournaments.act(code, {"type": "seat_round"}, ORGANISER)
    tournaments.act(code, {"type": "start_round"}, ORGANISER, at=tournaments.now() + ends_in - 3_600)
    return code, [t.game for t in seated.state.round.tables]


def called(code: str) -> int:
    """How many times the tournament's log holds the last turn."""
    db.session.rollback()
    tournament = tournaments.find_tournament(code)
    return db.session.scalar(select(func.count()).select_from(TournamentAction).where(
        TournamentAction.tournament_id == tournament.id, TournamentAction.type == "last_turn"))


def called_by_a_keeper(code: str) -> int:
    """How many times the tournament's log holds the last turn once a clock keeper, on its own
    thread, has had its chance to call it (up to 200 looks, 50 ms apart)."""
    for _ in range(200):
        if called(code):
            break
        threading.Event().wait(0.05)
    return called(code)


def told(game: str) -> list[str]:
    """The types of a table's game's actions, oldest first."""
    db.session.rollback()
    return [action["type"] for _, action in store.live_log(store.find_game(game).id)]


def test_the_first_action_at_a_table_after_the_rounds_time_calls_the_last_turn_first(app):
    keeper_off(app)
    code, games = a_round(ends_in=-5)
    assert called(code) == 0  # nobody called it: no screen is open and the keeper heard nothing
    store.act(games[0], {"type": "bank_pay", "player": 1, "amount": 10, "memo": "prize"}, actor=Actor(banker=True))
    assert called(code) == 1
    assert told(games[0])[-3:] == ["round_clock", "last_turn", "bank_pay"]  # the action after the last turn
    assert told(games[1])[-2:] == ["round_clock", "last_turn"]  # and every table is in its last turn
    store.act(games[1], {"type": "bank_pay", "player": 1, "amount": 10, "memo": "prize"}, actor=Actor(banker=True))
    assert called(code) == 1 and told(games[1]).count("last_turn") == 1


def test_a_round_whose_time_runs_out_while_no_server_ran_gets_its_last_turn_from_the_next_one(app, database):
    keeper_off(app)
    code, games = a_round(ends_in=-1)  # its time ran out with no keeper to call the last turn
    restarted = make_app(database)  # a server started after (here a gunicorn worker) keeps the deadline
    try:
        gunicorn_config.post_worker_init(SimpleNamespace(wsgi=restarted))
        with restarted.app_context():
            assert restarted.extensions["banker.round_clock"].thread is not None
            assert called_by_a_keeper(code) == 1  # at once
    finally:
        close(restarted)
    assert [told(game).count("last_turn") for game in games] == [1, 1]


def test_two_processes_calling_the_last_turn_at_once_record_it_once(app, database):
    other = make_app(database)  # another process, started before the round
    keeper_off(app)
    keeper_off(other)
    code, games = a_round(ends_in=-1)
    answers, start = [], threading.Barrier(2)

    def call(process):
        with process.app_context():
            start.wait()
            answers.append(tournaments.call_time(code))
            store.release()

    try:
        callers = [threading.Thread(target=call, args=(process,)) for process in (app, other)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join()
    finally:
        close(other)
    assert sorted(answers) == [False, True]
    assert called(code) == 1
    assert [told(game).count("last_turn") for game in games] == [1, 1]


def test_a_tables_undo_passes_over_the_rounds_clock_the_organiser_runs(app):
    code, games = a_round(ends_in=600)
    banker = Actor(banker=True)
    store.act(games[0], {"type": "bank_pay", "player": 1, "amount": 10, "memo": "prize"}, actor=banker)
    tournaments.act(code, {"type": "pause_clock"}, ORGANISER)
    store.act(games[0], {"type": "undo"}, actor=banker)  # the payment, not the pause that came after it
    db.session.rollback()
    game = store.find_game(games[0])
    state = store.load_state(game)
    assert state.player(1).cash == 1_500 and state.round_paused_left is not None
    assert told(games[0])[-2:] == ["round_clock", "round_clock"] and "bank_pay" not in told(games[0])
    assert store.replay_game(game).to_dict() == game.state
    store.act(games[0], {"type": "undo"}, actor=banker)  # the start itself: the clock replays in the lobby
    db.session.rollback()
    game = store.find_game(games[0])
    assert store.load_state(game).status == "lobby" and store.replay_game(game).to_dict() == game.state


def host_screen(game: str) -> str:
    """A table's host screen, as its laptop shows it (without the banker's tools)."""
    db.session.rollback()
    return current_app.test_client().get(f"/t/{game}").get_data(as_text=True)


def test_the_organisers_undo_of_the_rounds_start_takes_back_every_tables_start_and_clock(app):
    keeper_off(app)
    code, games = a_round(ends_in=-5)  # its time even ran out: the start is undone before anyone called it
    banker = Actor(banker=True)
    tournaments.act(code, {"type": "undo"}, ORGANISER)
    # No keeper calls the last turn of a start that was undone, whenever it looks.
    assert app.extensions["banker.round_clock"].call_due() is None and called(code) == 0
    # The tables are back where the tournament is: not started, no clock on any screen.
    first = store.load_state(store.find_game(games[0]))
    assert first.status == "lobby" and first.round_ends_at is None and first.round_paused_left is None
    assert "data-deadline" not in host_screen(games[0]) and "Time left" not in host_screen(games[0])
    # A table whose start did not come last (the organiser acted there meanwhile) keeps its play, with no clock.
    tournaments.act(code, {"type": "start_round"}, ORGANISER)
    store.act(games[1], {"type": "bank_pay", "player": 1, "amount": 10, "memo": "prize"}, actor=banker)
    tournaments.act(code, {"type": "undo"}, ORGANISER)
    played_on = store.load_state(store.find_game(games[1]))
    assert played_on.status == "playing" and played_on.player(1).cash == 1_510
    assert played_on.round_ends_at is None and "Time left" not in host_screen(games[1])
    assert store.load_state(store.find_game(games[0])).status == "lobby"
    # Started again: every table plays to the new deadline.
    ends_at = tournaments.act(code, {"type": "start_round"}, ORGANISER).state.clock.ends_at
    for game in games:
        state = store.load_state(store.find_game(game))
        assert state.status == "playing" and state.round_ends_at == ends_at
        assert "data-deadline" in host_screen(game)
        assert store.replay_game(store.find_game(game)).to_dict() == store.find_game(game).state


def test_the_organisers_undo_of_the_last_turn_reaches_every_table_until_the_rounds_time_is_up(app):
    keeper_off(app)
    code, games = a_round(ends_in=600)
    tournaments.act(code, {"type": "pause_clock"}, ORGANISER)
    tournaments.act(code, {"type": "last_turn"}, ORGANISER)  # called early, the clock paused
    tournaments.act(code, {"type": "undo"}, ORGANISER)
    for game in games:
        state = store.load_state(store.find_game(game))
        assert not state.last_turn and state.round_paused_left is not None
        shown = host_screen(game)  # (the history still tells the last turn's call, then its undo)
        assert "Clock paused: 10:00 left" in shown and "time-limit over" not in shown
        assert store.replay_game(store.find_game(game)).to_dict() == store.find_game(game).state
    tournaments.act(code, {"type": "resume_clock"}, ORGANISER, at=tournaments.now() - 700)  # (its time is up now)
    assert tournaments.call_time(code)
    with pytest.raises(GameError) as refused:  # the time called it: undone, it would be called again at once
        tournaments.act(code, {"type": "undo"}, ORGANISER)
    assert refused.value.code == "time_is_up"
    assert all(store.load_state(store.find_game(game)).last_turn for game in games)


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
def test_another_serving_process_with_no_page_open_hears_of_a_round_and_calls_its_last_turn(app, database):
    keeper_off(app)  # this process starts the round and calls nothing
    other = make_app(database)  # a server's other process: serving, no page open
    try:
        gunicorn_config.post_worker_init(SimpleNamespace(wsgi=other))
        assert other.extensions["banker.notifier"].listening.wait(10)
        code, games = a_round(ends_in=-1)
        assert called_by_a_keeper(code) == 1  # the other process's keeper heard of the round
    finally:
        close(other)
    assert [told(game).count("last_turn") for game in games] == [1, 1]
