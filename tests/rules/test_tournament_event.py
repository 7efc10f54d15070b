"""An event's actions through apply_event: registration, seating, the clock and the last turn,
results, corrections, roll-offs, undo; every refusal changes nothing; the log replays to the state."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from banker.rules import ActionError, NotAllowed, RuleError
from banker.rules.tournament import (
    EventActor, EventSettings, apply_event, check_event_undo, is_last_turn, new_event, parse_event_action, ranking,
    replay_event, standings,
)

ORGANISER = EventActor(organiser=True)
GUEST = EventActor()
SETTINGS = {"name": "Club night", "rounds": 2, "round_minutes": 60, "scoring": {"kind": "placings"}, "final": 4}


class Event:
    """An event kept as its log of (actor, action, now), the way the store keeps it."""

    def __init__(self, players: int = 8, **settings):
        self.settings = EventSettings.parse({**SETTINGS, **settings})
        self.state = new_event(self.settings, seed=5)
        self.log = []
        for n in range(1, players + 1):
            self.do(GUEST, "register", name=f"Player {n}")

    def do(self, actor, type, now: int = 0, **fields) -> list[dict]:
        action = parse_event_action({"type": type, **fields})
        self.state, effects = apply_event(self.state, action, actor, now)
        self.log.append((actor, action.to_dict(), now))  # as the store would keep it
        return effects

    def refused(self, actor, type, error=RuleError, now: int = 0, **fields):
        before = self.state.to_dict()
        with pytest.raises(error) as caught:
            apply_event(self.state, parse_event_action({"type": type, **fields}), actor, now)
        assert self.state.to_dict() == before
        return caught.value.code

    def seat_and_start(self, now: int = 1000) -> list[list[int]]:
        tables = self.do(ORGANISER, "seat_round")[0]["tables"]
        number = self.state.round.number
        self.do(ORGANISER, "tables_created", games=[f"R{number}T{t}" for t in range(1, len(tables) + 1)])
        self.do(ORGANISER, "start_round", now=now)
        return tables

    def finish_round(self) -> None:
        """Each table's game ends with its seats placed in seat order."""
        for table in self.state.round.tables:
            self.do(ORGANISER, "table_result", table=table.number, results=[
                {"player": p, "net_worth": 4000 - 1000 * at, "place": at + 1} for at, p in enumerate(table.seats)])

    def replays(self) -> bool:
        return replay_event(self.settings, 5, self.log).to_dict() == self.state.to_dict()


def test_players_register_once_under_names_unique_whatever_their_case():
    event = Event(2)
    assert [p.name for p in event.state.players] == ["Player 1", "Player 2"]
    assert event.refused(GUEST, "register", name="player 1") == "name_taken"
    assert event.refused(EventActor(player=1), "register", name="Ann") == "already_registered"
    assert event.refused(GUEST, "add_player", NotAllowed, name="Ann") == "organiser_only"


def test_registration_closes_at_the_first_seating_and_the_organiser_adds_a_late_player():
    event = Event(8)
    event.seat_and_start()
    assert event.refused(GUEST, "register", name="Late") == "registration_closed"
    event.do(ORGANISER, "add_player", name="Late")
    assert all(9 not in t.seats for t in event.state.round.tables)
    event.finish_round()
    event.do(ORGANISER, "seat_round")
    assert any(9 in t.seats for t in event.state.round.tables)


def test_a_player_withdraws_themself_from_the_next_rounds():
    event = Event(9)
    assert event.refused(EventActor(player=2), "withdraw", NotAllowed, player=3) == "not_your_registration"
    event.do(EventActor(player=3), "withdraw", player=3)
    assert event.refused(ORGANISER, "withdraw", player=3) == "already_withdrawn"
    tables = event.seat_and_start()
    assert sorted(p for t in tables for p in t) == [1, 2, 4, 5, 6, 7, 8, 9]


def test_the_seed_is_drawn_again_only_before_the_first_round():
    event = Event(8)
    first = event.do(ORGANISER, "seat_round")[0]["tables"]
    assert event.refused(ORGANISER, "draw_seed", seed=6) == "already_seated"
    other = Event(8)
    other.do(ORGANISER, "draw_seed", seed=6)
    assert other.do(ORGANISER, "seat_round")[0]["tables"] != first


