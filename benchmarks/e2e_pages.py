"""Benchmark: what a browser test pays for a phone page, in a new browser context (as every e2e test
opened its pages until 2026-12-05) and in a context kept open with a blank page of its own (as the
session's pool of tests/e2e/conftest.py lends them), against a plain load of the page.

A real waitress server on 127.0.0.1 (tests/e2e/conftest.py's), Debian's Chromium through Playwright;
each figure is the median of a few rounds of eight pages, per page.

Run: .venv/bin/python benchmarks/e2e_pages.py   (prints a table; asserts nothing)
"""

import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from banker import create_app  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Server  # noqa: E402

PAGES, ROUNDS = 8, 3


def per_page(run) -> float:
    samples = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) / PAGES)
    return statistics.median(samples)


def main() -> None:
    logging.disable(logging.CRITICAL)
    folder = Path(tempfile.mkdtemp())
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'banker.sqlite'}", "SECRET_KEY": "bench",
                      "RATELIMIT_ENABLED": False, "HTMX_CDN": False}, instance_path=str(folder / "instance"))
    server = Server(app).start()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)

        def fresh():
            for _ in range(PAGES):
                context = browser.new_context(base_url=server.url, **PHONE)
                context.new_page().goto("/")
                context.close()

        kept = browser.new_context(base_url=server.url, **PHONE)
        keeper = kept.new_page()

        def pooled():
            for _ in range(PAGES):
                page = kept.new_page()
                page.goto("/")
                page.close()
            kept.clear_cookies()

        def load():
            for _ in range(PAGES):
                keeper.goto("/")

        rows = [("a new context, its page loaded, closed", per_page(fresh)),
                ("a new page in a kept context, loaded, closed", per_page(pooled)),
                ("a page loaded again", per_page(load))]
        browser.close()
    server.stop()
    for what, seconds in rows:
        print(f"{what:<48} {seconds * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
