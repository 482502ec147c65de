"""Choice labels: the text of every choice of every decision, declared once.

A label is a template (a plain English msgid with {placeholders}) and the typed fields that
fill it, read from the choice's value (`engine.choices`) and the state the decision is asked in:

    parts(st, "travel_move", GoTo("leeds"))
    # ('{city} (£{cost}): {reward}', {'city': 'Leeds', 'cost': 4,
    #                                 'reward': Content('effect', 'Gain 1 Book')})

The engine's English label is the template filled with the fields said in English (`english`);
i18n.game says the same template and fields in another language (the catalogs translate each
template in TEMPLATES, and each typed field in the language's own words). So the two cannot
drift apart, and a new form's label is written here once.

A field is a number, a name (a card's, a city's: names stay as they are), or one of the typed
words below. Labels are built only when a decision is shown (`engine.rules.decision`): the loop
and the AI read choice ids only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple, TypeVar

from engine import choices as C
from engine.common import cost_text, lecture_costs, loc_name, need_text, where_name
from engine.mill import gear_space_name
from engine.publish import PUBLISH_TEXT
from engine.state import DIE_NAMES, GameState
from engine.study import STUDY_ITEM_TEXT
from engine.vocabulary import AREA_TITLE, COLOUR_AREA, LINE_NAMES

# -- the typed fields ------------------------------------------------------------------------


class Die(NamedTuple):
    """A die: 'Y5' ("yellow 5")."""

    code: str


class Area(NamedTuple):
    """An action area by its key ("study": "Ada's Study")."""

    key: str


class Track(NamedTuple):
    """A Research track (or Assignment column) by its colour letter: named after its area."""

    colour: str


class Line(NamedTuple):
    """A Mill line by its index (engine.vocabulary.LINE_NAMES)."""

    k: int


class Science(NamedTuple):
    """A Science ("physics": "Physics"); None: a Sponsor."""

    name: str | None


class Place(NamedTuple):
    """A disc location of the main board (engine.state): uni:, room:, lec:, obj:."""

    loc: str


class Where(NamedTuple):
    """A die's place on the player board: s<i> (Store slot) or m<i> (Mill slot)."""

    place: str


class GearSpace(NamedTuple):
    """A Gear space of the Mill by its position (0-11)."""

    pos: int


class Gear(NamedTuple):
    """A Gear by its id: add, sub, or a Multiplier tile."""

    gear: str


class Amount(NamedTuple):
    """Resources: {"money": 3, "coal": 2}."""

    cost: dict[str, int]


class Content(NamedTuple):
    """A text of the edition (an effect, a Program...) by its kind and English text."""

    context: str
    text: str


class Partner(NamedTuple):
    """A Partner card in full: name, Science, Prestige, requirement and effect."""

    card: str


class Need(NamedTuple):
    """What playing a Partner card asks of the active die."""

    card: str


class Text(NamedTuple):
    """One of the engine's fixed texts, said whole (a Publish effect, a Study item)."""

    text: str


Field = Any  # int | str | one of the NamedTuples above


class Plural(NamedTuple):
    """A template said in the singular or the plural of its field `n`."""

    singular: str
    plural: str


Template = str | Plural

# -- the templates -----------------------------------------------------------------------------

#: Every label template (i18n.extract gives them to the translators).
TEMPLATES: list[Template] = []


_T = TypeVar("_T", str, Plural)


def _t(template: _T) -> _T:
    TEMPLATES.append(template)
    return template


