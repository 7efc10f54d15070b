""""I count it myself" on a phone (docs/design.md, Phones): a player who works out what they owe
before it is paid. The setting is this phone's alone, for this game (a cookie): the phone's own
actions then say they count (rules/counting.py holds the sum as a debt), and its turn panel asks
for the sum instead of offering "Pay". A right answer pays it; a wrong one says how it is worked
out; after the third, the sum is told and one tap pays it. Nothing is shown to anyone else: the
tries are this phone's too (a cookie), and a wrong one changes nothing in the game."""

from flask import Blueprint, Flask, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ... import store
from ...rules.declaration import ACTIONS, Counted
from ...rules.counting import WorkedOut, counts, purchase, worked_out
from ...rules.inputs import MAX_AMOUNT
from ...words.amounts import money, typed
from ...words.names import square_name
from ..answers.respond import from_htmx, message, perform, seat_moved
from ..answers.seats import browser, visit_or_404

bp = Blueprint("counting", __name__, url_prefix="/p/<code:code>/count")

SETTING = "counting"  # the cookie that says this phone counts, for the game of its path
TRIES = "counted"     # the cookie of the wrong tries: "<sum>:<tries>", for the sum counted now
TELLS_AFTER = 3       # the wrong tries after which the phone tells the sum
YEAR = 365 * 24 * 3600


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(counted_debt=counts)


def counting() -> bool:
    """Whether this phone counts in the game of this request (its cookie's path is the game's)."""
    return request.cookies.get(SETTING) == "on"


def marked(form: MultiDict) -> MultiDict:
    """An action form from this phone, saying it counts when the phone does and the action may
    charge it (rules: declaration.Counted)."""
    kind = ACTIONS.get(form.get("type", ""))
    if not (counting() and kind is not None and issubclass(kind, Counted)):
        return form
    data = form.copy()
    data["count"] = "1"
    return data


@bp.post("/setting")
def setting(code):
    """Turn counting on or off on this phone: its setting card again, or back to the phone screen."""
    on = request.form.get("on") == "1"
    if from_htmx():
        answer = make_response(render_template("player/_counting.html", code=code, counting=on))
    else:
        answer = redirect(url_for("player.page", code=code), 303)
    answer.set_cookie(SETTING, "on" if on else "off", max_age=YEAR, path=url_for("player.page", code=code),
                      samesite="Lax", httponly=True, secure=request.is_secure)
    return answer


@bp.post("")
def guess(code):
    """A sum typed by a counting player: the debt (`sum` "debt-<id>") or the price of the deed
    offered ("price"). Right, it is paid, or the deed bought, as by the ordinary buttons; wrong,
    nothing happens in the game and the phone says how it is worked out, then the sum."""
    game, seat = visit_or_404(code, "seat")
    if seat is None:
        return seat_moved()
    back = url_for("player.page", code=code)
    key, state = request.form.get("sum", ""), store.known(game).state
    action, sum_ = _counted(state, seat.player, key)
    if action is None:
        return message(_("There is nothing to count now."), 409, back)
    action["nonce"] = request.form.get("nonce", "")
    if sum_ is None:  # paid or bought already: the same nonce gives the first answer, or a refusal
        return perform(code, browser("seat"), action, back)
    value = typed(request.form.get("guess", "").strip())
    if not (isinstance(value, str) and value.isdecimal() and len(value) <= len(str(MAX_AMOUNT))):
        return message(_("Type the sum in figures, such as 120."), 422, back)
    if int(value) != sum_.total:
        return _not_quite(code, key, state.board, sum_, action)
    answer = make_response(perform(code, browser("seat"), action, back))
    answer.delete_cookie(TRIES, path=back)
    return answer


def _counted(state, player: int, key: str) -> tuple[dict | None, WorkedOut | None]:
    """The action that pays the sum `key` names, and how the sum is made (None once it is paid);
    no action when `key` names nothing this player counts."""
    if key == "price":
        return {"type": "buy"}, purchase(state, player)
    number = key.removeprefix("debt-")
    if not number.isdecimal() or len(number) > 12:
        return None, None
    debt = next((d for d in state.debts_of(player) if d.id == int(number)), None)
    if debt is not None and not counts(debt):  # a fine or a charge says its sum: nothing to count
        return None, None
    return {"type": "pay_debt", "debt": number}, worked_out(state, debt) if debt else None


