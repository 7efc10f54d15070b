"""A payment of more than half the payer's cash takes a second tap that names the amount and the
payee: a player paid a third of her cash to the wrong seat with one tap, and the browser's own
"OK / Cancel" box said neither to whom nor how much.

The first tap is answered with the question and a form that sends the same payment again, marked
`sure`: by htmx, right after the form that asked (HX-Retarget), where a refusal would show
(static/app.js); without JavaScript, as a page of its own. Nothing is applied until the second tap. A
payment above the payer's cash, which leaves a debt, asks the same way, in its own words. The JSON
API is not asked: a script means what it sends.
"""

from flask import render_template, request

from ... import store
from ...rules import Actor, apply, parse
from ...rules.errors import GameError
from .forms import action_from_form
from ...words.languages import gettext as _
from ...words.phrases import money, party
from .respond import from_htmx
from .seats import visit

# The field the second tap adds to the form.
SURE = "sure"


def question(code: str, form, role: str) -> tuple[str, str] | None:
    """What to ask before a payment form (the phone's, or the banker's for a seat) is applied, with
    the amount in words, or None: not a payment, already asked, no more than half the payer's cash,
    or a payment the rules refuse anyway (the store then says why)."""
    if form.get("type") != "pay" or form.get(SURE):
        return None
    game, actor = visit(code, role)
    if game is None or actor is None:
        return None
    state = store.load_state(game)
    try:
        pay = parse({k: v for k, v in action_from_form(form).items() if k != "player"})  # the seat is the sender's
        payer = int(form.get("player", "")) if actor.banker else actor.player
        if pay.amount * 2 <= state.player(payer).cash:
            return None
        apply(state, pay, actor if not actor.banker else Actor(player=payer))  # on a copy: refused, it is not asked
    except (GameError, ValueError):
        return None
    seat = state.player(payer)
    words = {"payee": party(state, pay.to), "amount": money(state, pay.amount), "cash": money(state, seat.cash),
             "name": seat.name}
    return _asked(words, actor.banker, pay.amount > seat.cash), words["amount"]


def _asked(words: dict, banker: bool, over: bool) -> str:
    """The question: the banker's for a seat or the player's own; over the cash (a debt) or half of it."""
    if banker:
        if over:
            return _("Pay %(payee)s %(amount)s for %(name)s? %(name)s has %(cash)s: the rest stays owed, and %(name)s cannot end a turn until it is paid.", **words)
        return _("Pay %(payee)s %(amount)s for %(name)s? That is more than half of %(name)s's %(cash)s.", **words)
    if over:
        return _("Pay %(payee)s %(amount)s? You have %(cash)s: the rest stays owed, and you cannot end your turn until it is paid.", **words)
    return _("Pay %(payee)s %(amount)s? That is more than half of your %(cash)s.", **words)


def ask(asked: str, amount: str, form, back: str):
    """The question, with the payment's own fields to send again and sure; a way back without it."""
    words = {"question": asked, "url": request.path, "back": back, "amount": amount,
             "fields": [(k, v) for k, v in form.items(multi=True) if k not in ("csrf_token", "nonce", SURE)]}
    if from_htmx():
        # In the page, right after the form that asked ("this": the form), as an answer a next try clears.
        return (render_template("_second_tap.html", htmx=True, **words), 200,
                {"HX-Retarget": "this", "HX-Reswap": "afterend"})
    return render_template("second_tap.html", **words)
