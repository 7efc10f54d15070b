"""Random games: money is conserved, cash never goes negative, and the log replays to the state;
houses and hotels are neither made nor lost, stand evenly, and only on whole unmortgaged groups;
every Get Out of Jail Free card is in one hand at most; a bankrupt player owns nothing; after the
end of the game nothing is accepted.

Undo is modelled as the store does it: drop the newest logged action and replay the rest.
Players reach buildings the legitimate way: the banker puts a token just short of a lot, the
player rolls onto it and buys it (doubles while more lots of the group remain), and the banker
tops up the cash a purchase or building needs. Debtors now and then declare bankruptcy (legal or
not), and the banker now and then ends the game; from then on every attempt must be refused.
"""

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from banker.rules import (
    Actor,
    GameError,
    Settings,
    apply,
    legal_actions,
    new_game,
    parse,
    replay,
)
from banker.rules.bankruptcy import raisable_cash
from banker.rules.board import PRINTINGS
from banker.rules.cards import deck, deck_of, holder
from banker.rules.holdings import holdings
from banker.rules.inputs import CARD_FIELDS
from banker.rules.networth import WorthTally, net_worths

from . import BANKER, GROUPS, GUEST, HOTELS, HOUSES

NAMES = ("Ann", "Bob", "Cy", "Dee")
TOKENS = ("hat", "car", "dog", "ship")

# Mostly the player whose turn it is, so games move on; the banker and other seats now and then.
actors = st.sampled_from(["turn", "turn", "turn", "banker", 1, 2, 3, 4])
seats = st.integers(1, 4)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(list)
amounts = st.one_of(st.integers(1, 400), st.integers(1, 3000))
# A card the app does not know: any kind the engine has, with its fields.
CUSTOM_FIELDS = {"amount": amounts, "square": st.integers(0, 39), "spaces": st.integers(1, 39),
                 "type": st.sampled_from(["railroad", "utility"]), "per_house": st.integers(0, 150),
                 "per_hotel": st.integers(1, 500)}
custom_effects = st.sampled_from(sorted(CARD_FIELDS)).flatmap(lambda kind: st.fixed_dictionaries(
    {"kind": st.just(kind), **{field: CUSTOM_FIELDS[field] for field in CARD_FIELDS[kind]}}))
payees = st.one_of(seats, st.sampled_from(["bank", "free_parking"]))
# The actions legal_actions decides on without a choice of amount or payee, and those of them
# that a player may be able to take when it is not their turn.
CHOICES = {"roll": {"dice": [1, 2]}, "buy": {}, "decline": {}, "pay_jail_fine": {}, "end_turn": {},
           "pay_debt": {}, "bankrupt": {}, "use_jail_card": {}}
OFF_TURN = ("pay_debt", "pay_jail_fine", "bankrupt")
# What is tried after the end of the game: (actor, action) pairs, `None` standing for each seat.
AFTER_THE_END = [
    (None, {"type": "roll", "dice": [1, 2]}), (None, {"type": "end_turn"}),
    (None, {"type": "pay", "to": "bank", "amount": 1}), (None, {"type": "pay_debt"}),
    (None, {"type": "bankrupt"}), (None, {"type": "buy"}), (None, {"type": "decline"}),
    (None, {"type": "use_jail_card"}), (None, {"type": "draw", "deck": "chance", "card": "ch_dividend"}),
    (None, {"type": "mortgage", "square": 5}), (None, {"type": "receive_deeds"}),
    (BANKER, {"type": "end_game"}), (BANKER, {"type": "close_auction"}),
    (BANKER, {"type": "bank_pay", "player": 1, "amount": 1}),
]
# Who sends a building or mortgage action: mostly the deed's owner, sometimes the banker for them,
# sometimes another seat (refused: not theirs).
senders = st.sampled_from(["owner", "owner", "owner", "owner", "banker", "other"])
picks = st.integers(0, 10**6)  # an index into the squares the state makes plausible
# holdings() keys: (action type, +1 when the player receives the amount shown, -1 when paying it)
BUTTONS = {"build": ("build", -1), "sell": ("sell_building", 1), "mortgage": ("mortgage", 1),
           "unmortgage": ("unmortgage", -1)}


