"""Rows rendered once (banker/web/serving/fragments.py): a square of the board is rendered again only when
what it shows changed, and in each reader's own language."""

import re

from .games import new_game


def squares(app) -> dict:
    """The squares the process has rendered, by (template, language, key)."""
    return dict(app.extensions["banker.fragments"]._items)


def test_a_roll_renders_only_the_squares_it_changed(app, client, host):
    game = new_game(client)
    screen = host(game)
    board = re.search(r'<div class="board".*?<div class="board-center">', screen.page(), re.S).group(0)
    assert board.count('class="sq ') == 40 and len(squares(app)) == 40
    before = squares(app)
    game.ok(1, type="roll", dice=[2, 3])  # Ann from GO to Reading Railroad
    page = screen.page()
    added = [key for key in squares(app) if key not in before]
    # GO (Bob's pawn alone now) and Reading Railroad (Ann's pawn): the 38 others are taken as they were.
    assert sorted(key[2][1][0] for key in added) == [0, 5]
    assert re.search(r'id="sq-5"[^>]*>.*?<span class="pawn token-hat" title="Ann">', page, re.S)


def test_each_language_has_its_own_squares(app, client, host):
    game = new_game(client, edition="fr")
    screen = host(game)
    english = screen.page()
    french = screen.client.get(screen.home, headers={"Accept-Language": "fr"}).get_data(as_text=True)
    # The printed street names are the board's; the squares' words are the reader's.
    for page, go, chest in ((english, "GO", "Community Chest"), (french, "Départ", "Caisse de communauté")):
        assert re.search(rf'id="sq-0"[^>]*title="{go}"', page) and re.search(rf'id="sq-2"[^>]*title="{chest}"', page)
        assert re.search(r'id="sq-39"[^>]*title="Rue de la Paix"', page)
    assert len({key[1] for key in squares(app)}) == 2 and len(squares(app)) == 80
