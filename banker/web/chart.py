"""The end screen's chart: every player's net worth over the whole game, drawn on the server as
SVG (no chart script, nothing from the internet)."""

from flask import current_app
from markupsafe import Markup, escape

from .. import store
from ..models import Game
from ..rules import Settings, apply, new_game, parse
from ..rules.networth import net_worth

# The token colours of static/css/app.css, for lines that must match the dots on the screen.
TOKEN_COLOURS = {"hat": "#222222", "car": "#d62828", "dog": "#8d5524", "iron": "#6c757d",
                 "ship": "#1d4ed8", "wheelbarrow": "#2a9d8f", "thimble": "#9d4edd", "cat": "#f77f00"}
# A 480-wide drawing with 20-unit text reads at about 13 px on a 320 px phone and scales up.
WIDTH, HEIGHT, PAD, TEXT = 480, 300, 56, 20


def worth_history(game: Game) -> dict[int, list[int]]:
    """Net worth of each player after every action since the start, replayed from the log.

    Cached per game version: the game is over when this is drawn, so it is computed once.
    """
    cache = current_app.extensions.setdefault("worth_history", {})
    key = (current_app.config["SQLALCHEMY_DATABASE_URI"], game.id, game.version)
    if key not in cache:
        state = new_game(game.edition, Settings(**game.settings))
        series: dict[int, list[int]] = {}
        for actor, data in store.live_log(game.id):
            state, _ = apply(state, parse(data), actor, copy=False)
            if state.status != "lobby":
                for p in state.players:
                    series.setdefault(p.id, []).append(net_worth(state, p.id))
        cache[key] = series
    return cache[key]


def worth_chart(game: Game, players: list) -> Markup:
    """An SVG line per player: net worth (y) after each action (x), with a legend."""
    series = worth_history(game)
    steps = max((len(v) for v in series.values()), default=0)
    top = max((max(v) for v in series.values() if v), default=0) or 1
    plot_w, plot_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD

    def point(i: int, value: int) -> str:
        x = PAD + (plot_w * i / max(steps - 1, 1))
        y = HEIGHT - PAD - plot_h * value / top
        return f"{x:.1f},{y:.1f}"

    parts = [f'<svg class="worth-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">',
             f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
             f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
             f'<text x="{PAD - 6}" y="{PAD + 6}" text-anchor="end" font-size="{TEXT}">{top:,}</text>',
             f'<text x="{PAD - 6}" y="{HEIGHT - PAD + 6}" text-anchor="end" font-size="{TEXT}">0</text>']
    for n, p in enumerate(players):
        values = series.get(p.id, [])
        colour = TOKEN_COLOURS.get(p.token, "#000")
        if values:
            points = " ".join(point(i, v) for i, v in enumerate(values))
            parts.append(f'<polyline data-player="{p.id}" fill="none" stroke="{colour}" stroke-width="3" '
                         f'stroke-linejoin="round" points="{points}"/>')
        x = PAD + n * (plot_w / max(len(players), 1))
        parts.append(f'<rect x="{x:.1f}" y="{HEIGHT - 30}" width="18" height="18" fill="{colour}"/>'
                     f'<text x="{x + 24:.1f}" y="{HEIGHT - 14}" font-size="{TEXT}">{escape(p.name)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
