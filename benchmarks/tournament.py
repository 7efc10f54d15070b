"""Benchmark: a tournament night on the laptop server (issue 36): 10 tables of 5 on `banker`'s own
server (waitress, SQLite), every table's host screen and five phones open, the organiser's screen
and the event TV open, each table playing at a table's pace (one change a second).

The server, its clients, the screens' live connections and the bot that decides each move are
benchmarks/live.py's (the server in its own process, as `banker` serves; each screen following the
pages' protocol with the cookie and badge a page would have given it). Two evenings are measured,
each on a fresh server:

- `alone`: ten games of five made through the game API, no tournament: the game screens' cost
  before the event layer. Three rounds of ten new games, each played for MEASURE seconds and then
  ended by its banker, as the event's are: the same evening but for the event layer (one round
  alone was measured against the event's three, in a process with fewer games behind it).
- `event`: the same ten tables as a tournament's: fifty players registered through the event API,
  the round seated (the store makes the ten games) and started; the organiser's screen and the TV
  follow it. Three rounds: each is played for MEASURE seconds, then every table's game is ended by
  the organiser (its banker), which scores it, and the next round is seated and started (the old
  round's screens closed, the new one's opened): a 3-round evening.

For each: the p95 and median time for a change to be on all six screens of its table (from the
moment the action is sent), the server's CPU per table change (its utime + stime over the measured
seconds, divided by the changes made), the action's p95 round trip; for the event, how long the
tournament's own change (the round's last table ended and scored) takes to reach the organiser's
screen and the TV, how many updates the organiser's screen was written in a round (it shows each
table's turn and leader) and the TV (the standings only), and their bytes; and the server's RSS at
the end.

The machine is shared: other load slows every figure (the script prints the load average).

Run: .venv/bin/python benchmarks/tournament.py   (about three minutes; prints a table; asserts nothing)
     .venv/bin/python benchmarks/tournament.py --measure 10   (seconds measured per round)
"""

import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot import next_move  # noqa: E402
from live import Client, Screen, Server, percentile, resident_mb, serve, session_cookie  # noqa: E402

TABLES = 10
SEATS = 5
TOKENS = ("hat", "car", "dog", "cat", "ship")
PACE = 1.0  # seconds between two changes of one table
VIEW_KEY = "TVKEY234"  # the event TV's view key, written as store.tournaments.new_view_key keeps it


class EventScreen(Screen):
    """A tournament screen's live connection: every `update` it is written, with its time and bytes."""

    def __init__(self, *args):
        super().__init__(*args)
        self.updates: list[tuple[float, int, int]] = []

    def _event(self, block: bytes):
        lines = block.split(b"\n")
        if b"event: update" in lines:
            version = next(int(line[4:]) for line in lines if line.startswith(b"id: "))
            with self.changed:
                self.updates.append((time.perf_counter(), version, len(block) + 2))
                self.version = max(self.version, version)
                self.changed.notify_all()


class Table:
    """One game of five: its code, who holds each seat's token, its state, its screens' connections."""

    def __init__(self, server: Server, code: str, banker: str, seats: dict[int, str], rng: random.Random):
        self.server, self.code, self.banker, self.seats, self.rng = server, code, banker, seats, rng
        self.api = Client(server)
        self.state = self.api.call("GET", f"/api/games/{code}", token=banker)[1]
        self.waits: list[float] = []
        self.trips: list[float] = []
        self.changes = 0

    def open_screens(self) -> list[Screen]:
        server, version = self.server, self.state["version"]
        cookie = session_cookie(server.database, server.secret_key, "banker", self.code)
        screens = [Screen(server.port, f"/t/{self.code}/live", cookie, version)]
        screens += [Screen(server.port, f"/p/{self.code}/live",
                           session_cookie(server.database, server.secret_key, "seat", self.code, seat), version)
                    for seat in self.seats]
        for screen in screens:
            screen.start()
        for screen in screens:
            screen.connected.wait(10)
        self.screens = screens
        return screens

    def play(self, until: float, measuring: threading.Event) -> None:
        """One change every PACE seconds until `until`; while `measuring`, notes each change's time
        to be on every screen of the table."""
        due = time.perf_counter() + self.rng.uniform(0, PACE)
        while (now := time.perf_counter()) < until:
            if now < due:
                time.sleep(due - now)
            due += PACE
            who, action = next_move(self.state, self.rng)
            token = self.banker if who == "banker" else self.seats[who]
            start = time.perf_counter()
            status, body = self.api.call("POST", f"/api/games/{self.code}/actions?state=1", action, token)
            trip = time.perf_counter() - start
            if status != 200:
                self.state = self.api.call("GET", f"/api/games/{self.code}", token=self.banker)[1]
                continue
            self.state = body["state"]
            if self.state["status"] == "ended":
                return
            version = self.state["version"]
            if all(screen.wait_for(version, 5) for screen in self.screens) and measuring.is_set():
                self.waits.append(max(screen.arrived[version] if version in screen.arrived else time.perf_counter()
                                      for screen in self.screens) - start)
                self.trips.append(trip)
                self.changes += 1

    def close(self) -> None:
        for screen in self.screens:
            screen.close()