def _not_quite(code: str, key: str, board, sum_: WorkedOut, action: dict):
    """A wrong sum: how it is worked out, or after the third try the sum itself (for htmx, beside
    the form, with a button that pays it; for a plain form, as the page's message)."""
    back, tries = url_for("player.page", code=code), _tries(key) + 1
    told = _worked_in_words(board, sum_, board.currency)
    if from_htmx():
        answer = make_response(render_template(
            "player/_counted.html", code=code, told=told, tries=tries, tells_after=TELLS_AFTER,
            total=sum_.total, currency=board.currency, action=action), 422)
    else:
        flash(_("Not quite. %(how)s", how=told) if tries < TELLS_AFTER
              else _("It is %(sum)s: type it to pay.", sum=money(sum_.total, board.currency)), "error")
        answer = redirect(back, 303)
    answer.set_cookie(TRIES, f"{key}:{tries}", path=back, samesite="Lax", httponly=True, secure=request.is_secure)
    return answer


def _tries(key: str) -> int:
    """The wrong tries this phone made at the sum `key` (0 for a sum it had not tried)."""
    tried, _sep, count = request.cookies.get(TRIES, "").rpartition(":")
    return int(count) if tried == key and count.isdecimal() else 0


def _worked_in_words(board, sum_: WorkedOut, currency: str) -> str:
    """How a sum is made, in the reader's words, without its total: what a child adds up."""
    f, m = sum_.figures, (lambda amount: money(amount, currency))
    name = square_name(board, sum_.square) if sum_.square is not None else ""
    if sum_.how == "street":
        level = (_("a hotel") if f["level"] == 5 else _("no houses") if f["level"] == 0
                 else ngettext("%(num)s house", "%(num)s houses", f["level"]))
        words = _("%(square)s with %(level)s: the rent is %(rent)s.", square=name, level=level, rent=m(f["rent"]))
        if f["doubled"]:
            words += " " + _("Its owner has the whole colour group: twice that.")
    elif sum_.how == "railroad":
        words = ngettext("Its owner has %(num)s railroad: the rent is %(rent)s.",
                         "Its owner has %(num)s railroads: the rent is %(rent)s.", f["held"], rent=m(f["rent"]))
    elif sum_.how == "utility":
        words = _("%(times)s times the dice: you rolled %(dice)s.", times=f["times"], dice=f["dice"])
    elif sum_.how == "tenth":
        words = _("A tenth of all you are worth (%(worth)s), rounded to the nearest whole.", worth=m(f["worth"]))
    elif sum_.how == "repairs":
        words = _("%(houses)s at %(per_house)s each, and %(hotels)s at %(per_hotel)s each.",
                  houses=ngettext("%(num)s house", "%(num)s houses", f["houses"]), per_house=m(f["per_house"]),
                  hotels=ngettext("%(num)s hotel", "%(num)s hotels", f["hotels"]), per_hotel=m(f["per_hotel"]))
    elif sum_.how == "each":
        words = ngettext("%(each)s to each of the other players: there is %(num)s.",
                         "%(each)s to each of the other players: there are %(num)s.", f["players"], each=m(f["each"]))
    elif sum_.how == "price":
        words = _("The price of %(square)s is printed on its square of the board.", square=name)
    elif sum_.how == "tax" and f["amount"] == board[sum_.square].amount:  # where to read it, not the sum itself
        words = _("%(square)s: its sum is printed on its square of the board.", square=name)
    elif sum_.how == "tax":  # a house rule's sum, not the board's: said
        words = _("%(square)s costs %(amount)s.", square=name, amount=m(f["amount"]))
    else:
        words = _("The sum is written on your card.")
    if sum_.by_card:
        words += " " + _("Your card doubles it.")
    return words
