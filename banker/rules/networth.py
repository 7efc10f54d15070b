"""What a player is worth: cash, deeds at printed price (mortgaged at half), buildings at cost."""

from collections import defaultdict

from .state import GameState


def worth(state: GameState, player_id: int) -> dict:
    """Net worth in parts: cash, deeds at printed price (mortgaged: half), buildings at cost
    (a hotel as five houses), and their total."""
    board = state.board
    deeds = buildings = 0
    for deed in state.deeds.values():
        if deed.owner != player_id:
            continue
        square = board[deed.square]
        deeds += square.price // 2 if deed.mortgaged else square.price
        buildings += square.house_cost * (5 if deed.hotel else deed.houses)
    cash = state.player(player_id).cash
    return {"player": player_id, "cash": cash, "deeds": deeds, "buildings": buildings,
            "total": cash + deeds + buildings}


def net_worth(state: GameState, player_id: int) -> int:
    """Cash + deeds at printed price (mortgaged: half) + buildings at cost, a hotel as five houses."""
    return worth(state, player_id)["total"]


def deed_value(square, mortgaged: bool, level: int) -> int:
    """What a deed counts for in its holder's net worth: the board square's printed price (half
    while mortgaged) and its `level` of buildings (0-4 houses, 5 a hotel) at cost."""
    return (square.price // 2 if mortgaged else square.price) + square.house_cost * level


def held_value(state: GameState, square: int) -> int:
    """`deed_value` of the deed on `square` as it stands in `state`."""
    deed = state.deeds[square]
    return deed_value(state.board[square], deed.mortgaged, 5 if deed.hotel else deed.houses)


def net_worths(state: GameState) -> dict[int, int]:
    """Every player's net worth (as `net_worth`), in one pass over the deeds."""
    totals = {p.id: p.cash for p in state.players}
    for deed in state.deeds.values():
        if deed.owner is not None:
            totals[deed.owner] += held_value(state, deed.square)
    return totals


def standings(state: GameState) -> list[dict]:
    """Everyone still in the game by net worth, richest first; bankrupt players after them."""
    alive = sorted((worth(state, p.id) for p in state.players if not p.bankrupt),
                   key=lambda w: w["total"], reverse=True)
    out = [worth(state, p.id) | {"bankrupt": True} for p in state.players if p.bankrupt]
    return alive + out


def places(standings: list[dict]) -> list[int | None]:
    """Each line's place in `standings`: players still in with equal net worth share one (1, 2, 2,
    4), as a tournament's placings do (tournament.scoring.seat_results); None for a bankrupt one."""
    alive = [s["total"] for s in standings if not s.get("bankrupt")]
    return [None if s.get("bankrupt") else 1 + sum(t > s["total"] for t in alive) for s in standings]


def first_place(standings: list[dict]) -> list[int]:
    """The players sharing first place in `standings` (one, unless the richest are level): who won."""
    return [s["player"] for s, place in zip(standings, places(standings)) if place == 1]


class WorthTally:
    """Every player's net worth (as `net_worths`) kept up from a game's effects alone, without the
    state: the net-worth chart follows a whole game's log this way, a dict lookup or two per
    effect, where replaying its actions and counting every deed after each one cost ten times as
    much. It relies on money.py's promise that every change of cash is a transfer, and on every
    change of a deed's owner, mortgage or buildings having its effect (test_stateful checks the
    tally against the state after every action of random games)."""

    def __init__(self, board, start_cash: int):
        self.board, self.start_cash = board, start_cash
        self.totals: dict[int, int] = defaultdict(int)  # by player, in the order they joined
        self.owner: dict[int, int] = {}  # square: player, for deeds somebody holds
        self.mortgaged: set[int] = set()
        self.level: dict[int, int] = {}  # square: 0-4 houses, 5 a hotel

    def copy(self) -> "WorthTally":
        other = WorthTally(self.board, self.start_cash)
        other.totals, other.owner = defaultdict(int, self.totals), dict(self.owner)
        other.mortgaged, other.level = set(self.mortgaged), dict(self.level)
        return other

    def follow(self, effects: list[dict]) -> None:
        """Take in one action's effects."""
        for e in effects:
            kind = e["kind"]
            if kind == "transfer":
                for party, sign in ((e["from"], -1), (e["to"], 1)):
                    if isinstance(party, int):
                        self.totals[party] += sign * e["amount"]
                if e["reason"] == "unmortgage" and e.get("square") is not None:  # a lift, in a trade or not
                    self._deed(e["square"], mortgaged=False)
            elif kind == "joined":
                self.totals[e["player"]] = self.start_cash
            elif kind in ("bought", "auction_won") and e.get("square") is not None:
                self._deed(e["square"], owner=e["player"], mortgaged=False)  # from the bank: face up
            elif kind == "trade_done":
                for squares, to in ((e["give"].get("squares", ()), e["to"]), (e["get"].get("squares", ()), e["player"])):
                    for square in squares:
                        self._deed(square, owner=to)
            elif kind == "bankrupt":
                # Their buildings go back to the bank (the sales are transfers of their own) and their
                # deeds to a creditor player as they are, or to the bank.
                heir = e["creditor"] if isinstance(e["creditor"], int) else None
                for square in [sq for sq, owner in self.owner.items() if owner == e["player"]]:
                    self._deed(square, owner=heir, level=0)
            elif kind == "deeds_claimed":
                for square in e["squares"]:
                    self._deed(square, owner=e["player"])
            elif kind in ("built", "sold"):
                self._deed(e["square"], level=e["level"])
            elif kind == "levels_set":
                for square, now in e["levels"].items():
                    self._deed(int(square), level=now)
            elif kind in ("mortgaged", "unmortgaged"):
                self._deed(e["square"], mortgaged=kind == "mortgaged")

    def _value(self, square: int) -> int:
        return deed_value(self.board[square], square in self.mortgaged, self.level.get(square, 0))

    def _deed(self, square: int, owner=..., mortgaged: bool | None = None, level: int | None = None) -> None:
        """Change a deed's owner (None: the bank), mortgage or buildings, moving its value between
        the totals of whoever held it before and after."""
        before = self.owner.get(square)
        if before is not None:
            self.totals[before] -= self._value(square)
        if owner is not ...:
            before = owner
            if owner is None:
                self.owner.pop(square, None)
            else:
                self.owner[square] = owner
        if mortgaged is not None:
            (self.mortgaged.add if mortgaged else self.mortgaged.discard)(square)
        if level is not None:
            self.level[square] = level
        if before is not None:
            self.totals[before] += self._value(square)
