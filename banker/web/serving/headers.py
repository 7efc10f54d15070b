"""Security headers on every answer (pages, API, static files, errors) and a session cookie that is
Secure whenever the page came over HTTPS."""

import secrets

from flask import Flask, current_app, g, request
from flask.sessions import SecureCookieSessionInterface


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, sent with the Secure flag over HTTPS as well as when
    SESSION_COOKIE_SECURE says so. A host on a plain-http LAN address keeps a working cookie.

    Behind a TLS-terminating proxy, `request.is_secure` is only true once ProxyFix trusts the
    proxy's X-Forwarded-Proto (the hosted mode adds it)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure or super().get_cookie_secure(app)


def csp_nonce() -> str:
    """This request's nonce for script tags: made once per request, in the header and the page alike."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return g.csp_nonce


def content_security_policy(nonce: str, cdn_scripts: str = "") -> str:
    """The policy: everything from this server only, scripts also by nonce (the inline CDN
    fallback) and from the exact CDN files when the CDN is on, no inline style, no eval, no frames."""
    return "; ".join((
        "default-src 'self'",
        f"script-src 'self' 'nonce-{nonce}'{cdn_scripts}",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",  # the live connection is Server-Sent Events from this server
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ))


def init_app(app: Flask) -> None:
    """Send the headers on every response, give templates `csp_nonce()`, use the session above."""
    from .. import SCRIPTS  # defined in the package after its modules (this one) are imported

    # The CDN files themselves rather than the whole host: jsDelivr serves any npm package.
    cdn_scripts = "".join(f" {script.cdn_url}" for script in SCRIPTS)
    app.session_interface = SessionInterface()
    app.jinja_env.globals["csp_nonce"] = csp_nonce

    @app.after_request
    def security_headers(response):
        cdn = cdn_scripts if current_app.config["HTMX_CDN"] else ""
        response.headers["Content-Security-Policy"] = content_security_policy(csp_nonce(), cdn)
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        return response
