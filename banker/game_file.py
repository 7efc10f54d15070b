"""A game file (an archive: the settings and every event of a game's log, in order, with the
effects and times the store kept) read and replayed through the rules, ready for the store to write
as a new game on another laptop (store/archive.py), which then goes on from there.

A file is trusted for nothing: each event is replayed through the rules as the store would have
applied it (undos too, from the same checkpoints), and the whole file is refused at its first event
that does not give what the file says it gave.

Nor are its times: the events keep the times they were played at (the history tells them), but
none may be later than this computer's clock (past CLOCK_SLACK, for two laptops' clocks that
disagree a little).

This module needs only the rules and the standard library, not the app: a large file is replayed in
a process of its own (web/files/imports.py runs `replay_apart` there), which then loads neither Flask nor
SQLAlchemy (tests/web/test_archive.py counts its modules)."""

import json
import pickle
import re
from datetime import UTC, datetime, timedelta
from typing import BinaryIO

from .rules import Actor, GameError, GameState, Settings, apply, new_game, parse
from .rules.actions import UNDO
from .rules import effects as happened
from .rules.board import EDITION_NAMES, load_board
from .rules.errors import N_, ActionError
from .rules.undo import Entry, check_take_back, check_undo

# What the file says it is: a reader that meets another name or a newer version refuses it whole
# rather than guess.
FORMAT = "tabletop-banker-game"
VERSION = 1
# An event's fields in an archive, all of them required.
FIELDS = ("seq", "time", "actor", "type", "action", "effects", "undone")
# How far ahead of this computer's clock a time in a file may be: the laptop that exported it may run
# a little fast. A file dated further ahead is refused.
CLOCK_SLACK = timedelta(minutes=10)
# A file's JSON read one value at a time (read), with what JSON takes for whitespace between them.
_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
# The words JSON spells out (Python's reader takes the last three too): a file that ends inside
# one ends in the middle of a value.
WORDS = ("true", "false", "null", "NaN", "Infinity", "-Infinity")


class BadArchive(ActionError):
    """The file is not a game this app can bring back (junk, another format or version, an unknown
    edition, bad settings); nothing was created."""


class BadEvent(ActionError):
    """The file's event `seq` does not replay: `why` is the rules' refusal (a GameError) or the
    archive's own; `state` is the game just before it (for naming its squares and players)."""

    def __init__(self, seq, why: GameError, state: GameState):
        # Told in words by the web layer (words/narrate.refusal), with `why` in the reader's language.
        super().__init__("bad_event", "Event {seq} of the file does not replay: {why}", seq=seq, why=why.message)
        self.why, self.state = why, state

    def __reduce__(self):  # pickled as made (rules/errors.py's GameError)
        return BadEvent, (self.params["seq"], self.why, self.state)


def read(raw: bytes):
    """The JSON in a file's bytes, for replayed: what json.loads gives, but for the events of a game
    file (a top-level object's "events" array), which are read one at a time and kept as compact
    JSON text (Events), to be read again one at a time as they are replayed: the objects of a whole
    8 MB file would be some 40 MB, and parsing it in one call would hold every other thread of the
    server for most of a second. A file that is not JSON is refused: as cut short when it ends before its JSON
    does (every proper start of an export does, the empty file too: a copy that stopped early), as
    not a game for anything else (junk: a picture, a page, another text)."""
    try:
        return _value(raw.decode(json.detect_encoding(raw), "surrogatepass"))
    except RecursionError:  # nested too deeply to be read: not a file this app wrote
        cut = False
    except ValueError as error:  # not JSON, or not UTF-8
        cut = _cut_short(raw, error)
    if cut:
        raise BadArchive("archive_cut_short", N_("This file is cut short: it may not have been copied whole."))
    raise BadArchive("not_an_archive", N_("This file is not a game exported by Tabletop Banker."))


class Events(list):
    """A game file's events, each as compact JSON text: once they are read, the file's own text can
    go, and the rows replayed from them keep the same strings (Row), not copies."""


