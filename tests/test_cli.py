"""The README's first command: `banker` serves the app on the LAN with a fresh instance folder, and
prints (and QR-encodes) the URL that opens it."""

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from PIL import Image
from pyzbar.pyzbar import decode

from banker.lan import lan_address, local_only, server_url, this_machine

from .postgres import free_port


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


def read_terminal_qr(banner: str) -> str:
    """Decode the QR code the banner draws with block characters (qrcode's print_ascii, inverted
    for a dark terminal: a printed block is a light module) with a real QR reader."""
    lines = [line for line in banner.splitlines() if line and set(line) <= set("█▀▄\xa0")]
    light_top, light_bottom = {"█", "▀"}, {"█", "▄"}
    image = Image.new("L", (len(lines[0]) + 8, 2 * len(lines) + 8), 255)
    for y, line in enumerate(lines):
        for x, block in enumerate(line):
            image.putpixel((x + 4, 2 * y + 4), 255 if block in light_top else 0)
            image.putpixel((x + 4, 2 * y + 5), 255 if block in light_bottom else 0)
    found = decode(image.resize((image.width * 8, image.height * 8), Image.NEAREST))
    assert len(found) == 1
    return found[0].data.decode()


def test_banker_on_one_address_prints_and_qr_encodes_that_address_and_games_invite_to_it(served):
    """`--host 127.0.0.1` listens there only: the LAN address would refuse the connection."""
    port, _, banner, _ = served
    url = f"http://127.0.0.1:{port}/"
    assert f"Open {url} on this laptop" in banner
    assert read_terminal_qr(banner) == url
    assert "Only this computer can open it" in banner
    assert "Create game" in get(url)
    request = urllib.request.Request(f"{url}api/games", b"{}", {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        join_url = json.loads(response.read())["join_url"]
    assert join_url.startswith(url) and "Join game" in get(join_url)


@pytest.mark.parametrize(("host", "url"), [
    ("0.0.0.0", lambda port: f"http://{lan_address()}:{port}/"),
    ("::", lambda port: f"http://[{lan_address(socket.AF_INET6)}]:{port}/"),
    ("127.0.0.1", lambda port: f"http://127.0.0.1:{port}/"),
    ("192.168.1.20", lambda port: f"http://192.168.1.20:{port}/"),
    ("::1", lambda port: f"http://[::1]:{port}/"),
    ("localhost", lambda port: f"http://localhost:{port}/"),
])
def test_the_url_shown_is_the_lan_address_only_when_listening_on_every_interface(host, url):
    assert server_url(host, 8080) == url(8080)


def test_only_loopback_addresses_are_local_only():
    assert local_only("127.0.0.1") and local_only("::1") and local_only("localhost")
    assert not local_only("0.0.0.0") and not local_only(lan_address())


def test_this_machine_is_its_loopback_and_lan_addresses_and_no_other():
    assert this_machine("127.0.0.1") and this_machine("::1") and this_machine("::ffff:127.0.0.1")
    assert this_machine(lan_address())
    assert not this_machine("192.0.2.7") and not this_machine("2001:db8::7") and not this_machine("")


def test_first_run_creates_the_instance_folder_with_a_wal_database_and_a_secret_key(served):
    port, instance, _, _ = served
    get(f"http://127.0.0.1:{port}/")
    assert len((instance / "secret_key").read_text().strip()) == 64
    with sqlite3.connect(instance / "banker.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_the_access_log_goes_to_a_file_in_the_instance_folder_and_the_terminal_keeps_its_banner(served):
    """A line per request would scroll the banner and its QR code off the laptop's terminal: `banker`
    writes them to instance/access.log, and its banner says where."""
    port, instance, banner, process = served
    assert f"Each request is logged in {instance / 'access.log'}." in banner
    get(f"http://127.0.0.1:{port}/?lang=fr")
    lines = []
    for _ in range(50):  # written once the answer is closed, just after the client has it
        lines = (instance / "access.log").read_text().splitlines() if (instance / "access.log").exists() else []
        if lines:
            break
        time.sleep(0.1)
    assert len(lines) == 1 and '"GET /?lang=fr" 200' in lines[0]
    process.terminate()
    assert "GET /" not in process.communicate(timeout=10)[0]


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
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{code}", timeout=10) as response:
        cookie = response.headers["Set-Cookie"].split(";")[0]  # the page's, which its live connection needs
    with contextlib.ExitStack() as open_pages:  # closed whatever happens: a socket left open fails a later test
        pages = [open_pages.enter_context(socket.create_connection(("127.0.0.1", port), timeout=10)) for _ in range(3)]
        for page in pages:
            page.sendall(f"GET /t/{code}/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                         f"Cookie: {cookie}\r\n\r\n".encode())
            received = b""
            while b"retry:" not in received:
                received += page.recv(4096)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        said = process.stdout.read()
        assert "still running" not in said and "Traceback" not in said, said


def test_a_never_ending_answer_does_not_keep_what_it_already_sent():
    """waitress, sized as `banker` sizes it, streaming an answer that goes on (as a page's live
    connection does): what it holds for the connection stays near OUTBUF_LIMIT however much it has
    sent, counted in its buffers (by default it kept up to 16 MB of sent bytes per connection)."""
    from types import SimpleNamespace

    from waitress.channel import HTTPChannel
    from waitress.server import create_server

    from banker.cli import OUTBUF_LIMIT, server_options

    chunk, held = b"x" * 16384, []

    def kept(buffer) -> int:
        if buffer.buf is None:
            return len(buffer.strbuf)
        file = buffer.buf.file
        return file.getbuffer().nbytes if hasattr(file, "getbuffer") else os.fstat(file.fileno()).st_size

    def streaming(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        for _ in range(128):  # 2 MB
            channels = [c for c in server._map.values() if isinstance(c, HTTPChannel)]
            held.append(sum(kept(b) for c in channels for b in list(c.outbufs)))
            yield chunk

    sized = server_options(SimpleNamespace(config={"LIVE_CONNECTIONS": 4, "IMPORT_MAX_BYTES": 1024,
                                                   "MAX_CONTENT_LENGTH": 1024}))
    server = create_server(streaming, host="127.0.0.1", port=0, **sized)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.effective_port}/", timeout=30) as answer:
            assert len(answer.read()) == 128 * len(chunk)
    finally:
        server.close()
    assert len(held) == 128 and max(held) <= OUTBUF_LIMIT + 2 * len(chunk), max(held)
