"""Expected landings (docs/rules.md, Expected landings): the Markov chain's steady state against
the engine itself playing random throws, and against what the published studies of the US game
found.

The engine is driven through `apply`, as the store drives it (without copying the state, as a
replay does, to keep the run cheap). Every deed is Bob's and mortgaged and both players hold a
fortune, so nothing waits on a purchase, a rent or a debt: only the dice, the cards and jail move
the tokens, as the model assumes.
"""

import math
import random
from collections import Counter

import pytest

from banker.rules import Actor, Settings, apply, parse
from banker.rules.board import load_board
from banker.rules.cards import deck
from banker.rules.landings import expected

from . import BOB, edition_settings, started

# How many throws a run makes: 50,000 for the US decks under the default strategy, half that for
# the other printing and strategy. 100,000 took 4 s alone on the quiet 2-core machine (about 20 µs
# an action, two to three actions a throw) and twice that while other tests ran; 50,000 (and
# 25,000) still catch a wrong deck or jail strategy (the last checks below) with seeds 5, 7 and 23,
# where 16,666 missed the wrong deck with seed 23.
THROWS = 50_000
# The counts of a Markov chain's visits are not binomial: a token's next square depends on its
# last, a card adds a second landing to the same throw, and a token in jail stays there up to three
# turns. Over 200 runs of 10,000 throws (seeds 1000-1199) the spread of a square's count was at
# most 1.10 times the binomial one for landings (on Go to Jail) and 1.47 times for the turns ended
# (on Jail, trying for doubles); 1.08 for both when paying at once (uk_classic, 100 runs). The
# bound is three binomial deviations widened by 1.6.
WIDENING = 1.6
JAIL, GO_TO_JAIL, ILLINOIS, GO, BOARDWALK, PARK_PLACE, MEDITERRANEAN = 10, 30, 24, 0, 39, 37, 1
RAILROADS = {"reading": 5, "pennsylvania": 15, "b_and_o": 25, "short_line": 35}


def simulate(throws: int, seed: int, settings: Settings | None = None, leave_jail: bool = False):
    """Play `throws` random throws of two dice through the engine; return (landings by square as
    the log records them, the `moved` effects; the turns ended on each square, Jail counting
    the turns ended in it; how many turns)."""
    rng = random.Random(seed)
    state = started(2, settings).copy()
    for deed in state.deeds.values():  # test set-up, not a rule
        deed.owner, deed.mortgaged = BOB, True
    for player in state.players:
        player.cash = 10 ** 9
    landed, ended, turns = Counter(), Counter(), 0
    actions = {}  # a few dozen different actions, each parsed once (a third of the run's time)

    def do(player, **fields):
        nonlocal state
        key = (player, *fields.values())
        if key not in actions:
            actions[key] = (parse(fields), Actor(player=player))
        state, effects = apply(state, *actions[key], copy=False)
        landed.update(e["square"] for e in effects if e["kind"] == "moved" and not e.get("correction"))
        return effects

    thrown = 0
    while thrown < throws:
        player = state.player(state.pending["player"] if state.pending else state.turn)
        pending = state.pending
        if pending and pending["kind"] == "draw":
            drawn = rng.choice(deck(state, pending["deck"]))
            do(player.id, type="draw", deck=pending["deck"], card=drawn["id"])
            # The model counts a Get Out of Jail Free card as one that moves nothing and goes back
            # into its deck: put it back, so that every draw has sixteen cards to pick from.
            player.jail_cards.clear()
        elif pending and pending["kind"] == "card_choice":
            do(player.id, type="card_choice", choice="pay")
        elif pending:
            raise AssertionError(f"unexpected decision: {pending}")
        elif state.rolled:
            ended[player.position] += 1
            turns += 1
            do(player.id, type="end_turn")
        elif player.in_jail and leave_jail:
            do(player.id, type="pay_jail_fine")
        else:
            do(player.id, type="roll", dice=(rng.randint(1, 6), rng.randint(1, 6)))
            thrown += 1
    return landed, ended, turns


def outliers(counts: Counter, total: int, shares) -> list[str]:
    """The squares whose count is more than three (widened) standard deviations from the model's."""
    found = []
    for square, share in enumerate(shares):
        sigma = WIDENING * math.sqrt(total * share * (1 - share))
        if abs(counts[square] - total * share) > 3 * sigma:
            found.append(f"square {square}: {counts[square]} counted, {total * share:.0f} ± {3 * sigma:.0f} expected")
    return found


