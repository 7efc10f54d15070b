"""The card picker's words beyond the printed ones: what a Chance or Community Chest card will do to
the drawer, in the game's money ("−$20", "→ Rue de la Paix, +200 € for passing Départ"), and the
fields of "Another card…". The rules decide; this only tells."""

from flask import render_template
from flask_babel import gettext as _
from markupsafe import Markup

from ..rules.board import Board
from ..rules.cards import nearest
from ..rules.state import GameState
from .names import reader_language
from .narrate import money, square

# The "Another card…" fields by board, language and id prefix: a few dozen at most.
_ANOTHER_CARD: dict[tuple[str, str, str], Markup] = {}


def signed(state: GameState, sign: str, value: int) -> str:
    """+$50, −$20 (a minus sign, not a hyphen), never broken across two lines after the sign."""
    return f"{sign}\u2060{money(state, value)}"


def outcome(state: GameState, position: int, effect: dict) -> str:
    """What the card does to a drawer standing on `position`, in the game's money: where the token
    goes and whether it passes GO on the way, what is paid or collected."""
    kind, board = effect["kind"], state.board
    gain, loss = signed(state, "+", effect.get("amount", 0)), signed(state, "−", effect.get("amount", 0))
    if kind == "collect":
        return gain
    if kind == "pay":
        return loss
    if kind == "collect_from_each_player":
        return _("%(amount)s from each player", amount=gain)
    if kind == "pay_each_player":
        return _("%(amount)s to each player", amount=loss)
    if kind == "repairs":
        return _("%(house)s a house, %(hotel)s a hotel", house=signed(state, "−", effect["per_house"]),
                 hotel=signed(state, "−", effect["per_hotel"]))
    if kind == "pay_or_draw":
        if effect["deck"] == "chance":
            return _("%(amount)s or a Chance card", amount=loss)
        return _("%(amount)s or a Community Chest card", amount=loss)
    if kind == "go_to_jail":
        return _("→ Jail")
    if kind == "get_out_of_jail_free":
        return _("Kept until you use it")
    if kind == "move_back":
        return _("← %(square)s", square=square(state, (position - effect["spaces"]) % len(board)))
    if kind == "go_back_to":
        return _("← %(square)s, no salary", square=square(state, effect["square"]))
    target = effect["square"] if kind == "move_to" else nearest(board, position, effect["type"])
    if kind == "advance_to_nearest":
        where = (_("→ %(square)s, rent ×2") if effect["type"] == "railroad"
                 else _("→ %(square)s, 10× a new roll"))
    else:
        where = _("→ %(square)s")
    where = where % {"square": square(state, target)}
    if target < position:  # forward round the board: past GO (or onto it), the salary
        salary = signed(state, "+", board.constants["go_salary"])
        if target == 0:
            return _("%(where)s, %(salary)s", where=where, salary=salary)
        return _("%(where)s, %(salary)s for passing %(go)s", where=where, salary=salary, go=square(state, 0))
    return where


def another_card_fields(board: Board, prefix: str) -> Markup:
    """The fields of the picker's "Another card…" form (its fourteen kinds, the board's forty
    squares): the same for every render of a board in a language, so made once, not at every
    change on the drawer's phone and the host."""
    key = (board.edition, reader_language(), prefix)
    if key not in _ANOTHER_CARD:
        _ANOTHER_CARD[key] = Markup(render_template("player/_another_card.html", board=board, id=prefix))
    return _ANOTHER_CARD[key]
