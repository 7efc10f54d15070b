"""The story page of the game (/t/<code>/story, and each phone's at /p/<code>/story): the story's
numbers (rules/story.py, counted from the log's stored effects) told in the reader's language and
money, with drawings/pictures.py placing them on the pictures.

The story is counted from one query of the live events (shared with the net-worth chart when it has
to read them too), and kept per game version (`told_story`): a story is read after the game, or by
the banker now and then, never on the live path; every reader of a version shares it.
"""

from collections import Counter
from datetime import timedelta
from functools import cache

from flask import current_app, render_template
from flask_babel import format_timedelta
from markupsafe import Markup

from .. import store
from ..store import Known
from ..rules import landings
from ..rules.errors import N_
from ..rules.networth import first_place, places
from ..rules.story import Mark, Story, count
from ..drawings import pictures
from ..drawings.chart import worth_chart
from ..lru import LruCache
from ..words.languages import gettext as _, locale_name
from ..words.names import square_name, square_names
from ..words.labels import GROUP_NAMES, Translated

# Stories of this many game versions stay in memory (a story is a few kilobytes of counts), and
# this many story pages as HTML (a version's in each language, the host's and each phone's: from
# 20 kB for a short game to about 100 kB at 5,000 events).
KEPT = 16
PAGES_KEPT = 48
# How an owner came to hold a deed, in the table of what each deed returned.
HOW = Translated({"bought": N_("bought"), "auction": N_("won at auction"), "trade": N_("in a trade"),
                  "bankruptcy": N_("from a bankruptcy"), "claim": N_("claimed for the fine")})
def told_story(game, log=None) -> Story:
    """The story of `game` (a Game or a Known: its id and version) at its version, counted once
    per version and kept for every reader (the last KEPT versions). `log`, when given, reads the
    game's live effects up to its version (store.live_effects), shared with the chart."""
    kept = current_app.extensions.get("banker.story")
    if kept is None:
        kept = current_app.extensions.setdefault("banker.story", LruCache(KEPT))
    log = log or (lambda: store.live_effects(game.id, upto=game.version))
    return kept.get((game.id, game.version), lambda: count(game.state.board, log(), game.state))


# The page: the story's numbers as the reader reads them


def mark_text(mark: Mark, state) -> str:
    """A big moment pinned on the net-worth chart, in words."""
    name = state.player(mark.player).name
    if mark.kind == "trade":
        return _("%(name)s and %(other)s traded.", name=name, other=state.player(mark.other).name)
    if mark.kind == "bankrupt":
        if mark.other is None:
            return _("%(name)s went bankrupt to the bank.", name=name)
        return _("%(name)s went bankrupt to %(other)s.", name=name, other=state.player(mark.other).name)
    if mark.kind == "monopoly":
        return _("%(name)s completed the %(group)s group.", name=name, group=GROUP_NAMES[mark.group])
    return _("The first hotel: %(name)s's, on %(square)s.", name=name,
             square=square_name(state.board, mark.square))


def story_page(game: Known, player: int | None = None) -> Markup:
    """The story as HTML (templates/story/_story.html) in the reader's language, the host's or
    `player`'s phone's, made once per game version, language and phone and kept for every reader
    (the last PAGES_KEPT): a story does not change until the game does."""
    kept = current_app.extensions.get("banker.story_pages")
    if kept is None:
        kept = current_app.extensions.setdefault("banker.story_pages", LruCache(PAGES_KEPT))
    return kept.get((game.id, game.version, locale_name(), player),
                    lambda: Markup(render_template("story/_story.html", **page_context(game, player))))


def duration(seconds: float) -> str:
    """A turn's length as the reader's language says it, to the second under a minute, to the
    minute under an hour ("45 seconds", "3 minutes")."""
    return format_timedelta(timedelta(seconds=round(seconds)), threshold=1, add_direction=False)


def page_context(game: Known, player: int | None = None) -> dict:
    """Everything templates/story/page.html shows of `game` at its version: the whole table's
    story, and first `player`'s own on their phone."""
    state, board = game.state, game.state.board
    currency = board.currency
    log = cache(lambda: store.live_effects(game.id, upto=game.version))  # read once, if at all
    story = told_story(game, log)
    names = square_names(board)
    group_rent = story.group_rent(board)
    rented = sorted((sq for sq, rent in story.deed_rent.items() if rent), key=lambda sq: (-story.deed_rent[sq], sq))
    group_bars = pictures.bars([(GROUP_NAMES[g], rent, f"g-{g}") for g, rent in group_rent.items() if rent], currency)
    deed_bars = pictures.bars([(names[sq], story.deed_rent[sq], f"g-{board[sq].group or board[sq].type}")
                               for sq in rented], currency)
    returns = sorted(story.holdings, key=lambda h: (-h.net, h.square, h.owner))
    expected = list(landings.expected(state.edition, state.settings).landings)
    short_names = square_names(board, short=True)  # in the heat map's squares, as on the board's tiles
    page = {
        "game": game, "code": game.code, "version": game.version, "state": state, "board": board,
        "currency": currency, "players": {p.id: p for p in state.players}, "names": names, "story": story,
        "chart": worth_chart(game, state.players, story.marks, log),
        "places": places(state.standings) if state.standings else None,
        "winners": tuple(state.player(pid).name for pid in first_place(state.standings or [])),
        "pin_text": lambda mark: mark_text(mark, state),
        "group_bars": group_bars, "deed_bars": deed_bars, "rented": rented, "returns": returns, "how": HOW,
        "sales": any(h.sold_for for h in returns), "kept": any(h.worth_now for h in returns),
        "best_buy": story.best_buy(), "worst_buy": story.worst_buy(),
        "flow": pictures.flow(story.flows, state.players, currency),
        "flow_rows": sorted(story.flows.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])),
        # Beside each square's landings, those this game's rules and cards lead to in the long run
        # (rules/landings.py's Markov chain), as many in all as the game made.
        "heat": pictures.heat(board, names, short_names, story.landings, expected),
        "turn_time": {p.id: story.seconds_per_turn(p.id) for p in state.players}, "duration": duration,
        "me": None,
    }
    if player is not None:
        page["me"] = state.player(player)
        page["my_heat"] = pictures.heat(board, names, short_names,
                                        story.landings_by_player.get(player, Counter()), expected)
        page["my_best"] = story.best_deed(player)
    return page