# The board each printing is for, by its first two letters ("us", "uk", "fr", "pt", "ja").
BOARDS = {"uk": "uk", "fr": "fr", "pt": "pt", "ja": "ja"}


def level(deed) -> int:
    return 5 if deed.hotel else deed.houses


class Table(RuleBasedStateMachine):
    """One game played with random actions, some of which the rules refuse."""

    @initialize(players=st.integers(2, 4), jackpot=st.booleans(), go_exact_bonus=st.booleans(),
                start_cash=st.sampled_from([1500, 300]), opening=st.lists(dice, max_size=8),
                collect=st.lists(picks, min_size=1, max_size=4),
                preset=st.sampled_from(["official", "classic", "jma", "jma"]),
                cards=st.sampled_from(["us", *PRINTINGS]))
    def seat_players(self, players, jackpot, go_exact_bonus, start_cash, opening, collect, preset, cards):
        """Seat the players, start, play a few opening turns that buy what they can afford, and
        let the players on turn collect a few colour groups. The cards are any printing's, on the
        board it is printed for."""
        self.edition = BOARDS.get(cards[:2], "us")
        self.settings = Settings.parse({"preset": preset, "free_parking_jackpot": jackpot,
                                        "go_exact_bonus": go_exact_bonus, "start_cash": start_cash, "cards": cards})
        self.state = new_game(self.edition, self.settings)
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
        for pick in collect:
            for _ in range(12):
                if self.ready_to_roll():
                    break
                self.the_current_player_plays_on([1, 2], buys=True, pays_fine=True)
            if self.ready_to_roll():
                self.the_current_player_collects_a_group(pick)

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

    def ready_to_roll(self) -> bool:
        """The player on turn could roll now (and is free to be moved by the banker)."""
        state = self.state
        return not (state.rolled or state.pending or state.auction or state.debts_of(state.turn)
                    or state.player(state.turn).in_jail)

    def sender(self, who, owner):
        """(actor, extra fields) for a building or mortgage action on `owner`'s deed."""
        if who == "owner":
            return owner, {}
        if who == "banker":
            return "banker", {"player": owner}
        return next((p.id for p in self.state.players if p.id != owner), owner), {}

    def top_up(self, player, price):
        """The banker pays a player what they lack for `price` (a ledgered bank payment)."""
        short = price - self.state.player(player).cash
        if short > 0:
            self.attempt(BANKER, type="bank_pay", player=player, amount=short)

    def streets(self, test):
        """Owned streets (board order) whose deed passes `test`."""
        board = self.state.board
        return [d for d in self.state.deeds.values()
                if d.owner is not None and board[d.square].type == "street" and test(d)]

    def complete_groups(self):
        """The colour groups one player holds whole: [(group lots, owner)]."""
        found = []
        for lots in GROUPS.values():
            owners = {self.state.deeds[s].owner for s in lots}
            if len(owners) == 1 and None not in owners:
                found.append((lots, owners.pop()))
        return found

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
        if state.auction:
            auction = state.auction
            active = [p for p in auction.bidders if p not in auction.passed and p != auction.high_bidder]
            if not active:
                self.attempt(BANKER, type="close_auction")
            elif buys and state.player(active[0]).cash > auction.high_bid and not state.debts_of(active[0]):
                bid = min(auction.high_bid + dice[0] * 10, state.player(active[0]).cash)
                self.attempt(active[0], type="bid", amount=bid)
            else:
                self.attempt(active[0], type="pass")
        elif owed and me.cash < owed[0].amount:
            self.attempt(BANKER, type="bank_pay", player=me.id, amount=owed[0].amount - me.cash)
        elif owed:
            self.attempt("turn", type="pay_debt")
        elif state.pending and state.pending["kind"] == "draw":
            cards = [c["id"] for c in deck(state, state.pending["deck"]) if not holder(state, c["id"])]
            self.attempt(state.pending["player"], type="draw", deck=state.pending["deck"],
                         card=cards[(dice[0] * 6 + dice[1]) % len(cards)])
        elif state.pending and state.pending["kind"] == "utility_roll":
            self.attempt(state.pending["player"], type="utility_roll", dice=dice)
        elif state.pending and state.pending["kind"] == "card_choice":  # a fine or the other deck
            self.attempt(state.pending["player"], type="card_choice", choice="pay" if buys else "draw")
        elif state.pending and state.pending["kind"] == "inherit":
            self.attempt(state.pending["player"], type="receive_deeds")
        elif state.pending and state.pending["kind"] == "claim":  # a JMA jail-fine bankruptcy
            self.attempt(state.pending["player"], type="claim_deeds", choice="take" if buys else "auction")
        elif state.pending and state.pending["kind"] == "jail_exit":  # the JMA third miss
            self.attempt("turn", type="use_jail_card" if me.jail_cards and pays_fine else "pay_jail_fine")
        elif state.pending:
            affordable = me.cash >= state.board[state.pending["square"]].price
            self.attempt("turn", type="buy" if buys and affordable else "decline")
        elif state.rolled:
            self.attempt("turn", type="end_turn")
        elif me.in_jail and pays_fine and me.jail_cards:
            self.attempt("turn", type="use_jail_card")
        elif me.in_jail and pays_fine:
            self.attempt("turn", type="pay_jail_fine")
        else:
            self.attempt("turn", type="roll", dice=dice)

    @precondition(lambda self: not self.state.pending and not self.state.rolled)
    @rule(who=actors, dice=dice)
    def roll(self, who, dice):
        self.attempt(who, type="roll", dice=dice)

    @precondition(lambda self: self.state.pending and self.state.pending["kind"] == "buy")
    @rule(who=actors)
    def buy(self, who):
        self.attempt(who, type="buy")

    @precondition(lambda self: self.state.pending and self.state.pending["kind"] == "buy")
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

    @precondition(lambda self: self.ready_to_roll())
    @rule(pick=picks)
    def the_current_player_collects_a_group(self, pick):
        """The player on turn collects the unowned lots of a colour group nobody else holds: the
        banker moves their token just short of each lot, they roll onto it (doubles while more
        lots remain and a third double is not due) and buy it, the banker topping up the price."""
        me = self.state.turn
        open_groups = [lots for lots in GROUPS.values()
                       if all(self.state.deeds[s].owner in (None, me) for s in lots)
                       and any(self.state.deeds[s].owner is None for s in lots)]
        if not open_groups:
            return
        lots = [s for s in open_groups[pick % len(open_groups)] if self.state.deeds[s].owner is None]
        for i, square in enumerate(lots):
            if not self.ready_to_roll() or self.state.turn != me:
                return
            again = i < len(lots) - 1 and self.state.doubles < 2
            roll = [1, 1] if again else [1, 2]
            self.attempt(BANKER, type="move", player=me, square=(square - sum(roll)) % 40)
            self.attempt(me, type="roll", dice=roll)
            if self.state.pending and self.state.pending.get("square") == square:
                self.top_up(me, self.state.board[square].price)
                self.attempt(me, type="buy")

    @precondition(lambda self: self.complete_groups())
    @rule(pick=picks, who=senders, stray=st.integers(0, 9), funded=st.integers(0, 3))
    def build(self, pick, who, stray, funded):
        """The next building on the lowest lot of a complete group (now and then on any lot of
        one, or on any square); the banker mostly tops up the cost first."""
        deeds = self.state.deeds
        lots = [s for group, _ in self.complete_groups() for s in group
                if stray == 1 or level(deeds[s]) == min(level(deeds[t]) for t in group)]
        square = pick % 40 if stray == 0 else lots[pick % len(lots)]
        owner = (deeds[square].owner if square in deeds else None) or self.state.turn
        if funded and self.state.board[square].house_cost:
            self.top_up(owner, self.state.board[square].house_cost)
        actor, extra = self.sender(who, owner)
        self.attempt(actor, type="build", square=square, **extra)

    @precondition(lambda self: self.streets(lambda d: True))
    @rule(pick=picks, who=senders, stray=st.integers(0, 9))
    def sell_building(self, pick, who, stray):
        """Sell one level of a built lot (now and then of any owned street)."""
        lots = self.streets(level) if stray else self.streets(lambda d: True)
        if not lots:
            return
        deed = lots[pick % len(lots)]
        actor, extra = self.sender(who, deed.owner)
        self.attempt(actor, type="sell_building", square=deed.square, **extra)

    @precondition(lambda self: self.complete_groups())
    @rule(pick=picks, who=senders, top=st.sampled_from([0, 1, 2, 3, 3, 4, 4, 4, 5]),
          bumps=st.integers(0, 7), funded=st.integers(0, 3))
    def set_buildings(self, pick, who, top, bumps, funded):
        """Set a complete group to even levels: `top` on each lot, one more where `bumps` says
        (a hotel at most); the banker may top up the price first."""
        groups = self.complete_groups()
        lots, owner = groups[pick % len(groups)]
        new = {s: min(5, top + (bumps >> i & 1)) for i, s in enumerate(lots)}
        if funded:
            cost = self.state.board[lots[0]].house_cost
            old = sum(level(self.state.deeds[s]) for s in lots)
            self.top_up(owner, (sum(new.values()) - old) * cost)
        actor, extra = self.sender(who, owner)
        self.attempt(actor, type="set_buildings", levels={str(s): n for s, n in new.items()}, **extra)

    @precondition(lambda self: any(d.owner is not None for d in self.state.deeds.values()))
    @rule(pick=picks, who=senders, lift=st.booleans(), funded=st.booleans())
    def mortgage_or_lift(self, pick, who, lift, funded):
        """Mortgage an owned deed, or lift the mortgage on one (the banker may top up the cost)."""
        deeds = [d for d in self.state.deeds.values() if d.owner is not None and d.mortgaged == lift]
        if not deeds:
            return
        deed = deeds[pick % len(deeds)]
        if lift and funded:
            self.top_up(deed.owner, self.state.board[deed.square].mortgage * 11 // 10 + 1)
        actor, extra = self.sender(who, deed.owner)
        self.attempt(actor, type="unmortgage" if lift else "mortgage", square=deed.square, **extra)

    @rule(player=seats)
    def holdings_agree_with_apply(self, player):
        """Every button a player's holdings offer is accepted for exactly its price, and every
        refusal it shows is the one apply gives."""
        if not self.state.has_player(player) or self.state.player(player).bankrupt:
            return
        before = self.state.player(player).cash
        for section in holdings(self.state, player):
            for lot in section["lots"]:
                for key, (kind, sign) in BUTTONS.items():
                    if key not in lot:
                        continue
                    value, refusal = lot[key]
                    try:
                        new, _ = apply(self.state, parse({"type": kind, "square": lot["square"]}),
                                       Actor(player=player))
                    except GameError as error:
                        assert refusal is not None, (key, lot, error.code)
                        assert (error.code, error.params) == (refusal.code, refusal.params), (key, lot)
                        continue
                    assert refusal is None, (key, lot, refusal.code)
                    assert new.player(player).cash - before == sign * value, (key, lot)

    @rule(now=st.integers(0, 3), player=seats, to=st.one_of(seats, st.just("bank")), extra=st.integers(1, 200))
    def a_player_owes_more_than_they_can_raise(self, now, player, to, extra):
        """Now and then a seat owes more than its cash and everything it could sell and mortgage:
        it pays another seat, or the banker charges it."""
        if now or not self.state.has_player(player):
            return
        amount = self.state.player(player).cash + raisable_cash(self.state, player) + extra
        if to == "bank":
            self.attempt(BANKER, type="bank_charge", player=player, amount=amount)
        else:
            self.attempt(player, type="pay", to=to, amount=amount)

    @precondition(lambda self: self.state.debts)
    @rule(who=st.sampled_from(["debtor", "debtor", "debtor", "banker", 1, 2, 3, 4]))
    def a_debtor_declares_bankruptcy(self, who):
        """The oldest debtor gives up (or the banker does it for them): applied only when they
        cannot raise what they owe; now and then another seat tries it."""
        debtor = self.state.debts[0].debtor
        if who == "banker":
            self.attempt(BANKER, type="bankrupt", player=debtor)
        else:
            self.attempt(debtor if who == "debtor" else who, type="bankrupt")

    @rule(now=st.integers(0, 9), who=st.sampled_from(["banker", "banker", 1, 2]))
    def the_banker_ends_the_game(self, now, who):
        """Rarely, the banker ends the game (a seat trying it is refused)."""
        if now == 0:
            self.attempt(who, type="end_game")

    @rule(now=st.integers(0, 4))
    def the_banker_calls_the_last_turn(self, now):
        """Now and then, the banker calls the last turn (a tournament's round at time)."""
        if now == 0:
            self.attempt("banker", type="last_turn")

    @precondition(lambda self: self.ready_to_roll())
    @rule(pick=picks, jail_card=st.booleans())
    def the_current_player_lands_on_chance_or_community_chest(self, pick, jail_card):
        """The banker puts the player on turn just short of a Chance or Community Chest square,
        they roll onto it and say which card they drew (if `jail_card`, a Get Out of Jail Free
        card when that deck's is not in a hand, or Go to Jail when they hold one already)."""
        me = self.state.turn
        square = (2, 7, 17, 22, 33, 36)[pick % 6]
        self.attempt(BANKER, type="move", player=me, square=(square - 3) % 40)
        self.attempt(me, type="roll", dice=[1, 2])
        pending = self.state.pending
        if not pending or pending["kind"] != "draw":
            return
        cards = [c for c in deck(self.state, pending["deck"]) if not holder(self.state, c["id"])]
        wanted = "go_to_jail" if self.state.player(me).jail_cards else "get_out_of_jail_free"
        kept = [c for c in cards if c["effect"]["kind"] == wanted]
        cards = kept if jail_card and kept else cards
        self.attempt(me, type="draw", deck=pending["deck"], card=cards[pick // 6 % len(cards)]["id"])

    @precondition(lambda self: self.state.pending and self.state.pending["kind"] == "draw")
    @rule(who=st.sampled_from(["drawer", "drawer", "drawer", 1, 2]), pick=picks)
    def a_get_out_of_jail_free_card_is_drawn(self, who, pick):
        """The drawer (now and then another seat) says they drew a Get Out of Jail Free card:
        refused when it is in someone's hand or the other deck's."""
        pending = self.state.pending
        cards = [c["id"] for name in ("chance", "chest") for c in deck(self.state, name)
                 if c["effect"]["kind"] == "get_out_of_jail_free"]
        card = cards[pick % len(cards)]
        self.attempt(pending["player"] if who == "drawer" else who, type="draw", deck=pending["deck"], card=card)

    @precondition(lambda self: self.state.pending and self.state.pending["kind"] == "draw")
    @rule(who=st.sampled_from(["drawer", "drawer", "drawer", 1, 2]), effect=custom_effects)
    def a_card_the_app_does_not_know_is_drawn(self, who, effect):
        """The drawer (now and then another seat) says what a card not in the deck does."""
        pending = self.state.pending
        self.attempt(pending["player"] if who == "drawer" else who, type="draw", deck=pending["deck"],
                     card="custom", effect=effect)

    @precondition(lambda self: any(p.in_jail and p.jail_cards for p in self.state.players))
    @rule(who=actors)
    def use_jail_card(self, who):
        self.attempt(who, type="use_jail_card")

    @precondition(lambda self: any(p.jail_cards and not p.bankrupt for p in self.state.players))
    @rule(pick=picks, price=st.integers(0, 60), accepts=st.booleans())
    def a_jail_card_changes_hands(self, pick, price, accepts):
        """A holder offers a Get Out of Jail Free card to another seat, which may accept."""
        holders = [p for p in self.state.players if p.jail_cards and not p.bankrupt]
        giver = holders[pick % len(holders)]
        takers = [p for p in self.state.players if p.id != giver.id]
        taker = takers[pick % len(takers)]
        offered = len(self.entries)
        self.attempt(giver.id, type="offer_trade", to=taker.id,
                     give={"jail_cards": giver.jail_cards[:1]}, get={"cash": price})
        if accepts and len(self.entries) > offered:
            self.attempt(taker.id, type="accept_trade", trade=self.state.trades[-1].id)

    @precondition(lambda self: len(self.entries) > self.setup_length)
    @rule()
    def undo(self):
        self.entries.pop()
        self.state = self.replayed = replay(self.edition, self.settings, self.log)

    @invariant()
    def seats_take_turns_in_order_and_the_last_turn_ends_them_even(self):
        counts = [p.turns for p in self.state.players if not p.bankrupt]
        assert max(counts) - min(counts) <= 1
        if self.state.status == "ended" and self.state.last_turn and self.entries[-1][1]["type"] == "end_turn":
            assert len(set(counts)) == 1

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
    def the_effects_alone_tell_every_net_worth(self):
        # The tally goes on from the entries it followed last time, unless one of them was undone.
        followed, tally = getattr(self, "followed", ((), None))
        if tally is None or len(followed) > len(self.entries) or any(a is not b for a, b in zip(followed, self.entries)):
            followed, tally = (), WorthTally(self.state.board, self.settings.start_cash)
        for _, _, effects in self.entries[len(followed):]:
            tally.follow(effects)
        self.followed = (tuple(self.entries), tally)
        assert tally.totals == net_worths(self.state)

    @invariant()
    def replaying_the_log_gives_the_state(self):
        if self.state is self.replayed:
            return  # unchanged since the last check: only refusals, which `attempt` checked
        assert replay(self.edition, self.settings, self.log).to_dict() == self.state.to_dict()
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
    def houses_and_hotels_are_neither_made_nor_lost(self):
        deeds = self.state.deeds.values()
        assert self.state.bank_houses + sum(d.houses for d in deeds) == HOUSES
        assert self.state.bank_hotels + sum(d.hotel for d in deeds) == HOTELS
        assert self.state.bank_houses >= 0 and self.state.bank_hotels >= 0
        for deed in deeds:
            assert 0 <= deed.houses <= 4 and not (deed.hotel and deed.houses)

    @invariant()
    def buildings_stand_evenly_on_whole_unmortgaged_groups_only(self):
        state = self.state
        grouped = {s for lots in GROUPS.values() for s in lots}
        for square, deed in state.deeds.items():
            assert square in grouped or not level(deed), square  # railroads and utilities stay bare
        for lots in GROUPS.values():
            deeds = [state.deeds[s] for s in lots]
            levels = [level(d) for d in deeds]
            assert max(levels) - min(levels) <= 1, (lots, levels)
            if max(levels):
                assert len({d.owner for d in deeds}) == 1 and deeds[0].owner is not None, lots
                assert not any(d.mortgaged for d in deeds), lots

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
        if state.pending and state.pending["kind"] != "inherit":
            assert state.pending["player"] == state.turn
        if state.pending and state.pending["kind"] == "buy":
            assert state.deeds[state.pending["square"]].owner is None
        for player in state.players:
            assert 0 <= player.position < 40
            assert not player.in_jail or player.position == state.board.jail
            assert 0 <= player.jail_rolls < 3

    @invariant()
    def every_jail_card_is_in_one_hand_at_most(self):
        state = self.state
        jail_cards = {c["id"] for name in ("chance", "chest") for c in deck(state, name)
                      if c["effect"]["kind"] == "get_out_of_jail_free"}
        held = [card for p in state.players for card in p.jail_cards]
        assert len(held) == len(set(held)), held
        # A printed Get Out of Jail Free card, or one the app did not know (a custom card of its own).
        assert {c for c in held if not c.startswith("custom-")} <= jail_cards, held
        assert all(deck_of(state, c) in ("chance", "chest") for c in held), held

    @invariant()
    def a_bankrupt_player_owns_nothing(self):
        state = self.state
        for player in state.players:
            if not player.bankrupt:
                continue
            me = player.id
            assert (player.cash, player.jail_cards, player.in_jail) == (0, [], False)
            assert not [d for d in state.deeds.values() if d.owner == me]
            assert not [d for d in state.debts if me in (d.debtor, d.creditor)]
            assert not [t for t in state.trades if me in (t.offerer, t.to)]
            assert not (state.pending and state.pending["player"] == me)
            assert state.turn != me
            if state.auction and me in state.auction.bidders:
                assert me in state.auction.passed and state.auction.high_bidder != me

    @invariant()
    def nothing_is_accepted_after_the_end(self):
        state = self.state
        if state.status != "ended":
            return
        assert state.standings and not state.standings[0].get("bankrupt")
        assert (state.pending, state.auction) == (None, None)
        totals = [s["total"] for s in state.standings if not s.get("bankrupt")]
        assert totals == sorted(totals, reverse=True)
        for player in state.players:
            assert legal_actions(state, player.id) == set()
        for who, data in AFTER_THE_END:
            for actor in ([Actor(player=p.id) for p in state.players] if who is None else [who]):
                try:
                    apply(state, parse(data), actor)
                except GameError as error:
                    assert error.code == "game_over", (data, error.code)
                else:
                    raise AssertionError(f"{data} was accepted after the end")


Table.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)
TestTable = Table.TestCase
