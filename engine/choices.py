"""Choice ids: the stored format of every answer to every decision (format version 1).

A game is stored as its setup and its list of choice ids, forever, so a choice id is a format like
a file's: each form below is defined once, by a pattern that both parses and prints it (as
python-chess's Move parses and prints UCI), and no id ever changes meaning. A new form needs a new
FORMAT_VERSION; the forms of version 1 stay readable.

    from engine import choices
    value = choices.parse("turn", "ws:3:Y5:1")   # WorkshopMove(space=3, die='Y5', moves=1)
    value.id                                      # 'ws:3:Y5:1' (parse and print are exact inverses)
    choices.parse("meet_room", "room:2:money")    # AttendRoom(room=2, pay='money')
    choices.parse("turn", "room:2:money")         # raises BadChoiceId: not a form of "turn"

`parse(kind, choice_id)` takes the decision's kind (`Decision.kind`): some forms look alike across
kinds ("at:3" is a Gear space, "at:P" an Assignment token) and are told apart by their decision.
Parsing checks the form, not legality: whether a choice is legal now is the engine's answer
(`GameState.legal_choices`), and whether a decision shows a hand is `Decision.private`.

The rules build ids with `Form.encode(...)` and read the ids of legal choices with
`Form.decode(id)` (fields) or `read(kind, id)` (a value): fast, unchecked, as those ids are the
engine's own. Everything else (a cog, a tool, a stored game's id) uses `parse`.

Pattern fields: {name:int} a whole number written without leading zeros; {name:die} a die such as
Y5 (colour Y B G P K, pips 1-6); {name:word} a card, city or bonus id (lower_snake_case);
{name:colour} an action colour P B Y G; {name:sign} "+" or "-" (a delta of +1 or -1);
{name:area} study, travel, meetings or institutions; {name:pay} money or innovation;
{name:science} a Science; {name:item} book, gear or assignment; {name:own} a die on the player
board, s<i> (Store slot) or m<i> (Mill slot); {name:loc} a disc location: uni:<city>, room:<r>,
lec:<institution>:<level> or obj:<area>; {name:adjust} "-", "+" or "M". A part in [brackets] may
be left out (then the field is None).

Kinds and their forms (the table DECISION_FORMS; tests/test_choices.py holds it to this list):

    turn                      ws:{space}:{die}:{moves}  act:{slot}[:{area}]  idle:{slot}  pass
    ws_push                   push:{index}[:{adjust}]
    ws_adjust                 skip  adj:{space}:{index}:{delta}
    partner_play, play_free   skip  play:{card}
    mill_place                mill:{slot}
    study_program, take_program   prog:{slot}
    program_place             line:{line}
    study_reward              {item}  skip
    study_item                {item}
    take_assignment           as:{slot}
    assign_column             col:{colour}
    travel_move, move_university  go:{city}
    move_small                skip  go:{city}
    meet_room                 room:{room}:{pay}
    meet_card, take_partner   card:{slot}
    keep_eight                rm:{card}
    may_draw                  draw  skip
    lecture, lecture_disc     lec:{institution}:{level}
    lower_space               skip  low:as  low:{institution}:{level}
    place_disc                skip  mv:{location}
    publish_or_build          publish  build:{gear}  skip
    build                     skip  build:{gear}
    gear_place                at:{space}
    steam                     steam  skip
    stack_disc                stack:{location}
    pips                      done  pip:{die}:{delta}
    swap_die                  own:{die}
    swap_with                 ws:{space}:{index}
    hand_limit, discard       dc:{card}
    innovation_top            skip  itop:{bonus}
    research                  rs:{track}
    workshop_bonus            wb:{bonus}
    take_multiplier           mul:{slot}
    use_display_partner       skip  use:{slot}
    upgrade_subtraction       skip  up:{space}
    meeting_disc              room:{room}
    university_disc           uni:{city}
    move_disc                 skip  from:{location}
    move_disc_to              to:{location}
    relocate_university_disc  skip  from:{city}
    relocate_to               to:{city}
    assignment_token          at:{colour}
    science_token             sci:{science}
    advanced                  adv:{area}
    breakthrough              bt:{track}
    adjust_die                skip  own:{die}:{delta}  ws:{space}:{index}:{delta}
    choose                    opt:{index}
    draft                     draft:{card}
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, NamedTuple

from engine.vocabulary import AREA_COLOUR, SCIENCES

FORMAT_VERSION = 1


class BadChoiceId(ValueError):
    """Text that is not a choice id of the given decision kind."""


# field type -> (regex of its text, expression reading its text {}, expression writing its value {})
_FIELD_TYPES: dict[str, tuple[str, str, str]] = {
    "int": (r"0|[1-9][0-9]*", "int({})", "{}"),
    "die": (r"[YBGPK][1-6]", "{}", "{}"),
    "word": (r"[a-z0-9_]+", "{}", "{}"),
    "colour": (r"[PBYG]", "{}", "{}"),
    "sign": (r"[+-]", "(1 if {} == '+' else -1)", "('+' if {} > 0 else '-')"),
    "area": ("|".join(AREA_COLOUR), "{}", "{}"),
    "pay": (r"money|innovation", "{}", "{}"),
    "science": ("|".join(SCIENCES), "{}", "{}"),
    "item": (r"book|gear|assignment", "{}", "{}"),
    "own": (r"[sm][0-8]", "{}", "{}"),
    "loc": (
        r"uni:[a-z0-9_]+|room:(?:0|[1-9][0-9]*)|lec:(?:0|[1-9][0-9]*):[0-9]|obj:[0-3]",
        "{}",
        "{}",
    ),
    "adjust": (r"[-+M]", "{}", "{}"),
}
_FIELD = re.compile(r"\{(\w+):(\w+)\}")


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """A parsed choice id. Each subclass is one form: `PATTERN` defines both directions."""

    PATTERN: ClassVar[str] = ""
    _regex: ClassVar[re.Pattern[str]]
    encode: ClassVar[Callable[..., str]]
    """The id of the given field values (fast: the engine builds ids with it)."""
    ID: ClassVar[str]
    """A form without fields: its one id ("skip")."""

    @staticmethod
    def decode(text: str) -> tuple[Any, ...]:
        """The fields of an id of this form, typed, read without checking its form: fast, for
        the ids the engine made itself (generated by _compile). Use `parse` for any other text."""
        raise NotImplementedError

    @classmethod
    def parse(cls, text: str) -> ChoiceValue:
        """The value of `text` (raises BadChoiceId if it is not exactly of this form)."""
        if cls._regex.fullmatch(text) is None:
            raise BadChoiceId(f"{text!r} is not of the form {cls.PATTERN!r}")
        return cls(*cls.decode(text))

    @property
    def id(self) -> str:
        """The choice id (the stored text)."""
        return type(self).encode(*(getattr(self, f.name) for f in fields(self)))

    def __str__(self) -> str:
        return self.id


def _compile(cls: type[ChoiceValue]) -> type[ChoiceValue]:
    """Build a form's checker (a regex), printer and reader from its PATTERN.

    Ids are printed for every legal choice and read for every choice applied, so the printer
    and reader are small functions generated from the pattern (one f-string; one split),
    not loops over fields. Every pattern is a fixed prefix and fields separated by ":", a
    trailing [:field] optional, a location field only last: so a split reads any id."""
    pattern = cls.PATTERN
    names = [f.name for f in fields(cls)]
    found = _FIELD.findall(pattern)
    if [n for n, _ in found] != names:
        raise TypeError(f"{cls.__name__}: pattern fields {found} != dataclass fields {names}")
    regex, printed, optional = "", [], ""
    for m in re.finditer(r"\{(\w+):(\w+)\}|\[|\]|[^{\[\]]+", pattern):
        piece = m.group(0)
        if piece == "[":
            regex += "(?:"
            printed.append("[")
        elif piece == "]":
            regex += ")?"
            optional = "".join(printed[printed.index("[") + 1 :])
            del printed[printed.index("[") :]
            printed.append(f"{{f'{optional}' if {found[-1][0]} is not None else ''}}")
        elif m.group(1):
            name, kind = m.group(1), m.group(2)
            expr, _, write = _FIELD_TYPES[kind]
            regex += f"({expr})"
            printed.append("{" + write.format(name) + "}")
        else:
            regex += re.escape(piece)
            printed.append(piece)
    prefix = pattern[: pattern.index("{")] if found else pattern
    reads = [_FIELD_TYPES[kind][1].format(f"t{i}") for i, (_, kind) in enumerate(found)]
    if optional:  # the last field may be missing
        last = _FIELD_TYPES[found[-1][1]][1].format("rest[0]")
        reads[-1] = f"(None if not rest else {last})"
        unpack = ", ".join(f"t{i}" for i in range(len(found) - 1)) + ", *rest = parts"
    else:
        unpack = ", ".join(f"t{i}" for i in range(len(found))) + ", = parts"
    split = f"text[{len(prefix)}:].split(':', {len(found) - 1})" if found else "()"
    source = f"""
