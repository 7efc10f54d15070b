"""The words printed on each Chance and Community Chest card. The US cards are told in the reader's
language with the edition's square names and money: "Advance to Mayfair.", "Avancez jusqu'à la Rue
de la Paix." Every other printing (rules/editions/<edition>_cards.json) is shown in its own printed
words, as the card in the player's hand says them, untranslated.
The cards' effects are the rules'; these are only their words."""

from flask_babel import gettext as _

from ..rules.cards import printing
from ..rules.errors import N_
from ..rules.state import GameState
from .amounts import money
from .names import square_name

PASS_GO = N_("Advance to %(square)s. If you pass %(go)s, collect %(salary)s.")
NEAREST_RAILROAD = N_("Advance to the nearest railroad. If unowned, you may buy it from the Bank. If owned, "
                      "pay the owner twice the rent to which they are otherwise entitled.")
JAIL_CARD = N_("Get Out of Jail Free. This card may be kept until needed, traded, or sold.")
TEXTS = {
    "ch_advance_boardwalk": N_("Advance to %(square)s."),
    "ch_advance_go": N_("Advance to %(go)s (collect %(salary)s)."),
    "ch_advance_illinois": PASS_GO,
    "ch_advance_st_charles": PASS_GO,
    "ch_nearest_railroad_1": NEAREST_RAILROAD,
    "ch_nearest_railroad_2": NEAREST_RAILROAD,
    "ch_nearest_utility": N_("Advance to the nearest utility. If unowned, you may buy it from the Bank. If owned, "
                             "roll the dice and pay the owner ten times the amount thrown."),
    "ch_dividend": N_("Bank pays you dividend of %(amount)s."),
    "ch_get_out_of_jail_free": JAIL_CARD,
    "ch_go_back_3": N_("Go back 3 spaces."),
    "ch_go_to_jail": N_("Go to Jail. Go directly to Jail, do not pass %(go)s, do not collect %(salary)s."),
    "ch_general_repairs": N_("Make general repairs on all your property. For each house pay %(house)s. "
                             "For each hotel pay %(hotel)s."),
    "ch_speeding_fine": N_("Speeding fine %(amount)s."),
    "ch_trip_reading": N_("Take a trip to %(square)s. If you pass %(go)s, collect %(salary)s."),
    "ch_chairman": N_("You have been elected Chairman of the Board. Pay each player %(amount)s."),
    "ch_building_loan": N_("Your building loan matures. Collect %(amount)s."),
    "cc21_storm_cleanup": N_("You help your neighbors clean up their yards after a big storm. Collect %(amount)s."),
    "cc21_foot_race_go": N_("Just when you think you can't go another step, you finish that foot race — and raise "
                            "money for your local hospital! Advance to %(go)s. Collect %(salary)s."),
    "cc21_home_improvement": N_("You should have volunteered for that home improvement project — you would have "
                                "learned valuable skills! For each house you own, pay %(house)s. For each hotel "
                                "you own, pay %(hotel)s."),
    "cc21_blood_drive": N_("You volunteer at a blood drive. There are free cookies! Collect %(amount)s."),
    "cc21_walking_path": N_("You organize a group to clean up your town's walking path. Collect %(amount)s."),
    "cc21_childrens_hospital": N_("You spend the day playing games with kids at a local children's hospital. "
                                  "Collect %(amount)s."),
    "cc21_block_party": N_("You organize a block party so people on your street can get to know each other. "
                           "Collect %(amount)s from each player."),
    "cc21_bake_sale_organize": N_("You organize a bake sale for your local school. Collect %(amount)s."),
    "cc21_loud_music_jail": N_("Blasting music late at night? Your neighbors do not approve. Go to Jail. Go directly "
                               "to Jail. Do not pass %(go)s. Do not collect %(salary)s."),
    "cc21_car_wash_windows": N_("You go to the local school's car wash fundraiser — but you forget to close your "
                                "windows! Pay %(amount)s."),
    "cc21_groceries": N_("You help your neighbor bring in her groceries. She makes you lunch to say thanks! "
                         "Collect %(amount)s."),
    "cc21_cookies": N_("You buy a few bags of cookies from that school bake sale. Yum! Pay %(amount)s."),
    "cc21_elderly_neighbor": N_("You set aside time every week to hang out with your elderly neighbor — you've heard "
                                "some amazing stories! Collect %(amount)s."),
    "cc21_playground": N_("You help build a new school playground — then you get to test the slide! "
                          "Collect %(amount)s."),
    "cc21_animal_shelter": N_("Your fuzzy friends at the animal shelter will be thankful for your donation. "
                              "Pay %(amount)s."),
    "cc21_rescue_puppy": N_("You rescue a puppy — and you feel rescued, too! Get Out of Jail Free. This card may "
                            "be kept until needed, traded, or sold."),
    "cc08_advance_go": N_("Advance to %(go)s (collect %(salary)s)."),
    "cc08_bank_error": N_("Bank error in your favor. Collect %(amount)s."),
    "cc08_doctors_fee": N_("Doctor's fee. Pay %(amount)s."),
    "cc08_sale_of_stock": N_("From sale of stock you get %(amount)s."),
    "cc08_get_out_of_jail_free": N_("Get Out of Jail Free. This card may be kept until needed or sold."),
    "cc08_go_to_jail": N_("Go to Jail. Go directly to Jail, do not pass %(go)s, do not collect %(salary)s."),
    "cc08_holiday_fund": N_("Holiday fund matures. Receive %(amount)s."),
    "cc08_income_tax_refund": N_("Income tax refund. Collect %(amount)s."),
    "cc08_birthday": N_("It is your birthday. Collect %(amount)s from every player."),
    "cc08_life_insurance": N_("Life insurance matures. Collect %(amount)s."),
    "cc08_hospital": N_("Pay hospital fees of %(amount)s."),
    "cc08_school_fees": N_("Pay school fees of %(amount)s."),
    "cc08_consultancy": N_("Receive %(amount)s consultancy fee."),
    "cc08_street_repairs": N_("You are assessed for street repairs. %(house)s per house. %(hotel)s per hotel."),
    "cc08_beauty_contest": N_("You have won second prize in a beauty contest. Collect %(amount)s."),
    "cc08_inherit": N_("You inherit %(amount)s."),
}


def card_text(state: GameState, card: dict) -> str:
    """A card's printed words: a US card's for this reader, naming this edition's squares in its
    currency; any other printing's as printed."""
    if not printing(state.settings).startswith("us_"):
        return card["text"]
    effect, board = card["effect"], state.board
    values = {"go": square_name(board, 0), "salary": money(board.constants["go_salary"], board.currency)}
    if "square" in effect:
        values["square"] = square_name(board, effect["square"])
    for key, field in (("amount", "amount"), ("house", "per_house"), ("hotel", "per_hotel")):
        if field in effect:
            values[key] = money(effect[field], board.currency)
    return _(TEXTS[card["id"]], **values)
