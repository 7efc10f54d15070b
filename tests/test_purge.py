"""`banker purge --older-than 30d`: the ended games nobody has played for that long leave the
database with every row of theirs, on a SQLite file and on PostgreSQL, and with `--unfinished` the
abandoned ones too; the games played within the age stay and play on. `--dry-run` lists and deletes
nothing; an imported game is as old as its import."""

from datetime import UTC, datetime, timedelta

import pytest
from babel.support import Translations
from sqlalchemy import create_engine, func, select, update

from banker import cli, purge
from banker.models import Badge, Checkpoint, Claim, Event, Game, Seat, TvKey, db

from .apps import close, make_app
from .web.conftest import badged
from .web.games import bearer, csrf_token, new_game

pytestmark = pytest.mark.storage  # rows deleted under other writers' locks

PARTS = (Event, Checkpoint, Seat, Badge, Claim, TvKey)
LONG_AGO = datetime.now(UTC) - timedelta(days=40)


@pytest.fixture
def app(database):
    app = make_app(database)
    yield app
    close(app)


def played(app, ended: bool = False):
    """A game with a row in every table of its own: seats, events, a checkpoint (an undo), the
    banker's badge, a rejoin code and a TV link; ended if asked."""
    game = new_game(app.test_client())
    game.ok(1, type="pay", to=2, amount=25)
    game.ok("banker", type="undo")
    host = badged(app, game, "banker")
    rejoin = host.post(f"/t/{game.code}/seats/2/rejoin", data={"csrf_token": csrf_token(host, f"/t/{game.code}")})
    assert rejoin.status_code == 303
    assert host.post(f"/t/{game.code}/tv", data={"csrf_token": csrf_token(host, f"/t/{game.code}")}).status_code == 303
    if ended:
        game.ok("banker", type="end_game")
    return game


def game_id(code: str) -> int:
    return db.session.scalar(select(Game.id).where(Game.code == code))


def rows(code: str) -> dict[str, int]:
    """How many rows of each table belong to the game (the game's own row under "games")."""
    found = game_id(code)
    counts = {part.__tablename__: db.session.scalar(select(func.count()).select_from(part).where(part.game_id == found))
              for part in PARTS}
    return {"games": int(found is not None), **counts}


def age(app, code: str, when: datetime = LONG_AGO, newest_too: bool = True) -> None:
    """Move a game's creation and events back to `when` (all but its newest event unless `newest_too`)."""
    with app.app_context():
        found = game_id(code)
        events = update(Event).where(Event.game_id == found)
        if not newest_too:
            newest = db.session.scalar(select(func.max(Event.seq)).where(Event.game_id == found))
            events = events.where(Event.seq < newest)
        db.session.execute(events.values(created_at=when))
        db.session.execute(update(Game).where(Game.id == found).values(created_at=when))
        db.session.commit()


@pytest.fixture
def games(app):
    """Three old games (ended, abandoned mid-game, never joined) and three that stay: a recent
    game, an ended one that ended yesterday, and an old game still being played."""
    made = {"old_ended": played(app, ended=True), "old_abandoned": played(app),
            "old_empty": app.test_client().post("/api/games", json={}).get_json()["code"],
            "recent": played(app), "ended_yesterday": played(app, ended=True), "old_but_active": played(app)}
    for name in ("old_ended", "old_abandoned", "old_empty", "old_but_active"):
        age(app, made[name] if name == "old_empty" else made[name].code, newest_too=name != "old_but_active")
    age(app, made["ended_yesterday"].code, datetime.now(UTC) - timedelta(days=1))
    return made


def code(game) -> str:
    return game if isinstance(game, str) else game.code


