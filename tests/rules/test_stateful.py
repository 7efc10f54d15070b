"""Random games: money is conserved, cash never goes negative, and the log replays to the state.

Undo is modelled as the store does it: drop the newest logged action and replay the rest.
"""

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from banker.rules import Actor, GameError, Settings, apply, legal_actions, new_game, parse, replay

from . import BANKER, GUEST

NAMES = ("Ann", "Bob", "Cy", "Dee")
TOKENS = ("hat", "car", "dog", "ship")

# Mostly the player whose turn it is, so games move on; the banker and other seats now and then.
actors = st.sampled_from(["turn", "turn", "turn", "banker", 1, 2, 3, 4])
seats = st.integers(1, 4)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(list)
amounts = st.one_of(st.integers(1, 400), st.integers(1, 3000))
payees = st.one_of(seats, st.sampled_from(["bank", "free_parking"]))
# The actions legal_actions decides on without a choice of amount or payee, and those of them
# that a player may be able to take when it is not their turn.
CHOICES = {"roll": {"dice": [1, 2]}, "buy": {}, "decline": {}, "pay_jail_fine": {}, "end_turn": {},
           "pay_debt": {}}
OFF_TURN = ("pay_debt", "pay_jail_fine")


class Table(RuleBasedStateMachine):
    """One game played with random actions, some of which the rules refuse."""

    @initialize(players=st.integers(2, 4), jackpot=st.booleans(), go_exact_bonus=st.booleans(),
                start_cash=st.sampled_from([1500, 300]), opening=st.lists(dice, max_size=8))
    def seat_players(self, players, jackpot, go_exact_bonus, start_cash, opening):
        """Seat the players, start, and play a few opening turns that buy what they can afford."""
        self.settings = Settings(free_parking_jackpot=jackpot, go_exact_bonus=go_exact_bonus,
                                 start_cash=start_cash)
        self.state = new_game("us", self.settings)
        self.entries = []  # (actor, action dict, effects) for every action that applied
        self.replayed = None  # the state last found equal to a replay of the log
        self.offered = None  # the state whose legal_actions were last checked against apply
        for name, token in zip(NAMES[:players], TOKENS):
            self.attempt(GUEST, type="join", name=name, token=token)
        self.attempt(BANKER, type="start", order=list(range(1, players + 1)))
        self.setup_length = len(self.entries)
        assert self.state.status == "playing"
        for roll in opening:
            turn = self.state.turn
            for _ in range(12):  # a turn takes a handful of actions; the bound only guards a stuck game
                self.the_current_player_plays_on(roll, buys=True, pays_fine=False)
                if self.state.turn != turn:
                    break

    def attempt(self, who, **data):
        """Apply an action if the rules allow it now; a refusal changes nothing."""
        if who == "turn":
            who = self.state.turn
        actor = who if isinstance(who, Actor) else BANKER if who == "banker" else Actor(player=who)
        action = parse(data)
        before = self.state.to_dict()
        try:
            self.state, effects = apply(self.state, action, actor)
        except GameError:
            assert self.state.to_dict() == before, "a refused action changed the state"
            return
        self.entries.append((actor, action.to_dict(), effects))

    @property
    def log(self):
        return [(actor, data) for actor, data, _ in self.entries]

    @rule(dice=dice, buys=st.booleans(), pays_fine=st.booleans())
    def the_current_player_plays_on(self, dice, buys, pays_fine):
        """What a table does next: settle a debt (the banker tops up if short), decide an offer,
        maybe pay the way out of jail, roll, or end the turn."""
        state = self.state
        me = state.player(state.turn)
        owed = state.debts_of(me.id)
        if owed and me.cash < owed[0].amount:
            self.attempt(BANKER, type="bank_pay", player=me.id, amount=owed[0].amount - me.cash)
        elif owed:
            self.attempt("turn", type="pay_debt")
        elif state.pending:
            affordable = me.cash >= state.board[state.pending["square"]].price
            self.attempt("turn", type="buy" if buys and affordable else "decline")
        elif state.rolled:
            self.attempt("turn", type="end_turn")
        elif me.in_jail and pays_fine:
            self.attempt("turn", type="pay_jail_fine")
        else:
            self.attempt("turn", type="roll", dice=dice)

    @precondition(lambda self: not self.state.pending and not self.state.rolled)
    @rule(who=actors, dice=dice)
    def roll(self, who, dice):
        self.attempt(who, type="roll", dice=dice)

    @precondition(lambda self: self.state.pending)
    @rule(who=actors)
    def buy(self, who):
        self.attempt(who, type="buy")

    @precondition(lambda self: self.state.pending)
    @rule(who=actors)
    def decline(self, who):
        self.attempt(who, type="decline")

    @rule(who=actors, to=payees, amount=amounts)
    def pay(self, who, to, amount):
        self.attempt(who, type="pay", to=to, amount=amount)

    @rule(kind=st.sampled_from(["bank_pay", "bank_charge"]), player=seats, amount=amounts)
    def the_banker_pays_or_charges(self, kind, player, amount):
        self.attempt(BANKER, type=kind, player=player, amount=amount)

    @rule(player=seats, square=st.integers(0, 39))
    def the_banker_moves_a_token(self, player, square):
        self.attempt(BANKER, type="move", player=player, square=square)

    @precondition(lambda self: self.state.debts)
    @rule(who=st.sampled_from(["debtor", "debtor", "banker", 1, 2, 3, 4]))
    def pay_debt(self, who):
        if who == "debtor":
            who = self.state.debts[0].debtor
        self.attempt(who, type="pay_debt")

    @precondition(lambda self: any(p.in_jail for p in self.state.players))
    @rule(who=actors)
    def pay_jail_fine(self, who):
        self.attempt(who, type="pay_jail_fine")

    @precondition(lambda self: self.state.rolled or self.state.doubles)
    @rule(who=actors)
    def end_turn(self, who):
        self.attempt(who, type="end_turn")

    @precondition(lambda self: len(self.entries) > self.setup_length)
    @rule()
    def undo(self):
        self.entries.pop()
        self.state = self.replayed = replay("us", self.settings, self.log)

    @invariant()
    def nobody_has_negative_cash(self):
        assert all(p.cash >= 0 for p in self.state.players)

    @invariant()
    def every_unit_of_money_is_in_the_ledger(self):
        expected = {p.id: self.settings.start_cash for p in self.state.players}
        expected["free_parking"] = 0
        for _, _, effects in self.entries:
            for effect in effects:
                if effect["kind"] != "transfer":
                    continue
                assert effect["amount"] > 0
                for party, sign in ((effect["from"], -1), (effect["to"], 1)):
                    if party != "bank":
                        expected[party] += sign * effect["amount"]
        cash = {p.id: p.cash for p in self.state.players}
        assert cash | {"free_parking": self.state.free_parking} == expected

    @invariant()
    def replaying_the_log_gives_the_state(self):
        if self.state is self.replayed:
            return  # unchanged since the last check: only refusals, which `attempt` checked
        assert replay("us", self.settings, self.log).to_dict() == self.state.to_dict()
        self.replayed = self.state

    @invariant()
    def legal_actions_are_what_apply_accepts(self):
        if self.state is self.offered:
            return  # the state is the one checked last time
        self.offered = self.state
        for player in self.state.players:
            offered = legal_actions(self.state, player.id) & set(CHOICES)
            kinds = CHOICES if player.id == self.state.turn else OFF_TURN
            assert offered <= set(kinds), (player.id, offered)
            for kind in kinds:
                try:
                    apply(self.state, parse({"type": kind, **CHOICES[kind]}), Actor(player=player.id))
                    accepted = True
                except GameError:
                    accepted = False
                assert accepted == (kind in offered), (player.id, kind, offered)

    @invariant()
    def every_deed_has_at_most_one_owner_and_it_is_a_player(self):
        board = self.state.board
        assert sorted(self.state.deeds) == [s.index for s in board.deeds]
        for square, deed in self.state.deeds.items():
            assert deed.square == square
            assert deed.owner is None or self.state.has_player(deed.owner)

    @invariant()
    def debts_are_owed_by_players_to_someone_else(self):
        for debt in self.state.debts:
            assert debt.amount > 0
            assert self.state.has_player(debt.debtor)
            assert debt.creditor in ("bank", "free_parking") or (
                self.state.has_player(debt.creditor) and debt.creditor != debt.debtor)

    @invariant()
    def the_turn_is_consistent(self):
        state = self.state
        assert state.turn in state.order
        assert 0 <= state.doubles < 3
        if state.pending:
            assert state.pending["player"] == state.turn
            assert state.deeds[state.pending["square"]].owner is None
        for player in state.players:
            assert 0 <= player.position < 40
            assert not player.in_jail or player.position == state.board.jail
            assert 0 <= player.jail_rolls < 3


Table.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)
TestTable = Table.TestCase
