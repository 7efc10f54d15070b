"""Hosted mode's database: the web tests' second run really writes to a PostgreSQL server."""

import pytest
from sqlalchemy import create_engine, text

from .games import new_game, play


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
def test_games_are_written_to_the_postgresql_server(app, client, database):
    game = new_game(client)
    play(game, (1, {"type": "roll", "dice": [1, 2]}), (1, {"type": "buy"}))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == database.uri
    engine = create_engine(database.uri)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version()")).scalar().startswith("PostgreSQL 15")
            row = connection.execute(text("SELECT id, version FROM games WHERE code = :code"), {"code": game.code}).one()
            events = connection.execute(text("SELECT type FROM events WHERE game_id = :id ORDER BY seq"),
                                        {"id": row.id}).scalars().all()
    finally:
        engine.dispose()
    assert events == ["join", "join", "start", "roll", "buy"] and row.version == len(events)
