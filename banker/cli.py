"""The `banker` command: serve the app on the local network and show how phones reach it."""

import argparse
import socket

from waitress import serve

from . import create_app, qr
from .lan import lan_address
from .web import HTMX_CDN_HOST


def cdn_reachable(timeout: float = 1.5) -> bool:
    """Whether phones could load htmx from the CDN; a game night without internet serves it locally."""
    try:
        socket.create_connection((HTMX_CDN_HOST, 443), timeout=timeout).close()
        return True
    except OSError:
        return False


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="banker", description=__doc__)
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--offline", action="store_true",
                        help="never load htmx from the CDN (it is served by the app itself)")
    args = parser.parse_args(argv)

    app = create_app()
    url = f"http://{lan_address()}:{args.port}/"
    app.config["PUBLIC_URL"] = url
    app.config["HTMX_CDN"] = not args.offline and cdn_reachable()
    print(qr.terminal(url))
    print(f"Tabletop Banker is running. Open {url} on this laptop to create a game;")
    print("phones on the same Wi-Fi join by scanning the code the game shows.")
    print(f"Database: {app.config['SQLALCHEMY_DATABASE_URI']}  (Ctrl+C to stop)", flush=True)
    serve(app, host=args.host, port=args.port, threads=12, ident="tabletop-banker")
