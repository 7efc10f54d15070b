"""htmx and its SSE extension come from pinned CDN URLs with SRI hashes and fall back to the vendored
copies, or (a setting, for tests and offline hosts) from the vendored copies only; nothing here
reaches the internet."""

import base64
import hashlib
from pathlib import Path

import pytest

from banker.web import HTMX_CDN_HOST, SCRIPTS

from ..apps import make_app

STATIC = Path(__file__).parents[2] / "static"
IDS = [s.package for s in SCRIPTS]


def test_htmx_and_the_sse_extension_are_both_served():
    assert {(s.package, s.version[:2]) for s in SCRIPTS} == {("htmx.org", "2."), ("htmx-ext-sse", "2.")}


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_the_vendored_copy_is_the_pinned_release_unmodified(script):
    digest = base64.b64encode(hashlib.sha384((STATIC / script.vendored).read_bytes()).digest()).decode()
    assert script.sri == f"sha384-{digest}"


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_pages_load_it_from_the_pinned_cdn_with_sri_and_fall_back_to_the_vendored_copy(tmp_path, script):
    page = make_app(tmp_path / "banker.sqlite", HTMX_CDN=True).test_client().get("/").get_data(as_text=True)
    cdn = (f'src="https://{HTMX_CDN_HOST}/npm/{script.package}@{script.version}/{script.file}" '
           f'integrity="{script.sri}"')
    assert cdn in page
    assert f"{script.loaded} || document.write('<script src=\"/static/{script.vendored}\" nonce=" in page
    # The extension after htmx, which it extends.
    assert page.index("htmx.org@") < page.index("htmx-ext-sse@")


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_the_offline_setting_serves_only_the_vendored_copy(tmp_path, script):
    client = make_app(tmp_path / "banker.sqlite").test_client()
    page = client.get("/").get_data(as_text=True)
    assert HTMX_CDN_HOST not in page
    assert f'<script src="/static/{script.vendored}" nonce=' in page
    served = client.get(f"/static/{script.vendored}")
    assert served.status_code == 200 and served.get_data() == (STATIC / script.vendored).read_bytes()
    served.close()