#: the label of a Skip choice, unless its step says more (engine.steps.StepKind.decline)
SKIP: Final = "Skip"
#: a label that is one field said whole (a Partner card, an effect, a fixed text): not translated
WHOLE: Final = "{text}"
DONE = _t("Done changing dice")
PASS = _t("No turn possible: pass")
WORKSHOP_MOVE = _t("Workshop: move {die} from space {space}")
WORKSHOP_MOVE_TWO = _t("Workshop: move {die} from space {space} two spaces (1 Coal)")
STORE_ACTION = _t("Actions: {die} for {area}")
IDLE_DIE = _t("No turn possible: put {die} in your Mill without an action")
PUSH_OUT = _t("Push out {die}")
PUSH_OUT_LOWER = _t("Spend 1 Coal: lower {die} to {value} and push it out")
PUSH_OUT_RAISE = _t("Push out {die} and spend 1 Coal to raise it to {value}")
PUSH_OUT_MOVING = _t("Spend 1 Coal: raise the moving die to {value}, push out {die}")
COAL_ADJUST = _t("Spend 1 Coal: {die} in space {space} to {value}")
PLAY_FREE = _t("Play {card} free: {text}")
PLAY = _t("Play {card} ({need}): {text}")
MILL_SLOT = _t("Mill row {row}, column {column}")
PROGRAM_TILE = _t("{text} ({prestige} Prestige)")
PROGRAM_LINE = _t("{line} (bonus: {bonus})")
ASSIGNMENT_DISCARD = _t("{name} (discard {n}): {text}")
ASSIGNMENT = _t("{name}: {text}")
ASSIGNMENT_COLUMN = _t("Put it in the {track} column")
MOVE_TO = _t("Move to {city}")
MOVE_FREE = _t("Move free to {city}: {text}")
TRAVEL_DISC_THERE = _t("{city} (£{cost}; your disc is already there: no reward)")
TRAVEL = _t("{city} (£{cost}): {reward}")
ROOM_MONEY = _t("Meeting room {room}, pay £{cost}")
ROOM_INNOVATION = _t("Meeting room {room}, pay {cost} Innovation")
MEET_CARD = _t("{card} [draw {n}]")
REMOVE_CARD = _t("Remove {card} from the game")
DRAW = _t(Plural("Draw {n} card from your deck", "Draw {n} cards from your deck"))
PLACE_DISC = _t("Place a disc on {place}")
LECTURE = _t("{institution} level {level} ({cost} Innovation): {text}")
ANALYTICAL_SOCIETY = _t("Analytical Society: {text}")
LOWER_SPACE = _t("{institution} level {level}: {text}")
MOVE_DISC_FROM = _t("Move your disc from {place}")
PUBLISH = _t("Publish (1 Book): {text}")
BUILD = _t("Build {gear} ({cost})")
GEAR_SPACE = _t("Gear space {space}")
STEAM = _t("Advance Steam (pay {n} Coal)")
STACK_DISC = _t("Stack a disc on {place}")
PIP_DOWN = _t("{die} ({where}) down to {value}")
PIP_UP = _t("{die} ({where}) up to {value}")
SWAP_OWN = _t("Swap your {die} ({where})")
SWAP_WITH = _t("with {die} in Workshop space {space}")
DISCARD_LIMIT = _t("Discard {card} (hand limit {n})")
DISCARD = _t("Discard {card}")
TOP_BONUS = _t("Spend {n} Innovation: {text}")
RESEARCH = _t("+1 Research on {track} (now {level})")
MULTIPLIER = _t("Multiplier Gear (build cost {cost})")
USE_CARD = _t("Use {card}: {text}")
UPGRADE = _t("Turn the Subtraction Gear at {space} into Addition")
MEETING_DISC = _t("Place a disc in Meeting room {room}")
TO_PLACE = _t("to {place}")
RELOCATE_TO = _t("to {city}: {reward}")
ASSIGNMENT_TOKEN = _t("Take a 1-point {track} Assignment Scoring token")
SCIENCE_TOKEN = _t("Take a 1-point {science} Science Scoring token")
ADVANCED = _t("Level I advanced action of {area}")
BREAKTHROUGH = _t("Breakthrough ({track}): {text}")
ADJUST_OWN = _t("Your {die} ({where}) to {value}")
ADJUST_WORKSHOP = _t("{die} in Workshop space {space} to {value}")
#: a Partner card in full (the field Partner, and the whole label of a card to draft or take)
PARTNER = _t("{name} ({science}, {prestige} PP, {need}): {text}")

Parts = tuple[Template, dict[str, Field]]

# -- each form's label: its template and fields -------------------------------------------------


def _effect(text: str) -> Content:
    return Content("effect", text)


def partner_parts(st: GameState, card: str) -> tuple[str, dict[str, Field]]:
    """A Partner card in full: name, Science, Prestige, requirement and effect."""
    info = st.edition.partner[card]
    return PARTNER, {
        "name": info["name"],
        "science": Science(info["science"]),
        "prestige": info["prestige"],
        "need": Need(card),
        "text": _effect(info["text"]),
    }


