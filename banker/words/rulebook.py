"""The game's rules in words: the preset in force, and each setting that differs from it."""

from flask_babel import gettext as _

from ..rules.board import PRINTING_LABELS, Board
from ..rules.state import Settings
from .amounts import money, ten_percent
from .names import labelled

PRESET_NAMES = {
    "official": lambda: _("Official rules."),
    "classic": lambda: _("Classic rules (before 2008)."),
    "jma": lambda: _("Tournament rules (Japan Monopoly Association)."),
}

# Each setting's value in words, on either side of what its preset says.
WORDS = {
    "start_cash": lambda v, money: _("start cash %(amount)s", amount=money(v)),
    "go_salary": lambda v, money: _("GO salary %(amount)s", amount=money(v)),
    "auctions": lambda v, money: _("auctions") if v else _("no auctions"),
    "free_parking_jackpot": lambda v, money: _("Free Parking jackpot") if v else _("no Free Parking jackpot"),
    "go_exact_bonus": lambda v, money: _("double salary on GO") if v else _("single salary on GO"),
    "income_tax": lambda v, money: _("Income Tax 200 or 10%") if v == "choice" else _("Income Tax 200"),
    "luxury_tax": lambda v, money: _("Luxury Tax %(amount)s", amount=money(v)),
    "mortgage_transfer_fee": lambda v, money: (
        _("%(rate)s fee on mortgaged deeds changing hands", rate=ten_percent()) if v
        else _("no %(rate)s fee on mortgaged deeds changing hands", rate=ten_percent())),
    "double_rent_with_mortgaged_lot": lambda v, money: (_("double rent even when a lot of the group is mortgaged") if v
                                                        else _("no double rent when a lot of the group is mortgaged")),
    "community_chest": lambda v, money: _("2008 Community Chest") if v == "2008" else _("2021 Community Chest"),
    "cards": lambda v, money: _("cards: %(printing)s", printing=labelled(PRINTING_LABELS[v])),
    "shortage_auction_floor": lambda v, money: (_("shortage auctions from building cost") if v == "cost"
                                                else _("shortage auctions from any price")),
    "time_limit_minutes": lambda v, money: _("%(n)s-minute game", n=v) if v else _("no time limit"),
    "auction_countdown_seconds": lambda v, money: (_("auctions close %(n)s s after the last bid", n=v) if v
                                                   else _("the banker closes auctions")),
    "deals_between_turns": lambda v, money: _("deals only between turns") if v else _("deals at any time"),
    "jail_card_on_third_miss": lambda v, money: (_("a jail card instead of the fine after the third miss") if v
                                                 else _("the fine at once after the third miss")),
    "hotel_breakdown_only_in_debt": lambda v, money: (_("hotels back to houses only to raise cash") if v
                                                      else _("hotels back to houses at any time")),
    "jail_fee_bankruptcy_claim": lambda v, money: (_("the jail fine before the move, its bankruptcy claimable") if v
                                                   else _("the jail fine with the move")),
    "income_tax_worth": lambda v, money: (
        _("%(rate)s of worth with mortgaged deeds at half", rate=ten_percent()) if v == "half_mortgaged"
        else _("%(rate)s of worth with deeds at their price", rate=ten_percent())),
}


def rules_in_words(settings: Settings, board: Board) -> tuple[str, list[str]]:
    """The preset's name and the settings that differ from it (on this edition), in words."""
    preset, currency = Settings.parse({"preset": settings.preset}, board.settings), board.currency
    changes = [words(getattr(settings, key), lambda amount: money(amount, currency))
               for key, words in WORDS.items() if getattr(settings, key) != getattr(preset, key)]
    return PRESET_NAMES[settings.preset](), changes
