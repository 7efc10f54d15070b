"""The README's first command: `banker` serves the app on the LAN with a fresh instance folder."""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest

from banker.lan import lan_address


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    """`python -m banker` running on a free port with its instance folder in tmp_path."""
    port = free_port()
    env = {**os.environ, "BANKER_INSTANCE": str(tmp_path / "instance")}
    process = subprocess.Popen(
        [sys.executable, "-m", "banker", "--offline", "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    banner = []
    for line in process.stdout:
        banner.append(line)
        if "(Ctrl+C to stop)" in line:
            break
    try:
        yield port, tmp_path / "instance", "".join(banner), process
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()


def get(url: str, tries: int = 50) -> str:
    for _ in range(tries):
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.read().decode()
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{url} did not answer")


def test_banker_serves_the_front_page_and_prints_the_lan_url_with_a_qr_code(served):
    port, _, banner, _ = served
    assert f"http://{lan_address()}:{port}/" in banner
    assert "▀" in banner or "█" in banner  # the QR code drawn in the terminal
    assert "Create game" in get(f"http://127.0.0.1:{port}/")


def test_first_run_creates_the_instance_folder_with_a_wal_database_and_a_secret_key(served):
    port, instance, _, _ = served
    get(f"http://127.0.0.1:{port}/")
    assert len((instance / "secret_key").read_text().strip()) == 64
    with sqlite3.connect(instance / "banker.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_the_lan_address_is_an_ipv4_address():
    assert socket.inet_aton(lan_address())


def test_ctrl_c_stops_the_server_at_once_with_live_pages_open(served):
    """Ctrl+C first ends the open live connections: waitress's threads stop without being waited
    for (it would otherwise wait 5 s, then warn that threads are still running)."""
    port, _, _, process = served
    get(f"http://127.0.0.1:{port}/")  # listening
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", b"{}", {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        code = json.loads(response.read())["code"]
    pages = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
    for page in pages:
        page.sendall(f"GET /t/{code}/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
        received = b""
        while b"retry:" not in received:
            received += page.recv(4096)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == 0
    said = process.stdout.read()
    assert "still running" not in said and "Traceback" not in said, said
    for page in pages:
        page.close()
