"""What a Chance or Community Chest card will do to its drawer, before it is drawn: the query the
card picker words (house convention 15: the rules answer, the web words).

The answer is read off the card applied to a copy of the state by cards.apply_effect, the code a
real draw runs: where the token goes, the GO salary paid on the way under the game's settings
(`go_salary`, `go_exact_bonus`), the money the card moves, the other players it takes from or pays,
the buildings a repairs card counts. What the square reached then asks (rent, a tax, an offer to
buy) is the landing's, not the card's, and is left out. A copy costs some 50 µs: a deck of sixteen
is told in about a millisecond."""

from dataclasses import dataclass

from .cards import CARD_RENT, EACH_PLAYER, apply_effect, card, others
from .state import GameState


@dataclass(frozen=True)
class CardOutcome:
    """A card's outcome for one drawer. `amount` is what the card itself moves to (+) or from (−)
    the drawer, the salary apart (a sum the drawer cannot pay counts as paid: it becomes a debt);
    `each` and `players` split it for the cards that take from or pay every other player."""

    effect: dict                # the card's effect as printed (its kind, rates, squares)
    square: int | None = None   # where the token ends (Jail for a card that sends it there); None: it stays
    salary: int = 0             # the GO salary paid on the way there
    amount: int = 0
    each: int = 0               # from (+) or to (−) each other player
    players: int = 0            # how many other players pay or are paid
    houses: int = 0             # the drawer's buildings a repairs card counts
    hotels: int = 0
    fine: int = 0               # "pay a fine or draw a card": the fine
    rent: str | None = None     # at the nearest railroad or utility: "double" or "ten_times"
    kept: bool = False          # a Get Out of Jail Free card goes into the hand

    @property
    def kind(self) -> str:
        return self.effect["kind"]


def card_outcome(state: GameState, player_id: int, deck_name: str, card_id: str) -> CardOutcome:
    """What the card `card_id` of `deck_name` would do to `player_id` drawing it now, from where
    they stand, under the game's settings (the state is left as it is)."""
    effect = card(state, deck_name, card_id)["effect"]
    trial = state.copy()
    effects: list[dict] = []
    apply_effect(trial, trial.player(player_id), effect, card_id, effects)
    told = {"square": None, "salary": 0, "amount": 0, "houses": 0, "hotels": 0, "fine": 0}
    for e in effects:
        kind = e["kind"]
        if kind == "moved" and e["player"] == player_id:
            told["square"] = e["square"]
        elif kind == "jailed" and e["why"] == "card":
            told["square"] = state.board.jail
        elif kind == "transfer" and e["reason"] == "salary":
            told["salary"] += e["amount"]
        elif kind in ("transfer", "debt") and e["reason"] in ("card", "repairs"):
            payer, payee = (e["from"], e["to"]) if kind == "transfer" else (e["debtor"], e["creditor"])
            told["amount"] += e["amount"] if payee == player_id else -e["amount"] if payer == player_id else 0
            told["houses"] += e.get("houses", 0)
            told["hotels"] += e.get("hotels", 0)
        elif kind == "card_choice_due":
            told["fine"] = e["amount"]
    players = len(others(state, player_id)) if effect["kind"] in EACH_PLAYER else 0
    return CardOutcome(effect=effect, players=players, each=told["amount"] // players if players else 0,
                       rent=CARD_RENT[effect["type"]] if effect["kind"] == "advance_to_nearest" else None,
                       kept=any(e["kind"] == "jail_card" for e in effects), **told)
