"""Where the tokens go in the long run: the expected share of landings on each square, and of
turns ended on it, for a game's board and cards (docs/rules.md, Expected landings).

A Markov chain over what a token's next roll starts from, built from the game's own rules: two
six-sided dice, doubles rolling again and the third doubles in a row going to jail unmoved (as
turns.roll), Go to Jail and its cards (moves.send_to_jail), the ways out of jail (jail.py), and
the Chance and Community Chest decks of the game's printing (cards.printing), each card's move as
cards.py makes it. Nothing is hard-coded but the dice: another printing or board gives other
numbers. Its states are:

- a token on a square, not in jail, with 0, 1 or 2 doubles already rolled this turn;
- a token in jail at the start of its turn, with 0, 1 or 2 missed tries.

Its steady state (solved exactly, not simulated) gives:

- `landings`: of all the moves a token makes, the share ending on each square. A landing is
  exactly what the log records as a `moved` effect (effects/play.py, corrections aside): every move
  by the dice, and every move by a card as one more landing (a Chance square that sends the token
  on counts a landing on both squares). Go to Jail counts a landing there, not on Jail, since the
  token goes to jail without a `moved` effect (so does the third doubles, which lands nowhere);
  Jail's landings are Just Visiting. The expected number of landings on a square in a game is its
  share times the number of landings the game made.
- `occupancy`: of all the turns, the share ending with the token on each square; Jail counts
  the turns ended in jail and those Just Visiting (`in_jail` is the first part alone). Jail is the
  square where tokens spend most time.

What the dice and cards do not decide is a fixed strategy, the same for every player:

- Jail, `jail="stay"` (the default): try for doubles; the third miss pays the fine and moves by
  that roll, as the rules do. `jail="leave"`: pay the fine (or use a card) at once, then roll as
  on any turn. No setting of the game changes where a token goes from jail: the tournament rules
  (`jail_card_on_third_miss`, `jail_fee_bankruptcy_claim`) only change how the fine is paid.
- "Pay a fine or take a Chance" (the UK, French and Portuguese classic decks): pay the fine.
- Every card of a deck is equally likely at every draw (a well-shuffled deck); a Get Out of Jail
  Free card drawn moves nothing and is counted as if it went back into its deck.
- Nobody's money runs out: a move never waits on a debt or a bankruptcy.
"""

from collections import Counter
from dataclasses import dataclass
from functools import cache

from .board import Board, load_board
from .cards import nearest, printing, printing_decks
from .state import Settings

STRATEGIES = ("stay", "leave")
# The throws of two six-sided dice as (total, doubles or not, probability): 36 equally likely
# throws, 17 different as far as a move goes.
_COUNTS = Counter((a + b, a == b) for a in range(1, 7) for b in range(1, 7))
THROWS = tuple((total, double, count / 36) for (total, double), count in sorted(_COUNTS.items()))
# A card that moves the token to a square that draws another card that moves it again...: no
# printing chains more than twice (Chance "Go back 3" to Community Chest), a custom deck might.
MAX_CHAIN = 8
JAILED = -1  # where a move ends when it ends in jail


@dataclass(frozen=True)
class Expected:
    """The long-run shares for one board, printing and jail strategy; each tuple has one float per
    square, in board order, summing to 1."""

    landings: tuple[float, ...]
    occupancy: tuple[float, ...]
    in_jail: float            # the share of turns ended in jail (part of occupancy[board.jail])
    landings_per_turn: float  # how many landings ("moved" effects) a turn makes on average


def expected(edition: str, settings: Settings, jail: str = "stay") -> Expected:
    """The expected landings and occupancy of a game on board `edition` with `settings` (only its
    cards matter: the setting `cards`, and `community_chest` for the US printing), its players
    following the `jail` strategy ("stay" or "leave"). Cached: computed once per board, printing
    and strategy (a few tens of milliseconds), then free."""
    if jail not in STRATEGIES:
        raise ValueError(f"jail strategy must be one of {STRATEGIES}, not {jail!r}")
    return _expected(edition, printing(settings), jail)


@cache
def _expected(edition: str, cards: str, jail: str) -> Expected:
    board = load_board(edition)
    chain = _Chain(board, printing_decks(cards), jail)
    steady = _steady_state(chain.transitions)
    size = len(board)
    rates = [0.0] * size  # landings per roll on each square
    for state, share in enumerate(steady):
        for square, count in chain.landings[state].items():
            rates[square] += share * count
    # A turn starts from a state with no doubles rolled yet: as many turns start as end, and a
    # turn ends where the next one starts.
    turns = [0.0] * size
    for state, share in enumerate(steady):
        where, doubles = chain.states[state]
        if where == JAILED:
            turns[board.jail] += share
        elif doubles == 0:
            turns[where] += share
    per_roll, per_turn = sum(rates), sum(turns)
    jailed = sum(share for state, share in enumerate(steady) if chain.states[state][0] == JAILED)
    return Expected(
        landings=tuple(r / per_roll for r in rates),
        occupancy=tuple(t / per_turn for t in turns),
        in_jail=jailed / per_turn,
        landings_per_turn=per_roll / per_turn,
    )


