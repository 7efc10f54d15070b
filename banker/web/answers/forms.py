"""Plain HTML forms to action dicts: the rules validate the result, as for the JSON API."""

from werkzeug.datastructures import MultiDict

from ...rules.errors import ActionError, N_
from ...rules.inputs import CARD_FIELDS
from ...words.amounts import typed

DICE_FIELDS = ("die1", "die2")
# A trade form: each side's cash, deeds (checkboxes) and jail cards, and the deeds to lift.
TRADE_FIELDS = {"give_cash", "give_squares", "give_cards", "get_cash", "get_squares", "get_cards", "lift"}


def action_from_form(form: MultiDict) -> dict:
    """Collect a form's fields into an action (less its CSRF token, and `sure`, a payment's second
    tap: web/answers/second_tap.py): dice come as die1/die2, a seat order as pos-<id>,
    a group's building levels as level-<square>, a trade's sides as give_* and get_* fields."""
    data = {k: v for k, v in form.items() if k not in ("csrf_token", "sure") and k not in DICE_FIELDS
            and k not in TRADE_FIELDS and not k.startswith(("pos-", "level-", "effect-"))}
    if any(f in form for f in DICE_FIELDS):
        if not all(form.get(f) for f in DICE_FIELDS):
            raise ActionError("missing_field", N_("Tap the number on each die."))
        data["dice"] = [form[f] for f in DICE_FIELDS]
    positions = {k[4:]: v for k, v in form.items() if k.startswith("pos-")}
    if positions:
        try:
            ranked = sorted(positions, key=lambda pid: int(positions[pid]))
        except ValueError:
            raise ActionError("bad_order", N_("Give every player a place in the order.")) from None
        if len({positions[p] for p in positions}) != len(positions):
            raise ActionError("bad_order", N_("Give every player a different place."))
        data["order"] = ranked
    levels = {k[6:]: v for k, v in form.items() if k.startswith("level-")}
    if levels:
        data["levels"] = levels
    if "amount" in data:
        data["amount"] = typed(data["amount"])
    if data.get("type") == "offer_trade":
        for side in ("give", "get"):
            data[side] = {"cash": typed(form.get(f"{side}_cash")) or 0,
                          "squares": form.getlist(f"{side}_squares"),
                          "jail_cards": form.getlist(f"{side}_cards")}
    if "effect-kind" in form:
        data["effect"] = card_effect(form)
    if "lift" in form:
        data["lift"] = form.getlist("lift")
    return data


def card_effect(form: MultiDict) -> dict:
    """A card the app does not know, as the picker's "Another card…" form says it: the kind (with
    the nearest card's square type after a slash, "advance_to_nearest/railroad") and only the
    fields that kind has; the form shows the others hidden, and they are ignored."""
    kind, _, square_type = form["effect-kind"].partition("/")
    effect = {"kind": kind}
    if square_type:
        effect["type"] = square_type
    for field in CARD_FIELDS.get(kind, ()):
        if field != "type":
            value = form.get(f"effect-{field}", "")
            effect[field] = value if field == "square" else typed(value)
    return effect
