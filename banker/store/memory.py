"""What this process knows of each game it serves: the game at its newest version, in memory (the
store's: the screens read a game from it, and the live path renders from it).

A `Known` is one version of a game as the screens read it: its state (decoded once), its newest
log entries, how many undos it has had and when it started. The database stays the truth. A
commit in this process hands the new version to the memory (`committed`), which makes the next
Known from the one before without reading anything; any other way a version can appear (another
process's commit, relayed by the notifier; a database written behind this process's
back; a gap between two commits handed over out of order) is caught up by reading the game once
(`Known.read`), for every screen of the process at once.

A Known is never changed once made: every screen, and every thread, reads the same one.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import func, select

from ..models import Event, Game, db
from ..rules.actions import UNDO
from ..rules.state import GameState
from .log import UNDONE_NEVER

# The newest entries a Known keeps: a phone shows only its own rows of the history's forty, so it
# looks further back than the host.
RECENT = 120
GAMES = 256  # the games one process keeps in memory, least recently used out first


class Entry(NamedTuple):
    """One event as the screens need it (plain values, safe to share between threads)."""

    seq: int
    type: str
    actor: str
    payload: dict
    effects: list
    created_at: datetime
    undone: bool


# The columns of an Entry, in its order.
ENTRY = (Event.seq, Event.type, Event.actor, Event.payload, Event.effects, Event.created_at, Event.undone)


def log_entry(game_id: int, seq: int) -> Entry:
    """Event `seq` of a game, read from the database (one further back than a Known keeps, or the
    timeline's point)."""
    return Entry(*db.session.execute(select(*ENTRY).where(Event.game_id == game_id, Event.seq == seq)).one())


@dataclass(frozen=True, eq=False)
class Known:
    """A game at one version: what every screen of that version is made from."""

    id: int
    code: str
    edition: str
    settings: dict
    version: int
    state: GameState
    entries: tuple[Entry, ...]  # the newest RECENT, newest first
    undos: int  # how many undos the game has had (what tells apart two moments an undo made look alike)
    started_at: datetime | None  # when its (not undone) start was recorded

    @classmethod
    def read(cls, game: Game) -> "Known":
        """The game as its row `game` gives it, with its newest entries, undo count and start
        from the database (three reads)."""
        rows = db.session.execute(
            select(*ENTRY)
            # Not past the version read with the game: a later commit is another version's entries.
            .where(Event.game_id == game.id, Event.seq <= game.version)
            .order_by(Event.seq.desc()).limit(RECENT))
        undos = db.session.scalar(select(func.count()).select_from(Event)
                                  .where(Event.game_id == game.id, Event.type == UNDO, Event.seq <= game.version))
        # Read from the oldest events up, so it stops near the beginning of the log however long the game.
        started_at = db.session.scalar(
            select(Event.created_at).where(Event.game_id == game.id, Event.type == "start", Event.undone.is_(False),
                                           Event.seq <= game.version).order_by(Event.seq).limit(1))
        return cls(game.id, game.code, game.edition, game.settings, game.version, GameState.from_dict(game.state),
                   tuple(Entry(*row) for row in rows), undos, started_at)

    def after(self, commit: "Commit") -> "Known":
        """The next version, made by `commit` (which follows this version)."""
        entries, entry = self.entries, commit.entry
        undos, started_at = self.undos, self.started_at
        if entry.type == UNDO:
            taken = entry.payload["seq"]
            entries = tuple(e._replace(undone=True) if e.seq == taken else e for e in entries)
            undos += 1
            if started_at is not None and not any(e.type == "start" and not e.undone for e in entries):
                started_at = None  # the start itself was taken back
        elif entry.type == "start" and started_at is None:
            started_at = entry.created_at
        return replace(self, version=commit.version, state=commit.state,
                       entries=(entry, *entries[:RECENT - 1]), undos=undos, started_at=started_at)

    def caught_up(self, game: Game) -> "Known | None":
        """This game at the newer version its row `game` was read at, from the entries made since
        (one read); None when they do not follow on from this version (then read it all)."""
        if game.version - self.version > RECENT:
            return None
        rows = db.session.execute(select(*ENTRY).where(Event.game_id == self.id, Event.seq > self.version,
                                                       Event.seq <= game.version).order_by(Event.seq))
        entries = [Entry(*row) for row in rows]
        if [e.seq for e in entries] != list(range(self.version + 1, game.version + 1)):
            return None
        state, known = GameState.from_dict(game.state), self
        for entry in entries:  # only the newest state is kept: each step's own is not needed
            known = known.after(Commit(self.code, entry.seq, state, entry))
        return known

    def last_live(self) -> Entry | None:
        """The newest entry neither undone nor an undo itself (nor passed over): what Undo would take back (read
        from the log only when the newest entries kept are all undone or undos)."""
        found = next((e for e in self.entries if not e.undone and e.type not in UNDONE_NEVER), None)
        if found is not None or len(self.entries) < RECENT:
            return found
        row = db.session.execute(select(*ENTRY).where(Event.game_id == self.id, Event.undone.is_(False),
                                                      Event.type.not_in(UNDONE_NEVER), Event.seq <= self.version)
                                 .order_by(Event.seq.desc()).limit(1)).first()
        return Entry(*row) if row else None


class Commit(NamedTuple):
    """What one committed action made: the game's new version, its state and its entry."""

    code: str
    version: int
    state: GameState
    entry: Entry


class Memory:
    """The newest Known of each game this process serves (at most GAMES, least recently used out
    first), made from this process's commits or read from the database."""

    def __init__(self, size: int = GAMES):
        self.size = size
        self._games: OrderedDict[str, Known] = OrderedDict()
        self._lock = threading.Lock()

    def committed(self, commit: Commit) -> None:
        """A commit of this process: the next Known, when the one before is the version kept;
        otherwise (a gap) the game is forgotten, and read again when next needed."""
        with self._lock:
            known = self._games.get(commit.code)
            if known is None:
                return
            if known.version == commit.version - 1:
                self._games[commit.code] = known.after(commit)
            elif known.version < commit.version:
                del self._games[commit.code]

    def known(self, game: Game) -> Known:
        """The game at the version its row `game` was read at: from memory when it is the version
        kept, else read (and kept, when it is the newest seen)."""
        with self._lock:
            known = self._games.get(game.code)
            if known is not None and known.version == game.version and known.id == game.id:
                self._games.move_to_end(game.code)
                return known
        return self._keep(Known.read(game))

    def newest(self, code: str, version: int, look: bool = False) -> Known | None:
        """The game at `version` or later: from memory when it has it, else read from the database
        (the version heard of was made elsewhere: by another process, or written behind this one's
        back). A game kept at an older version reads only the entries it lacks. `look`: the
        database may be further on than any version heard of (the relay between processes was
        down): its row is read anyway (one read when nothing is new). None when the game is gone."""
        with self._lock:
            known = self._games.get(code)
            if known is not None and known.version >= version and not look:
                self._games.move_to_end(code)
                return known
        game = db.session.scalar(select(Game).where(Game.code == code))
        if game is None:
            return None
        if known is not None and known.id == game.id and known.version >= game.version:
            return known
        caught_up = known.caught_up(game) if known is not None and known.id == game.id else None
        return self._keep(caught_up or Known.read(game))

    def forget(self, code: str) -> None:
        with self._lock:
            self._games.pop(code, None)

    def _keep(self, known: Known) -> Known:
        with self._lock:
            kept = self._games.get(known.code)
            if kept is None or kept.id != known.id or kept.version < known.version:
                self._games[known.code] = known
                self._games.move_to_end(known.code)
                while len(self._games) > self.size:
                    self._games.popitem(last=False)
        return known
