"""Where a game's screens are drawn: in the renderer's own thread, or in a process of its own.

A render's CPU is a change's largest (about 8 ms for a table's nine screens on the development
machine). In the serving process it shares the interpreter's lock with the answers to taps: each
time an answer's thread lets go of the lock (reading the request, each SQLite call, writing the
answer) it waits to get it back from the render, and one client acting back to back had an action's
p99 about four times its floor (docs/benchmarks.md, The live path's tail: with no page open 2.4 to
2.7 ms, with nine 8.8 to 9.8). Drawn in a process of its own (LIVE_DRAWER = "process", what
`banker` and gunicorn's workers do), the screens take another core and the serving process only
sends their HTML on; in the thread (LIVE_DRAWER = "thread", what the tests' own apps do: a process
per app would take a second each to start) they cost no process.

Either way a `Sketchbook` per game keeps each screen's frame at the version drawn: the next version
takes the parts whose values did not change from it (screens.draw), and a page opened at the same
version is drawn alone.

The process (`Apart`) is started at the first render, with the app's settings, and builds the same
app (banker.create_app) on the same database. Its memory (store.Memory) makes each game's next
version from what the serving process's memory made it from (the newest state and the entries
since: `news`), or reads it from the database as another process's memory does; it draws, and
answers each screen's `Picture` (the HTML of the parts drawn since the picture the serving process
holds, and the swaps from that picture to this one, which most pages are handed as they come),
through a pipe (`send`, `receive`). It ends when the serving process lets go of its pipe (the app's
renderers closed, or the process gone); if it dies, stops answering (ANSWER_SECONDS), or answers
what cannot be read, the render fails as one whose database is away does (the pages keep what they
show and the renderer tries again), and the next render starts a new one.
"""

import logging
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from itertools import groupby
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from .. import screens
from ..store import Commit, Known, in_one_line, outage, release

log = logging.getLogger(__name__)

# A drawing process that has not answered in this long is stopped, and another started: a change's
# screens take milliseconds to draw, and while one game waits for them every game does (LIVE_RENDERS).
ANSWER_SECONDS = 5
# Its first answer comes after it has built the app and read the templates: a second or two here,
# more on a slow machine (a drawing process stopped before it could answer would be replaced forever).
START_SECONDS = 60
# What the new interpreter runs, given the folder that holds this copy of `banker`: the app's
# factory is handed to `apart` from there (the live path imports nothing above it).
CHILD = "; ".join(["import sys", "sys.path.insert(0, sys.argv[1])", "from banker import create_app",
                   "from banker.live.drawer import apart", "apart(create_app)"])
# Each message through the pipes is its pickle's length, then the pickle: a pipe keeps no boundaries,
# and a reader that knows where a message ends can wait for all of it with a deadline.
LENGTH = struct.Struct("!Q")
LARGEST = 1 << 30  # a length beyond this is not one the other side wrote: the pipe is out of step


class DrawingFailed(Exception):
    """The drawing process could not draw: `outage` when its database was away for a moment (a line
    in the log), else a bug or the process gone (its traceback, or what became of it)."""

    def __init__(self, message: str, outage: bool = False):
        super().__init__(message)
        self.outage = outage


class Sketchbook:
    """One game's screens drawn at one version: each kind's frame (in its language at its address),
    and the parts the screens drawn in one language at one address share."""

    def __init__(self):
        self.version = -1
        self.frames: dict = {}  # watcher key -> screens.Frame at `version`
        self.shared: dict = {}  # (language, address) -> the parts the screens share (screens.draw)

    def draw(self, known: Known, keys, give_way) -> dict:
        """The frame of each of `keys` at `known` ({key: Frame}; a screen that failed has none):
        those drawn at this version already as they are, the others drawn, those of the same
        language at the same address within one `drawing`, each taking what it can of its frame
        at the version before."""
        if known.version == self.version:
            previous, frames, shared = {}, self.frames, self.shared  # new pages at the version drawn
        else:
            previous, frames, shared = self.frames, {}, {}
        missing = sorted({key for key in keys if key not in frames}, key=lambda key: key[1:])
        for (locale, url_root), same in groupby(missing, key=lambda key: key[1:]):
            with screens.drawing(locale, url_root):
                for key in same:
                    try:
                        frames[key] = screens.draw(key[0], known, previous.get(key),
                                                   shared.setdefault((locale, url_root), {}), give_way)
                    except SQLAlchemyError:
                        raise  # the database: try again soon, for everyone
                    except Exception:  # a bug in one screen: the others still get the change
                        log.exception("rendering a screen of game %s failed", known.code)
        self.version, self.frames, self.shared = known.version, frames, shared
        return {key: frames[key] for key in keys if key in frames}


