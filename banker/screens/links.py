"""Addresses a phone can open: the join QR, a rejoin code's, a TV link's."""

from urllib.parse import urlsplit

from flask import current_app, request


def public_url(path: str) -> str:
    """A full URL phones can open: the one the request asked for (behind a proxy, with PROXY_FIX,
    the public one), or PUBLIC_URL when the host browses on localhost (`banker`'s LAN address, or
    the public address instance/config.py gives)."""
    base = request.host_url
    public = current_app.config.get("PUBLIC_URL")
    if public and urlsplit(base).hostname in ("localhost", "127.0.0.1", "::1"):
        base = public
    return base.rstrip("/") + path
