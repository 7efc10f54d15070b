"""Taking back the newest entry of the log. The store does it by replaying the log without that
entry (store/undo.py, undo_newest); these rules say who may, and when.

- The banker's `undo` takes back the newest live entry, whoever made it, again and again; never a
  join, nor the seats fixed (a tournament's table would be open to anyone again): `KEPT`. A
  tournament's round clock is passed over (`PASSED_OVER`): the entry before it is taken
  back. With `seq` it takes back that entry only: a banker who read "Undo: Ann bought Boardwalk"
  never takes back something that came meanwhile.
- A player's `take_back` takes back their own newest action while nothing has happened after it: a
  purchase, a build or sale of buildings, a mortgage or repayment, a payment or an offer. Anything
  else, or anything with an entry after it (an undo too), needs the banker.
"""

from typing import NamedTuple

from .errors import N_, NotAllowed, RuleError
from .game import Actor
# Entries the banker's Undo passes over, taking back the newest before them: a tournament's round
# clock, which its organiser runs for every table (store/tournaments.py), not the table's banker.
PASSED_OVER = frozenset({"round_clock"})
# Entries the banker's Undo never takes back, and the refusal saying so.
KEPT = {"join": ("join_not_undoable", N_("Joining the game cannot be undone.")),
        "fix_seats": ("seats_not_undoable", N_("The seats, once fixed, stay fixed."))}

# What a player may take back of their own: choices that only they made, and that nothing else
# (a roll, a card, a turn) followed.
TAKEN_BACK = frozenset({"buy", "build", "sell_building", "set_buildings", "mortgage", "unmortgage", "pay",
                        "pay_debt", "offer_trade"})


class Entry(NamedTuple):
    """An entry of the log as these rules need it: its number, who made it, its action type, and
    whether it is the newest entry of all (an undo after it is an entry too)."""

    seq: int
    actor: str
    type: str
    newest: bool

    @classmethod
    def of(cls, event, version: int) -> "Entry | None":
        """An event of the log (anything with its `seq`, `actor` and `type`) in a game at `version`."""
        return cls(event.seq, event.actor, event.type, event.seq == version) if event is not None else None


def check_undo(actor: Actor, last: Entry | None, seq: int | None = None) -> None:
    """Refuse the banker's undo of `last`, the newest live entry (None: there is none)."""
    if not actor.banker:
        raise NotAllowed("banker_only", N_("Only the banker can undo."))
    if last is None:
        raise RuleError("nothing_to_undo", N_("There is nothing to undo."))
    if last.type in KEPT:
        raise RuleError(*KEPT[last.type])
    if seq is not None and seq != last.seq:
        raise RuleError("undo_moved_on", N_("Something else happened meanwhile: look at Undo again."))


def may_take_back(actor: Actor, last: Entry | None) -> bool:
    """Whether the player may take back `last`: their own action of a kind in TAKEN_BACK, and the
    newest entry of the log."""
    return (actor.player is not None and last is not None and last.newest and last.type in TAKEN_BACK
            and last.actor == str(actor))


def check_take_back(actor: Actor, last: Entry | None) -> None:
    """Refuse a player's take_back of `last`, the newest live entry (None: there is none)."""
    if actor.player is None:
        raise NotAllowed("players_take_back", N_("A player takes back their own action; the banker uses Undo."))
    if not may_take_back(actor, last):
        raise RuleError("nothing_to_take_back",
                        N_("Only your own newest action can be taken back, while nothing came after it: "
                           "ask the banker."))
