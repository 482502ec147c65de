"""The game state: plain data that serialises to JSON and back with nothing lost.

Dice are two-character strings, colour letter then pips: "Y5" is a yellow five ("K" is grey).
Disc locations on the main board are short strings too:
    "uni:<city>"        a University (its discs are a stack, bottom first)
    "room:<r>"          Meeting room r (0 = leftmost)
    "lec:<i>:<level>"   Lecture space of Institution i at level 2..6
    "obj:<a>"           the Objective of action area a (0 study, 1 travel, 2 meetings, 3 institutions)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Final

from engine.choices import ChoiceValue
from engine.choices import parse as parse_choice
from engine.edition import FIRST_EDITION, NAME_PATTERN, Edition, default_edition_name, edition
from engine.versions import LATEST_RULES, RULES_VERSIONS

# The game's names are defined once, in engine.vocabulary (re-exported: render reads them here).
from engine.vocabulary import AREA_COLOUR as AREA_COLOUR
from engine.vocabulary import AREAS as AREAS
from engine.vocabulary import COLOUR_AREA as COLOUR_AREA
from engine.vocabulary import COLOUR_NAMES
from engine.vocabulary import MILL_LINES as MILL_LINES

DIE_NAMES: Final = {
    f"{c}{v}": f"{name} {v}" for c, name in COLOUR_NAMES.items() for v in range(1, 7)
}
PIPS: Final = {die: int(die[1]) for die in DIE_NAMES}  # 'Y5' -> 5


# 'Y5' -> 'yellow 5' (the table's own lookup: a die is named in most log lines and labels)
die_name: Final[Callable[[str], str]] = DIE_NAMES.__getitem__


# GameState fields that are not game data: never serialised.
NOT_SERIALISED: Final = ("pending_choices", "edition")


class IllegalChoice(ValueError):
    """A choice id that is not among the current decision's legal choices."""


