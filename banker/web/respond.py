"""The one place that turns an outcome or a refusal into a response, for htmx or a plain form."""

from flask import flash, make_response, redirect, render_template, request
from flask_babel import gettext as _

from .. import store
from ..rules.errors import GameError
from ..store import Outcome
from .forms import action_from_form
from .narrate import refusal, summary


def from_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def page_or_fragment(page: str, fragment: str, **context):
    """The fragment for an htmx request, else the whole page that includes it."""
    response = make_response(render_template(fragment if from_htmx() else page, **context))
    response.vary.add("HX-Request")
    return response


def acted(outcome: Outcome, code: str, back: str, leave: bool = False):
    """After an action: htmx gets the message, the new probe and a refresh signal; a form, a redirect.

    `leave` sends the browser on to `back` (a finished task page, such as the trade composer).
    """
    text = summary(outcome.state, outcome.effects)
    if not from_htmx() or leave:
        flash(text, "ok")
        if from_htmx():
            return "", 200, {"HX-Redirect": back}
        return redirect(back, 303)
    response = make_response(render_template(
        "_message.html", message=text, category="ok", code=code, version=outcome.version,
        probe_oob=True,
    ))
    response.headers["HX-Trigger"] = "game-changed"
    return response


def refused(error: GameError, state, back: str):
    """A refusal changes nothing: say why, where the user acted (422 for htmx, flash for a form)."""
    text = refusal(error, state)
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


def perform(game, actor, form, back: str, done: str | None = None):
    """Apply an action form through the store and answer with its outcome or refusal.

    The form is read inside the same `try`: a malformed form (one die, a bad seat order) is a
    refusal like any other, not a server error. A refusal stays on `back`; success goes on to
    `done` when given (leaving a task page), else stays too.
    """
    try:
        outcome = store.act(game.code, actor, action_from_form(form))
    except GameError as error:
        return refused(error, store.load_state(game), back)
    except store.Busy:
        return message(_("The table is busy; try again."), 503, back)
    return acted(outcome, game.code, done or back, leave=done is not None)