def encode({", ".join(names)}):
    return f"{"".join(printed)}"

def read(text):
    parts = {split}
    {unpack if found else "pass"}
    return ({", ".join(reads)}{"," if len(found) == 1 else ""})
"""
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # the code comes from PATTERN only
    cls._regex = re.compile(regex)
    # decode keeps what it read (the fields are immutable; a game meets few distinct ids): an id
    # read before is a dict lookup, without a Python call
    cls.decode = staticmethod(_ReadIds(namespace["read"]).__getitem__)  # type: ignore[method-assign, assignment]
    cls.encode = staticmethod(namespace["encode"])  # type: ignore[assignment]
    if not found:
        cls.ID = cls.encode()  # a form without fields is one id
    return cls


class _ReadIds(dict[str, tuple[Any, ...]]):
    """A form's ids read so far and their fields; an id not read yet is read by `read` (and kept,
    up to a bound: ids outside the engine's own could be anything)."""

    def __init__(self, read: Callable[[str], tuple[Any, ...]]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, text: str) -> tuple[Any, ...]:
        fields = self.read(text)
        if len(self) < 10_000:
            self[text] = fields
        return fields


def form(pattern: str) -> Callable[[type[ChoiceValue]], type[ChoiceValue]]:
    """Class decorator: a frozen dataclass whose PATTERN parses and prints it."""

    def make(cls: type[ChoiceValue]) -> type[ChoiceValue]:
        cls.PATTERN = pattern
        return _compile(dataclass(frozen=True, slots=True)(cls))

    return make


