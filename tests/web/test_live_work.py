"""The live path (banker/live/): the work one change costs, counted, never timed (a change is worked
out once per game in memory, a watching screen reads nothing from the database for it, a part
shared by the phones is rendered once); and what the pages make of the pushes, which is always the
screen drawn afresh."""

import random
import re
import threading
from html.parser import HTMLParser

import pytest
from flask import g, request_tearing_down, template_rendered
from sqlalchemy import create_engine, text, update

from banker import store
from banker.screens import PhoneScreen, TableScreen, render_parts
from banker.models import Game as GameRow
from banker.models import db

from ..apps import close, make_app
from ..evenings import next_move
from .games import new_game
from .test_live import Listener



def watching(app, client, host, phone, players: int = 7):
    """A game of `players` with the host screen and every phone open and idle."""
    game = new_game(client, players=min(players, 3), start=False)
    for name, token in (("Di", "cat"), ("Ed", "ship"), ("Flo", "iron"), ("Gus", "thimble"))[:max(0, players - 3)]:
        game.join(name, token)
    game.ok("banker", type="start", order=list(game.seats))
    version = game.state()["version"]
    listeners = [Listener(host(game), version)] + [Listener(phone(game, p), version) for p in range(1, players + 1)]
    for listener in listeners:
        listener.idle()
    return game, listeners


def test_an_ordinary_change_reads_nothing_on_the_watching_screens(app, client, host, phone, statements):
    game, listeners = watching(app, client, host, phone)
    try:
        main = threading.current_thread().name
        for action in ({"type": "bank_pay", "player": 2, "amount": 5}, {"type": "roll", "dice": [2, 3]}):
            statements.clear()
            version = game.ok("banker" if action["type"] == "bank_pay" else 1, **action)["version"]
            for listener in listeners:
                assert listener.next_event().id == str(version)
            assert statements and all(thread == main for thread, _ in statements), statements
    finally:
        listeners[0].close(app)


def test_a_version_made_elsewhere_is_read_once_for_every_screen(app, client, host, phone, statements):
    """Another process's commit (heard through the relay) or a database written behind the app's
    back: the renderer reads the game from the database once, and every screen shows it."""
    game, listeners = watching(app, client, host, phone, players=3)
    try:
        with app.app_context():
            db.session.execute(update(GameRow).where(GameRow.code == game.code).values(version=GameRow.version + 1))
            db.session.commit()
        version = game.state()["version"]
        statements.clear()
        app.extensions["banker.notifier"].publish(game.code, version)
        for listener in listeners:
            assert listener.next_event().id == str(version)
        reads = [s for thread, s in statements if thread.startswith("banker-render") and "FROM games" in s]
        assert len(reads) == 1, statements
    finally:
        listeners[0].close(app)


def test_the_forms_a_screen_is_pushed_carry_its_own_token_and_new_nonces(app, client, host, phone):
    """Screens share their HTML, not what belongs to one browser: each form a browser is pushed
    carries that browser's CSRF token and a nonce of its own, and it works."""
    game = new_game(client)
    bob, banker = phone(game, 2), host(game)
    for browser in (bob, banker):
        browser.page()  # the session's CSRF token is made with the page
    listeners = [Listener(bob, game.state()["version"]), Listener(banker, game.state()["version"])]
    try:
        for listener in listeners:
            listener.idle()
        game.ok("banker", type="bank_charge", player=2, amount=2000)
        pushed = [listener.next_event().data for listener in listeners]
        nonces = [re.findall(r'name="nonce" value="([^"]*)"', html) for html in pushed]
        assert all(nonces) and len(set(nonces[0] + nonces[1])) == len(nonces[0] + nonces[1])
        form = re.search(r'<form[^>]*hx-confirm[^>]*>.*?</form>', pushed[0], re.S).group(0)
        fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))
        assert fields["type"] == "bankrupt"
        response = bob.client.post(f"/p/{game.code}/act", data=fields)
        assert response.status_code == 303, response.get_data(as_text=True)
        assert game.state()["status"] == "ended"
    finally:
        listeners[0].close(app)


