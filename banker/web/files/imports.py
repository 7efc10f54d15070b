"""Game files brought back (POST /api/games/import, the home page's "Import a game") take turns,
and a large one is read and replayed in a process of its own.

An import reads a file of up to IMPORT_MAX_BYTES and replays every event (banker/game_file.py): seconds
of work and some 35 MB of memory for a file of 8 MB. So one server process parses at most AT_ONCE
files at a time, and one client address one of them; another import is refused at once (503 with
Retry-After) before its body is read, rather than waiting with a thread held.

A file larger than APART is read and replayed in a new process (this Python, run afresh), and only
the result comes back to be written here (store/archive.py). In the server's own threads, two
replays held the GIL most of the time: every other request waited for it after each of its database
reads and system calls (up to 5 ms each: the interpreter's switch interval), and another table's
host screen took up to 1.6 s instead of 15 ms (docs/benchmarks.md). Apart, they take only the cores
the server and the machine leave (they run at a lower priority: nice 10), and the memory a replay
took goes with its process. That process imports game_file.py and the rules, not the app (neither
Flask nor SQLAlchemy, which were more than half of its memory). A small file replays in less time
than a new interpreter takes to start, so it is replayed here.

When an import ends, accepted or refused, the memory it freed here is handed back to the system:
each of waitress's threads allocates from its own heap, which otherwise keeps what a big body once
took (glibc's arenas).
"""

import ctypes
import pickle
import subprocess
import sys
import threading
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

from flask import after_this_request, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from ... import game_file
from ...store import archive
from ...words.languages import gettext as _

AT_ONCE = 2
PER_ADDRESS = 1
# The largest file replayed in the server's own process: a thousand events or so, a twentieth of a
# second's replay (a new process takes a tenth of a second of work to start, and waits behind the
# machine's other work for it: nice 10).
APART = 256 * 1024
# What the new interpreter runs, given the folder that holds this copy of `banker` and the store's
# checkpoint period: first it steps behind every other process for the cores (nice 10, where there
# is such a thing), then it replays.
CHILD = "; ".join(["import os, sys", "hasattr(os, 'nice') and os.nice(10)", "sys.path.insert(0, sys.argv[1])",
                   "from banker.game_file import replay_apart",
                   "replay_apart(sys.stdin.buffer, sys.stdout.buffer, int(sys.argv[2]))"])
# When a refused import may try again: a long evening's file takes a few seconds.
RETRY_SECONDS = 5


class Busy(Exception):
    """Other imports are being parsed: this server's share, or this address's."""


class Importing:
    """The imports one process parses now, by client address."""

    def __init__(self, at_once: int = AT_ONCE, per_address: int = PER_ADDRESS):
        self.at_once, self.per_address = at_once, per_address
        self.open: Counter = Counter()
        self._lock = threading.Lock()

    @contextmanager
    def turn(self, address: str):
        """Hold one of the turns while parsing; Busy at once when there is none for `address`."""
        with self._lock:
            if self.open.total() >= self.at_once or self.open[address] >= self.per_address:
                raise Busy
            self.open[address] += 1
        try:
            yield
        finally:
            with self._lock:
                self.open[address] -= 1
                self.open += Counter()  # drops the addresses at 0


@contextmanager
def turn():
    """This request's turn to import (Busy if none): the app's Importing, at the client's address.
    Once its answer is sent, what the import held is gone (a refusal's too), and its memory is
    handed back."""
    with current_app.extensions["banker.importing"].turn(request.remote_addr or ""):

        @after_this_request
        def then(response):
            response.call_on_close(give_back_memory)
            return response

        yield


def bring_back(raw: bytes | None, browser=None):
    """A game file's bytes (None: a form without its file) brought back as a new game: read and
    replayed (game_file.replay_file, keeping the store's checkpoints), in a process of its own when
    larger than APART, then written (store/archive.py's save). Returns the game and the banker's
    token; raises the replay's refusal (BadArchive, BadEvent), having written nothing."""
    every = archive.checkpoint_every()
    replay = apart(raw, every) if raw is not None and len(raw) > APART else game_file.replay_file(raw, every)
    return archive.save(replay, browser)


def apart(raw: bytes, every: int) -> game_file.Replay:
    """game_file.replay_file(raw, every) in a new interpreter (`replaying`, game_file.replay_apart):
    the file goes in on its standard input, the Replay or the refusal comes back pickled on its
    standard output."""
    ran = subprocess.run(replaying(every), input=raw, capture_output=True)
    if ran.returncode:
        raise RuntimeError(f"the import's process ended with {ran.returncode}: {ran.stderr.decode()[-2000:]}")
    outcome = pickle.loads(ran.stdout)  # from our own child, through a pipe
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def replaying(every: int) -> list[str]:
    """The command line of the process that replays a file (CHILD, in this Python): it finds this copy
    of the app first on its path, installed or not."""
    return [sys.executable, "-c", CHILD, str(Path(__file__).resolve().parents[2]), str(every)]


def whole(upload, largest: int) -> bytes:
    """An uploaded file's bytes, RequestEntityTooLarge past `largest` (read no further)."""
    raw = upload.read(largest + 1)
    if len(raw) > largest:
        raise RequestEntityTooLarge
    return raw


def too_large_message() -> str:
    return _("A game file is at most %(mb)s MB; this one is larger.",
             mb=current_app.config["IMPORT_MAX_BYTES"] // (1024 * 1024))


def busy_message() -> str:
    return _("Other game files are being imported right now; try again in a few seconds.")


def _malloc_trim():
    """glibc's malloc_trim, which returns the free pages of every heap (arena) to the system; None
    where there is no such thing (macOS, Windows, musl): their allocators return them by themselves."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None


_TRIM = _malloc_trim()


def give_back_memory() -> None:
    """Hand the memory the process freed back to the system, where its allocator keeps it otherwise.
    (Without the GIL, which ctypes lets go: a gc.collect() here would hold every thread a few
    hundred milliseconds.)"""
    if _TRIM is not None:
        _TRIM(0)
