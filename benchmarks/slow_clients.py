"""Benchmark: slow clients against `banker`'s own server (waitress behind banker/door.py).

Starts `banker` (the laptop's command, on SQLite in a new instance folder), then opens SLOW
connections that each send the start of a request and then one more header byte every TRICKLE
seconds, never finishing it (slowloris), spread over ADDRESSES client addresses (127.0.x.y: under
the per-address share, together past waitress's connection limit). Meanwhile a phone from another
address loads the home page every half second. Prints the page's load time (p50, p95, worst) and
how many loads failed, with nobody slow and then under the attack.

Target (issue 22): with 1,000 slow connections a phone's page still loads in under a second.

Run: .venv/bin/python benchmarks/slow_clients.py [--slow 1000] [--addresses 40] [--seconds 30]
(asserts nothing)
"""

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TRICKLE = 1.0  # seconds between a slow client's bytes


def start(folder: str) -> tuple[subprocess.Popen, int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "BANKER_INSTANCE": folder}
    process = subprocess.Popen([sys.executable, "-m", "banker", "--offline", "--host", "127.0.0.1", "--port", str(port),
                                "--lang", "en"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def load(port: int) -> float | None:
    """One page load from the phone's own address: seconds, or None when it failed (10 s at most)."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.9.9", 0))
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        return time.perf_counter() - started if response.status == 200 else None
    except OSError:
        return None
    finally:
        connection.close()


def phone(port: int, seconds: float) -> list[float | None]:
    loads, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        loads.append(load(port))
        time.sleep(0.5)
    return loads


def attack(port: int, slow: int, addresses: int, stop: threading.Event) -> None:
    """Keep `slow` slow connections open (reopening those the server closes)."""
    held: list[socket.socket] = []
    n = 0
    while not stop.is_set():
        while len(held) < slow and not stop.is_set():
            address = f"127.0.{1 + n % addresses // 250}.{1 + n % addresses % 250}"
            n += 1
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(address, 0))
                connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                held.append(connection)
            except OSError:
                break
        time.sleep(TRICKLE)
        for connection in list(held):
            try:
                connection.send(b"X")
            except OSError:
                held.remove(connection)
                connection.close()
    for connection in held:
        connection.close()


def report(title: str, loads: list[float | None]) -> None:
    done = sorted(x * 1000 for x in loads if x is not None)
    failed = len(loads) - len(done)
    if not done:
        print(f"{title:28} every load failed ({failed})")
        return
    p95 = done[min(len(done) - 1, int(len(done) * 0.95))]
    print(f"{title:28} {len(loads):3} loads  p50 {statistics.median(done):7.1f} ms  p95 {p95:7.1f} ms  "
          f"worst {done[-1]:7.1f} ms  failed {failed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, default=1000)
    parser.add_argument("--addresses", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    process, port = start(tempfile.mkdtemp(prefix="banker-slow-"))
    try:
        report("nobody slow", phone(port, 5))
        stop = threading.Event()
        attacker = threading.Thread(target=attack, args=(port, args.slow, args.addresses, stop))
        attacker.start()
        time.sleep(3)  # the slow connections open
        report(f"{args.slow} slow, {args.addresses} addresses", phone(port, args.seconds))
        stop.set()
        attacker.join()
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