def play_round(server: Server, tables: list[Table], seconds: float) -> dict:
    """Every table plays at its pace: a warm-up of 3 seconds, then `seconds` measured."""
    measuring = threading.Event()
    until = time.perf_counter() + 3 + seconds
    threads = [threading.Thread(target=t.play, args=(until, measuring), daemon=True) for t in tables]
    for thread in threads:
        thread.start()
    time.sleep(3)
    cpu, changes = server.cpu(), sum(t.changes for t in tables)
    measuring.set()
    for thread in threads:
        thread.join()
    cpu, changes = server.cpu() - cpu, sum(t.changes for t in tables) - changes
    return {"cpu": cpu, "changes": changes}


def alone(args) -> dict:
    """Ten games of five through the game API, every screen open, three times as the tournament's
    rounds are (each played for MEASURE seconds, then ended by its banker): the game screens' own
    cost, in an evening of the same shape."""
    server, rng = Server(), random.Random(36)
    try:
        api, rounds, played = Client(server), [], []
        for _ in (1, 2, 3):
            tables = []
            for _ in range(TABLES):
                _, made = api.call("POST", "/api/games", {"rules": {"preset": "jma"}})
                seats = {}
                for n, token in enumerate(TOKENS, 1):
                    _, joined = api.call("POST", f"/api/games/{made['code']}/players",
                                         {"name": f"P{n}", "token": token})
                    seats[joined["player_id"]] = joined["player_token"]
                api.call("POST", f"/api/games/{made['code']}/actions", {"type": "start", "order": list(seats)},
                         made["banker_token"])
                tables.append(Table(server, made["code"], made["banker_token"], seats, rng))
            for table in tables:
                table.open_screens()
            rounds.append(play_round(server, tables, args.measure))
            for table in tables:
                api.call("POST", f"/api/games/{table.code}/actions", {"type": "end_game"}, table.banker)
                table.close()
            played += tables
        figures = _figures(played, rounds)
        figures["rss"] = _rss(server)
        return figures
    finally:
        server.stop()


def event(args) -> dict:
    """The same tables as a tournament's three rounds, its organiser's screen and TV open."""
    server, rng = Server(), random.Random(36)
    try:
        api = Client(server)
        _, made = api.call("POST", "/api/events", {"name": "Benchmark night", "rules": {"preset": "jma"},
                                                   "rounds": 3, "round_minutes": 90, "table_size": 5,
                                                   "scoring": {"kind": "jma"}})
        code, organiser = made["code"], made["organiser_token"]
        tokens = {}
        for n in range(TABLES * SEATS):
            _, registered = api.call("POST", f"/api/events/{code}/players", {"name": f"P{n}"})
            tokens[registered["player_id"]] = registered["player_token"]
        screens = _event_screens(server, code, api.call("GET", f"/api/events/{code}")[1])
        rounds, tournament_waits, played = [], [], []
        for number in (1, 2, 3):
            for kind in ("seat_round", "start_round"):
                status, body = api.call("POST", f"/api/events/{code}/actions", {"type": kind}, organiser)
                assert status == 200, body
            tables = [Table(server, t["game"], organiser,
                            {seat: tokens[player] for seat, player in enumerate(t["seats"], 1)}, rng)
                      for t in body["state"]["rounds"][-1]["tables"]]
            for table in tables:
                table.open_screens()
            before = [len(s.updates) for s in screens]
            measured = play_round(server, tables, args.measure)
            measured["updates"] = [s.updates[b:] for s, b in zip(screens, before)]
            # The organiser ends every table (as its banker): each is scored, the round ends with the last.
            for table in tables[:-1]:
                api.call("POST", f"/api/games/{table.code}/actions", {"type": "end_game"}, organiser)
            start = time.perf_counter()
            api.call("POST", f"/api/games/{tables[-1].code}/actions", {"type": "end_game"}, organiser)
            _, after = api.call("GET", f"/api/events/{code}")
            assert after["rounds"][-1]["status"] == "ended", after["rounds"][-1]
            newest = _newest_version(server, code)
            for screen in screens:
                screen.wait_for(newest, 10)
                at = next((at for at, v, _ in screen.updates if v >= newest), time.perf_counter())
                tournament_waits.append(at - start)
            rounds.append(measured)
            played += tables
            for table in tables:
                table.close()
        figures = _figures(played, rounds)
        figures["tournament_change"] = tournament_waits
        figures["organiser_updates"] = [r["updates"][0] for r in rounds]
        figures["tv_updates"] = [r["updates"][1] for r in rounds]
        figures["rss"] = _rss(server)
        for screen in screens:
            screen.close()
        return figures
    finally:
        server.stop()


