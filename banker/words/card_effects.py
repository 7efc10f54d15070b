"""The card picker's words beyond the printed ones: what a Chance or Community Chest card will do to
the drawer, in the game's money ("−$20", "→ Rue de la Paix, +200 € for passing Départ"), and the
fields of "Another card…". The rules decide (outcomes.card_outcome); this only tells."""

from flask import render_template
from flask_babel import gettext as _
from markupsafe import Markup

from ..rules.board import Board
from ..rules.outcomes import CardOutcome
from ..rules.state import GameState
from .names import reader_language
from .phrases import money, square

# The "Another card…" fields by board, language and id prefix: a few dozen at most.
_ANOTHER_CARD: dict[tuple[str, str, str], Markup] = {}


def signed(state: GameState, value: int) -> str:
    """+$50, −$20: a gain marked as a loss is (amounts.money), never broken after its sign."""
    return money(state, value) if value < 0 else f"+\u2060{money(state, value)}"


def outcome(state: GameState, told: CardOutcome, total: bool = True) -> str:
    """A card's outcome for its drawer (outcomes.card_outcome) in words: where the token goes and
    the salary the rules pay on the way, what is paid or collected. Without `total`, repairs say
    their rates alone (for a phone that counts the sum itself: web/pages/counting.py)."""
    kind, effect = told.kind, told.effect
    if kind in ("collect", "pay"):
        return signed(state, told.amount)
    if kind == "collect_from_each_player":
        return _("%(amount)s from each player", amount=signed(state, told.each))
    if kind == "pay_each_player":
        return _("%(amount)s to each player", amount=signed(state, told.each))
    if kind == "repairs":
        rates = _("%(house)s a house, %(hotel)s a hotel", house=signed(state, -effect["per_house"]),
                  hotel=signed(state, -effect["per_hotel"]))
        return _("%(total)s (%(rates)s)", total=signed(state, told.amount), rates=rates) if told.amount and total else rates
    if kind == "pay_or_draw":
        if effect["deck"] == "chance":
            return _("%(amount)s or a Chance card", amount=signed(state, -told.fine))
        return _("%(amount)s or a Community Chest card", amount=signed(state, -told.fine))
    if kind == "go_to_jail":
        return _("→ Jail")
    if kind == "get_out_of_jail_free":
        return _("Kept until you use it")
    if kind == "move_back":
        return _("← %(square)s", square=square(state, told.square))
    if kind == "go_back_to":
        return _("← %(square)s, no salary", square=square(state, told.square))
    if told.rent == "double":
        where = _("→ %(square)s, rent ×2", square=square(state, told.square))
    elif told.rent == "ten_times":
        where = _("→ %(square)s, 10× a new roll", square=square(state, told.square))
    else:
        where = _("→ %(square)s", square=square(state, told.square))
    if not told.salary:
        return where
    salary = signed(state, told.salary)
    if told.square == 0:
        return _("%(where)s, %(salary)s", where=where, salary=salary)
    return _("%(where)s, %(salary)s for passing %(go)s", where=where, salary=salary, go=square(state, 0))


def another_card_fields(board: Board, prefix: str) -> Markup:
    """The fields of the picker's "Another card…" form (its fourteen kinds, the board's forty
    squares): the same for every render of a board in a language, so made once, not at every
    change on the drawer's phone and the host."""
    key = (board.edition, reader_language(), prefix)
    if key not in _ANOTHER_CARD:
        _ANOTHER_CARD[key] = Markup(render_template("player/_another_card.html", board=board, id=prefix))
    return _ANOTHER_CARD[key]
