"""The state of one game: plain dataclasses that round-trip through JSON (to_dict / from_dict)."""

from dataclasses import dataclass, field, is_dataclass

from .board import PRINTINGS, Board, load_board
from .errors import ActionError, N_

BANK = "bank"
POT = "free_parking"
TOKENS = ("hat", "car", "dog", "iron", "ship", "wheelbarrow", "thimble", "cat")
MAX_PLAYERS = len(TOKENS)


@dataclass(kw_only=True)
class Settings:
    """The game's rules as chosen at creation (docs/rules.md, Settings); defaults are the official game.
    A preset (PRESETS) sets several at once; the settings given beside it override it."""

    preset: str = "official"
    start_cash: int = 1500
    go_salary: int = 200
    go_exact_bonus: bool = False
    free_parking_jackpot: bool = False
    luxury_tax: int = 100
    double_rent_with_mortgaged_lot: bool = True
    auctions: bool = True
    mortgage_transfer_fee: bool = True
    shortage_auction_floor: str = "none"
    income_tax: str = "flat"
    community_chest: str = "2021"
    # The printing of the Chance and Community Chest cards (board.PRINTINGS); each board's edition
    # file names its own, and "us" is the US one, its Community Chest chosen by `community_chest`.
    cards: str = "us"
    time_limit_minutes: int = 0
    # An auction closes this many seconds after its last bid, shown on every screen; 0: the banker
    # closes it by hand. The screens keep the time (the server's record of the bid): not a rule.
    auction_countdown_seconds: int = 15
    # The Japan Monopoly Association's tournament rules (on in the "jma" preset):
    deals_between_turns: bool = False           # trades, building, mortgaging only between turns
    jail_card_on_third_miss: bool = False       # a jail card instead of the fine after the third miss
    hotel_breakdown_only_in_debt: bool = False  # a hotel back to four houses only to raise cash
    jail_fee_bankruptcy_claim: bool = False     # the fine before the move; its bankruptcy may be claimed
    income_tax_worth: str = "printed"           # the 10% choice's worth: "half_mortgaged" (JMA)

    @classmethod
    def parse(cls, data: dict | None, edition: dict | None = None) -> "Settings":
        """Validate user-supplied settings; unknown keys and out-of-range values are ActionErrors.
        `edition` holds the edition's own defaults (Board.settings), which the preset overrides."""
        if data is not None and not isinstance(data, dict):
            raise ActionError("bad_settings", N_("rules must be an object of settings."))
        data = dict(data or {})
        preset = data.get("preset", "official")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise ActionError("bad_setting", N_("{key} must be one of: {choices}."),
                              key="preset", choices=", ".join(PRESETS))
        data = {**(edition or {}), **PRESETS[preset], **data}
        defaults = vars(cls())
        for key, value in data.items():
            # vars, not hasattr: "parse" and "__dict__" are attributes too, but no settings.
            if key not in defaults:
                raise ActionError("unknown_setting", N_("Unknown setting: {key}."), key=str(key)[:30])
            if key in CHOICES:
                # The type too: 75.0 == 75 and True == 1, but a tax is a whole number of dollars.
                if value not in CHOICES[key] or type(value) is not type(defaults[key]):
                    raise ActionError("bad_setting", N_("{key} must be one of: {choices}."),
                                      key=key, choices=", ".join(map(str, CHOICES[key])))
            elif isinstance(defaults[key], bool):
                if not isinstance(value, bool):
                    raise ActionError("bad_setting", N_("{key} must be true or false."), key=key)
            else:
                data[key] = _whole(value, key, 0, RANGES.get(key, 100_000))
        return cls(**data)


# The most a whole-number setting may be, where it is not 100,000.
RANGES = {"auction_countdown_seconds": 120}
CHOICES = {"luxury_tax": (100, 75), "shortage_auction_floor": ("none", "cost"),
           "income_tax": ("flat", "choice"), "community_chest": ("2021", "2008"),
           "income_tax_worth": ("printed", "half_mortgaged"), "cards": ("us", *PRINTINGS)}
# What each preset changes from the defaults (the official rules).
PRESETS = {
    "official": {},
    # Before 2008: Income Tax of 200 or 10% of worth, chosen first; Luxury Tax 75; the 2008 deck.
    "classic": {"income_tax": "choice", "luxury_tax": 75, "community_chest": "2008"},
    # The Japan Monopoly Association's competition rules (docs/rules.md, Presets):
    # flat Income Tax, houses auctioned in a shortage never below their cost, and the rules
    # above. Where they agree with the defaults, the defaults stay.
    "jma": {"income_tax": "flat", "shortage_auction_floor": "cost", "deals_between_turns": True,
            "jail_card_on_third_miss": True, "hotel_breakdown_only_in_debt": True,
            "jail_fee_bankruptcy_claim": True, "income_tax_worth": "half_mortgaged"},
}
CHOICES["preset"] = tuple(PRESETS)


