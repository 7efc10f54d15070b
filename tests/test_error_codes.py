"""One HTTP status per error code: a script that reacts to `no_such_player` gets the same status
wherever the code comes from. Every code the app can answer with is found in the source."""

import ast
from collections import defaultdict
from pathlib import Path

from banker.rules.errors import ActionError, NotAllowed, RuleError
from banker.web.answers.respond import status

SOURCE = Path(__file__).resolve().parents[1] / "banker"
REFUSALS = {cls.__name__: status(cls("code", "")) for cls in (ActionError, RuleError, NotAllowed)}
# The web layer's own errors: (code, message, status) to respond.error, (code, api text, page text, status) to _error.
ANSWERS = {"error": 2, "_error": 3}


def statuses() -> dict[str, set[int]]:
    found = defaultdict(set)
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in REFUSALS:
                found[node.args[0].value].add(REFUSALS[name])
            elif name in ANSWERS and len(node.args) > ANSWERS[name]:
                status = node.args[ANSWERS[name]]
                found[node.args[0].value].add(status.value if isinstance(status, ast.Constant) else "computed")
    return found


def test_every_error_code_has_one_status():
    found = statuses()
    assert len(found) > 80 and {"no_such_player", "bad_order", "unauthorized", "too_large"} <= set(found)
    assert {code: sorted(map(str, s)) for code, s in found.items() if len(s) != 1} == {}


def test_the_two_codes_that_had_two_statuses_are_400():
    found = statuses()
    assert found["no_such_player"] == found["bad_order"] == {400}
