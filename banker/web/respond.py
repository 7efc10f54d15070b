"""The one place that turns an outcome or a refusal into a response, for htmx or a plain form."""

from flask import abort, flash, make_response, redirect, render_template, request
from flask_babel import gettext as _

from .. import store
from ..rules.errors import GameError
from ..store import Outcome
from . import ledger
from .forms import action_from_form
from .narrate import refusal, summary

# How soon to try again when an action lost every race for the game's version (store.Busy): the
# table's other taps take milliseconds.
BUSY_RETRY_SECONDS = 1


def from_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def acted(code: str, outcome: Outcome, back: str, leave: bool = False):
    """After an action: htmx gets the message (the screen itself changes through its live
    connection, like every other screen of the game); a plain form, a redirect.

    `leave` sends the browser on to `back` (a finished task page, such as the trade composer).
    An undo is told as the history tells it, with the entry it took back.
    """
    if outcome.effects and outcome.effects[0]["kind"] == "undone":
        text = ledger.latest(store.known(store.find_game(code)), outcome.state)
    else:
        text = summary(outcome.state, outcome.effects)
    if not from_htmx() or leave:
        flash(text, "ok")
        if from_htmx():
            return "", 200, {"HX-Redirect": back}
        return redirect(back, 303)
    return render_template("_message.html", message=text, category="ok")


def refused(error: GameError, state, back: str):
    """A refusal changes nothing: say why, where the user acted (422 for htmx, flash for a form)."""
    text = refusal(error, state, on_page=True)
    if not from_htmx():
        flash(text, "error")
        return redirect(back, 303)
    return render_template("_message.html", message=text, category="error"), 422


def message(text: str, status: int, back: str | None = None):
    """A plain message in the right shape for the request: the fragment for htmx; for a plain form,
    a flash on `back` (busy: try again from there), else an error page with the status (forbidden)."""
    if from_htmx():
        return render_template("_message.html", message=text, category="error"), status
    if back:
        flash(text, "error")
        return redirect(back, 303)
    return render_template("error.html", message=text), status


def not_the_banker():
    """The answer to the banker's pages and forms from any other browser."""
    return message(_("Only the banker's screen can do that."), 403)


def seat_moved():
    """The answer to a tap from a browser whose seat went to another phone (or that has none)."""
    return message(_("This seat moved to another phone; ask the banker for a new rejoin code."), 403)


def perform(code: str, browser: store.Browser, form, back: str, done: str | None = None,
            rejoin: str | None = None):
    """Apply an action form for this browser (as the banker or its seat) and answer with its
    outcome or refusal.

    The form is read inside the same `try`: a malformed form (one die, a bad seat order) is a
    refusal like any other, not a server error. A refusal stays on `back`; success goes on to
    `done` when given (leaving a task page), else stays too. A browser that no longer holds its
    seat (the seat moved to another phone) is sent on to `rejoin` (a plain form).
    """
    try:
        outcome = store.act(code, action_from_form(form), browser=browser)
    except GameError as error:
        game = store.find_game(code)
        if game is None:  # a form refused before the game was looked up: say the game is unknown
            abort(404)
        return refused(error, store.load_state(game), back)
    except store.UnknownSecret:
        if browser.role == "banker":
            return not_the_banker()
        if rejoin and not from_htmx():
            return redirect(rejoin, 303)
        return seat_moved()
    except store.Busy:
        answer = make_response(message(_("The table is busy; try again."), 503, back))
        answer.headers["Retry-After"] = str(BUSY_RETRY_SECONDS)
        return answer
    except LookupError:
        abort(404)
    return acted(code, outcome, done or back, leave=done is not None)