def test_a_change_renders_the_news_once_for_every_phone_that_shows_it(app, client, host, phone):
    game, listeners = watching(app, client, host, phone)
    rendered, drawings = [], []

    def counting(sender, template, context, **extra):  # Flask's signal, whichever thread renders
        rendered.append(template.name)

    def ending(sender, **extra):  # a request context's end: the renderer's are screens.drawing's
        if threading.current_thread().name.startswith("banker-render"):
            drawings.append(sender)

    try:
        with template_rendered.connected_to(counting, app), request_tearing_down.connected_to(ending, app):
            version = game.ok("banker", type="bank_pay", player=3, amount=5)["version"]  # Cy's money
            events = [listener.next_event() for listener in listeners]
        assert all(event.id == str(version) for event in events)
        assert len(drawings) == 1  # the eight screens, in one language at one address, drawn within one
        # Ann, whose turn it is, reads "Your turn" over the news; the six others share one.
        assert rendered.count("player/_news.html") == 2 and rendered.count("table/_news.html") == 1
        # The other phones render nothing of their own; Cy's phone the part that shows her cash, her
        # wallet (not her trades, nor her turn panel, which shows no cash while she waits); the host
        # its balances, Undo and history (not the rest of its players' panel, nor its turn panel).
        assert sorted(rendered) == ["player/_history.html", "player/_news.html", "player/_news.html",
                                    "player/_wallet.html",
                                    "table/_balances.html", "table/_history.html", "table/_news.html",
                                    "table/_undo.html"]
        phones = [event.data for event in events[1:]]
        watching_phones = phones[:2] + phones[3:]  # all but Cy's
        assert all(data.count("The bank paid Cy $5.") == 1 for data in watching_phones)
        assert len(phones[1]) < 300 and len(events[0].data) < 2000  # a watching phone's news; the host's
    finally:
        listeners[0].close(app)


# What a browser makes of the pushes: htmx's out-of-band swaps, as the page applies them.

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})


class _Elements(HTMLParser):
    """The spans of the top-level elements of an HTML fragment."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.lines = [0] + [n + 1 for n, c in enumerate(html) if c == "\n"]
        self.depth, self.start, self.spans = 0, 0, []
        self.feed(html)
        self.close()

    def _at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            self.start = self._at()
        if tag not in VOID:
            self.depth += 1
        elif self.depth == 0:
            self.spans.append((self.start, self._at() + len(self.get_starttag_text())))

    def handle_endtag(self, tag):
        self.depth -= 1
        if self.depth == 0:
            self.spans.append((self.start, self._at() + len(tag) + 3))


def _elements(html: str) -> list[str]:
    return [html[start:end] for start, end in _Elements(html).spans]


def _replace(html: str, element_id: str, new: str) -> str | None:
    """`html` with its element of id `element_id` replaced by `new` (None: it has none)."""
    found = re.search(rf'<[a-z0-9]+ [^>]*?id="{re.escape(element_id)}"', html)
    if found is None:
        return None
    old = _elements(html[found.start():])[0]
    return html[:found.start()] + new + html[found.start() + len(old):]


def apply(page: dict[str, str], data: str) -> None:
    """Apply one update event to the parts a page shows, as htmx does."""
    for element in _elements(data):
        if element.startswith("<template>"):  # htmx swaps what a template holds
            element = element[len("<template>"):-len("</template>")]
        swap = re.match(r'<[a-z0-9]+ [^>]*?hx-swap-oob="([^"]+)"', element).group(1)
        element = element.replace(f' hx-swap-oob="{swap}"', "", 1)
        if swap == "true":
            element_id = re.match(r'<[a-z0-9]+ [^>]*?id="([^"]+)"', element).group(1)
            if element_id in page:
                page[element_id] = element
            else:
                [part] = [name for name, html in page.items() if f'id="{element_id}"' in html]
                page[part] = _replace(page[part], element_id, element)
        else:
            strategy, list_id = swap.split(":#")
            assert strategy == "afterbegin"
            [part] = [name for name, html in page.items() if f'id="{list_id}"' in html]
            html = page[part]
            opening = re.search(rf'<[a-z0-9]+ [^>]*?id="{list_id}"[^>]*>', html)
            the_list = _elements(html[opening.start():])[0]
            inner = element[element.index(">") + 1:element.rindex("<")]
            keep = int(re.search(r'data-keep="(\d+)"', opening.group(0)).group(1))
            rows = (_elements(inner) + _elements(the_list[len(opening.group(0)):the_list.rindex("<")]))[:keep]
            page[part] = html.replace(the_list, opening.group(0) + "".join(rows) + the_list[the_list.rindex("<"):], 1)


def comparable(html: str) -> str:
    """HTML as a browser shows it, for comparing: no comments, white space between tags, secrets, or
the moment it was drawn at."""
    html = re.sub(r"<!--.*?-->", "", html)
    html = re.sub(r'name="(nonce|csrf_token)" value="[^"]*"', r'name="\1" value=""', html)
    html = re.sub(r'data-now="[^"]*"|(data-left>)[^<]*', r"\1", html)  # the clock, drawn at another moment
    html = html.replace(' hx-swap-oob="true"', "")
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


def fresh(app, game_code: str, screen) -> dict[str, str]:
    """Every part of a screen drawn afresh, at the game's version now."""
    with app.test_request_context():
        g.live_marks = True
        known = store.known(store.find_game(game_code))
        return {name: part.html for name, part in render_parts(screen(known)).items()
                if name not in screen(known).NESTED}


