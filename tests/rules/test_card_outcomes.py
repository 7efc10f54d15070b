"""What a card will do, asked before it is drawn (outcomes.card_outcome): the answer the card picker
words. It follows the game's settings (a GO salary of 400, double on landing on GO), resolves the
nearest railroad or utility and a move back, counts the drawer's buildings for repairs, and never
changes the state; for any state and card, the money it tells is the money the draw moves."""

from hypothesis import given, settings
from hypothesis import strategies as st

from banker.rules import Settings
from banker.rules.board import PRINTINGS, load_board
from banker.rules.cards import printing, printing_decks
from banker.rules.outcomes import card_outcome

from . import ANN, BOB, CY, act, cash, edition_settings, funded, owning, play, set_buildings, started
from .test_cards import drawing

GO, JAIL = 0, 10
READING, PENNSYLVANIA = 5, 15


def test_advance_to_go_tells_the_salary_of_the_games_setting_not_the_boards():
    told = card_outcome(drawing(7, settings=Settings(go_salary=400)), ANN, "chance", "ch_advance_go")
    assert (told.square, told.salary, told.amount) == (GO, 400, 0)


def test_advance_to_go_tells_the_double_salary_of_the_go_exact_bonus_rule():
    state = drawing(7, settings=Settings(go_exact_bonus=True))
    assert card_outcome(state, ANN, "chance", "ch_advance_go").salary == 400
    # Passing GO on the way to Reading Railroad is no exact landing: the plain salary.
    told = card_outcome(state, ANN, "chance", "ch_trip_reading")
    assert (told.square, told.salary) == (READING, 200)


def test_a_move_that_does_not_pass_go_tells_no_salary():
    told = card_outcome(drawing(7, settings=Settings(go_salary=400)), ANN, "chance", "ch_advance_illinois")
    assert (told.square, told.salary) == (24, 0)


def test_a_card_that_moves_back_goes_back_and_never_passes_go():
    told = card_outcome(drawing(7, settings=Settings(go_salary=400)), ANN, "chance", "ch_go_back_3")
    assert (told.square, told.salary) == (4, 0)


def test_the_nearest_railroad_is_resolved_from_where_the_drawer_stands_with_its_doubled_rent():
    from_chance_7 = card_outcome(drawing(7), ANN, "chance", "ch_nearest_railroad_1")
    assert (from_chance_7.square, from_chance_7.salary, from_chance_7.rent) == (PENNSYLVANIA, 0, "double")
    from_chance_36 = card_outcome(drawing(36, settings=Settings(go_salary=400)), ANN, "chance", "ch_nearest_railroad_1")
    assert (from_chance_36.square, from_chance_36.salary) == (READING, 400)  # round the board, past GO
    utility = card_outcome(drawing(22), ANN, "chance", "ch_nearest_utility")
    assert (utility.square, utility.rent) == (28, "ten_times")


def test_repairs_count_the_drawers_own_buildings():
    state = funded(owning(started(3), ANN, 1, 3, 37, 39), ANN)
    state = set_buildings(set_buildings(state, ANN, {1: 2, 3: 1}), ANN, {37: 5, 39: 4})
    state = owning(state, BOB, 6, 8, 9)  # Bob's deeds count nothing for Ann
    told = card_outcome(drawing(7, state=state), ANN, "chance", "ch_general_repairs")
    assert (told.houses, told.hotels, told.amount) == (7, 1, -(7 * 25 + 100))
    assert card_outcome(drawing(7), ANN, "chance", "ch_general_repairs").amount == 0


def test_a_card_paying_each_player_tells_each_share_and_the_whole_even_when_it_becomes_a_debt():
    state = drawing(7, players=3)
    told = card_outcome(state, ANN, "chance", "ch_chairman")
    assert (told.each, told.players, told.amount) == (-50, 2, -100)
    poor = play(state, ANN, "pay", to="bank", amount=cash(state, ANN) - 20)
    assert card_outcome(poor, ANN, "chance", "ch_chairman").amount == -100  # owed: a debt, not paid now


