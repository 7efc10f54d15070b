"""Issue 33, item 4, under gunicorn: two workers share their metrics through PROMETHEUS_MULTIPROC_DIR
(whichever worker answers /metrics counts every worker's actions), and the app's access log writes a
line per request with no secret in it (gunicorn's own access log, which would print them, stays off)."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from .postgres import free_port


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    """Two gthread workers on one SQLite file, metrics on; its port, and what it prints, as it comes."""
    pytest.importorskip("gunicorn")
    folder = tmp_path_factory.mktemp("gunicorn")
    (folder / "instance").mkdir()
    (folder / "metrics").mkdir()
    (folder / "instance" / "config.py").write_text("METRICS = True\n")
    port = free_port()
    env = {**os.environ, "BANKER_INSTANCE": str(folder / "instance"), "PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics")}
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "2", "--worker-class", "gthread",
                                "--threads", "20", "--bind", f"127.0.0.1:{port}", "banker:create_app()"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(process.stderr), daemon=True)
    reader.start()
    try:
        for _ in range(300):
            if _answers(port):
                break
            assert process.poll() is None, "".join(said)
            time.sleep(0.05)
        yield port, said, folder / "metrics"
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # its master and workers, at once
        process.wait(timeout=10)
        reader.join(timeout=10)
        process.stderr.close()


def _answers(port: int) -> bool:
    try:
        return call(port, "/healthz")[0] == 200
    except OSError:
        return False


def call(port: int, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", None if body is None else json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read().decode()


def test_every_worker_answers_metrics_for_all_and_the_access_log_keeps_the_secrets(gunicorn):
    port, said, shared = gunicorn
    asked_before = len(_requests(said))
    created = json.loads(call(port, "/api/games", {})[1])
    code, banker = created["code"], created["banker_token"]
    seats = [json.loads(call(port, f"/api/games/{code}/players", {"name": name, "token": token})[1])["player_token"]
             for name, token in (("Ann", "hat"), ("Bob", "car"))]
    assert call(port, f"/api/games/{code}/actions", {"type": "start", "order": [1, 2]}, banker)[0] == 200
    key = json.loads(call(port, f"/api/games/{code}/tv", {}, banker)[1])["url"].rsplit("/", 1)[1]
    assert call(port, f"/tv/{code}/{key}")[0] == 200
    # The kernel deals the connections over the two workers as it likes (all of them to one, now and
    # then): refused actions, each on a connection of its own, until each worker has counted one.
    nudges = 0
    while len(_writers(shared)) < 2 and nudges < 100:
        assert 400 <= call(port, f"/api/games/{code}/actions", {"type": "end_turn"}, seats[1])[0] < 500  # not Bob's turn
        nudges += 1
    assert len(_writers(shared)) == 2  # each worker writes its own
    scrapes = 6
    for _ in range(scrapes):  # whichever worker answers
        status, text = call(port, "/metrics")
        assert status == 200
        samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
                   for family in text_string_to_metric_families(text) for s in family.samples}
        assert samples["banker_actions_total", (("outcome", "applied"), ("type", "join"))] == 2
        assert samples["banker_actions_total", (("outcome", "applied"), ("type", "start"))] == 1
    asked = 1 + 2 + 1 + 1 + 1 + nudges + scrapes
    for _ in range(200):  # a line is written once its answer is closed, just after the client read it
        if len(_requests(said)) - asked_before >= asked:
            break
        time.sleep(0.05)
    lines = _requests(said)[asked_before:]
    assert len(lines) == asked
    assert not [line for line in lines for secret in (banker, key, *seats) if secret in line]
    assert f'"GET /tv/{code}/***" 200' in "".join(lines)


def _writers(shared) -> set[str]:
    """The workers (their process ids) that have written metrics into the shared folder."""
    return {path.stem.rsplit("_", 1)[1] for path in shared.glob("*.db")}


def _requests(said: list[str]) -> list[str]:
    """The access log's lines, but those of the health checks that waited for the server to listen."""
    return [line for line in list(said) if re.search(r'"(GET|POST) /', line) and '"GET /healthz"' not in line]