@pytest.mark.parametrize("printing, leave_jail, throws", [
    ("us", False, THROWS),
    # "Go back to Old Kent Road", "pay a fine or take a Chance" and no nearest-railroad card; and
    # the players pay the fine at once.
    ("uk_classic", True, THROWS // 2),
])
def test_the_engine_lands_where_the_model_expects(printing, leave_jail, throws):
    settings = edition_settings("us", cards=printing)
    landed, ended, turns = simulate(throws, seed=23, settings=settings, leave_jail=leave_jail)
    model = expected("us", settings, jail="leave" if leave_jail else "stay")

    assert not outliers(landed, sum(landed.values()), model.landings)
    assert not outliers(ended, turns, model.occupancy)
    # Nobody ends a turn on Go to Jail, though tokens land there.
    assert ended[GO_TO_JAIL] == model.occupancy[GO_TO_JAIL] == 0
    assert landed[GO_TO_JAIL] > 0 and model.landings[GO_TO_JAIL] > 0
    assert sum(landed.values()) / turns == pytest.approx(model.landings_per_turn, rel=0.02)
    assert ended[JAIL] / turns > model.in_jail > 0
    # The bound has the power to catch a wrong model: the same run against the other deck's or
    # the other strategy's model falls outside it.
    strategy, other_strategy = ("leave", "stay") if leave_jail else ("stay", "leave")
    other_deck = expected("us", Settings(cards="us" if printing == "uk_classic" else "uk_classic"), strategy)
    assert outliers(landed, sum(landed.values()), other_deck.landings)
    assert outliers(ended, turns, expected("us", settings, other_strategy).occupancy)


@pytest.mark.parametrize("jail", ["stay", "leave"])
def test_the_published_results_for_the_us_game(jail):
    """What the published studies of the US game found (Truman Collins, "Probabilities in the
    Game of Monopoly", exact Markov chains for both jail strategies; Ash and Bishop, 1972): Jail is
    where tokens spend most time; Illinois Avenue is the most landed-on property, with GO and the
    B. & O. Railroad close behind; the orange group is the most landed-on group. And what the cards
    make plain: Boardwalk, with its card, beats Park Place; Short Line, which no card names, is the
    quietest railroad; Mediterranean, out of reach of a roll from GO, the quietest street."""
    board = load_board("us")
    model = expected("us", Settings(), jail)
    streets = [s.index for s in board.squares if s.type == "street"]
    for shares in (model.landings, model.occupancy):
        ranked = sorted(range(len(board)), key=lambda square: -shares[square])
        assert max(streets, key=lambda square: shares[square]) == ILLINOIS
        assert min(streets, key=lambda square: shares[square]) == MEDITERRANEAN
        assert GO in ranked[:4] and RAILROADS["b_and_o"] in ranked[:6]
        groups = {s.group: sum(shares[lot.index] for lot in board.group(s.group)) for s in board.squares if s.group}
        assert max(groups, key=groups.get) == "orange"
        railroads = sorted(RAILROADS, key=lambda name: shares[RAILROADS[name]])
        assert railroads[0] == "short_line"
        assert shares[BOARDWALK] > shares[PARK_PLACE]
    assert max(range(len(board)), key=lambda square: model.occupancy[square]) == JAIL
    assert max(range(len(board)), key=lambda square: model.landings[square]) == ILLINOIS
    # Trying for doubles keeps a token in jail longer than paying at once.
    assert expected("us", Settings(), "stay").in_jail > expected("us", Settings(), "leave").in_jail > 0
    assert sum(model.landings) == pytest.approx(1) and sum(model.occupancy) == pytest.approx(1)


def test_the_cards_in_use_change_the_landings():
    """Computed from the decks of the printing, not written down: the UK classic Chance has no
    nearest-railroad card and sends the token back to Old Kent Road (square 1)."""
    us = expected("us", Settings())
    uk = expected("us", Settings(cards="uk_classic"))
    assert uk.landings[RAILROADS["b_and_o"]] < us.landings[RAILROADS["b_and_o"]]
    assert uk.landings[MEDITERRANEAN] > us.landings[MEDITERRANEAN]
    # Settings that do not move a token share the cached answer.
    assert expected("us", Settings(luxury_tax=75, jail_card_on_third_miss=True)) is us


def test_an_unknown_strategy_is_refused():
    with pytest.raises(ValueError):
        expected("us", Settings(), jail="bribe")