@dataclass(frozen=True, slots=True)
class Choice:
    id: str
    label: str


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide what now, and the legal choices in a stable order."""

    player: int
    kind: str
    prompt: str
    choices: list[Choice]
    optional: bool = False  # a "skip" choice is among the choices
    private: bool = False  # the choices show the player's hand: show them to that player only

    def parse(self, choice_id: str) -> ChoiceValue:
        """The typed value of a choice id of this decision (engine.choices; raises
        BadChoiceId): `dec.parse("ws:3:Y5:1").space == 3`."""
        return parse_choice(self.kind, choice_id)


@dataclass(slots=True)
class GameSetup:
    """Everything besides the choices that determines a game.

    rules_version: the rules the game is played under (engine.versions). A new setup takes the
    latest; a stored setup without the field is version 1, the rules every game began with before
    versions existed, so stored games replay exactly as they were played.

    edition: the content the game is played with (engine.edition), by name. A new setup takes the
    library's default; a stored setup without the field is FIRST_EDITION, the content every game
    began with before editions existed. The name is resolved when the game is set up or loaded.
    """

    players: int = 2
    seed: int = 0
    names: list[str] = field(default_factory=list)
    shuffle_seats: bool = True  # seat order and first player drawn from the seed
    random_setup: bool = True  # False: the standard setup printed on the board
    draft_tier1: bool = False  # experienced players draft the tier 1 cards in reverse turn order
    max_rounds: int = 40  # designed safeguard so every game ends; real games take ~18 rounds
    rules_version: int = LATEST_RULES
    edition: str = field(default_factory=default_edition_name)

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise ValueError("Ada's Dream is played by 2 to 4 players.")
        if self.rules_version not in RULES_VERSIONS:
            known = ", ".join(str(v) for v in RULES_VERSIONS)
            raise ValueError(f"Unknown rules version {self.rules_version!r} (known: {known}).")
        if not isinstance(self.edition, str) or not NAME_PATTERN.match(self.edition):
            raise ValueError(f"Not an edition name: {self.edition!r}.")
        if not self.names:
            self.names = [f"Player {i + 1}" for i in range(self.players)]
        if len(self.names) != self.players:
            raise ValueError("Give exactly one name per player.")

    def to_dict(self) -> dict[str, Any]:
        d = {name: getattr(self, name) for name in _SETUP_FIELDS}
        if d["rules_version"] == 1:
            del d["rules_version"]  # version 1 setups serialise exactly as before versions existed
        if d["edition"] == FIRST_EDITION:
            del d["edition"]  # so do setups of the first edition
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameSetup:
        kwargs = {f.name: d[f.name] for f in fields(cls) if f.name in d}
        kwargs.setdefault("rules_version", 1)
        kwargs.setdefault("edition", FIRST_EDITION)
        return cls(**kwargs)


_SETUP_FIELDS = tuple(f.name for f in fields(GameSetup))  # looked up once: a store writes per move


@dataclass(slots=True)
class PlayerState:
    name: str
    colour: str
    money: int = 0
    coal: int = 0
    brass: int = 0
    books: int = 0
    innovation: int = 0
    steam: int = 0
    store: list[str | None] = field(default_factory=list)  # index 0 is the highest slot
    mill: list[str | None] = field(default_factory=lambda: [None] * 9)  # row * 3 + column
    gears: list[str | None] = field(default_factory=lambda: [None] * 12)  # see engine.mill
    discs: int = 12  # discs still on the player board
    discs_boxed: int = 0  # discs removed from the game
    gear_supply: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  # top of deck is the end of the list
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)  # played, effect resolving (rules v2)
    assignments: dict[str, list[str]] = field(
        default_factory=lambda: {"P": [], "B": [], "Y": [], "G": []}
    )
    programs: list[str | None] = field(default_factory=lambda: [None] * 6)  # per MILL_LINES
    research: dict[str, int] = field(default_factory=lambda: {"P": 0, "B": 0, "Y": 0, "G": 0})
    assignment_tokens: dict[str, int] = field(default_factory=dict)  # colour -> 2 or 1
    science_tokens: dict[str, int] = field(default_factory=dict)  # science -> value (effects)
    city: str = "london"
    turns: int = 0

    def supply(self) -> list[str]:
        """The eight Partner cards: deck, hand, discard pile and a card being played."""
        return self.deck + self.hand + self.discard + self.played

    def to_dict(self) -> dict[str, Any]:
        d = {name: getattr(self, name) for name in _PLAYER_FIELDS}
        if not d["played"]:
            del d["played"]  # as before rules version 2: unchanged stored states and digests
        return d


_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerState))


@dataclass(slots=True)
class GameState:
    """The whole game. `engine.rules` holds the functions that read and change it."""

    setup: GameSetup
    players: list[PlayerState]
    rng: int
    bag: list[str] = field(default_factory=list)  # die colours
    workshop: list[list[str]] = field(default_factory=list)  # 6 spaces clockwise
    workshop_bonus: list[str] = field(default_factory=list)  # bonus tile id per space
    program_deck: list[str] = field(default_factory=list)
    program_display: list[str | None] = field(default_factory=list)  # rightmost is last
    assignment_deck: list[str] = field(default_factory=list)
    assignment_display: list[str | None] = field(default_factory=list)
    partner_deck: list[str] = field(default_factory=list)
    partner_display: list[str | None] = field(default_factory=list)
    multiplier_deck: list[str] = field(default_factory=list)
    multiplier_display: list[str | None] = field(default_factory=list)
    addition_supply: int = 0
    universities: dict[str, str] = field(default_factory=dict)  # city -> University tile
    university_discs: dict[str, list[int]] = field(default_factory=dict)  # bottom first
    # per Meeting room its spaces, left to right: a stack of seats (bottom first), or None if empty
    rooms: list[list[list[int] | None]] = field(default_factory=lambda: [[], [], [], []])
    room_science: list[str] = field(default_factory=list)
    lectures: dict[str, list[int]] = field(default_factory=dict)  # "i:level" -> seats
    objectives: list[str] = field(default_factory=list)  # per area
    objective_discs: list[list[list[Any]]] = field(default_factory=lambda: [[], [], [], []])
    objective_first_round: list[int | None] = field(default_factory=lambda: [None] * 4)
    breakthroughs: dict[str, str] = field(default_factory=dict)  # track colour -> token
    assignment_token_stacks: dict[str, list[int]] = field(default_factory=dict)  # top last
    current: int = 0
    round: int = 1
    end_triggered: bool = False
    over: bool = False
    stack: list[dict[str, Any]] = field(default_factory=list)  # pending steps, top last
    ctx: dict[str, Any] = field(default_factory=dict)  # what this turn has done so far
    history: list[str] = field(default_factory=list)
    undo_floor: int = 0
    log: list[str] = field(default_factory=list)
    # Not game data: the choices run() computed for the pending decision, reused by apply().
    pending_choices: Any = field(default=None, repr=False, compare=False)
    # Not game data either: the content, the edition `setup.edition` names (see __post_init__).
    edition: Edition = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.edition is None:
            self.edition = edition(self.setup.edition)  # raises UnknownEdition
        elif self.edition.name != self.setup.edition:
            raise ValueError(
                f"the setup names edition {self.setup.edition!r}, not {self.edition.name!r}"
            )

    # -- serialisation -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return json.loads(json.dumps(self._shallow_dict()))  # a deep, JSON-pure copy

    def _shallow_dict(self) -> dict[str, Any]:
        """The serialised fields, their values still the state's own (not to be changed)."""
        d: dict[str, Any] = {}
        for name in _SERIALISED_FIELDS:
            value = getattr(self, name)
            if name == "setup":
                value = value.to_dict()
            elif name == "players":
                value = [p.to_dict() for p in value]
            d[name] = value
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], edition: Edition | None = None) -> GameState:
        """The state of a to_dict(); its edition is looked up by name unless given."""
        return cls._of_own_dict(json.loads(json.dumps(d)), edition)  # nothing shared with `d`

    @classmethod
    def _of_own_dict(cls, d: dict[str, Any], edition: Edition | None) -> GameState:
        """The state of a JSON-pure dict that nothing else holds (its lists become the state's)."""
        kwargs = {name: d[name] for name in _SERIALISED_FIELDS if name in d}
        kwargs["setup"] = GameSetup.from_dict(d["setup"])
        kwargs["players"] = [PlayerState(**p) for p in d["players"]]
        if edition is None:
            return cls(**kwargs)  # __post_init__ looks the edition up
        return cls(**kwargs, edition=edition)

    def to_json(self) -> str:
        # written straight from the state: the text needs no deep copy first (every key is a
        # string, so sorting them is the same before and after a JSON round trip)
        return json.dumps(self._shallow_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls._of_own_dict(json.loads(text), None)

    def copy(self) -> GameState:
        return GameState._of_own_dict(self.to_dict(), self.edition)

    def digest(self) -> str:
        return hashlib.sha256(self.to_json().encode()).hexdigest()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_json() == other.to_json()

    # -- convenience -----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.current

    @property
    def seat_names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def me(self) -> PlayerState:
        return self.players[self.current]

    # -- the rules, as methods (python-chess style); the logic lives in engine.rules ----------
    @property
    def decision(self) -> Decision | None:
        """Who must decide what now, with the legal choices; None once the game is over."""
        from engine import rules

        return rules.decision(self)

    def legal_choices(self) -> list[Choice]:
        from engine import rules

        return [Choice(i, label) for i, label in rules.legal_choices(self)]

    def apply(self, choice_id: str) -> None:
        """Apply a legal choice in place; an illegal one raises IllegalChoice and changes nothing."""
        from engine import rules

        rules.apply(self, choice_id)

    def can_undo(self) -> bool:
        from engine import rules

        return rules.can_undo(self)

    def final_scores(self) -> list[dict[str, int]]:
        from engine import scoring

        return scoring.final_scores(self)

    def winner(self) -> int:
        from engine import scoring

        return scoring.winner(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator). Hidden: other hands, every deck's order."""
        from engine.view import redact

        return redact(self, seat)


_SERIALISED_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in NOT_SERIALISED)
