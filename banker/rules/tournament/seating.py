"""Who sits where: tables of four or five (three only where nothing else divides the players), the
first round drawn from a seed, later rounds keeping rematches to the fewest, the final by standings.

Later rounds are found by a search from the seed (a tabu search over swaps of two players, as used
for the "social golfer" problem): it stops at the first seating without a rematch, and otherwise
keeps the seating with the fewest once a number of steps has found no better one, so the same seed
gives the same tables, and the time it takes does not depend on the clock. It looks at the rounds
played, not ahead: with 16 players at four tables of four, three rounds are always found without a
rematch, but the round-3 seating found may leave none for a fourth (a Latin square without an
orthogonal mate), which then keeps its rematches to the fewest the search finds.
"""

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

Tables = tuple[tuple[int, ...], ...]

# The search's most steps (each moves one player), and the steps without a better seating after
# which it settles for the best found.
STEPS = 3000
PATIENCE = 400
# How many steps a swapped pair stays out of reach, so the search does not undo what it just did.
TABU = 10


def table_sizes(players: int, size: int = 4) -> list[int]:
    """How many sit at each table, largest first: as many tables of `size` as the players fill, the
    rest one more each; tables of `size - 1` only where no split into those exists (at size 4: 6, 7
    and 11 players)."""
    for short in range(players // max(size - 1, 1) + 1):
        tables, extra = divmod(players - short * (size - 1), size)
        if extra <= tables:
            return [size + 1] * extra + [size] * (tables - extra) + [size - 1] * short
    return [players] if players else []


def meetings(rounds: Iterable[Tables]) -> Counter:
    """How often each pair of players (a frozenset) has sat at one table in these rounds."""
    met: Counter = Counter()
    for tables in rounds:
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def seat_round(players: Sequence[int], rounds: Sequence[Tables], seed: int, size: int = 4) -> Tables:
    """Seat `players` (ids) at tables of `table_sizes`, given the rounds played so far: at random from
    `seed` when nobody has met yet, else with as few rematches as the search finds (none whenever it
    finds a seating without one). A pair that met twice weighs twice as much as a pair that met once."""
    rng = random.Random(seed)
    order = sorted(players)
    rng.shuffle(order)
    tables = _deal(order, table_sizes(len(order), size))
    met = meetings(rounds)
    if len(tables) > 1 and any(met[frozenset(pair)] for table in tables for pair in combinations(table, 2)):
        tables = _fewest_rematches(tables, met, rng)
    return tuple(tuple(rng.sample(table, len(table))) for table in tables)


def seat_final(standings: Sequence[int], n: int) -> Tables:
    """The final: one table of the top `n` players (ids best first), seated in that order."""
    return (tuple(standings[:n]),)


def rematches(tables: Tables, rounds: Sequence[Tables]) -> int:
    """How many pairs at these tables have met before (a pair that met twice counts twice)."""
    met = meetings(rounds)
    return sum(met[frozenset(pair)] for table in tables for pair in combinations(table, 2))


def _deal(order: list[int], sizes: list[int]) -> list[list[int]]:
    tables, at = [], 0
    for size in sizes:
        tables.append(order[at:at + size])
        at += size
    return tables


def _fewest_rematches(tables: list[list[int]], met: Counter, rng: random.Random) -> list[list[int]]:
    """Tabu search: move a player who meets someone again into the swap that lowers the rematches
    most (or raises them least), never straight back; keep the best seating seen."""
    weight = {p: {q: met[frozenset((p, q))] for t in tables for q in t} for t in tables for p in t}
    where = {p: i for i, t in enumerate(tables) for p in t}

    def against(p: int, table: list[int]) -> int:
        return sum(weight[p][q] for q in table if q != p)

    cost = sum(against(p, t) for t in tables for p in t) // 2
    best, best_cost = [list(t) for t in tables], cost
    tabu: dict[frozenset, int] = {}
    found_at = 0
    for step in range(STEPS):
        if best_cost == 0 or step - found_at > PATIENCE:
            break
        clashing = [p for t in tables for p in t if against(p, t) > 0]
        p = rng.choice(clashing)
        a = where[p]
        moves = []
        for b, other in enumerate(tables):
            if b == a:
                continue
            for q in other:
                delta = (against(p, other) - weight[p][q] + against(q, tables[a]) - weight[q][p]
                         - against(p, tables[a]) - against(q, other))
                if tabu.get(frozenset((p, q)), -1) < step or cost + delta < best_cost:
                    moves.append((delta, q, b))
        if not moves:
            continue
        low = min(m[0] for m in moves)
        delta, q, b = rng.choice([m for m in moves if m[0] == low])
        tables[a][tables[a].index(p)], tables[b][tables[b].index(q)] = q, p
        where[p], where[q] = b, a
        cost += delta
        tabu[frozenset((p, q))] = step + TABU
        if cost < best_cost:
            best, best_cost, found_at = [list(t) for t in tables], cost, step
    return best
