"""The last turn (a tournament round at time), through the game's own rules: once the banker calls
it, the game ends by itself as soon as every seat still in has had as many turns as the first seat,
doubles counting as part of their turn and a turn in jail as a turn, and ranks by net worth."""

from banker.rules import ActionError, GameState, NotAllowed, RuleError, replay

from . import ANN, BANKER, BOB, CY, Logged, act, lobby, refusal


def quiet_turn(game: Logged, who: int) -> None:
    """`who` rolls 4 + 6 from GO onto Jail, just visiting, and ends the turn."""
    game.do(BANKER, "move", player=who, square=0)
    game.do(who, "roll", dice=[4, 6])
    game.do(who, "end_turn")


def ends_after(game: Logged, *seats: int) -> None:
    """These seats take quiet turns in order, and the game ends with the last of them, not before."""
    for seat in seats:
        assert game.state.status == "playing"
        quiet_turn(game, seat)
    assert game.state.status == "ended"


def turns(state: GameState) -> dict[int, int]:
    return {p.id: p.turns for p in state.players}


def replays(game: Logged) -> bool:
    """The log replays to the state, exactly (the snapshot a store would save)."""
    return replay(game.edition, game.settings, game.log).to_dict() == game.state.to_dict()


def test_each_seat_counts_its_turns_the_one_in_play_included():
    game = Logged(3)
    assert turns(game.state) == {ANN: 1, BOB: 0, CY: 0}
    quiet_turn(game, ANN)
    assert turns(game.state) == {ANN: 1, BOB: 1, CY: 0}
    quiet_turn(game, BOB)
    quiet_turn(game, CY)
    assert turns(game.state) == {ANN: 2, BOB: 1, CY: 1}


def test_the_game_ends_once_every_seat_has_had_as_many_turns_as_the_first():
    game = Logged(3)
    quiet_turn(game, ANN)
    quiet_turn(game, BOB)
    quiet_turn(game, CY)
    quiet_turn(game, ANN)
    effects = game.do(BANKER, "last_turn")  # in Bob's second turn
    assert effects == [{"kind": "last_turn"}] and game.state.last_turn
    ends_after(game, BOB, CY)
    assert turns(game.state) == {ANN: 2, BOB: 2, CY: 2}
    assert [s["player"] for s in game.state.standings] and game.state.standings[0]["total"] >= game.state.standings[-1]["total"]
    assert replays(game)


def test_called_in_the_first_seats_turn_the_whole_round_is_played():
    game = Logged(3)
    game.do(BANKER, "last_turn")
    ends_after(game, ANN, BOB, CY)
    assert turns(game.state) == {ANN: 1, BOB: 1, CY: 1}


def test_doubles_rolled_in_the_last_turn_belong_to_it():
    game = Logged(2)
    quiet_turn(game, ANN)
    game.do(BANKER, "last_turn")  # Bob's turn: the last of the round
    game.do(BANKER, "move", player=BOB, square=0)
    game.do(BOB, "roll", dice=[5, 5])  # Jail, just visiting: doubles, he rolls again
    game.do(BOB, "roll", dice=[5, 5])  # Free Parking: doubles again
    assert game.state.status == "playing" and turns(game.state) == {ANN: 1, BOB: 1}
    game.do(BOB, "roll", dice=[4, 6])  # Go to Jail: his turn is over
    game.do(BOB, "end_turn")
    assert game.state.status == "ended" and game.state.player(BOB).in_jail
    assert replays(game)


def test_a_turn_in_jail_is_a_turn():
    game = Logged(2)
    game.do(BANKER, "move", player=ANN, square=27)
    game.do(ANN, "roll", dice=[1, 2])  # Go to Jail
    game.do(ANN, "end_turn")
    quiet_turn(game, BOB)
    game.do(ANN, "roll", dice=[1, 2])  # no doubles: she stays in jail
    game.do(ANN, "end_turn")
    game.do(BANKER, "last_turn")
    assert turns(game.state) == {ANN: 2, BOB: 2} and game.state.status == "playing"
    quiet_turn(game, BOB)
    assert game.state.status == "ended" and game.state.player(ANN).in_jail


