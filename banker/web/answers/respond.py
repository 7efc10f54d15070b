"""The one place that turns an outcome or a failure into a response: for htmx or a plain form, and
for the JSON API (`failed`: a refusal, no such game, a secret nobody holds, a busy table)."""

from flask import abort, flash, jsonify, make_response, redirect, render_template, request
from flask_babel import gettext as _

from ... import store
from ...rules.errors import ActionError, GameError, NotAllowed, RuleError
from ...store import Outcome
from ...screens import history
from .forms import action_from_form
from ...words.narrate import refusal, summary

# How soon to try again when an action lost every race for the game's version (store.Busy): the
# table's other taps take milliseconds.
BUSY_RETRY_SECONDS = 1


# The HTTP status of each kind of refusal: the rules say what is wrong (rules/errors.py), the web how
# a client hears it. A script that reacts to a code gets the same status wherever the code comes from.
STATUS = {ActionError: 400, NotAllowed: 403, RuleError: 409}
# What `failed` answers: anything else is a bug (500, with its traceback in the log).
FAILURES = (GameError, store.GameNotFound, store.UnknownSecret, store.Busy)


def from_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def for_api() -> bool:
    """Whether the request is the JSON API's: its answers are JSON, every other answer a page."""
    return request.path.startswith("/api/")


def error(code: str, text: str, status: int):
    """An error as the API answers it: {"error": {"code", "message"}} with its status."""
    return jsonify({"error": {"code": code, "message": text}}), status


def status(refusal: GameError) -> int:
    """The HTTP status of a refusal, by its kind."""
    return next((number for kind, number in STATUS.items() if isinstance(refusal, kind)), 409)


def failed(problem: Exception, code: str | None = None, back: str | None = None,
           browser: store.Browser | None = None, rejoin: str | None = None):
    """The answer to an action (or a new game, or a game file) that did not happen, and changed
    nothing: for the API as JSON with its status, for a page where the user acted (`back`: where a
    plain form's message is shown).

    - a refusal (GameError), worded from the game as it was when refused (`problem.state`): the
      API's 400, 403 or 409 (STATUS); a page's message under its form (422 for htmx, a flash);
    - no game with `code` (store.GameNotFound): 404;
    - a secret nobody in the game holds (store.UnknownSecret): the API's 401; on a page, the
      `browser` is not the banker's (403), or its seat moved to another phone (403; a plain form is
      sent on to `rejoin`);
    - every try lost the race for the game's version (store.Busy): 503, with Retry-After.

    `problem` is one of FAILURES: anything else is raised again."""
    api = for_api()
    if isinstance(problem, GameError):
        if api:
            return error(problem.code, refusal(problem, problem.state), status(problem))
        return refused(problem, problem.state, back)
    if isinstance(problem, store.GameNotFound):
        if api:
            return error("not_found", _("No game with code %(code)s.", code=code), 404)
        abort(404)
    if isinstance(problem, store.UnknownSecret):
        if api:
            return error("unauthorized", _("Send a valid token for this game."), 401)
        if browser.role == "banker":
            return not_the_banker()
        if rejoin and not from_htmx():
            return redirect(rejoin, 303)
        return seat_moved()
    if isinstance(problem, store.Busy):
        text = _("The table is busy; try again.")
        answer = make_response(error("busy", text, 503) if api else message(text, 503, back))
        answer.headers["Retry-After"] = str(BUSY_RETRY_SECONDS)
        return answer
    raise problem


def acted(code: str, outcome: Outcome, back: str, leave: bool = False):
    """After an action: htmx gets the message (the screen itself changes through its live
    connection, like every other screen of the game); a plain form, a redirect.

    `leave` sends the browser on to `back` (a finished task page, such as the trade composer).
    An undo is told as the history tells it, with the entry it took back.
    """
    if outcome.effects and outcome.effects[0]["kind"] == "undone":
        text = history.latest(store.known(store.find_game(code)), outcome.state)
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
    except FAILURES as problem:
        if isinstance(problem, GameError) and problem.state is None:
            # Refused before the store read the game (the form itself, or its nonce): the game is
            # read to word it (amounts in its money), or said to be unknown.
            game = store.find_game(code)
            if game is None:
                abort(404)
            problem.state = store.load_state(game)
        return failed(problem, code, back, browser, rejoin)
    return acted(code, outcome, done or back, leave=done is not None)