def _value(text: str):
    """`text` as json.loads reads it, raising its errors at the same places, but a top-level object's
    "events" array (checked here element by element) as Events."""
    at = _space(text, 0)
    if not text.startswith("{", at):
        return json.loads(text)
    found, at = {}, _space(text, at + 1)
    while not text.startswith("}", at):
        if not text.startswith('"', at):
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
        key, at = _DECODER.raw_decode(text, at)
        at = _space(text, at)
        if not text.startswith(":", at):
            raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
        at = _space(text, at + 1)
        if key == "events" and text.startswith("[", at):
            elements, found[key] = _elements(text, at + 1), Events()
            while True:
                try:
                    found[key].append(_compact(next(elements)))
                except StopIteration as end:
                    at = end.value
                    break
        else:
            found[key], at = _DECODER.raw_decode(text, at)
        at = _space(text, at)
        if text.startswith(",", at):
            at = _space(text, at + 1)
            if text.startswith("}", at):
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
        elif not text.startswith("}", at):
            raise json.JSONDecodeError("Expecting ',' delimiter", text, at)
    if _space(text, at + 1) != len(text):
        raise json.JSONDecodeError("Extra data", text, _space(text, at + 1))
    return found


def _elements(text: str, at: int):
    """The elements of the JSON array whose `[` is just before `at`, one at a time; returns the
    position after its `]`."""
    at = _space(text, at)
    if text.startswith("]", at):
        return at + 1
    while True:
        value, at = _DECODER.raw_decode(text, at)
        yield value
        at = _space(text, at)
        if text.startswith(",", at):
            at = _space(text, at + 1)
        elif text.startswith("]", at):
            return at + 1
        else:
            raise json.JSONDecodeError("Expecting ',' delimiter", text, at)


def _space(text: str, at: int) -> int:
    """The position after the JSON whitespace at `at`."""
    return _SPACE.match(text, at).end()


def _cut_short(raw: bytes, error: ValueError) -> bool:
    """Whether json.loads refused `raw` only because it ended: the reader wanted more when the text
    ran out (a value, a comma, a closing quote), or stopped at the start of what the end cut off (a
    word, a number's fraction or exponent, a \\u escape, a character's UTF-8 bytes)."""
    if isinstance(error, UnicodeDecodeError):
        return error.reason in ("unexpected end of data", "truncated data") and error.end == len(raw)
    if not isinstance(error, json.JSONDecodeError):
        return False
    rest = error.doc[error.pos:]
    if not rest.strip():
        return True
    if error.msg.startswith("Unterminated string"):  # said only when no quote closes it before the end
        return True
    if error.msg.startswith("Invalid \\uXXXX escape"):
        return re.fullmatch(r"u[0-9a-fA-F]{0,4}", rest) is not None
    if error.msg == "Expecting value":
        return any(word.startswith(rest) for word in WORDS)
    if error.msg.startswith("Expecting") or error.msg == "Extra data":  # "12." or "1e-": a number read as 12 or 1
        return error.doc[error.pos - 1:error.pos].isdigit() and re.fullmatch(r"\.|[eE][-+]?", rest) is not None
    return False


def replay_file(raw: bytes | None, every: int) -> "Replay":
    """A file's bytes read (read) and replayed (replayed): all of an import but its writing, which
    needs nothing else. None, a form sent without its file, is not a game."""
    return replayed(read(raw) if raw is not None else None, every)


def replay_apart(source: BinaryIO, sink: BinaryIO, every: int) -> None:
    """replay_file in a process of its own (web/files/imports.py starts it): the file's bytes from
    `source`, and to `sink` the Replay, or the refusal, pickled for the server to save or raise."""
    try:
        # The file's bytes are let go once read (replay_file would keep them to the end: 8 MB more
        # for a long evening's file).
        outcome = replayed(read(source.read()), every)
    except GameError as refusal:
        outcome = refusal
    pickle.dump(outcome, sink, pickle.HIGHEST_PROTOCOL)