# ---------------------------------------------------------------------------------------------
# The forms (version 1). Their ids never change: stored games and golden replays use them.
# ---------------------------------------------------------------------------------------------


@form("skip")
class Skip(ChoiceValue):
    """Decline an optional step."""


@form("done")
class Done(ChoiceValue):
    """Stop changing dice (Travel Publish)."""


@form("pass")
class Pass(ChoiceValue):
    """No turn is possible: pass."""


@form("publish")
class Publish(ChoiceValue):
    """Publish in the area of this turn's action (1 Book)."""


@form("steam")
class AdvanceSteam(ChoiceValue):
    """Advance the Steam marker, paying its Coal."""


@form("draw")
class Draw(ChoiceValue):
    """Draw the cards offered (Meetings advanced level II)."""


@form("ws:{space:int}:{die:die}:{moves:int}")
class WorkshopMove(ChoiceValue):
    """Workshop turn: move `die` from Workshop `space` (0-5) by `moves` spaces (2: 1 Coal)."""

    space: int
    die: str
    moves: int


@form("act:{slot:int}[:{area:area}]")
class StoreAction(ChoiceValue):
    """Actions turn with the die in Store `slot`; `area` for a grey die (else its colour's)."""

    slot: int
    area: str | None = None


@form("idle:{slot:int}")
class IdleDie(ChoiceValue):
    """No turn possible: put the die in Store `slot` into the Mill without its action."""

    slot: int


@form("push:{index:int}[:{adjust:adjust}]")
class PushOut(ChoiceValue):
    """Push out the die at `index` of the landing space; `adjust`, 1 Coal: "-" lowers it first,
    "+" raises it after, "M" raises the moving die."""

    index: int
    adjust: str | None = None


@form("adj:{space:int}:{index:int}:{delta:sign}")
class CoalAdjust(ChoiceValue):
    """The Workshop turn's Coal adjust: Workshop die `index` of `space` by `delta`."""

    space: int
    index: int
    delta: int


@form("play:{card:word}")
class PlayCard(ChoiceValue):
    """Play a Partner card from the hand."""

    card: str


@form("mill:{slot:int}")
class MillSlot(ChoiceValue):
    """Put the active die in Mill slot 0-8 (row * 3 + column)."""

    slot: int


@form("prog:{slot:int}")
class ProgramTile(ChoiceValue):
    """Take the Program tile in display `slot`."""

    slot: int