def test_old_games_go_with_every_row_of_theirs_and_the_others_stay_and_play_on(app, games):
    with app.app_context():
        before = {name: rows(code(game)) for name, game in games.items()}
        assert all(before[name][table] for name in ("old_ended", "recent") for table in before[name])
        assert purge.purge(timedelta(days=30), batch=2) == 1  # the ended one: the others only when asked
        assert rows(games["old_abandoned"].code) == before["old_abandoned"]
        assert purge.purge(timedelta(days=30), unfinished=True, batch=2) == 2
        after = {name: rows(code(game)) for name, game in games.items()}
        # Nothing else of theirs is left anywhere.
        assert db.session.scalar(select(func.count()).select_from(Game)) == 3
        for part in PARTS:
            assert db.session.scalar(select(func.count()).select_from(part).where(part.game_id.not_in(
                select(Game.id)))) == 0
    for name in ("old_ended", "old_abandoned", "old_empty"):
        assert set(after[name].values()) == {0}, name
    for name in ("recent", "ended_yesterday", "old_but_active"):
        assert after[name] == before[name], name
    client = app.test_client()
    for name in ("old_ended", "old_abandoned", "old_empty"):
        assert client.get(f"/j/{code(games[name])}").status_code == 404
    for name in ("recent", "old_but_active"):
        game = games[name]
        assert game.ok(1, type="roll", dice=[4, 6], state=True)["state"]["players"][0]["position"] == 10
        assert client.get(f"/j/{game.code}").status_code == 200
    assert games["ended_yesterday"].state()["status"] == "ended"


def test_a_purge_with_nothing_old_enough_deletes_nothing(app, games):
    with app.app_context():
        assert purge.purge(timedelta(days=60), unfinished=True) == 0
        assert db.session.scalar(select(func.count()).select_from(Game)) == 6
        assert purge.purge(timedelta(hours=1)) == 2  # the games ended 40 days ago and yesterday
        assert purge.purge(timedelta(hours=1), unfinished=True) == 2  # abandoned 40 days ago
        assert purge.purge(timedelta(minutes=1), unfinished=True) == 0  # the rest was played a moment ago


def test_a_dry_run_lists_what_would_go_and_deletes_nothing(app, games):
    with app.app_context():
        assert purge.would_go(timedelta(days=30)) == [(games["old_ended"].code, "ended", LONG_AGO)]
        listed = purge.would_go(timedelta(days=30), unfinished=True)
        assert {(game.code, game.status) for game in listed} == {
            (games["old_ended"].code, "ended"), (games["old_abandoned"].code, "playing"), (games["old_empty"], "lobby")}
        assert {game.last for game in listed} == {LONG_AGO}
        assert purge.unfinished_kept(timedelta(days=30)) == 2
        assert db.session.scalar(select(func.count()).select_from(Game)) == 6


def test_an_imported_game_is_as_old_as_its_import(app, games):
    """Its events keep their times of three months ago (the history tells them), but its last
    activity is its import: no purge takes it before it has been left alone for the age."""
    client = app.test_client()
    game = games["old_ended"]
    archive = client.get(f"/api/games/{game.code}/export", headers=bearer(game.banker)).get_json()
    months_ago = (datetime.now(UTC) - timedelta(days=90)).isoformat()
    archive = {**archive, "created_at": months_ago, "events": [{**e, "time": months_ago} for e in archive["events"]]}
    answer = client.post("/api/games/import", json=archive)
    assert answer.status_code == 201, answer.get_json()
    imported = answer.get_json()["code"]
    with app.app_context():
        assert imported not in {game.code for game in purge.would_go(timedelta(days=30), unfinished=True)}
        assert purge.purge(timedelta(days=30), unfinished=True) == 3
        assert purge.purge(timedelta(minutes=1), unfinished=True) == 1  # the game ended yesterday
        assert rows(imported)["games"] == 1  # imported a moment ago
    assert {e["time"] for e in client.get(f"/api/games/{imported}/events", headers=bearer(
        answer.get_json()["banker_token"])).get_json()["events"]} == {months_ago}


@pytest.mark.parametrize("text, age", [("30d", timedelta(days=30)), ("12h", timedelta(hours=12)),
                                       ("90min", timedelta(minutes=90)), ("1d", timedelta(days=1))])
def test_an_age_is_a_number_of_days_hours_or_minutes(text, age):
    assert purge.parse_age(text) == age


@pytest.mark.parametrize("text", ["soon", "30", "d", "0d", "-1d", "1.5d", "30 d", " 30d", "30D", "30y",
                                  "30days", "123456d", "", "1m", "90m", "30mo", "0min", "min"])
def test_anything_else_is_not_an_age(text):
    with pytest.raises(ValueError):
        purge.parse_age(text)