def _own_die(st: GameState, place: str) -> str:
    p = st.players[st.current]
    d = (p.store if place[0] == "s" else p.mill)[int(place[1:])]
    assert d is not None
    return d


def _city_reward(st: GameState, city: str) -> Content:
    if city in st.universities:
        return _effect(st.edition.university_tile[st.universities[city]]["text"])
    return _effect(st.edition.city[city].get("text", ""))


def _workshop_move(st: GameState, kind: str, v: C.WorkshopMove) -> Parts:
    template = WORKSHOP_MOVE_TWO if v.moves == 2 else WORKSHOP_MOVE
    return template, {"die": Die(v.die), "space": v.space + 1}


def _store_action(st: GameState, kind: str, v: C.StoreAction) -> Parts:
    d = st.players[st.current].store[v.slot]
    assert d is not None
    return STORE_ACTION, {"die": Die(d), "area": Area(v.area or COLOUR_AREA[d[0]])}


def _idle_die(st: GameState, kind: str, v: C.IdleDie) -> Parts:
    d = st.players[st.current].store[v.slot]
    assert d is not None
    return IDLE_DIE, {"die": Die(d)}


def _push_out(st: GameState, kind: str, v: C.PushOut) -> Parts:
    d = st.workshop[st.ctx["to"]][v.index]
    value = int(d[1])
    if v.adjust is None:
        return PUSH_OUT, {"die": Die(d)}
    if v.adjust == "-":
        return PUSH_OUT_LOWER, {"die": Die(d), "value": value - 1}
    if v.adjust == "+":
        return PUSH_OUT_RAISE, {"die": Die(d), "value": value + 1}
    return PUSH_OUT_MOVING, {"value": value, "die": Die(d)}


def _coal_adjust(st: GameState, kind: str, v: C.CoalAdjust) -> Parts:
    d = st.workshop[v.space][v.index]
    return COAL_ADJUST, {"die": Die(d), "space": v.space + 1, "value": int(d[1]) + v.delta}


def _play_card(st: GameState, kind: str, v: C.PlayCard) -> Parts:
    info = st.edition.partner[v.card]
    if kind == "play_free":
        return PLAY_FREE, {"card": info["name"], "text": _effect(info["text"])}
    return PLAY, {"card": info["name"], "need": Need(v.card), "text": _effect(info["text"])}


