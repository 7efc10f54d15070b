"""Times are right whatever the database's or the server's time zone (issue 13, item 5): kept
as UTC by contract on every backend, told in the table's zone."""

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from sqlalchemy import create_engine, text

from banker import store

from ..apps import close, make_app
from .games import new_game

pytestmark = pytest.mark.storage  # each database keeps times its own way


def _in_new_york(database) -> None:
    """Give the database (PostgreSQL) a time zone five hours away from UTC for every connection."""
    if not database.postgres:
        return
    engine = create_engine(database.uri, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            name = connection.execute(text("SELECT current_database()")).scalar()
            connection.execute(text(f"ALTER DATABASE {name} SET timezone TO 'America/New_York'"))
    finally:
        engine.dispose()


def test_a_time_limit_starts_full_and_events_keep_their_utc_moment(database, host):
    _in_new_york(database)
    app = make_app(database, TIMEZONE="Asia/Tokyo")
    try:
        client = app.test_client()
        before = datetime.now(UTC)
        game = new_game(client, rules={"time_limit_minutes": 60})
        with app.app_context():
            started = app.extensions["banker.memory"].known(store.find_game(game.code)).started_at
            if database.postgres:
                from banker.models import db
                assert db.session.execute(text("SHOW timezone")).scalar() == "America/New_York"
        assert started.tzinfo is not None and abs((started - before).total_seconds()) < 30
        screen = client.get(f"/t/{game.code}").get_data(as_text=True)
        left = re.search(r"<strong data-left>(\d+):(\d\d)</strong>", screen)
        assert left and int(left.group(1)) in (59, 60)
        api_time = datetime.fromisoformat(game.events()[-1]["time"])
        assert api_time.utcoffset().total_seconds() == 0 and abs((api_time - before).total_seconds()) < 30
        # The history tells the time in the table's zone (TIMEZONE), not UTC or the database's.
        newest = re.findall(r"<time>([^<]+)</time>", screen)[0].replace("\u202f", " ")
        assert newest == api_time.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%-I:%M %p")
    finally:
        close(app)