@pytest.fixture
def served(database, monkeypatch):
    """The command's environment: the database `banker` serves is the test's, the terminal speaks English."""
    monkeypatch.setenv("DATABASE_URL", database.uri)
    monkeypatch.setenv("BANKER_INSTANCE", str(database.folder / "instance"))
    monkeypatch.setenv("LANGUAGE", "en")  # it speaks the terminal's language (the French test below)


def test_the_command_purges_the_database_it_serves_and_says_how_many_went(app, games, served, capsys):
    cli.main(["purge", "--older-than", "30d"])
    assert capsys.readouterr().out == ("Deleted 1 ended game not played for 30d or more.\n"
                                       "2 games not ended are as old and stay: add --unfinished to delete them too.\n")
    cli.main(["purge", "--older-than", "30d", "--unfinished"])
    assert capsys.readouterr().out == "Deleted 2 games not played for 30d or more, ended or not.\n"
    cli.main(["purge", "--older-than", "30d", "--unfinished"])
    assert capsys.readouterr().out == "Deleted 0 games not played for 30d or more, ended or not.\n"
    cli.main(["purge", "--older-than", "2h"])
    assert capsys.readouterr().out == "Deleted 1 ended game not played for 2h or more.\n"
    assert games["recent"].state()["status"] == "playing"


def test_a_dry_run_lists_the_games_with_their_status_and_last_activity_and_deletes_nothing(app, games, served,
                                                                                          capsys):
    cli.main(["purge", "--older-than", "30d", "--unfinished", "--dry-run"])
    when = f"{LONG_AGO:%Y-%m-%d %H:%M} UTC"
    assert capsys.readouterr().out.splitlines() == [
        f"{games['old_ended'].code}  ended  {when}", f"{games['old_abandoned'].code}  being played  {when}",
        f"{games['old_empty']}  not started  {when}",
        "Would delete 3 games not played for 30d or more, ended or not (a dry run: nothing was deleted)."]
    cli.main(["purge", "--older-than", "30d", "--dry-run"])
    assert capsys.readouterr().out.splitlines() == [
        f"{games['old_ended'].code}  ended  {when}",
        "Would delete 1 ended game not played for 30d or more (a dry run: nothing was deleted).",
        "2 games not ended are as old and stay: add --unfinished to delete them too."]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 6


@pytest.mark.parametrize("argv", [["--older-than", "soon"], ["--older-than", "0d"], ["--older-than", "1m"],
                                  ["--older-than"], []])
def test_the_command_refuses_what_is_not_an_age_and_touches_nothing(argv, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("BANKER_INSTANCE", str(tmp_path / "instance"))
    with pytest.raises(SystemExit) as stopped:
        cli.main(["purge", *argv])
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert said.startswith("usage: banker purge [-h] --older-than AGE")
    if argv[1:]:
        assert f"argument --older-than: '{argv[1]}' " in said
    if argv[1:] == ["1m"]:  # minutes or months? neither: it says how to write minutes
        assert "'1m' could be minutes or months: write 1min for minutes, or an age in d (days) or h (hours)" in said
    assert not (tmp_path / "instance").exists()  # refused before the app (and its database) was made


@pytest.mark.parametrize("database", ["postgres"], indirect=True)  # SQLite has no row locks: writes take turns
def test_a_game_an_action_holds_is_left_for_the_next_purge_without_waiting(app, database, games):
    """A game row locked by a write in progress (an action) is skipped, not waited for."""
    held = create_engine(database.uri)
    with held.connect() as other, app.app_context():
        other.execute(select(Game.id).where(Game.code == games["old_abandoned"].code).with_for_update())
        assert purge.purge(timedelta(days=30), unfinished=True) == 2
        assert rows(games["old_abandoned"].code)["games"] == 1
        other.rollback()
        assert purge.purge(timedelta(days=30), unfinished=True) == 1
    held.dispose()


def test_the_command_speaks_the_terminals_language(app, games, served, monkeypatch, capsys):
    monkeypatch.setenv("LANGUAGE", "fr")
    cli.main(["purge", "--older-than", "30d", "--unfinished"])
    french = Translations.load("banker/translations", ["fr"]).ungettext(
        "Deleted %(num)s game not played for %(age)s or more, ended or not.",
        "Deleted %(num)s games not played for %(age)s or more, ended or not.", 3)
    assert capsys.readouterr().out == french % {"num": 3, "age": "30d"} + "\n"