def replayed(archive, every: int) -> "Replay":
    """An archive (a file read: read) checked and replayed event by event, keeping a checkpoint every
    `every` versions and after each undo (the store's own, store/undo.py's CHECKPOINT_EVERY), ready
    to save; BadArchive or BadEvent."""
    if not isinstance(archive, dict) or archive.get("format") != FORMAT or "version" not in archive:
        raise BadArchive("not_an_archive", N_("This file is not a game exported by Tabletop Banker."))
    if archive["version"] != VERSION or type(archive["version"]) is not int:
        raise BadArchive("archive_version", N_("This file is version {found} of the game format; this app reads "
                                               "version {version}."), found=str(archive["version"])[:12],
                         version=VERSION)
    edition = archive.get("edition")
    if not isinstance(edition, str) or edition not in EDITION_NAMES:
        raise BadArchive("archive_edition", N_("This file's board is not one this app knows; the boards are: "
                                               "{editions}."), editions=", ".join(EDITION_NAMES))
    if not isinstance(archive.get("settings"), dict):
        raise BadArchive("not_an_archive", N_("This file is not a game exported by Tabletop Banker."))
    # The stored settings name every key, so parsing them gives them back as they were, checked.
    settings = Settings.parse(archive["settings"], load_board(edition).settings)
    created = _moment(archive.get("created_at"))
    listed = archive.get("events")
    if created is None or not isinstance(listed, Events):
        raise BadArchive("not_an_archive", N_("This file is not a game exported by Tabletop Banker."))
    replay = Replay(edition, settings, every)
    if created > replay.latest:
        raise BadArchive("archive_in_the_future", N_("This file is dated {time}, later than this computer's clock: "
                                                     "check the date of the laptop that exported it, and of this one."),
                         time=_told(created))
    for seq, event in enumerate(listed, 1):
        replay.event(seq, event)
    replay.check_undone()
    return replay


class Row:
    """An event to write: the file's event as its compact JSON text (Events; its action and effects
    are those the rules gave: the replay checked them), a tenth of the room of the parsed objects (a
    long evening is 30,000 of them), and the file's word on its being undone."""

    __slots__ = ("seq", "actor", "type", "text", "created_at", "undone", "said_undone")

    def __init__(self, seq: int, actor: str, kind: str, text: str, time: datetime, said_undone):
        self.seq, self.actor, self.type, self.text, self.created_at = seq, actor, kind, text, time
        self.undone, self.said_undone = False, said_undone

    def action(self) -> dict:
        return json.loads(self.text)["action"]

    def written(self, game_id: int) -> dict:
        """The row as the events table takes it."""
        event = json.loads(self.text)
        return {"game_id": game_id, "nonce": None, "seq": self.seq, "actor": self.actor, "type": self.type,
                "payload": event["action"], "effects": event["effects"], "created_at": self.created_at,
                "undone": self.undone}


