"""The translations: every catalog complete, current with the code and compiled as committed."""

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "banker" / "translations"
LANGUAGES = ("fr", "pt", "ja")
# %(name)s as in gettext, {name} as in the narration's str.format.
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def catalog(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def template():
    return catalog(TRANSLATIONS / "messages.pot")


def ids(messages) -> set:
    return {m.id for m in messages if m.id}


@pytest.fixture(scope="module", params=LANGUAGES)
def po(request):
    return request.param, catalog(TRANSLATIONS / request.param / "LC_MESSAGES" / "messages.po")


def test_the_template_holds_every_string_of_the_code(tmp_path):
    fresh = tmp_path / "fresh.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "-k", "N_",
                    "-o", str(fresh), "."], cwd=ROOT, check=True, capture_output=True)
    missing = ids(catalog(fresh)) - ids(template())
    assert not missing, f"run the commands in babel.cfg: {sorted(missing, key=str)[:10]}"
    stale = ids(template()) - ids(catalog(fresh))
    assert not stale, f"no longer in the code: {sorted(stale, key=str)[:10]}"


def test_no_message_is_missing_empty_or_fuzzy(po):
    language, messages = po
    missing = ids(template()) - ids(messages)
    assert not missing, f"{language}: not in the catalog: {sorted(missing, key=str)[:10]}"
    for message in messages:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), f"{language}: untranslated {message.id!r}"
        assert not message.fuzzy, f"{language}: fuzzy {message.id!r}"
    assert not messages.obsolete or all(m.id not in ids(template()) for m in messages.obsolete.values())


def test_placeholders_match_the_english(po):
    language, messages = po
    for message in messages:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set().union(*(placeholders(text) for text in english))
        for form in forms:
            found = placeholders(form)
            # A plural form may leave out the count ("une maison" for 1), never add or rename.
            assert found <= wanted and wanted - found <= {"num"}, (
                f"{language}: {message.id!r} has {sorted(found)}, the English {sorted(wanted)}")


def test_each_catalog_passes_babels_checks(po):
    language, messages = po
    problems = [(message.id, errors) for message, errors in messages.check() if errors]
    assert not problems, f"{language}: {problems[:5]}"


def test_the_committed_binary_catalogs_are_compiled_from_the_po_files(po):
    language, messages = po
    compiled = io.BytesIO()
    write_mo(compiled, messages)
    committed = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"
    assert committed.exists(), "run: pybabel compile -d banker/translations"
    assert committed.read_bytes() == compiled.getvalue(), "run: pybabel compile -d banker/translations"
