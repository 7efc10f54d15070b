"""The national boards: the US board's numbers under each edition's names and money, with its own cards."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from banker.rules import Actor, Settings, apply, new_game, parse, replay
from banker.rules.board import EDITION_NAMES, load_board
from banker.rules.cards import deck, printing

US = load_board("us")
REFERENCE = {"uk": "uk", "fr": "fr", "pt": "pt_PT_1961_board", "ja": "ja"}


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_every_edition_is_the_us_board_under_its_own_names(edition):
    board = load_board(edition)
    assert board.edition == edition and len(board) == 40
    for square, us in zip(board.squares, US.squares, strict=True):
        assert replace(square, name=us.name, short=us.short, term=us.term) == us
        assert square.name.strip() and square.short.strip() and len(square.short) <= len(square.name)


@pytest.mark.parametrize("edition", ["uk", "fr", "pt", "ja"])
def test_the_names_are_the_reference_files(edition):
    """Every name is the one of reference/board_names.json, except the two the file leaves open."""
    reference = json.loads((Path(__file__).with_name("reference") / "board_names.json").read_text(encoding="utf-8"))
    names = [s[REFERENCE[edition]] for s in reference["squares"]]
    board = load_board(edition)
    differ = {s.index: s.name for s, name in zip(board.squares, names) if s.name != name}
    assert differ == ({27: "Av. Fontes Pereira de Melo (Lisboa)", 29: "Avenida dos Aliados (Porto)"}
                      if edition == "pt" else {})


def test_each_edition_has_its_currency_language_and_defaults():
    assert {e: (load_board(e).currency, load_board(e).language) for e in EDITION_NAMES} == {
        "us": ("$", "en"), "uk": ("£", "en"), "fr": ("€", "fr"), "pt": ("€", "pt"), "ja": ("$", "ja")}
    assert load_board("uk")[38].name == "Super Tax" and load_board("uk")[38].term == "super_tax"
    uk = Settings.parse({}, load_board("uk").settings)
    assert uk.double_rent_with_mortgaged_lot is False
    # The preset overrides an edition's default only where it says so; the game's choice overrides both.
    assert Settings.parse({"preset": "jma"}, load_board("uk").settings).double_rent_with_mortgaged_lot is False
    chosen = Settings.parse({"double_rent_with_mortgaged_lot": True}, load_board("uk").settings)
    assert chosen.double_rent_with_mortgaged_lot is True


def test_a_name_from_outside_the_registry_is_no_board():
    for name in ("us_cards", "../us", "UK", ""):
        with pytest.raises(KeyError):
            load_board(name)


# Each board's own Chance card that sends the token to square 39 (Boardwalk, Mayfair, Rue de la Paix, Rossio).
TO_39 = {"us": "ch_advance_boardwalk", "uk": "ch_advance_mayfair", "fr": "ch_rue_de_la_paix",
         "pt": "ch_avance_rossio", "ja": "ch_advance_boardwalk"}
OWN_CARDS = {"us": "us_2021", "uk": "uk_classic", "fr": "fr", "pt": "pt", "ja": "ja_2008"}


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_each_edition_plays_and_replays_on_its_own_cards(edition):
    state = new_game(edition, Settings.parse({}, load_board(edition).settings))
    assert printing(state.settings) == OWN_CARDS[edition]
    assert TO_39[edition] in [c["id"] for c in deck(state, "chance")]
    ann, banker = Actor(player=1), Actor(banker=True)
    log = [(Actor(), {"type": "join", "name": "Ann", "token": "hat"}), (Actor(), {"type": "join", "name": "Bob", "token": "car"}),
           (banker, {"type": "start", "order": [1, 2]}), (ann, {"type": "roll", "dice": [3, 4]}),
           (ann, {"type": "draw", "deck": "chance", "card": TO_39[edition]}), (ann, {"type": "buy"})]
    for actor, action in log:
        state, _ = apply(state, parse(action), actor)
    assert state.deeds[39].owner == 1 and state.player(1).cash == 1100
    assert replay(edition, state.settings, log) == state
