"""actions.parse: malformed input is an ActionError that says what is wrong."""

import pytest

from banker.rules import ACTIONS, ActionError, parse


@pytest.mark.parametrize("data, message", [
    ("roll", "An action must be a JSON object."),
    ({}, "Unknown action type: None."),
    ({"type": "teleport"}, "Unknown action type: teleport."),
    ({"type": ["roll"]}, "Unknown action type: ['roll']."),
    ({"type": "roll", "dice": [1, 2], "speed": 3}, "roll has no field speed."),
    ({"type": "roll"}, "Tap the number on each die."),
    ({"type": "roll", "dice": [0, 3]}, "dice must be from 1 to 6."),
    ({"type": "roll", "dice": [3, 7]}, "dice must be from 1 to 6."),
    ({"type": "roll", "dice": [3]}, "dice must be two numbers from 1 to 6."),
    ({"type": "roll", "dice": [1, 2, 3]}, "dice must be two numbers from 1 to 6."),
    ({"type": "roll", "dice": "34"}, "dice must be two numbers from 1 to 6."),
    ({"type": "roll", "dice": [1.5, 2]}, "dice must be a whole number."),
    ({"type": "bank_pay", "amount": -5}, "amount must be from 1 to 1000000."),
    ({"type": "bank_pay", "amount": 0}, "amount must be from 1 to 1000000."),
    ({"type": "bank_pay", "amount": 10**12}, "amount must be from 1 to 1000000."),
    ({"type": "bank_pay", "amount": 12.5}, "amount must be a whole number."),
    ({"type": "bank_pay", "amount": 12.0}, "amount must be a whole number."),
    ({"type": "bank_pay", "amount": True}, "amount must be a whole number."),
    ({"type": "bank_pay", "amount": "12abc"}, "amount must be a whole number."),
    ({"type": "bank_pay", "amount": "1e3"}, "amount must be a whole number."),
    ({"type": "bank_pay", "amount": "--5"}, "amount must be a whole number."),
    ({"type": "bank_pay", "amount": "²"}, "amount must be a whole number."),
    ({"type": "bank_pay", "amount": "9" * 5000}, "amount must be a whole number."),
    ({"type": "bank_pay", "amount": [5]}, "amount must be a whole number."),
    ({"type": "pay", "to": "everyone", "amount": 5}, "to must be a whole number."),
    ({"type": "pay", "to": 0, "amount": 5}, "to must be from 1 to 10000."),
    ({"type": "pay", "to": "bank", "amount": 5, "memo": "x" * 81},
     "memo must be at most 80 printable characters."),
    ({"type": "pay", "to": "bank", "amount": 5, "memo": "a\x00b"},
     "memo must be at most 80 printable characters."),
    ({"type": "pay", "to": "bank", "amount": 5, "memo": 7}, "memo must be text."),
    ({"type": "join", "name": "N" * 21, "token": "hat"},
     "name must be at most 20 printable characters."),
    ({"type": "join", "name": "   ", "token": "hat"}, "Type a name."),
    ({"type": "join", "name": "Ann", "token": "dragon"}, "Pick one of the eight tokens."),
    ({"type": "join", "name": "Ann", "token": ["hat"]}, "Pick one of the eight tokens."),
    ({"type": "roll", "dice": [1, 2], "player": True}, "player must be a whole number."),
    ({"type": "move", "square": 40}, "square must be from 0 to 39."),
    ({"type": "start", "order": "1,2"}, "order must be a list of player ids."),
])
def test_malformed_input_is_an_action_error_naming_the_problem(data, message):
    with pytest.raises(ActionError) as caught:
        parse(data)
    assert str(caught.value) == message
    assert type(caught.value) is ActionError


@pytest.mark.parametrize("raw, value", [
    (12, 12), ("12", 12), (" 12 ", 12), ("１２", 12), (1_000_000, 1_000_000),
])
def test_amounts_may_arrive_as_form_text(raw, value):
    assert parse({"type": "bank_pay", "amount": raw}).amount == value


def test_names_and_memos_are_stripped_and_collapse_their_spaces():
    assert parse({"type": "join", "name": "  Ann   Lee ", "token": "hat"}).name == "Ann Lee"


def test_form_control_fields_are_ignored():
    action = parse({"type": "end_turn", "nonce": "abc", "csrf_token": "xyz"})
    assert action.to_dict() == {"type": "end_turn"}


def test_empty_optional_fields_take_their_defaults():
    assert parse({"type": "pay", "to": "bank", "amount": "5", "memo": ""}).memo == ""


@pytest.mark.parametrize("data", [
    {"type": "roll", "dice": [6, 6], "player": 2},
    {"type": "pay", "to": "free_parking", "amount": 30, "memo": "seed"},
    {"type": "start", "order": [2, 1]},
    {"type": "pay_debt", "debt": 4},
])
def test_a_parsed_action_round_trips_through_its_dict(data):
    assert parse(data).to_dict() == data
    assert parse(parse(data).to_dict()) == parse(data)


def test_every_action_type_is_registered_under_its_own_name():
    assert all(cls.type == name for name, cls in ACTIONS.items())