@form("line:{line:int}")
class ProgramLine(ChoiceValue):
    """Place the Program on Mill line 0-5 (rows, then columns)."""

    line: int


@form("{item:item}")
class StudyItem(ChoiceValue):
    """A Study item: book, gear (Addition Gear) or assignment."""

    item: str


@form("as:{slot:int}")
class AssignmentCard(ChoiceValue):
    """Take the Assignment in display `slot`."""

    slot: int


@form("col:{colour:colour}")
class AssignmentColumn(ChoiceValue):
    """Put the Assignment in the column of an action colour."""

    colour: str


@form("go:{city:word}")
class GoTo(ChoiceValue):
    """Travel or move to `city`."""

    city: str


@form("room:{room:int}:{pay:pay}")
class AttendRoom(ChoiceValue):
    """Meetings: attend room 0-3, paying money or innovation."""

    room: int
    pay: str


@form("card:{slot:int}")
class DisplayCard(ChoiceValue):
    """Take the Partner card in display `slot`."""

    slot: int


@form("rm:{card:word}")
class RemoveCard(ChoiceValue):
    """Remove a Partner card from the game (to keep eight)."""

    card: str


@form("lec:{institution:int}:{level:int}")
class LectureSpace(ChoiceValue):
    """A Lecture space: Institution 0-3 (column order), level 2-6."""

    institution: int
    level: int


@form("low:as")
class AnalyticalSociety(ChoiceValue):
    """The Analytical Society's reward (a lower space that always counts as unoccupied)."""


@form("low:{institution:int}:{level:int}")
class LowerSpace(ChoiceValue):
    """The reward of an unoccupied lower Lecture space."""

    institution: int
    level: int


@form("mv:{location:loc}")
class MoveDiscHere(ChoiceValue):
    """No disc on the board: move your disc from `location` to the space being placed on."""

    location: str


@form("build:{gear:word}")
class BuildGear(ChoiceValue):
    """Build a Gear from the supply: add, sub or a Multiplier's id."""

    gear: str


@form("at:{space:int}")
class GearSpace(ChoiceValue):
    """Build on Gear space 0-11 (engine.mill numbers them)."""

    space: int


@form("stack:{location:loc}")
class StackDisc(ChoiceValue):
    """Stack a disc on your disc at `location`."""

    location: str


@form("pip:{die:own}:{delta:sign}")
class ChangePip(ChoiceValue):
    """Travel Publish: change your die (Store s<i> or Mill m<i>) by `delta`."""

    die: str
    delta: int


@form("own:{die:own}")
class SwapOwnDie(ChoiceValue):
    """Institutions Publish: the die of yours (s<i> or m<i>) to swap."""

    die: str


@form("ws:{space:int}:{index:int}")
class WorkshopDie(ChoiceValue):
    """A Workshop die: `index` in `space`."""

    space: int
    index: int


@form("dc:{card:word}")
class DiscardCard(ChoiceValue):
    """Discard a card from the hand."""

    card: str


@form("itop:{bonus:word}")
class TopBonus(ChoiceValue):
    """Innovation at the top: spend it for this Workshop bonus."""

    bonus: str


@form("rs:{track:colour}")
class ResearchTrack(ChoiceValue):
    """Gain Research on a track."""

    track: str


@form("wb:{bonus:word}")
class WorkshopBonus(ChoiceValue):
    """Gain this Workshop bonus reward."""

    bonus: str


@form("mul:{slot:int}")
class MultiplierSlot(ChoiceValue):
    """Take the Multiplier Gear in display `slot`."""

    slot: int


@form("use:{slot:int}")
class UseDisplayCard(ChoiceValue):
    """Use the effect of the Partner card in display `slot`."""

    slot: int


@form("up:{space:int}")
class UpgradeGear(ChoiceValue):
    """Turn the Subtraction Gear on Gear space 0-11 into an Addition Gear."""

    space: int


@form("room:{room:int}")
class MeetingRoom(ChoiceValue):
    """Place a disc in Meeting room 0-3."""

    room: int


@form("uni:{city:word}")
class University(ChoiceValue):
    """Place a disc on the University of `city`."""

    city: str


@form("from:{location:loc}")
class MoveDiscFrom(ChoiceValue):
    """Move your disc from `location`."""

    location: str


@form("to:{location:loc}")
class MoveDiscTo(ChoiceValue):
    """... to `location`."""

    location: str