class InThread:
    """The screens drawn in the renderer's thread (LIVE_DRAWER = "thread")."""

    def __init__(self, app):
        self.books: dict[str, Sketchbook] = {}

    def draw(self, code: str, known: Known, keys, give_way) -> tuple[int, dict]:
        """(the version drawn, {key: its frame})."""
        return known.version, self.books.setdefault(code, Sketchbook()).draw(known, keys, give_way)

    def forget(self, code: str) -> None:
        self.books.pop(code, None)

    def close(self) -> None:
        self.books.clear()


class Apart:
    """The screens drawn in a process of its own (LIVE_DRAWER = "process"): one per serving
    process, drawing one game's screens at a time (LIVE_RENDERS is 1)."""

    def __init__(self, app):
        self.app = app
        self.lock = threading.Lock()
        self.child: subprocess.Popen | None = None
        self.answered = False  # the process has answered once: it is started
        self.closed = False
        # game -> watcher key -> the picture of its screen last received: the next one sends only
        # the parts drawn since (the process keeps the frames they were made from: `serve`).
        self.pictures: dict[str, dict] = {}
        self.versions: dict[str, int] = {}  # game -> the version the process drew last

    def draw(self, code: str, known: Known, keys, give_way) -> tuple[int, dict]:
        """(the version drawn: `known`'s or a later one, {key: its screens.Picture}). The renderer's
        thread waits for the process without the interpreter's lock."""
        with self.lock:
            reply = self._asked(("draw", code, known.version, list(keys), news(known, self.versions.get(code))))
            if reply[0] != "drawn":
                self.versions.pop(code, None)
                self.pictures.pop(code, None)  # the process let its frames of the game go too
                if reply[0] == "gone":  # deleted since the memory here read it: the next render finds out
                    raise DrawingFailed(f"game {code} is no longer in the database", outage=True)
                raise DrawingFailed(reply[2], outage=reply[1])
            held = self.pictures.setdefault(code, {})
            try:
                for key, picture in reply[2].items():
                    held[key] = picture.filled(held.get(key))
            except (KeyError, AttributeError) as error:  # a part kept from a picture not held: start again
                self._stop()
                raise DrawingFailed(f"the drawing process and this one disagree ({error!r})") from error
            self.versions[code] = reply[1]
            return reply[1], {key: held[key] for key in reply[2]}

    def forget(self, code: str) -> None:
        with self.lock:
            self.versions.pop(code, None)
            self.pictures.pop(code, None)
            if self.child is not None:
                try:
                    self._asked(("forget", code), answered=False)
                except DrawingFailed:
                    pass  # it ended: the next one knows no game

    def close(self) -> None:
        """The process ends (its pipe let go) and none is started again."""
        with self.lock:
            self.closed = True
            self._stop()

    def _asked(self, message: tuple, answered: bool = True):
        child = self._started()
        try:
            send(child.stdin, message)
            if not answered:
                return None
            answer = receive(child.stdout.fileno(), ANSWER_SECONDS if self.answered else START_SECONDS)
            self.answered = True
            return answer
        except Exception as error:  # its pipe broken, no answer in time, or one that does not unpickle:
            # whatever it sends next cannot be trusted to start where a message does
            ended = self._stop(at_once=True)
            raise DrawingFailed(f"the drawing process {ended} ({error or type(error).__name__})") from error

    def _started(self) -> subprocess.Popen:
        if self.closed:
            raise DrawingFailed("the drawing process was stopped with the app")
        if self.child is None:
            self.answered = False
            self.child = subprocess.Popen([sys.executable, "-c", CHILD, str(Path(__file__).resolve().parents[2])],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            send(self.child.stdin, (settings(self.app), self.app.instance_path))
        return self.child

    def _stop(self, at_once: bool = False) -> str:
        """Let the process go: it ends when its pipe is closed (within 5 s, else it is killed); one
        that failed is killed `at_once` (it may be stuck). What became of it, for the log."""
        self.pictures.clear()
        self.versions.clear()
        if self.child is None:
            return "ended"
        child, self.child = self.child, None
        ended = child.poll()
        if ended is None and at_once:
            child.kill()
        for pipe in (child.stdin, child.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if ended is None:
            return "did not answer and was stopped" if at_once else "ended"
        return f"was killed by signal {-ended}" if ended < 0 else f"ended with status {ended}"


def send(pipe, message) -> None:
    """`message` written to `pipe` (a binary file): its pickle's length, then the pickle."""
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    pipe.write(LENGTH.pack(len(data)))
    pipe.write(data)
    pipe.flush()


def receive(fd: int, seconds: float | None = None):
    """The next message `send` wrote to the pipe read at `fd` (read from the descriptor itself: a
    buffered reader would hold bytes past the message where `select` cannot see them). EOFError
    where the pipe ends; TimeoutError when the whole message has not come within `seconds`."""
    deadline = None if seconds is None else time.monotonic() + seconds
    (length,) = LENGTH.unpack(_read(fd, LENGTH.size, deadline))
    if length > LARGEST:
        raise pickle.UnpicklingError(f"a message of {length} bytes: the pipe is out of step")
    return pickle.loads(_read(fd, length, deadline))  # from our own process, through a pipe


def _read(fd: int, size: int, deadline: float | None) -> bytes:
    chunks = []
    while size:
        if deadline is not None and not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
            raise TimeoutError("no whole answer in the time allowed")
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise EOFError("the pipe ended")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def news(known: Known, drawn: int | None) -> tuple | None:
    """What the drawing process, which drew version `drawn` of the game last, needs to make `known`
    from its own as this process's memory made it from its commits (store.Commit): the newest state
    and the entries made since, oldest first; None when it has not drawn the game (or the entries
    since are more than `known` keeps): it reads the game from the database."""
    if drawn is None or drawn >= known.version:
        return None
    entries = [entry for entry in known.entries if entry.seq > drawn]
    if len(entries) != known.version - drawn:
        return None
    return known.state, entries[::-1]


def settings(app) -> dict:
    """The app's settings as the drawing process builds its app with: those pickle can carry (all
    the app's own; not a function given in a test's settings), drawing in its own thread."""
    carried = {}
    for name, value in app.config.items():
        try:
            pickle.dumps(value)
        except Exception:
            continue
        carried[name] = value
    return {**carried, "LIVE_DRAWER": "thread"}


def apart(create_app) -> None:
    """The drawing process (CHILD): `serve` on the pipes its standard input and output are, each
    moved to a descriptor of its own first. Its standard output is then the standard error, and its
    standard input empty: nothing printed, by Python or by a library's C code, can come between the
    messages."""
    source, sink = os.dup(0), os.dup(1)  # not inherited by any process it starts (os.dup's default)
    os.dup2(2, 1)
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    sys.stdout = sys.stderr
    serve(create_app, os.fdopen(source, "rb", buffering=0), os.fdopen(sink, "wb"))


def serve(create_app, source, sink) -> None:
    """Drawing: its app (made by `create_app`, banker's) from the settings and instance folder read
    from `source` (a binary file, read through its descriptor), then each ("draw", game, version,
    keys, news: the serving process's `news`) answered to `sink` with ("drawn", version, {key:
    Picture}), ("gone",) or ("failed", outage, message); ("forget", game) lets a game's sketchbook
    go. Each message as `send` writes it. Ends when `source` does."""
    # Ctrl+C in the terminal reaches the whole process group: the serving process stops, and this
    # one ends with it, when its pipe closes (no KeyboardInterrupt's traceback).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    config, instance_path = receive(source.fileno())
    app = create_app(config, instance_path=instance_path)
    memory = app.extensions["banker.renderers"].memory
    from .renderer import freeze_heap  # here: the renderer imports this module

    freeze_heap()  # the app's own objects left out of the collector's full passes, as in the serving process
    books: dict[str, Sketchbook] = {}
    pictured: dict[str, dict] = {}  # game -> watcher key -> the frame the serving process holds a picture of
    with app.app_context():
        while True:
            try:
                message = receive(source.fileno())
            except EOFError:
                return
            if message[0] == "forget":
                books.pop(message[1], None)
                pictured.pop(message[1], None)
                continue
            _, code, version, keys, made = message
            try:
                if made is not None:  # as this process's memory makes the next Known from a commit
                    state, entries = made
                    for entry in entries:  # only the newest state is kept: each step's own is not needed
                        memory.committed(Commit(code, entry.seq, state, entry))
                known = memory.newest(code, version)
                if known is None:
                    reply = ("gone",)
                else:
                    frames = books.setdefault(code, Sketchbook()).draw(known, keys, lambda: None)
                    held, copies = pictured.setdefault(code, {}), {}
                    reply = ("drawn", known.version,
                             {key: frame.picture(copies, held.get(key)) for key, frame in frames.items()})
                    held.update(frames)
            except Exception as error:  # answered, and the serving process logs it
                books.pop(code, None)
                pictured.pop(code, None)
                reply = ("failed", outage(error), in_one_line(error) if outage(error) else traceback.format_exc())
            finally:
                release()
            send(sink, reply)