class Replay:
    """An archive's events applied one after another, as store.act and store/undo.py would have:
    the state, the checkpoints kept (every `every` versions and after each undo, those at or after
    an undone event dropped), the events to write and the seats joined. `latest` is the latest time
    an event may have (this computer's clock, and CLOCK_SLACK)."""

    def __init__(self, edition: str, settings: Settings, every: int):
        self.edition, self.settings, self.every = edition, settings, every
        self.latest = datetime.now(UTC) + CLOCK_SLACK
        self.state = new_game(edition, settings)
        # Kept as JSON text, a tenth of the room of the dicts: a long evening has a thousand of them.
        self.checkpoints: dict[int, str] = {}
        self.rows: list[Row] = []
        self.live: list[Row] = []  # the rows neither undone nor undos, oldest first (undo's candidates)
        self.seats: list[int] = []

    def event(self, seq: int, text: str) -> None:
        """Apply the file's event number `seq` (its place in the file; its compact JSON text, as
        Events holds it), or refuse it by name."""
        try:
            self._event(seq, text, json.loads(text))
        except GameError as error:
            raise BadEvent(seq, error, self.state) from None

    def _event(self, seq: int, text: str, event) -> None:
        if not isinstance(event, dict) or set(event) != set(FIELDS):
            raise ActionError("bad_fields", N_("an event has exactly the fields {fields}."), fields=", ".join(FIELDS))
        if event["seq"] != seq or type(event["seq"]) is not int:
            raise ActionError("out_of_order", N_("the events must be numbered 1, 2, 3… in order."))
        actor, action, time = _actor(event["actor"]), event["action"], _moment(event["time"])
        if actor is None or time is None or not isinstance(action, dict) or action.get("type") != event["type"]:
            raise ActionError("bad_fields", N_("its actor, time, type or action is not as the app writes them."))
        if time > self.latest:
            raise ActionError("in_the_future", N_("its time, {time}, is later than this computer's clock: check the "
                                                  "date of the laptop that exported it, and of this one."),
                              time=_told(time))
        if event["type"] == UNDO:
            state, effects = self._undo(seq, actor, action)
        else:
            parsed = parse(action)
            if not _same(parsed.to_dict(), action):
                raise ActionError("bad_fields", N_("its actor, time, type or action is not as the app writes them."))
            # A refused action may have half-changed the state: the import stops there anyway.
            state, effects = apply(self.state, parsed, actor, copy=False)
        if not _same(effects, event["effects"]):
            raise ActionError("other_effects", N_("the rules give other effects than the file says."))
        self.state = state
        row = Row(seq, str(actor), event["type"], text, time, event["undone"])
        self.rows.append(row)
        if event["type"] != UNDO:
            self.live.append(row)
        if event["type"] == "join":
            self.seats.append(next(e["player"] for e in effects if e["kind"] == "joined"))
        if seq % self.every == 0 or event["type"] == UNDO:  # as store/undo.checkpoint keeps them
            self.checkpoints[seq] = _compact(state.to_dict())

    def _undo(self, seq: int, actor: Actor, action: dict) -> tuple[GameState, list]:
        """The undo (or a player's take back) as store/undo.undo_newest makes it: checked by the same
        rules, then the state rebuilt from the newest checkpoint before the event it takes back."""
        last = self.live[-1] if self.live else None
        entry = Entry(last.seq, last.actor, last.type, last is self.rows[-1]) if last else None
        take_back = actor.player is not None
        if take_back:
            check_take_back(actor, entry)
        else:
            check_undo(actor, entry)
        if action != {"type": UNDO, "seq": last.seq}:
            raise ActionError("bad_fields", N_("its actor, time, type or action is not as the app writes them."))
        self.live.pop()
        last.undone = True
        for kept in [s for s in self.checkpoints if s >= last.seq]:
            del self.checkpoints[kept]
        base = max(self.checkpoints, default=0)
        state = GameState.from_dict(json.loads(self.checkpoints[base])) if base else new_game(self.edition, self.settings)
        for row in self.live:
            if row.seq > base:
                state, _ = apply(state, parse(row.action()), Actor.parse(row.actor), copy=False)
        return state, [happened.undone(last.seq, last.type, actor.player if take_back else None)]

    def check_undone(self) -> None:
        """Each event the file marks undone was taken back by an undo in it, and no other."""
        for row in self.rows:
            if row.said_undone is not row.undone:
                raise BadEvent(row.seq, ActionError("undone_differs", N_(
                    "the file marks it undone, or not, unlike the undos that follow it.")), self.state)



def _actor(text) -> Actor | None:
    """The actor an archive names ("banker", "guest" or a seat's number), or None for anything else."""
    if not isinstance(text, str) or len(text) > 16:
        return None
    try:
        actor = Actor.parse(text)
    except ValueError:  # a digit int() does not read ("²")
        return None
    return actor if str(actor) == text else None


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _same(made, read) -> bool:
    """Whether what the rules made is what the file holds, as JSON: the rules may give a tuple where
    JSON reads a list back."""
    return made == read or json.loads(json.dumps(made)) == read


def _told(moment: datetime) -> str:
    """A time in a refusal: UTC, to the minute."""
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def _moment(text) -> datetime | None:
    """A time as the archive writes it (ISO 8601 with its offset), in UTC; None for anything else."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    try:
        moment = datetime.fromisoformat(text)
        return moment.astimezone(UTC) if moment.tzinfo is not None else None
    except (ValueError, OverflowError):  # not a time; a time past the year 9999 in UTC
        return None