@pytest.mark.parametrize("seed", range(2))
def test_what_the_pages_make_of_the_pushes_is_the_screen_drawn_afresh(app, client, host, phone, seed):
    """A random evening: after every step, each open page, having applied every push as htmx does,
    shows exactly what a new page at that version would. Halfway, Bob's phone sleeps through a few
    steps and reconnects from the version it shows."""
    game = new_game(client, players=3)
    rng = random.Random(seed)
    screens_of = {0: lambda known: TableScreen(known, True),
                  **{p: (lambda p: lambda known: PhoneScreen(known, p))(p) for p in (1, 2, 3)}}
    version = game.state()["version"]
    pages = {who: fresh(app, game.code, make) for who, make in screens_of.items()}
    listeners = {0: Listener(host(game), version), **{p: Listener(phone(game, p), version) for p in (1, 2, 3)}}
    bob = phone(game, 2)
    checked = 0
    try:
        for listener in listeners.values():
            listener.idle()
        for step in range(40):
            if step == 20:  # Bob's phone sleeps: nobody reads its connection, its page stays as it was
                listeners.pop(2)
                shown = version
            who, action = next_move(game.state(), rng)
            if game.act(who, **action).status_code != 200:
                continue
            version = game.state()["version"]
            if step >= 25 and 2 not in listeners:  # awake again, it catches up from what it shows
                game.ok("banker", type="bank_pay", player=3, amount=1)  # news that leaves Bob's panel as it was
                version = game.state()["version"]
                listeners[2] = Listener(bob, shown)
            for who, listener in listeners.items():
                while (event := listener.next_event()).id != str(version):
                    apply(pages[who], event.data)
                apply(pages[who], event.data)
                drawn = fresh(app, game.code, screens_of[who])
                for part, html in drawn.items():
                    assert comparable(pages[who][part]) == comparable(html), (who, part, action)
                    checked += 1
    finally:
        listeners[0].close(app)
    assert checked > 300


def test_another_processs_change_is_read_once_and_only_what_is_new(app, client, host, phone, statements, database):
    """A change made by another process (on PostgreSQL, heard through the relay): the renderer reads
    the game's row and the entries made since the version it knows, once for every screen."""
    game, listeners = watching(app, client, host, phone, players=3)
    other = make_app(database)  # a second process on the same database
    try:
        with other.app_context():
            outcome = store.act(game.code, {"type": "bank_pay", "player": 2, "amount": 7},
                                actor=store.Actor(banker=True))
        statements.clear()
        app.extensions["banker.notifier"].publish(game.code, outcome.version)  # as the relay does
        for listener in listeners:
            event = listener.next_event()
            assert event.id == str(outcome.version) and "The bank paid Bob $7." in event.data
        reads = [s for thread, s in statements if thread.startswith("banker-render") and s.startswith("SELECT")]
        assert len(reads) == 2 and "FROM games" in reads[0] and "events.seq >" in reads[1], reads
    finally:
        close(other)
        listeners[0].close(app)


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
def test_a_change_made_while_the_relay_was_down_reaches_the_pages_once_it_listens_again(
        app, client, host, phone, database, monkeypatch):
    """The listening connection is killed (pg_terminate_backend), another process changes the game
    before this one listens again, so its notification is lost: once listening again, the renderer
    reads the game from the database, and every page shows the change. The lost connection is made
    again at once: the first try waits for nothing."""
    import psycopg

    notifier = app.extensions["banker.notifier"]
    game, listeners = watching(app, client, host, phone, players=2)
    other = make_app(database)  # a second process on the same database
    connect, gate, tried, rests = psycopg.connect, threading.Event(), threading.Event(), []

    def reconnect(*args, **kwargs):  # the listening thread's new connection waits for the change
        if threading.current_thread().name == "banker-listen":
            tried.set()
            assert gate.wait(10)
        return connect(*args, **kwargs)

    real_rest = notifier._rest
    monkeypatch.setattr(notifier, "_rest", lambda seconds: (rests.append(seconds), real_rest(seconds)))
    try:
        assert notifier.listening.wait(10)
        monkeypatch.setattr(psycopg, "connect", reconnect)
        admin = create_engine(database.uri, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            killed = connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                                             "datname = current_database() AND query LIKE 'LISTEN%'")).scalars().all()
        admin.dispose()
        assert killed == [True]
        assert tried.wait(10) and rests == [0]
        with other.app_context():
            outcome = store.act(game.code, {"type": "bank_pay", "player": 2, "amount": 7},
                                actor=store.Actor(banker=True))
        gate.set()
        for listener in listeners:
            event = listener.next_event()
            assert event.id == str(outcome.version) and "The bank paid Bob $7." in event.data
    finally:
        gate.set()
        close(other)
        listeners[0].close(app)