def _whole(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ActionError(
            "bad_setting", N_("{key} must be a whole number from {low} to {high}."),
            key=name, low=low, high=high,
        )
    return value


@dataclass(kw_only=True)
class Player:
    """A seat at the table: money, token position, jail and the cards in hand."""

    id: int
    name: str
    token: str
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_rolls: int = 0
    jail_cards: list[str] = field(default_factory=list)
    bankrupt: bool = False
    opening_rolls: list[int] = field(default_factory=list)
    # Once bankrupt: the place they finish in (one after the players still in at that moment: it
    # never changes afterwards), and whom they went bankrupt to (a player's id, or BANK). None in a
    # snapshot from before they were kept.
    place: int | None = None
    bankrupt_to: int | str | None = None
    # Turns had, the one in play included (doubles rolled again belong to their turn; a turn in
    # jail is a turn). 0 in a snapshot from before they were counted.
    turns: int = 0


@dataclass(kw_only=True)
class Deed:
    """A title deed: who holds it (None = the bank), its buildings, and whether it is mortgaged."""

    square: int
    owner: int | None = None
    houses: int = 0
    hotel: bool = False
    mortgaged: bool = False


@dataclass(kw_only=True)
class Debt:
    """A payment that could not be made in full: owed until the debtor has the cash."""

    id: int
    debtor: int
    creditor: int | str
    amount: int
    reason: str
    square: int | None = None
    memo: str = ""
    # A "pay each player" card the drawer could not pay at once: the creditor is the bank (a
    # bankruptcy over it is to the bank, and nobody is paid), but once paid the money goes to
    # these players in equal shares.
    payees: list[int] = field(default_factory=list)
    # What the sum was made of, as the charge said it (rent_detail's buildings, deeds held or dice;
    # a card's repairs; the worth a tax was a tenth of): how a player who counts it is shown it
    # worked out (counting.worked_out).
    why: dict = field(default_factory=dict)


@dataclass(kw_only=True)
class Auction:
    """An open auction: of a declined deed (`square`) or of one building in a shortage (`building`)."""

    id: int
    bidders: list[int]
    square: int | None = None
    building: str | None = None
    high_bid: int = 0
    high_bidder: int | None = None
    passed: list[int] = field(default_factory=list)
    floors: dict[str, int] = field(default_factory=dict)


@dataclass(kw_only=True)
class Trade:
    """An open offer from one player to another: what each side gives, and which mortgaged deeds
    the offerer will lift on receiving them (the receiver chooses at acceptance)."""

    id: int
    offerer: int
    to: int
    give: dict
    get: dict
    lift: list[int] = field(default_factory=list)


@dataclass(kw_only=True)
class GameState:
    """Everything the rules know about one game; never edited except by rules.apply."""

    edition: str = "us"
    settings: Settings = field(default_factory=Settings)
    status: str = "lobby"
    seats_fixed: bool = False  # lobby.fix_seats: nobody else joins, nor rolls for the order
    players: list[Player] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    turn: int | None = None
    rolled: bool = False
    doubles: int = 0
    last_roll: list[int] | None = None
    pending: dict | None = None
    deeds: dict[int, Deed] = field(default_factory=dict)
    bank_houses: int = 32
    bank_hotels: int = 12
    free_parking: int = 0
    debts: list[Debt] = field(default_factory=list)
    auction: Auction | None = None
    auction_queue: list[int] = field(default_factory=list)
    trades: list[Trade] = field(default_factory=list)
    standings: list[dict] | None = None
    serial: int = 0
    last_turn: bool = False  # called: the game ends once every seat still in has had as many turns
    # A tournament's round clock (ending.set_round_clock): when it runs out (Unix seconds), or the
    # seconds it has left while paused.
    round_ends_at: int | None = None
    round_paused_left: int | None = None
    timed_by_round: bool = False  # told a round clock: its clock is the round's, never its own time limit
    # The seat whose own action is being applied and who counts what it costs them themselves
    # ("I count it myself"): set by game.apply for that action alone, never in a snapshot.
    counting: int | None = None

    @property
    def board(self) -> Board:
        return load_board(self.edition)

    def player(self, player_id: int) -> Player:
        """The player with this id; an ActionError if there is none."""
        for p in self.players:
            if p.id == player_id:
                return p
        raise ActionError("no_such_player", N_("There is no player {id} in this game."), id=player_id)

    def has_player(self, player_id) -> bool:
        return any(p.id == player_id for p in self.players)

    def next_id(self) -> int:
        """A fresh id for a debt, trade or auction: ids are never reused within a game."""
        self.serial += 1
        return self.serial

    def debts_of(self, player_id: int) -> list[Debt]:
        return [d for d in self.debts if d.debtor == player_id]

    def to_dict(self) -> dict:
        """The snapshot: JSON-ready, and from_dict(to_dict()) gives an equal state."""
        data = _plain(self)
        data["deeds"] = list(data["deeds"].values())
        del data["counting"]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "GameState":
        data = dict(data)
        data["settings"] = Settings(**data["settings"])
        data["players"] = [Player(**p) for p in data["players"]]
        data["deeds"] = {d["square"]: Deed(**d) for d in data["deeds"]}
        data["debts"] = [Debt(**d) for d in data["debts"]]
        data["auction"] = Auction(**data["auction"]) if data.get("auction") else None
        data["trades"] = [Trade(**t) for t in data.get("trades", [])]
        return cls(**data)

    def copy(self) -> "GameState":
        """A deep copy, for apply to change while the original stays as it was (faster than deepcopy)."""
        return GameState.from_dict(self.to_dict())


# Values _plain returns as they are: checked inline, because a call per leaf was most of its cost.
_LEAVES = frozenset({int, str, bool, float, type(None)})


def _plain(value):
    """Dataclasses to dicts and tuples to lists, all the way down; a fresh copy of every container.

    (dataclasses.asdict does the same but deep-copies every leaf, which made it most of the cost
    of an action.)
    """
    if isinstance(value, dict):
        return {key: item if type(item) in _LEAVES else _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [item if type(item) in _LEAVES else _plain(item) for item in value]
    if is_dataclass(value):
        return _plain(vars(value))
    return value


def new_game(edition: str = "us", settings: Settings | None = None) -> GameState:
    """A game in its lobby: every deed with the bank, the bank's full stock of buildings."""
    board = load_board(edition)
    return GameState(
        edition=edition,
        settings=settings or Settings(),
        deeds={s.index: Deed(square=s.index) for s in board.deeds},
        bank_houses=board.constants["houses_total"],
        bank_hotels=board.constants["hotels_total"],
    )
