"""A small first load: static files under URLs that name their content, kept by browsers for a year,
and answers compressed.

`url_for("static", filename=...)` adds `?v=<hash of the file>`: a changed file gets a new URL, so
a browser may keep what it fetched under a versioned URL without ever asking again. The files in
static/vendor/ are pinned releases whose names carry their version (the CDN's own URL names the
same release; tests/web/test_htmx.py checks their bytes against the SRI hashes), so their plain
URLs, the ones the CDN fallback writes, are kept as long. Any other static request (no `v`, or the
`v` of an older file, from a page rendered before an upgrade) is revalidated on every use, as before.

Compression is Flask-Compress's, for pages, fragments, JSON and static files, but never for a
streamed answer such as the live connection (text/event-stream is not among its types either): a
compressor holds bytes back until it has enough of them, which would hold back the pushes.
"""

import hashlib
from pathlib import Path

from flask import Flask, request
from flask_compress import Compress
from werkzeug.security import safe_join

YEAR = 365 * 24 * 60 * 60
PINNED = "vendor/"  # static files named by their release
compress = Compress()


class Versions:
    """The content hash of each static file, computed again only when the file changed on disk."""

    def __init__(self, folder: str):
        self.folder = folder
        self._known: dict[str, tuple[tuple[int, int], str]] = {}

    def __call__(self, filename: str) -> str | None:
        """The file's version (12 hex digits of its SHA-256), or None if there is no such file."""
        path = safe_join(self.folder, filename)
        try:
            stat = Path(path).stat() if path else None
        except OSError:
            stat = None
        if stat is None:
            return None
        mark = (stat.st_mtime_ns, stat.st_size)
        known = self._known.get(filename)
        if known is None or known[0] != mark:
            known = self._known[filename] = (mark, hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12])
        return known[1]


def init_app(app: Flask) -> None:
    """Version the static URLs, cache the versioned ones for a year, compress what is worth it."""
    versions = Versions(app.static_folder)

    @app.url_defaults
    def versioned_static(endpoint: str, values: dict) -> None:
        filename = values.get("filename")
        if endpoint == "static" and filename and not filename.startswith(PINNED) and "v" not in values:
            version = versions(filename)
            if version:
                values["v"] = version

    @app.after_request
    def keep_for_a_year(response):
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        filename = request.view_args["filename"]
        if filename.startswith(PINNED) or request.args.get("v") == versions(filename):
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
        return response

    app.config.setdefault("COMPRESS_MIMETYPES", ["text/html", "text/css", "text/javascript",
                                                 "application/javascript", "application/json", "image/svg+xml"])
    # Brotli first, at level 5: on app.css, app.js and htmx it packs 5 to 8% tighter than gzip or
    # zstd at their defaults (and than its own default, 4), in about a millisecond for htmx.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "zstd", "gzip", "deflate"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    # A streamed answer is never compressed: the live connection must send each push at once.
    app.config["COMPRESS_STREAMS"] = False
    compress.init_app(app)

    # Registered after Flask-Compress's, so it runs before it (Flask runs these last first).
    @app.after_request
    def static_file_whole(response):
        """A static file is sent as a stream of the open file; read it whole (the largest is htmx,
        51 KB) so that it is compressed like any other answer, and its file closed when the answer
        is. (Flask-Compress's own streaming compression drops the file without closing it.)"""
        if request.endpoint == "static" and response.mimetype in app.config["COMPRESS_MIMETYPES"]:
            response.direct_passthrough = False
            response.make_sequence()
        return response