def test_collecting_from_each_player_counts_the_players_still_in_the_game():
    state = drawing(17, players=3, settings=Settings(community_chest="2021"))
    told = card_outcome(state, ANN, "chest", "cc21_block_party")
    assert (told.each, told.players, told.amount) == (10, 2, 20)


def test_jail_the_kept_card_and_the_fine_or_draw_are_told_too():
    assert card_outcome(drawing(7), ANN, "chance", "ch_go_to_jail").square == JAIL
    assert card_outcome(drawing(7), ANN, "chance", "ch_get_out_of_jail_free").kept
    told = card_outcome(started(2, edition="uk"), ANN, "chest", "cc_fine_or_chance")
    assert (told.fine, told.amount, told.square) == (10, 0, None)


def test_asking_changes_nothing():
    state = drawing(36, players=3, settings=Settings(go_salary=400))
    before = state.to_dict()
    for card in ("ch_advance_go", "ch_chairman", "ch_get_out_of_jail_free", "ch_go_to_jail"):
        card_outcome(state, ANN, "chance", card)
    assert state.to_dict() == before


@st.composite
def draws(draw):
    """A game on any board and printing, house rules on or off, the drawer owning some deeds with
    buildings, on a Chance or Community Chest square, and a card of that square's deck."""
    edition = draw(st.sampled_from(("us", "uk", "fr", "pt", "ja")))
    chosen = {"go_salary": draw(st.sampled_from((200, 400))), "go_exact_bonus": draw(st.booleans()),
              "free_parking_jackpot": draw(st.booleans()), "cards": draw(st.sampled_from(("us", *sorted(PRINTINGS))))}
    if chosen["cards"] == "us":
        chosen["community_chest"] = draw(st.sampled_from(("2021", "2008")))
    players = draw(st.integers(2, 3))
    state = started(players, edition_settings(edition, **chosen), edition)
    for seat in range(1, players + 1):
        state = funded(state, seat, 10_000)
    board = load_board(edition)
    streets = [s.index for s in board.squares if s.type == "street"]
    mine = draw(st.lists(st.sampled_from(streets), unique=True, max_size=10))
    state = owning(state, ANN, *mine)
    for square in mine:  # buildings as they stand, not built one by one: repairs only count them
        level = draw(st.integers(0, 5))
        state.deeds[square].houses, state.deeds[square].hotel = (0, True) if level == 5 else (level, False)
    square = draw(st.sampled_from([s.index for s in board.squares if s.type in ("chance", "community_chest")]))
    deck = "chance" if board[square].type == "chance" else "chest"
    state.players[0].position = square
    state.pending = {"kind": "draw", "player": ANN, "deck": deck, "square": square}
    card = draw(st.sampled_from(printing_decks(printing(state.settings))[deck]))
    return state, deck, card["id"]


@settings(max_examples=100, deadline=None)
@given(draws())
def test_the_money_told_is_the_money_the_draw_moves(drawn):
    """Every player is rich and the drawer's deeds are the only ones owned, so what the square reached
    asks is a tax at most (or pays the jackpot): the drawer's cash moves by the salary and the card's
    amount, and by that; the other players' by what the card takes from or pays each of them."""
    state, deck, card = drawn
    told = card_outcome(state, ANN, deck, card)
    after, effects = act(state, ANN, "draw", deck=deck, card=card)
    landing = sum(e["amount"] * (1 if e["to"] == ANN else -1) for e in effects
                  if e["kind"] == "transfer" and e["reason"] in ("tax", "jackpot"))
    assert cash(after, ANN) - cash(state, ANN) == told.salary + told.amount + landing
    moved = [e["square"] for e in effects if e["kind"] == "moved"]
    assert told.square == (after.board.jail if after.player(ANN).in_jail else moved[-1] if moved else None)
    others = sum(cash(after, p) - cash(state, p) for p in (BOB, CY) if after.has_player(p))
    assert others == -told.each * told.players
