"""`banker backup PATH` (issue 33, item 4): a consistent copy of the SQLite database `banker` serves,
taken while actions are written to it; on PostgreSQL it says to use pg_dump and fails."""

import sqlite3
import threading
import time
from contextlib import closing

import pytest

from banker import cli

from .apps import close, make_app, sqlite_database
from .web.games import new_game


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "en")


def served(tmp_path, monkeypatch):
    """An app on the database of the instance folder BANKER_INSTANCE names, as `banker` serves it."""
    (tmp_path / "instance").mkdir()
    monkeypatch.setenv("BANKER_INSTANCE", str(tmp_path / "instance"))
    return make_app(sqlite_database(tmp_path / "instance"))


def test_a_backup_taken_while_actions_are_written_is_whole_and_holds_the_games(tmp_path, monkeypatch, capsys):
    """The database is the instance folder's (BANKER_INSTANCE), as `banker` serves it; a thread pays
    money back and forth through the app until the backup is done, and once more after it."""
    app = served(tmp_path, monkeypatch)
    games = [new_game(app.test_client()) for _ in range(3)]
    done, written = threading.Event(), []

    def pay():
        game = games[len(written) % 3]
        game.ok(1 + len(written) % 2, type="pay", to=2 - len(written) % 2, amount=1)
        written.append(game.code)

    def writing():
        while not done.is_set():
            pay()
        pay()  # and once more after the copy

    writer = threading.Thread(target=writing)
    writer.start()
    while not written:  # the writer is writing
        time.sleep(0.01)
    try:
        cli.main(["backup", str(tmp_path / "copy.sqlite")])
    finally:
        done.set()
        writer.join(timeout=30)
    assert capsys.readouterr().out == f"Copied {tmp_path}/instance/banker.sqlite to {tmp_path}/copy.sqlite: 3 games.\n"
    with closing(sqlite3.connect(tmp_path / "copy.sqlite")) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        kept = copy.execute("SELECT code, version, (SELECT max(seq) FROM events WHERE game_id = games.id) "
                            "FROM games ORDER BY id").fetchall()
        payments = copy.execute("SELECT count(*) FROM events WHERE type = 'pay'").fetchone()[0]
    assert [code for code, *_ in kept] == [game.code for game in games]
    assert all(version == newest for _, version, newest in kept)  # each snapshot with its own events
    assert payments < len(written)  # the thread wrote on after the copy
    close(app)


def test_a_backup_replaces_its_file_whole(tmp_path, monkeypatch, capsys):
    app = served(tmp_path, monkeypatch)
    (tmp_path / "copy.sqlite").write_text("last night's copy")
    new_game(app.test_client())
    cli.main(["backup", str(tmp_path / "copy.sqlite")])
    assert "1 game." in capsys.readouterr().out
    with closing(sqlite3.connect(tmp_path / "copy.sqlite")) as copy:
        assert copy.execute("SELECT count(*) FROM games").fetchone() == (1,)
    assert sorted(path.name for path in tmp_path.iterdir() if "copy" in path.name) == ["copy.sqlite"]
    close(app)


def test_a_backup_of_no_database_says_so_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("BANKER_INSTANCE", str(tmp_path / "instance"))
    with pytest.raises(SystemExit, match=f"There is no database at {tmp_path}/instance/banker.sqlite to back up."):
        cli.main(["backup", str(tmp_path / "copy.sqlite")])
    assert list(tmp_path.iterdir()) == []  # not even the instance folder


def test_on_postgresql_the_backup_says_to_use_pg_dump(tmp_path, monkeypatch):
    monkeypatch.setenv("BANKER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://banker:secret@127.0.0.1:1/banker")
    with pytest.raises(SystemExit, match="back up PostgreSQL with pg_dump") as stopped:
        cli.main(["backup", str(tmp_path / "copy.sqlite")])
    assert stopped.value.code != 0 and "secret" not in str(stopped.value.code)
    assert not (tmp_path / "copy.sqlite").exists()