def test_a_round_is_seated_its_games_recorded_and_started_in_that_order():
    event = Event(8)
    assert event.refused(ORGANISER, "start_round") == "no_round"
    event.do(ORGANISER, "seat_round")
    assert event.state.status == "seated"
    assert event.refused(ORGANISER, "seat_round") == "round_not_over"
    assert event.refused(ORGANISER, "start_round") == "games_not_ready"
    assert event.refused(ORGANISER, "tables_created", games=["A"]) == "wrong_table_count"
    event.do(ORGANISER, "tables_created", games=["A", "B"])
    assert event.refused(ORGANISER, "tables_created", games=["C", "D"]) == "no_tables_waiting"
    effects = event.do(ORGANISER, "start_round", now=1000)
    assert effects == [{"kind": "round_started", "round": 1, "ends_at": 1000 + 3600}]
    assert event.state.status == "playing" and [t.status for t in event.state.round.tables] == ["playing"] * 2


def test_the_clock_pauses_and_resumes_with_the_time_it_had_left():
    event = Event(8)
    event.seat_and_start(now=1000)
    assert event.refused(ORGANISER, "resume_clock") == "clock_not_paused"
    event.do(ORGANISER, "pause_clock", now=1600)
    assert event.state.clock.paused_remaining == 3000 and event.state.clock.ends_at is None
    assert event.refused(ORGANISER, "pause_clock") == "clock_not_running"
    assert not is_last_turn(event.state, 10_000)
    event.do(ORGANISER, "resume_clock", now=5000)
    assert event.state.clock.ends_at == 8000


def test_the_last_turn_is_due_at_time_and_the_organiser_may_call_it_early():
    event = Event(8)
    event.seat_and_start(now=1000)
    assert not is_last_turn(event.state, 4599) and is_last_turn(event.state, 4600)
    assert event.refused(EventActor(player=1), "last_turn", now=4599) == "not_time_yet"
    effects = event.do(EventActor(player=1), "last_turn", now=4600)
    assert effects == [{"kind": "last_turn", "round": 1, "games": ["R1T1", "R1T2"]}]
    assert event.refused(ORGANISER, "last_turn") == "last_turn_called"
    early = Event(8)
    early.seat_and_start(now=1000)
    early.do(ORGANISER, "last_turn", now=1001)
    assert is_last_turn(early.state, 1001)


def test_results_score_each_table_and_the_last_ends_the_round():
    event = Event(8)
    tables = event.seat_and_start()
    first = tables[0]
    bad = [{"player": p, "net_worth": 100, "place": 1} for p in first[:-1]]
    assert event.refused(ORGANISER, "table_result", table=1, results=bad) == "wrong_players"
    effects = event.do(ORGANISER, "table_result", table=1, results=[
        {"player": p, "net_worth": 4000 - 1000 * at, "place": at + 1} for at, p in enumerate(first)])
    assert effects == [{"kind": "table_ended", "round": 1, "table": 1,
                        "points": {str(first[0]): 4, str(first[1]): 2, str(first[2]): 1, str(first[3]): 0}}]
    assert event.refused(ORGANISER, "table_result", table=1, results=bad) == "table_has_result"
    last = event.state.round.tables[1]
    effects = event.do(ORGANISER, "table_result", table=2, results=[
        {"player": p, "net_worth": 100, "place": 1} for p in last.seats])
    assert [e["kind"] for e in effects] == ["table_ended", "round_ended"]
    assert event.state.status == "between" and event.state.clock.ends_at is None


def test_an_evening_of_two_rounds_and_a_final_replays_to_its_state():
    event = Event(8)
    for _ in range(2):
        event.seat_and_start()
        event.finish_round()
    final = event.seat_and_start()
    assert event.state.round.final and len(final) == 1 and final[0] == [s.player for s in standings(event.state)][:4]
    event.do(ORGANISER, "table_result", table=1, results=[
        {"player": p, "net_worth": 1000 * at, "place": 4 - at} for at, p in enumerate(final[0])])
    assert event.state.status == "ended" and ranking(event.state)[:4] == final[0][::-1]
    assert event.refused(ORGANISER, "seat_round") == "event_over"
    assert event.replays()