class _Chain:
    """The states a roll starts from, and for each: where the roll leads (transitions[state], a
    {state: probability}) and the landings it makes on the way (landings[state], a {square:
    expected count})."""

    def __init__(self, board: Board, decks: dict[str, list[dict]], jail: str):
        self.board, self.decks = board, decks
        size = len(board)
        # (square, doubles) for a token out of jail; (JAILED, misses) for one in jail.
        self.states = [(square, d) for square in range(size) for d in range(3)] + [(JAILED, m) for m in range(3)]
        self.index = {s: i for i, s in enumerate(self.states)}
        self.arrivals: dict[int, list] = {}
        self.transitions: list[dict[int, float]] = []
        self.landings: list[dict[int, float]] = []
        for where, count in self.states:
            if where == JAILED and jail == "leave":
                where, count = board.jail, 0  # the fine paid: a roll from Jail as on any turn
            moves, landed = {}, {}
            for total, double, odds in THROWS:
                for chance, target, squares in self._roll(where, count, total, double):
                    chance *= odds
                    moves[target] = moves.get(target, 0.0) + chance
                    for square in squares:
                        landed[square] = landed.get(square, 0.0) + chance
            self.transitions.append(moves)
            self.landings.append(landed)

    def _roll(self, where: int, count: int, total: int, double: bool):
        """(probability, next state, squares landed on) for each way one throw can go."""
        if where == JAILED:  # trying for doubles (jail.roll_in_jail)
            if not double and count < 2:
                return [(1.0, self.index[(JAILED, count + 1)], ())]
            # Doubles, or the third miss with its fine: out, moved by this throw, turn over.
            return [(p, self._after(end, False, 0), squares)
                    for p, end, squares in self._move(self.board.jail, total)]
        if double and count == 2:  # the third doubles: straight to jail, unmoved
            return [(1.0, self.index[(JAILED, 0)], ())]
        return [(p, self._after(end, double, count + 1), squares)
                for p, end, squares in self._move(where, total)]

    def _after(self, end: int, again: bool, doubles: int) -> int:
        """The state the next roll starts from: jail, the same turn after doubles, or a new turn."""
        if end == JAILED:
            return self.index[(JAILED, 0)]
        return self.index[(end, doubles if again else 0)]

    def _move(self, start: int, steps: int):
        """The ways a move by the dice ends (each square reached by a throw worked out once)."""
        square = (start + steps) % len(self.board)
        if square not in self.arrivals:
            self.arrivals[square] = [(p, end, (square, *squares)) for p, end, squares in self._arrive(square, 0)]
        return self.arrivals[square]

    def _arrive(self, square: int, depth: int):
        """What the square a token lands on does to where it ends (moves.land): (probability,
        final square or JAILED, the further squares landed on)."""
        kind = self.board[square].type
        if kind == "go_to_jail":
            return [(1.0, JAILED, ())]
        if kind not in ("chance", "community_chest") or depth >= MAX_CHAIN:
            return [(1.0, square, ())]
        deck = self.decks["chance" if kind == "chance" else "chest"]
        ways = []
        for card in deck:
            for p, end, squares in self._card(square, card["effect"], depth):
                ways.append((p / len(deck), end, squares))
        return ways

    def _card(self, square: int, effect: dict, depth: int):
        """Where a card drawn on `square` sends the token (cards.apply_effect)."""
        kind, size = effect["kind"], len(self.board)
        if kind == "go_to_jail":
            return [(1.0, JAILED, ())]
        if kind in ("move_to", "go_back_to"):
            to = effect["square"]
        elif kind == "move_back":
            to = (square - effect["spaces"]) % size
        elif kind in ("advance_to_nearest", "move_to_nearest"):
            to = nearest(self.board, square, effect["type"])
        else:  # money, repairs, a jail card, and "pay a fine or take a Chance" (paid): no move
            return [(1.0, square, ())]
        return [(p, end, (to, *squares)) for p, end, squares in self._arrive(to, depth + 1)]


def _steady_state(transitions: list[dict[int, float]]) -> list[float]:
    """The distribution `pi` with pi P = pi and sum(pi) = 1, by Gaussian elimination with partial
    pivoting (the chain has one closed class, so the answer is unique; unreachable states get 0)."""
    n = len(transitions)
    # (P^T - I) pi = 0, its last equation replaced by sum(pi) = 1.
    rows = [[0.0] * (n + 1) for _ in range(n)]
    for source, moves in enumerate(transitions):
        for target, p in moves.items():
            rows[target][source] += p
    for i in range(n):
        rows[i][i] -= 1.0
    rows[-1] = [1.0] * n + [1.0]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        lead = head[col]
        for r in range(col + 1, n):
            row = rows[r]
            factor = row[col] / lead
            if factor:  # most rows of a sparse chain have nothing to eliminate
                for c in range(col, n + 1):
                    row[c] -= factor * head[c]
    pi = [0.0] * n
    for r in range(n - 1, -1, -1):
        row = rows[r]
        pi[r] = (row[n] - sum(row[c] * pi[c] for c in range(r + 1, n))) / row[r]
    return [max(p, 0.0) for p in pi]