def test_a_bankruptcy_that_completes_the_round_ends_the_game():
    game = Logged(3)
    quiet_turn(game, ANN)
    quiet_turn(game, BOB)
    game.do(BANKER, "last_turn")  # Cy's turn, the last of the round
    game.do(CY, "pay", to=ANN, amount=1500)
    game.do(BANKER, "bank_charge", player=CY, amount=100)
    effects = game.do(CY, "bankrupt")
    assert game.state.status == "ended" and [e["kind"] for e in effects][-1] == "ended"
    assert {s["player"] for s in game.state.standings} == {ANN, BOB, CY}
    assert game.state.turn == ANN  # not left with the bankrupt (test_stateful's invariant found it)
    assert replays(game)


def test_a_bankrupt_seat_does_not_hold_the_others_back():
    game = Logged(3)
    quiet_turn(game, ANN)
    game.do(BANKER, "last_turn")  # Bob's turn; Ann has had hers
    game.do(BANKER, "bank_charge", player=ANN, amount=2000)
    game.do(ANN, "bankrupt")  # out of turn: the first seat leaves the game
    ends_after(game, BOB, CY)
    assert turns(game.state) == {ANN: 1, BOB: 1, CY: 1}


def test_a_table_with_one_player_left_ends_at_once():
    game = Logged(2)
    game.do(BANKER, "bank_charge", player=ANN, amount=2000)
    game.do(ANN, "bankrupt")
    assert game.state.status == "ended"


def test_the_last_turn_is_called_once_by_the_banker_in_a_game_in_play():
    game = Logged(2)
    assert refusal(game.state, ANN, "last_turn", NotAllowed).code == "banker_only"
    game.do(BANKER, "last_turn")
    assert refusal(game.state, BANKER, "last_turn", RuleError).code == "last_turn_called"
    assert refusal(lobby(2), BANKER, "last_turn", RuleError).code == "not_started"


def test_a_game_without_the_call_plays_on_as_before():
    game = Logged(2)
    for _ in range(3):
        quiet_turn(game, ANN)
        quiet_turn(game, BOB)
    assert game.state.status == "playing" and not game.state.last_turn and turns(game.state) == {ANN: 4, BOB: 3}


def test_a_snapshot_from_before_turns_were_counted_still_loads():
    game = Logged(2)
    old = game.state.to_dict()
    del old["last_turn"]
    for player in old["players"]:
        del player["turns"]
    state = GameState.from_dict(old)
    assert not state.last_turn and turns(state) == {ANN: 0, BOB: 0}


def test_the_tournaments_clock_told_whole_takes_back_a_last_turn_and_stops_the_clock():
    game = Logged(2)
    game.do(BANKER, "round_clock", ends_at=5_000)
    game.do(BANKER, "last_turn")
    effects = game.do(BANKER, "round_clock", paused_left=600, last_turn=False)  # the tournament undid its call
    assert effects == [{"kind": "round_clock", "ends_at": None, "paused_left": 600}, {"kind": "last_turn_withdrawn"}]
    assert not game.state.last_turn and game.state.round_paused_left == 600
    assert game.do(BANKER, "round_clock", paused_left=600, last_turn=False)[1:] == []  # told again: nothing more
    game.do(BANKER, "round_clock")  # neither: the round's start undone, no clock at all
    assert (game.state.round_ends_at, game.state.round_paused_left, game.state.timed_by_round) == (None, None, True)
    assert refusal(game.state, BANKER, "round_clock", ActionError, ends_at=5_000, paused_left=60).code == "bad_clock"
    assert refusal(game.state, BANKER, "round_clock", ActionError, last_turn="no").code == "bad_field"
    assert replays(game)


def test_a_table_in_its_lobby_is_told_the_clock_but_an_ended_one_is_not():
    waiting = lobby(2)
    assert act(waiting, BANKER, "round_clock", ends_at=5_000)[0].round_ends_at == 5_000
    game = Logged(2)
    game.do(BANKER, "end_game")
    assert refusal(game.state, BANKER, "round_clock", RuleError, ends_at=5_000).code == "game_over"