def _figures(tables: list[Table], rounds: list[dict]) -> dict:
    """The figures of the measured changes of every table played, and the server's CPU they cost."""
    waits = [w for t in tables for w in t.waits]
    trips = [w for t in tables for w in t.trips]
    cpu, changes = sum(r["cpu"] for r in rounds), sum(r["changes"] for r in rounds)
    return {"p95": percentile(waits, .95), "median": percentile(waits, .5), "trip_p95": percentile(trips, .95),
            "cpu_per_change": cpu / max(changes, 1), "changes": changes}


def _newest_version(server: Server, code: str) -> int:
    from sqlalchemy import create_engine, select

    from banker.models import Tournament

    engine = create_engine(server.database)
    try:
        with engine.connect() as connection:
            return connection.execute(select(Tournament.version).where(Tournament.code == code)).scalar_one()
    finally:
        engine.dispose()


def _event_screens(server: Server, code: str, state: dict) -> list[EventScreen]:
    """The organiser's screen and the event TV, with the organiser's cookie and the TV's key written
    into the server's database as creating the tournament on its page and "Show on a TV" would."""
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface
    from sqlalchemy import create_engine, update

    from banker.models import Tournament
    from banker.store import new_token, token_hash

    key = new_token()
    engine = create_engine(server.database, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(update(Tournament).where(Tournament.code == code).values(
                organiser_browser_hash=token_hash(key), view_key_hash=token_hash(VIEW_KEY)))
    finally:
        engine.dispose()
    app = Flask("cookie")
    app.secret_key = server.secret_key
    cookie = "session=" + SecureCookieSessionInterface().get_signing_serializer(app).dumps(
        {"browser": key, "_permanent": True})
    version = _newest_version(server, code)
    screens = [EventScreen(server.port, f"/e/{code}/live", cookie, version),
               EventScreen(server.port, f"/e/{code}/tv/{VIEW_KEY}/live", "", version)]
    for screen in screens:
        screen.start()
    for screen in screens:
        screen.connected.wait(10)
    return screens


def _rss(server: Server) -> float:
    """The server's resident memory with its drawing process's, in MB."""
    return resident_mb(server.process.pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", type=float, default=20, help="seconds measured per round")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    before = alone(args)
    print(f"load average after the games alone: {os.getloadavg()[0]:.2f}", flush=True)
    after = event(args)
    print(f"load average after the tournament: {os.getloadavg()[0]:.2f}")
    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    print(f"{'':44} {'games alone':>14} {'tournament':>14}")
    print(f"{'table changes measured':44} {before['changes']:>14} {after['changes']:>14}")
    print(f"{'change on all 6 screens of its table, p95':44} {ms(before['p95']):>14} {ms(after['p95']):>14}")
    print(f"{'change on all 6 screens, median':44} {ms(before['median']):>14} {ms(after['median']):>14}")
    print(f"{'action round trip, p95':44} {ms(before['trip_p95']):>14} {ms(after['trip_p95']):>14}")
    print(f"{'server CPU per table change':44} {ms(before['cpu_per_change']):>14} {ms(after['cpu_per_change']):>14}")
    print(f"{'server RSS at the end':44} {before['rss']:>11.0f} MB {after['rss']:>11.0f} MB")
    waits = after["tournament_change"]
    print(f"a round's end on the organiser's screen and the TV: worst {ms(max(waits))}, all {[ms(w) for w in waits]}")
    written = lambda rounds: [f"{len(u)} ({sum(b for _, _, b in u) / 1000:.1f} KB)" for u in rounds]  # noqa: E731
    print(f"updates written per round: organiser's screen {written(after['organiser_updates'])}, "
          f"TV {written(after['tv_updates'])}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]), sys.argv[3])
    else:
        main()