def _mill_slot(st: GameState, kind: str, v: C.MillSlot) -> Parts:
    return MILL_SLOT, {"row": v.slot // 3 + 1, "column": v.slot % 3 + 1}


def _program_tile(st: GameState, kind: str, v: C.ProgramTile) -> Parts:
    tile = st.edition.program[st.program_display[v.slot]]  # type: ignore[index]
    return PROGRAM_TILE, {"text": Content("program", tile["text"]), "prestige": tile["prestige"]}


def _program_line(st: GameState, kind: str, v: C.ProgramLine) -> Parts:
    bonus = _effect(st.edition.program_spaces[v.line]["text"])
    return PROGRAM_LINE, {"line": Line(v.line), "bonus": bonus}


def _study_item(st: GameState, kind: str, v: C.StudyItem) -> Parts:
    return WHOLE, {"text": Text(STUDY_ITEM_TEXT[v.item])}


def _assignment_card(st: GameState, kind: str, v: C.AssignmentCard) -> Parts:
    a = st.edition.assignment[st.assignment_display[v.slot]]  # type: ignore[index]
    name, text = Content("assignment", a["name"]), _effect(a["text"])
    if a["discard"]:
        return ASSIGNMENT_DISCARD, {"name": name, "n": a["discard"], "text": text}
    return ASSIGNMENT, {"name": name, "text": text}


def _assignment_column(st: GameState, kind: str, v: C.AssignmentColumn) -> Parts:
    return ASSIGNMENT_COLUMN, {"track": Track(v.colour)}


def _go_to(st: GameState, kind: str, v: C.GoTo) -> Parts:
    ed, city = st.edition, v.city
    name = ed.city[city]["name"]
    if kind == "move_university":
        return MOVE_TO, {"city": name}
    if kind == "move_small":
        return MOVE_FREE, {"city": name, "text": _effect(ed.city[city].get("text", ""))}
    cost = ed.travel_cost[st.players[st.current].city][city]
    if ed.city[city]["kind"] == "university" and st.current in st.university_discs[city]:
        return TRAVEL_DISC_THERE, {"city": name, "cost": cost}
    return TRAVEL, {"city": name, "cost": cost, "reward": _city_reward(st, city)}


def _attend_room(st: GameState, kind: str, v: C.AttendRoom) -> Parts:
    room = st.edition.meeting_rooms[v.room]
    if v.pay == "money":
        return ROOM_MONEY, {"room": v.room + 1, "cost": room["money"]}
    return ROOM_INNOVATION, {"room": v.room + 1, "cost": room["innovation"]}


def _display_card(st: GameState, kind: str, v: C.DisplayCard) -> Parts:
    card = st.partner_display[v.slot]
    assert card is not None
    if kind == "meet_card":
        return MEET_CARD, {"card": Partner(card), "n": st.edition.meeting_rooms[v.slot]["draw"]}
    return WHOLE, {"text": Partner(card)}


def _draft_card(st: GameState, kind: str, v: C.DraftCard) -> Parts:
    return WHOLE, {"text": Partner(v.card)}


def _remove_card(st: GameState, kind: str, v: C.RemoveCard) -> Parts:
    return REMOVE_CARD, {"card": st.edition.partner[v.card]["name"]}


def _draw(st: GameState, kind: str, v: C.Draw) -> Parts:
    return DRAW, {"n": st.stack[-1]["n"]}


def _lecture_space(st: GameState, kind: str, v: C.LectureSpace) -> Parts:
    if kind == "lecture_disc":
        return PLACE_DISC, {"place": Place(f"lec:{v.institution}:{v.level}")}
    inst = st.edition.institutions[v.institution]
    return LECTURE, {
        "institution": Content("institution", inst["name"]),
        "level": v.level,
        "cost": lecture_costs(st, st.current)[v.level],
        "text": _effect(inst["spaces"][v.level]["text"]),
    }


def _analytical_society(st: GameState, kind: str, v: C.AnalyticalSociety) -> Parts:
    return ANALYTICAL_SOCIETY, {"text": _effect(st.edition.analytical_society["text"])}


def _lower_space(st: GameState, kind: str, v: C.LowerSpace) -> Parts:
    inst = st.edition.institutions[v.institution]
    return LOWER_SPACE, {
        "institution": Content("institution", inst["name"]),
        "level": v.level,
        "text": _effect(inst["spaces"][v.level]["text"]),
    }


def _move_disc_from(st: GameState, kind: str, v: C.MoveDiscHere | C.MoveDiscFrom) -> Parts:
    return MOVE_DISC_FROM, {"place": Place(v.location)}


def _publish(st: GameState, kind: str, v: C.Publish) -> Parts:
    return PUBLISH, {"text": Text(PUBLISH_TEXT[st.ctx["area"]])}


def _build_gear(st: GameState, kind: str, v: C.BuildGear) -> Parts:
    return BUILD, {"gear": Gear(v.gear), "cost": Amount(st.edition.gear_cost(v.gear))}


def _gear_space(st: GameState, kind: str, v: C.GearSpace) -> Parts:
    return GEAR_SPACE, {"space": GearSpace(v.space)}


def _advance_steam(st: GameState, kind: str, v: C.AdvanceSteam) -> Parts:
    return STEAM, {"n": st.edition.steam_track[st.players[st.current].steam + 1]["coal"]}


def _stack_disc(st: GameState, kind: str, v: C.StackDisc) -> Parts:
    return STACK_DISC, {"place": Place(v.location)}


def _change_pip(st: GameState, kind: str, v: C.ChangePip) -> Parts:
    d = _own_die(st, v.die)
    fields = {"die": Die(d), "where": Where(v.die), "value": int(d[1]) + v.delta}
    return (PIP_DOWN if v.delta < 0 else PIP_UP), fields


def _swap_own_die(st: GameState, kind: str, v: C.SwapOwnDie) -> Parts:
    return SWAP_OWN, {"die": Die(_own_die(st, v.die)), "where": Where(v.die)}


def _workshop_die(st: GameState, kind: str, v: C.WorkshopDie) -> Parts:
    return SWAP_WITH, {"die": Die(st.workshop[v.space][v.index]), "space": v.space + 1}


def _discard_card(st: GameState, kind: str, v: C.DiscardCard) -> Parts:
    name = st.edition.partner[v.card]["name"]
    if kind == "hand_limit":
        return DISCARD_LIMIT, {"card": name, "n": st.edition.hand_limit}
    return DISCARD, {"card": name}


def _top_bonus(st: GameState, kind: str, v: C.TopBonus) -> Parts:
    text = _effect(st.edition.workshop_bonuses[v.bonus]["text"])
    return TOP_BONUS, {"n": st.edition.innovation_top_spend, "text": text}


def _research_track(st: GameState, kind: str, v: C.ResearchTrack) -> Parts:
    return RESEARCH, {"track": Track(v.track), "level": st.players[st.current].research[v.track]}


def _workshop_bonus(st: GameState, kind: str, v: C.WorkshopBonus) -> Parts:
    return WHOLE, {"text": _effect(st.edition.workshop_bonuses[v.bonus]["text"])}


def _multiplier_slot(st: GameState, kind: str, v: C.MultiplierSlot) -> Parts:
    gear = st.multiplier_display[v.slot]
    assert gear is not None
    return MULTIPLIER, {"cost": Amount(st.edition.multiplier[gear]["cost"])}


def _use_display_card(st: GameState, kind: str, v: C.UseDisplayCard) -> Parts:
    card = st.partner_display[v.slot]
    assert card is not None
    info = st.edition.partner[card]
    return USE_CARD, {"card": info["name"], "text": _effect(info["text"])}


def _upgrade_gear(st: GameState, kind: str, v: C.UpgradeGear) -> Parts:
    return UPGRADE, {"space": GearSpace(v.space)}


def _meeting_room(st: GameState, kind: str, v: C.MeetingRoom) -> Parts:
    return MEETING_DISC, {"room": v.room + 1}


def _university(st: GameState, kind: str, v: C.University) -> Parts:
    return PLACE_DISC, {"place": st.edition.city[v.city]["name"]}


def _move_disc_to(st: GameState, kind: str, v: C.MoveDiscTo) -> Parts:
    return TO_PLACE, {"place": Place(v.location)}


def _relocate_from(st: GameState, kind: str, v: C.RelocateFrom) -> Parts:
    return MOVE_DISC_FROM, {"place": st.edition.city[v.city]["name"]}


def _relocate_to(st: GameState, kind: str, v: C.RelocateTo) -> Parts:
    name = st.edition.city[v.city]["name"]
    return RELOCATE_TO, {"city": name, "reward": _city_reward(st, v.city)}


def _assignment_token(st: GameState, kind: str, v: C.AssignmentToken) -> Parts:
    return ASSIGNMENT_TOKEN, {"track": Track(v.colour)}


def _science_token(st: GameState, kind: str, v: C.ScienceToken) -> Parts:
    return SCIENCE_TOKEN, {"science": Science(v.science)}


def _advanced_action(st: GameState, kind: str, v: C.AdvancedAction) -> Parts:
    return ADVANCED, {"area": Area(v.area)}


def _breakthrough(st: GameState, kind: str, v: C.Breakthrough) -> Parts:
    token = st.edition.breakthrough[st.breakthroughs[v.track]]
    return BREAKTHROUGH, {"track": Track(v.track), "text": _effect(token["text"])}


def _adjust_own_die(st: GameState, kind: str, v: C.AdjustOwnDie) -> Parts:
    d = _own_die(st, v.die)
    return ADJUST_OWN, {"die": Die(d), "where": Where(v.die), "value": int(d[1]) + v.delta}


def _adjust_workshop_die(st: GameState, kind: str, v: C.AdjustWorkshopDie) -> Parts:
    d = st.workshop[v.space][v.index]
    return ADJUST_WORKSHOP, {"die": Die(d), "space": v.space + 1, "value": int(d[1]) + v.delta}


def _option(st: GameState, kind: str, v: C.Option) -> Parts:
    return WHOLE, {"text": _effect(st.stack[-1]["options"][v.index]["label"])}


#: Each choice-id form's label: (state, decision kind, value) -> (template, fields).
LABELS: Final[dict[type[C.ChoiceValue], Callable[[GameState, str, Any], Parts]]] = {
    C.Done: lambda st, kind, v: (DONE, {}),
    C.Pass: lambda st, kind, v: (PASS, {}),
    C.WorkshopMove: _workshop_move,
    C.StoreAction: _store_action,
    C.IdleDie: _idle_die,
    C.PushOut: _push_out,
    C.CoalAdjust: _coal_adjust,
    C.PlayCard: _play_card,
    C.MillSlot: _mill_slot,
    C.ProgramTile: _program_tile,
    C.ProgramLine: _program_line,
    C.StudyItem: _study_item,
    C.AssignmentCard: _assignment_card,
    C.AssignmentColumn: _assignment_column,
    C.GoTo: _go_to,
    C.AttendRoom: _attend_room,
    C.DisplayCard: _display_card,
    C.DraftCard: _draft_card,
    C.RemoveCard: _remove_card,
    C.Draw: _draw,
    C.LectureSpace: _lecture_space,
    C.AnalyticalSociety: _analytical_society,
    C.LowerSpace: _lower_space,
    C.MoveDiscHere: _move_disc_from,
    C.MoveDiscFrom: _move_disc_from,
    C.Publish: _publish,
    C.BuildGear: _build_gear,
    C.GearSpace: _gear_space,
    C.AdvanceSteam: _advance_steam,
    C.StackDisc: _stack_disc,
    C.ChangePip: _change_pip,
    C.SwapOwnDie: _swap_own_die,
    C.WorkshopDie: _workshop_die,
    C.DiscardCard: _discard_card,
    C.TopBonus: _top_bonus,
    C.ResearchTrack: _research_track,
    C.WorkshopBonus: _workshop_bonus,
    C.MultiplierSlot: _multiplier_slot,
    C.UseDisplayCard: _use_display_card,
    C.UpgradeGear: _upgrade_gear,
    C.MeetingRoom: _meeting_room,
    C.University: _university,
    C.MoveDiscTo: _move_disc_to,
    C.RelocateFrom: _relocate_from,
    C.RelocateTo: _relocate_to,
    C.AssignmentToken: _assignment_token,
    C.ScienceToken: _science_token,
    C.AdvancedAction: _advanced_action,
    C.Breakthrough: _breakthrough,
    C.AdjustOwnDie: _adjust_own_die,
    C.AdjustWorkshopDie: _adjust_workshop_die,
    C.Option: _option,
}


def parts(st: GameState, kind: str, value: C.ChoiceValue, decline: str | None = None) -> Parts:
    """The template and typed fields of a choice of the decision `kind` asked in `st`;
    `decline`: the step's own Skip label (engine.steps.StepKind.decline), if it has one."""
    if type(value) is C.Skip:
        return WHOLE, {"text": Text(decline or SKIP)}
    return LABELS[type(value)](st, kind, value)


# -- in English ---------------------------------------------------------------------------------


def say_field(st: GameState, field: Field) -> str:
    """A field in the engine's English words."""
    match field:
        case Die(code):
            return DIE_NAMES[code]
        case Area(key):
            return AREA_TITLE[key]
        case Track(colour):
            return AREA_TITLE[COLOUR_AREA[colour]]
        case Line(k):
            return LINE_NAMES[k]
        case Science(name):
            return (name or "sponsor").capitalize()
        case Place(loc):
            return loc_name(st, loc)
        case Where(place):
            return where_name(place)
        case GearSpace(pos):
            return gear_space_name(pos)
        case Gear(gear):
            return st.edition.gear_name(gear)
        case Amount(cost):
            return cost_text(cost)
        case Content(_, text) | Text(text):
            return text
        case Partner(card):
            template, fields = partner_parts(st, card)
            return fill(template, {name: say_field(st, f) for name, f in fields.items()})
        case Need(card):
            return need_text(st.edition.partner[card])
    return str(field)


def fill(template: Template, fields: dict[str, str]) -> str:
    """A template filled with fields already said (a Plural by its field n)."""
    if isinstance(template, Plural):
        template = template.singular if fields["n"] == "1" else template.plural
    return template.format_map(fields)


def english(st: GameState, kind: str, value: C.ChoiceValue, decline: str | None = None) -> str:
    """The engine's label of a choice, in English (see `parts`)."""
    template, fields = parts(st, kind, value, decline)
    return fill(template, {name: say_field(st, f) for name, f in fields.items()})


def label(st: GameState, kind: str, choice_id: str, decline: str | None = None) -> str:
    """The English label of one of the engine's own choice ids of the decision `kind`."""
    return english(st, kind, C.read(kind, choice_id), decline)
