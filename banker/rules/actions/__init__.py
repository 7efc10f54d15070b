"""The action vocabulary: every change to a game is one of these. Each is declared once, whole: its
type name, who may take it and when (declaration.Who, `in_lobby`, `deal`), its fields with how each
is parsed, and `run`, which hands it to the rule module that decides and applies it. They are
declared in the part of the game they belong to: the play at the table (play.py: seats, the turn,
the squares, the cards, jail, the end) and the Bank's business (bank.py: money, buildings,
mortgages, auctions, trades, bankruptcy). Importing this package declares them all into
declaration.ACTIONS, which `parse` reads.

Parsing checks only the shape of the input; whether the action is legal now is for `run` to decide.
"""

from . import bank, play  # each declares its actions as it is imported

# Not parsed into the rules: the store implements undo, and a player's take_back, by replaying the
# log without the last event (undo.py says who may and when). Both are stored as an undo.
UNDO = "undo"
TAKE_BACK = "take_back"
