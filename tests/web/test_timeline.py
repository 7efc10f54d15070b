"""The timeline (/t/<code>/timeline?v=<n>): the banker's read-only view of the board, the balances
and the deeds as they were at any version; the slider's steps answer htmx with that part alone, and
put the version in the address. It speaks of steps, whose turn and the time, not versions."""

import re

from .games import BALTIC, HTMX, play

TIMELINE = "/t/{code}/timeline"


def cash(html: str) -> dict[str, str]:
    """The balances' rows as the host's template draws them: player id -> cash."""
    return dict(re.findall(r'id="balance-(\d)".*?data-cash="(\d+)"', html, re.S))


def test_a_past_version_shows_the_board_balances_and_deeds_as_they_were(game, host):
    """Two joins and the start are versions 1 to 3; Ann rolls to Baltic Avenue (4) and buys it (5)."""
    play(game, *BALTIC)
    banker = host(game)
    url = TIMELINE.format(code=game.code)
    before = banker.page(f"{url}?v=4")
    assert cash(before) == {"1": "1500", "2": "1500"}
    assert 'id="sq-3" class="sq street ' in before and "Baltic Avenue (" not in before
    after = banker.page(f"{url}?v=5")
    assert cash(after) == {"1": "1440", "2": "1500"}
    assert re.search(r'id="sq-3" class="sq street owned token-hat', after)
    assert re.search(r"<strong>Ann</strong>:\s*Baltic Avenue</li>", after)
    assert "Step 5 of 5" in after and "bought Baltic Avenue" in after
    # Read-only: the page posts nothing and holds no action's nonce; the newest version is the default.
    assert "method=\"post\"" not in after.lower() and 'name="nonce"' not in after
    assert cash(banker.page(url)) == cash(after)


def test_the_slider_gets_the_version_alone_and_its_steps(game, host):
    play(game, *BALTIC)
    response = host(game).client.get(TIMELINE.format(code=game.code) + "?v=4", headers=HTMX)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="past"')
    assert "<html" not in html and 'type="range"' not in html
    # The board stands outside #past (beside it on a laptop), so it comes with it out of band, as it
    # was at that step: Baltic Avenue not yet bought.
    past, board = html.split('<section id="board"')
    assert 'id="sq-' not in past and board.startswith(' class="card board-card" hx-swap-oob="true">')
    assert 'id="sq-3" class="sq street ' in board and "owned" not in re.search(r'id="sq-3"[^>]*', board).group(0)
    steps = set(re.findall(r'href="/t/\w+/timeline\?v=(\d+)"', html))
    assert steps == {"0", "3", "5"}  # the first, one back, one on (and the newest, 5); no step past either end
    # The address follows (replaced, not pushed: a slider's drag would flood Back), to the version shown.
    assert response.headers["HX-Replace-Url"] == f"/t/{game.code}/timeline?v=4"
    assert "HX-Push-Url" not in response.headers
    newest = host(game).client.get(TIMELINE.format(code=game.code) + "?v=", headers=HTMX)
    assert newest.headers["HX-Replace-Url"] == f"/t/{game.code}/timeline?v=5"
    # A whole page (a reload of that address) has no such header: it is already there.
    assert "HX-Replace-Url" not in host(game).client.get(TIMELINE.format(code=game.code) + "?v=4").headers


def test_a_point_is_told_as_a_table_says_it(game, host):
    """A step, whose turn it was and the time, in words a family knows: no "version"."""
    play(game, *BALTIC)
    game.ok(1, type="end_turn")  # 6: Bob's turn
    banker = host(game)
    url = TIMELINE.format(code=game.code)
    html = banker.page(f"{url}?v=5")
    assert "Step 5 of 6" in html and 'for="timeline-v">Step</label>' in html
    when = re.search(r'<p class="past-when">(.*?)</p>', html).group(1)
    assert re.fullmatch(r"Ann's turn · \d{1,2}:\d{2}\s?[AP]M", when), when
    assert "Bob's turn · " in banker.page(f"{url}?v=6")  # after Ann ended her turn
    assert 'aria-label="1 step back"' in html and 'aria-label="1 step on"' in html
    assert 'aria-label="10 steps back"' not in html  # no step past the start
    # Before the game started: no one's turn, no entry's time; the lobby is said as it was.
    lobby = banker.page(f"{url}?v=0")
    assert "Step 0 of 6" in lobby and "past-when" not in lobby and "The game as it was created" in lobby
    # Nor any balances, board or deeds, not even their empty cards (a play-test saw a blank one).
    assert 'id="balances"' not in lobby and "past-deeds" not in lobby and 'id="sq-' not in lobby
    # At the end: the game is over, no one's turn.
    game.ok("banker", type="end_game")
    ended = banker.page(url)
    assert re.search(r'<p class="past-when">The game is over\. · ', ended) and "s turn" not in re.search(
        r'<p class="past-when">(.*?)</p>', ended).group(1)
    for page in (html, lobby, ended):
        assert "Version" not in page and "version" not in re.sub(r"<[^>]*>", "", page).lower()


def test_an_undone_entry_is_left_out_of_the_game_that_counts(game, host):
    play(game, *BALTIC)
    game.ok("banker", type="undo")
    html = host(game).page(TIMELINE.format(code=game.code) + "?v=5")
    assert cash(html) == {"1": "1500", "2": "1500"}
    assert "<s>" in html and "undone later" in html


def test_the_timeline_is_the_bankers_only_and_refuses_a_version_the_game_never_had(game, host, phone, stranger):
    play(game, *BALTIC)
    url = TIMELINE.format(code=game.code)
    for browser in (phone(game, 1), stranger(game)):
        response = browser.client.get(url)
        assert response.status_code == 403 and "Only the banker" in response.get_data(as_text=True)
        assert "timeline" not in browser.page()  # nor does their screen link to it
    banker = host(game)
    assert url in banker.page()
    for bad in ("6", "-1", "abc", "1e3", "٣"):
        response = banker.client.get(f"{url}?v={bad}")
        assert response.status_code == 400, bad
        assert "steps are 0 to 5" in response.get_data(as_text=True)
    assert game.state()["version"] == 5
    assert "The game as it was created" in banker.page(f"{url}?v=0")