@form("from:{city:word}")
class RelocateFrom(ChoiceValue):
    """Move your disc from the University of `city`."""

    city: str


@form("to:{city:word}")
class RelocateTo(ChoiceValue):
    """... to the University of `city`."""

    city: str


@form("at:{colour:colour}")
class AssignmentToken(ChoiceValue):
    """Take a 1-point Assignment Scoring token of a colour."""

    colour: str


@form("sci:{science:science}")
class ScienceToken(ChoiceValue):
    """Take a 1-point Science Scoring token."""

    science: str


@form("adv:{area:area}")
class AdvancedAction(ChoiceValue):
    """Take the level I advanced action of an area."""

    area: str


@form("bt:{track:colour}")
class Breakthrough(ChoiceValue):
    """Take the reward of the Breakthrough token on a track."""

    track: str


@form("own:{die:own}:{delta:sign}")
class AdjustOwnDie(ChoiceValue):
    """Adjust your die (s<i> or m<i>) by `delta`."""

    die: str
    delta: int


@form("ws:{space:int}:{index:int}:{delta:sign}")
class AdjustWorkshopDie(ChoiceValue):
    """Adjust Workshop die `index` of `space` by `delta`."""

    space: int
    index: int
    delta: int


@form("opt:{index:int}")
class Option(ChoiceValue):
    """Option `index` of a choose step."""

    index: int


@form("draft:{card:word}")
class DraftCard(ChoiceValue):
    """Draft a tier 1 card (experienced players' setup)."""

    card: str


# ---------------------------------------------------------------------------------------------
# Which forms answer which decision (Decision.kind)
# ---------------------------------------------------------------------------------------------

DECISION_FORMS: dict[str, tuple[type[ChoiceValue], ...]] = {
    "turn": (WorkshopMove, StoreAction, IdleDie, Pass),
    "ws_push": (PushOut,),
    "ws_adjust": (Skip, CoalAdjust),
    "partner_play": (Skip, PlayCard),
    "play_free": (Skip, PlayCard),
    "mill_place": (MillSlot,),
    "study_program": (ProgramTile,),
    "take_program": (ProgramTile,),
    "program_place": (ProgramLine,),
    "study_reward": (StudyItem, Skip),
    "study_item": (StudyItem,),
    "take_assignment": (AssignmentCard,),
    "assign_column": (AssignmentColumn,),
    "travel_move": (GoTo,),
    "move_university": (GoTo,),
    "move_small": (Skip, GoTo),
    "meet_room": (AttendRoom,),
    "meet_card": (DisplayCard,),
    "take_partner": (DisplayCard,),
    "keep_eight": (RemoveCard,),
    "may_draw": (Draw, Skip),
    "lecture": (LectureSpace,),
    "lecture_disc": (LectureSpace,),
    "lower_space": (Skip, AnalyticalSociety, LowerSpace),
    "place_disc": (Skip, MoveDiscHere),
    "publish_or_build": (Publish, BuildGear, Skip),
    "build": (Skip, BuildGear),
    "gear_place": (GearSpace,),
    "steam": (AdvanceSteam, Skip),
    "stack_disc": (StackDisc,),
    "pips": (Done, ChangePip),
    "swap_die": (SwapOwnDie,),
    "swap_with": (WorkshopDie,),
    "hand_limit": (DiscardCard,),
    "discard": (DiscardCard,),
    "innovation_top": (Skip, TopBonus),
    "research": (ResearchTrack,),
    "workshop_bonus": (WorkshopBonus,),
    "take_multiplier": (MultiplierSlot,),
    "use_display_partner": (Skip, UseDisplayCard),
    "upgrade_subtraction": (Skip, UpgradeGear),
    "meeting_disc": (MeetingRoom,),
    "university_disc": (University,),
    "move_disc": (Skip, MoveDiscFrom),
    "move_disc_to": (MoveDiscTo,),
    "relocate_university_disc": (Skip, RelocateFrom),
    "relocate_to": (RelocateTo,),
    "assignment_token": (AssignmentToken,),
    "science_token": (ScienceToken,),
    "advanced": (AdvancedAction,),
    "breakthrough": (Breakthrough,),
    "adjust_die": (Skip, AdjustOwnDie, AdjustWorkshopDie),
    "choose": (Option,),
    "draft": (DraftCard,),
}


def _prefix(form: type[ChoiceValue]) -> str:
    return form.PATTERN[: form.PATTERN.index("{")]


