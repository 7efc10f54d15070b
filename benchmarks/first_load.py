"""Benchmark: the bytes a phone and the host screen download to show their page, in Chromium.

A table of eight plays by itself (benchmarks/bot.py) to 1,500 events; then a fresh browser (empty
cache, holding the banker's or that seat's badge as live.session_cookie gives it: the badge in the
app's database, the browser key in a signed cookie) opens the host screen and the phone page of the
seat with the most deeds, opens it again (a second visit: what is cached is not asked for again)
and reloads it (the reload button: the page itself is asked for again). The server counts every
byte of status line, headers and body it answers with (the live connection aside, which carries
the changes afterwards), so the figures are what crossed the network, compressed or not, and the
htmx files are counted apart.

Run: .venv/bin/python benchmarks/first_load.py   (about half a minute; prints a table; asserts nothing)
"""

import random
import tempfile
import threading
from collections import defaultdict
from pathlib import Path

from live import Table, session_cookie
from playwright.sync_api import sync_playwright
from waitress.server import create_server

from banker import create_app
from banker.cli import server_options

CHROMIUM = "/usr/bin/chromium"
EVENTS = 1500
LAN = {"Accept-Encoding": "gzip, deflate"}


class CountingServer:
    """The app on waitress in a thread, counting what it answers per path (and the Accept-Encoding
    the browser sent)."""

    def __init__(self):
        folder = Path(tempfile.mkdtemp())
        self.app = create_app({"RATELIMIT_ENABLED": False, "HTMX_CDN": False}, instance_path=folder)
        self.secret_key = self.app.config["SECRET_KEY"]
        self.sent: dict[str, int] = defaultdict(int)
        self.accept_encoding = ""
        inner = self.app.wsgi_app

        def counting(environ, start_response):
            path = environ["PATH_INFO"]
            if path.endswith("/live") or path.startswith("/api/"):
                return inner(environ, start_response)
            self.accept_encoding = environ.get("HTTP_ACCEPT_ENCODING", "")
            return counted(path, environ, start_response)

        def counted(path, environ, start_response):
            def counted_start(status, headers, exc_info=None):
                head = f"HTTP/1.1 {status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
                self.sent[path] += len(head.encode())
                return start_response(status, headers, exc_info)

            for chunk in inner(environ, counted_start):
                self.sent[path] += len(chunk)
                yield chunk

        self.app.wsgi_app = counting
        self._server = create_server(self.app, host="127.0.0.1", port=0, **server_options(self.app))
        self.port = self._server.effective_port
        threading.Thread(target=self._server.run, daemon=True).start()

    def take(self) -> dict[str, int]:
        """What was answered since the last call, per path."""
        sent, self.sent = dict(self.sent), defaultdict(int)
        return sent


def split(sent: dict[str, int]) -> tuple[int, int]:
    """(bytes before htmx, bytes of htmx and its SSE extension)."""
    htmx = sum(n for path, n in sent.items() if path.startswith("/static/vendor/"))
    return sum(sent.values()) - htmx, htmx


def main() -> None:
    server = CountingServer()
    table = Table(server, random.Random(13))
    table.play_until(EVENTS)
    # The phone with the most deeds: the largest wallet, the largest page.
    deeds = {pid: sum(d["owner"] == pid for d in table.state["deeds"]) for pid in table.seats}
    richest = max(deeds, key=deeds.get)
    database = server.app.config["SQLALCHEMY_DATABASE_URI"]
    host = (f"/t/{table.code}", session_cookie(database, server.secret_key, "banker", table.code))
    phone = (f"/p/{table.code}", session_cookie(database, server.secret_key, "seat", table.code, richest))
    # Over plain http to a LAN address Chromium asks for gzip and deflate only (br and zstd need
    # https, or localhost as here): both ways.
    screens = {("host", "localhost"): (*host, {}), ("phone", "localhost"): (*phone, {}),
               ("host", "LAN"): (*host, LAN), ("phone", "LAN"): (*phone, LAN)}
    base = f"http://127.0.0.1:{server.port}"
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        for (screen, where), (path, cookie, headers) in screens.items():
            context = browser.new_context(base_url=base, extra_http_headers=headers)
            name, value = cookie.split("=", 1)
            context.add_cookies([{"name": name, "value": value, "url": base}])
            page = context.new_page()
            server.take()
            for visit in ("first load", "second visit", "reload"):
                page.reload(wait_until="load") if visit == "reload" else page.goto(path, wait_until="load")
                page.wait_for_timeout(300)  # app.js and the live connection settle
                sent = server.take()
                rows.append((screen, where, server.accept_encoding, visit, *split(sent), len(sent),
                             sent.get(path, 0)))
            context.close()
        browser.close()
    print(f"{'screen':<7} {'server':<10} {'Accept-Encoding':<24} {'visit':<13} {'bytes before htmx':>18} "
          f"{'htmx bytes':>11} {'requests':>9} {'page itself':>12}")
    for screen, where, encodings, visit, before, htmx, requests, page_bytes in rows:
        print(f"{screen:<7} {where:<10} {encodings:<24} {visit:<13} {before:>18,} {htmx:>11,} {requests:>9} "
              f"{page_bytes:>12,}")


if __name__ == "__main__":
    main()
