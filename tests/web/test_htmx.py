"""htmx comes from a pinned CDN URL with an SRI hash and falls back to the vendored copy, or (a
setting, for tests and offline hosts) from the vendored copy only; nothing here reaches the internet."""

import base64
import hashlib
from pathlib import Path

from banker.web import HTMX_CDN_HOST, HTMX_SRI, HTMX_VERSION

from .conftest import make_app

VENDORED = Path(__file__).parents[2] / "static" / "vendor" / f"htmx-{HTMX_VERSION}.min.js"


def test_the_vendored_htmx_is_the_pinned_release_unmodified():
    digest = base64.b64encode(hashlib.sha384(VENDORED.read_bytes()).digest()).decode()
    assert HTMX_SRI == f"sha384-{digest}"


def test_pages_load_htmx_from_the_pinned_cdn_with_sri_and_fall_back_to_the_vendored_copy(tmp_path):
    page = make_app(tmp_path / "banker.sqlite", HTMX_CDN=True).test_client().get("/").get_data(as_text=True)
    cdn = f'src="https://{HTMX_CDN_HOST}/npm/htmx.org@{HTMX_VERSION}/dist/htmx.min.js" integrity="{HTMX_SRI}"'
    assert cdn in page
    assert "window.htmx || document.write" in page and f"/static/vendor/htmx-{HTMX_VERSION}.min.js" in page


def test_the_offline_setting_serves_only_the_vendored_copy(tmp_path):
    client = make_app(tmp_path / "banker.sqlite").test_client()
    page = client.get("/").get_data(as_text=True)
    assert HTMX_CDN_HOST not in page
    assert f'<script src="/static/vendor/htmx-{HTMX_VERSION}.min.js"></script>' in page
    served = client.get(f"/static/vendor/htmx-{HTMX_VERSION}.min.js")
    assert served.status_code == 200 and served.get_data() == VENDORED.read_bytes()
    served.close()
