"""The state as the JSON API shows it (docs/api.md, The state): the snapshot plus derived figures."""

from .networth import net_worth
from .rent import rent_due
from .state import GameState, _plain


def state_json(state: GameState, version: int) -> dict:
    """Players with net worth, deeds with names and current rent, the bank, debts and the pending decision."""
    board = state.board
    return {
        "version": version,
        "status": state.status,
        "seats_fixed": state.seats_fixed,
        "edition": state.edition,
        "turn": state.turn,
        "order": state.order,
        "rolled": state.rolled,
        "doubles": state.doubles,
        "last_roll": state.last_roll,
        "last_turn": state.last_turn,
        "players": [
            {
                "id": p.id, "name": p.name, "token": p.token, "cash": p.cash,
                "position": p.position, "in_jail": p.in_jail, "jail_rolls": p.jail_rolls,
                "jail_cards": p.jail_cards, "bankrupt": p.bankrupt,
                "opening_rolls": p.opening_rolls, "turns": p.turns, "net_worth": net_worth(state, p.id),
            }
            for p in state.players
        ],
        "deeds": [
            {
                "square": d.square, "name": board[d.square].name, "type": board[d.square].type,
                "group": board[d.square].group, "price": board[d.square].price,
                "owner": d.owner, "houses": d.houses, "hotel": d.hotel,
                "mortgaged": d.mortgaged, "rent": rent_due(state, d.square),
            }
            for d in state.deeds.values()
        ],
        "bank": {"houses": state.bank_houses, "hotels": state.bank_hotels},
        "free_parking": state.free_parking,
        "rules": vars(state.settings).copy(),
        "pending": state.pending,
        "auction": _plain(state.auction),
        "trades": [_plain(t) for t in state.trades],
        "debts": [vars(d).copy() for d in state.debts],
        "auction_queue": state.auction_queue,
        "standings": state.standings,
    }
