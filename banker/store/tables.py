"""A tournament's tables (store/tournaments.py): each table's game made from the round's seating, and
what the tournament tells the games, as their banker (the organiser).

A table's game is an ordinary game: its seats joined by the table's players in seat order, then
fixed (`fix_seats`: nobody else joins, nobody rolls for the order). A table that refuses the round's
start or its last turn (`MATTERS`) is logged as a warning, and the organiser's screen says of a table
still in its lobby while the round plays why it would refuse the start now
(`tournaments.start_refusal`).
"""

import logging

from sqlalchemy import select, update

from ..models import Badge, Event, Game, Seat, Tournament, TournamentTable, db
from ..rules import Actor
from ..rules.actions import UNDO
from ..rules.errors import GameError
from ..rules.state import TOKENS
from ..rules.tournament import EventState
from . import actions
from .engine import Busy, writing
from .games import create_game

log = logging.getLogger(__name__)

BANKER = Actor(banker=True)  # the organiser, in each table's game


def table_game(tournament: Tournament, state: EventState, table, names: dict, entrants: dict) -> str:
    """A table's game, its seats joined in seat order (seat n is the game's player n) and fixed, each
    holding its entrant's token and badge; the organiser's token and screen are its banker's."""
    # The round's length as the game's time limit (its rules say so); its screens count down the
    # round's clock itself, which the tournament tells the game (round_clock, at start_round).
    game, _ = create_game(state.settings.edition,
                          {**state.settings.rules, "time_limit_minutes": state.settings.round_minutes})
    for token, player in zip(TOKENS, table.seats):
        actions.act(game.code, {"type": "join", "name": names[player], "token": token})
    actions.act(game.code, {"type": "fix_seats"}, actor=BANKER)  # the seating's seats, whoever scans the table
    with writing():
        db.session.execute(update(Game).where(Game.id == game.id)
                           .values(banker_token_hash=tournament.organiser_token_hash))
        for seat, player in enumerate(table.seats, start=1):
            held = entrants.get(player)
            if held is None:  # added by the organiser: the organiser's screen plays their seat
                continue
            db.session.execute(update(Seat).where(Seat.game_id == game.id, Seat.player_id == seat)
                               .values(token_hash=held.token_hash))
            if held.browser_hash:
                db.session.add(Badge(browser_hash=held.browser_hash, game_id=game.id, role="seat", player_id=seat))
        if tournament.organiser_browser_hash:
            db.session.add(Badge(browser_hash=tournament.organiser_browser_hash, game_id=game.id,
                                 role="banker", player_id=None))
        db.session.add(TournamentTable(game_id=game.id, tournament_id=tournament.id,
                                       round=state.round.number, table=table.number))
        db.session.commit()
    return game.code


def table_start(table) -> dict:
    """The start a table's game is told: in the seating's order (seat n is the game's player n)."""
    return {"type": "start", "order": list(range(1, len(table.seats) + 1))}


# Told actions whose refusal leaves a table out of the round (never started, or never ending), and
# refusals that only mean the table is there already: the other refusals of these are warnings.
MATTERS = frozenset({"start", "last_turn"})
ALREADY = frozenset({"game_started", "last_turn_called", "game_over"})


def tell_games(state: EventState, action, games: list[str] | None = None) -> None:
    """An action (`action(table)`; None: none) in each game of the round in play (or of `games`), as
    its banker: the organiser. A game that refuses it is left as it is: already there (started,
    ended), in the log's info; else, for a start or a last turn, a warning (the organiser's screen
    shows a table not started: `tournaments.start_refusal`), as for a game too busy to take it."""
    for table in state.round.tables:
        told = action(table) if table.game and (games is None or table.game in games) else None
        if told is None:
            continue
        try:
            actions.act(table.game, told, actor=BANKER)
        except GameError as error:
            refused(table.number, table.game, told, error)
        except Busy:  # every try lost its race at that table: the others are told all the same
            log.warning("table %s of %s was too busy to take %s", table.number, table.game, told)


def refused(table: int, game: str, told: dict, error: GameError) -> None:
    """A table's game refused what the tournament told it: a warning when that leaves the table out
    of the round (`MATTERS`, not `ALREADY` so), else a line of information."""
    level = logging.WARNING if told["type"] in MATTERS and error.code not in ALREADY else logging.INFO
    log.log(level, "table %s of %s did not take %s: %s", table, game, told, error.code)


def tell_clock(state: EventState, last_turn: bool = False) -> None:
    """The round's clock, running, paused or neither (its start undone), told to each table of the
    round still playing; with `last_turn`, whether the last turn is called."""
    clock = state.clock
    told = {"type": "round_clock", "ends_at": clock.ends_at, "paused_left": clock.paused_remaining}
    if last_turn:
        told["last_turn"] = clock.last_turn
    tell_games(state, lambda table: told, [t.game for t in state.round.tables if t.results is None])


def undo_start(table) -> dict | None:
    """The banker's undo of the start of a table's game (the round's start undone), if it has one:
    taken only while nothing but the round's clock came after it (rules/undo.py); a table that
    played on keeps its play, with no clock. One query."""
    start = db.session.scalar(select(Event.seq).join(Game, Game.id == Event.game_id).where(
        Game.code == table.game, Event.type == "start", Event.undone.is_(False)))
    return None if start is None else {"type": UNDO, "seq": start}


