"""What differs between two browsers shown the same screen, left out of the HTML they share.

The live path draws a screen once for every page that shows it (parts.py, `draw`), so that HTML
holds marks where a page's own values go: the CSRF token (its browser's session's) and each form's
nonce (every form a browser gets has a new one). Each page's connection writes its own in
(`unmark`)."""

import secrets
from collections.abc import Callable

from flask import g
from flask_wtf.csrf import generate_csrf

CSRF_MARK = "\x1ecsrf\x1e"
NONCE_MARK = "\x1enonce\x1e"


def marked(real: Callable[[], str], mark: str) -> Callable[[], str]:
    """A template global (csrf_token, nonce) that gives `mark` while the live path draws."""
    return lambda: mark if g.get("live_marks") else real()


def unmark(html: str, csrf: str) -> str:
    """Shared HTML for one browser: its CSRF token, and a new nonce in each form."""
    if CSRF_MARK in html:
        html = html.replace(CSRF_MARK, csrf)
    if NONCE_MARK in html:
        pieces = html.split(NONCE_MARK)
        html = "".join(piece + secrets.token_urlsafe(16) for piece in pieces[:-1]) + pieces[-1]
    return html


def init_app(app) -> None:
    """The templates' csrf_token and nonce, marked while the live path draws."""
    csrf_token = marked(generate_csrf, CSRF_MARK)
    app.jinja_env.globals.update(csrf_token=csrf_token, nonce=marked(lambda: secrets.token_urlsafe(16), NONCE_MARK))
    app.context_processor(lambda: {"csrf_token": csrf_token})  # Flask-WTF's own puts generate_csrf there too