def _readers(forms: tuple[type[ChoiceValue], ...]) -> tuple[dict[str, Any], list[Any]]:
    """How `read` tells a decision's forms apart: whole ids of the forms without fields, then
    the literal prefixes of the others (which must differ: checked here, once)."""
    whole = {f.ID: f for f in forms if not fields(f)}
    by_prefix = sorted(((_prefix(f), f) for f in forms if fields(f)), key=lambda p: -len(p[0]))
    prefixes = [p for p, _ in by_prefix]
    if len(set(prefixes)) != len(prefixes):
        raise TypeError(f"forms {forms} share a prefix: read() could not tell them apart")
    return whole, by_prefix


_READERS = {kind: _readers(forms) for kind, forms in DECISION_FORMS.items()}


# (kind, id) -> value, for `read`: values are frozen, and a game meets few distinct ids
_READ: dict[tuple[str, str], ChoiceValue] = {}


def read(kind: str, choice_id: str) -> ChoiceValue:
    """The typed value of a choice id the engine made itself (a legal choice of a decision of
    `kind`): fast, by the form's literal prefix, without checking the whole form. For any other
    text use `parse`, which checks."""
    value = _READ.get((kind, choice_id))
    if value is not None:
        return value
    whole, by_prefix = _READERS[kind]
    form = whole.get(choice_id)
    if form is not None:
        value = form()
    else:
        for prefix, form in by_prefix:
            if choice_id.startswith(prefix):
                value = form(*form.decode(choice_id))
                break
        else:
            raise BadChoiceId(f"{choice_id!r} is not a choice id of a {kind!r} decision")
    if len(_READ) < 100_000:  # bounded: ids outside the engine's own could be anything
        _READ[kind, choice_id] = value
    return value


def parse(kind: str, choice_id: str) -> ChoiceValue:
    """The typed value of a choice id of a decision of `kind` (raises BadChoiceId)."""
    forms = DECISION_FORMS.get(kind)
    if forms is None:
        raise BadChoiceId(f"unknown decision kind {kind!r}")
    for cls in forms:
        if cls._regex.fullmatch(choice_id) is not None:
            return cls(*cls.decode(choice_id))
    shapes = ", ".join(cls.PATTERN for cls in forms)
    raise BadChoiceId(f"{choice_id!r} is not a choice id of a {kind!r} decision (forms: {shapes})")


# ---------------------------------------------------------------------------------------------
# The board places a choice names (for pictures that mark them)
# ---------------------------------------------------------------------------------------------


class Location(NamedTuple):
    """A disc location (a {name:loc} field; the strings engine/state.py describes), read."""

    kind: str
    """"uni" a University, "room" a Meeting room, "lec" a Lecture space, "obj" an Objective."""
    city: str | None = None
    """The University's city."""
    # (the field hides tuple.index, which no one calls on a Location)
    index: int | None = None  # type: ignore[assignment]
    """The Meeting room, the Institution (of a Lecture space) or the Objective's action area."""
    level: int | None = None
    """The Lecture space's level."""

    @classmethod
    def parse(cls, text: str) -> Location:
        """ "uni:leeds" -> Location("uni", city="leeds"); "lec:2:4" -> Location("lec", None, 2, 4)."""
        if re.fullmatch(_FIELD_TYPES["loc"][0], text) is None:
            raise BadChoiceId(f"{text!r} is not a disc location")
        kind, *rest = text.split(":")
        if kind == "uni":
            return cls(kind, city=rest[0])
        if kind == "lec":
            return cls(kind, index=int(rest[0]), level=int(rest[1]))
        return cls(kind, index=int(rest[0]))


def places(value: ChoiceValue) -> tuple[Location, ...]:
    """The main-board places a choice names: its University, Meeting room or Lecture space
    (none for a choice about something else)."""
    if isinstance(value, (GoTo, University, RelocateFrom, RelocateTo)):
        return (Location("uni", city=value.city),)
    if isinstance(value, (AttendRoom, MeetingRoom)):
        return (Location("room", index=value.room),)
    if isinstance(value, (LectureSpace, LowerSpace)):
        return (Location("lec", index=value.institution, level=value.level),)
    if isinstance(value, (MoveDiscHere, StackDisc, MoveDiscFrom, MoveDiscTo)):
        return (Location.parse(value.location),)
    return ()