def test_the_organiser_corrects_a_result_with_a_memo():
    event = Event(8)
    tables = event.seat_and_start()
    event.finish_round()
    player = tables[0][3]
    assert event.refused(ORGANISER, "correct_result", ActionError, table=1, points={str(player): 3}) == "missing_field"
    assert event.refused(ORGANISER, "correct_result", table=1, points={str(tables[1][0]): 3}, memo="x") == "not_at_table"
    event.do(ORGANISER, "correct_result", table=1, round=1, points={str(player): 3}, memo="Rent missed")
    assert next(s for s in standings(event.state) if s.player == player).points == 3
    assert event.state.table(1, 1).memo == "Rent missed"
    check_event_undo(ORGANISER, "correct_result", event.state, 0)
    event.log.pop()
    assert replay_event(event.settings, 5, event.log).table(1, 1).memo == ""


def test_a_roll_off_is_recorded_only_between_tied_players():
    event = Event(8)
    tables = event.seat_and_start()
    for table in event.state.round.tables:  # everyone level: same points, worth and place
        event.do(ORGANISER, "table_result", table=table.number, results=[
            {"player": p, "net_worth": 1000, "place": 1} for p in table.seats])
    a, b = tables[0][:2]
    event.do(ORGANISER, "roll_off", players=[b, a])
    order = [s.player for s in standings(event.state)]
    assert order.index(b) < order.index(a)
    event.do(ORGANISER, "correct_result", table=1, points={str(a): 9}, memo="fix")
    assert event.refused(ORGANISER, "roll_off", players=[a, b]) == "not_tied"


def test_undo_is_the_organisers_and_never_of_what_the_tables_did():
    state = Event(8).state
    with pytest.raises(NotAllowed):
        check_event_undo(EventActor(player=1), "seat_round", state, 0)
    with pytest.raises(RuleError):
        check_event_undo(ORGANISER, None, state, 0)
    said = set()
    for kind in ("register", "tables_created", "table_result"):  # each refusal says what to do instead
        with pytest.raises(RuleError) as refused:
            check_event_undo(ORGANISER, kind, state, 0)
        said.add(refused.value.message)
    assert len(said) == 3
    check_event_undo(ORGANISER, "seat_round", state, 0)


def test_a_last_turn_is_undone_before_the_rounds_time_is_up_never_after():
    event = Event(8)
    event.seat_and_start(now=1000)  # its time is up at 4600
    event.do(ORGANISER, "last_turn", now=2000)
    check_event_undo(ORGANISER, "last_turn", event.state, 4599)
    with pytest.raises(RuleError) as refused:  # undone, the time would call it again at once
        check_event_undo(ORGANISER, "last_turn", event.state, 4600)
    assert refused.value.code == "time_is_up"
    event.do(ORGANISER, "pause_clock", now=2000)
    check_event_undo(ORGANISER, "last_turn", event.state, 9000)  # called while paused: its time is not up


def test_bad_input_is_refused_with_a_clear_message():
    for data in ({"type": "seat"}, {"type": "withdraw"}, {"type": "table_result", "table": 1, "results": "x"},
                 {"type": "roll_off", "players": [1]}, {"type": "seat_round", "extra": 1}, []):
        with pytest.raises(ActionError):
            parse_event_action(data)
    for settings in ({"name": ""}, {"name": "x", "table_size": 6}, {"name": "x", "final": 1},
                     {"name": "x", "rules": {"preset": "nope"}}, {"name": "x", "edition": "mars"}, {"name": "x", "y": 1}):
        with pytest.raises(ActionError):
            EventSettings.parse(settings)


@given(players=st.integers(min_value=4, max_value=24), scoring=st.sampled_from(["net_worth", "placings", "jma"]),
       data=st.data())
@settings(max_examples=5, deadline=None)
def test_any_evening_seats_everyone_each_round_and_replays_to_its_state(players, scoring, data):
    event = Event(players, rounds=3, final=0, scoring={"kind": scoring})
    for _ in range(3):
        tables = event.seat_and_start()
        assert sorted(p for t in tables for p in t) == list(range(1, players + 1))
        for number, seats in enumerate(tables, 1):
            worths = data.draw(st.lists(st.integers(0, 5000), min_size=len(seats), max_size=len(seats)))
            event.do(ORGANISER, "table_result", table=number, results=[
                {"player": p, "net_worth": w, "place": 1 + sum(o > w for o in worths)} for p, w in zip(seats, worths)])
    assert event.state.status == "ended" and event.replays()
    assert EventSettings.from_dict(event.settings.to_dict()) == event.settings
    scored = [r for rnd in event.state.rounds for t in rnd.tables for r in t.results]
    assert sum(s.points for s in standings(event.state)) == sum(r.points for r in scored)
