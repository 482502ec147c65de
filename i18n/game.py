"""The engine's texts in a language: prompts, choice labels, log lines, content and game words.

The engine speaks English only, and its log and choice ids are stored forever, so nothing here
changes what it writes. A translation is rebuilt from structured data instead:

- a **choice label** from the choice's typed value (``engine.choices.parse(kind, id)``) and the
  state the decision is asked in, as the engine's step modules (``engine/turn.py``, the area
  modules, ``engine/effects.py``) build it in English (``tests/test_i18n_game.py`` holds the
  English rebuild equal to the engine's label for every choice of many games, so the two cannot
  drift apart);
- a **log line** from its sentence and fields (``engine.sentences.parse``), each field said in the
  language by what it is (a die, an area, resources, a place on the board, a content text);
- a **content text** (card effects, Objectives, Programs, Assignment titles, Institutions) from the
  catalogs by its context and English text (see ``i18n.extract``); people's and cities' names stay.

English gives back the engine's own text untouched (``rebuild=True`` forces the rebuild, for tests).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from engine import choices as C
from engine import sentences
from engine.common import SKIP as ENGINE_SKIP
from engine.common import lecture_costs
from engine.publish import PUBLISH_TEXT, publish_boxes_disc
from engine.rules import STEPS
from engine.state import Choice, Decision, GameState
from engine.study import STUDY_ITEM_TEXT
from engine.vocabulary import AREA_TITLE, AREAS, COLOUR_AREA, COLOUR_NAMES, LINE_NAMES, TRACK_NAMES
from i18n import N_, NP_, Lang

# -- the game's words --------------------------------------------------------------------------

_COLOUR_OF_NAME = {name: letter for letter, name in COLOUR_NAMES.items()}
_AREA_OF_TITLE = {title: area for area, title in AREA_TITLE.items()}
_TRACK_OF_NAME = {name: colour for colour, name in TRACK_NAMES.items()}
SCIENCES = {
    "mathematics": NP_("science", "Mathematics"),
    "physics": NP_("science", "Physics"),
    "astronomy": NP_("science", "Astronomy"),
    "engineering": NP_("science", "Engineering"),
    "sponsor": NP_("science", "Sponsor"),
}
#: Content contexts of the catalogs: what kind of text of an edition each is.
CONTENT_CONTEXTS = ("effect", "objective", "program", "assignment", "institution")


def die(tr: Lang, code: str) -> str:
    """'Y5' -> 'yellow 5' (colour and pips)."""
    colour = tr.p_("colour", COLOUR_NAMES[code[0]])
    return tr.p_("die", "{colour} {pips}", colour=colour, pips=code[1:])


def colour(tr: Lang, letter: str) -> str:
    return tr.p_("colour", COLOUR_NAMES[letter])


def area(tr: Lang, key: str) -> str:
    """An action area's title: "Ada's Study", "Travel"... ("workshop" too)."""
    return tr.p_("area", AREA_TITLE[key])


def track(tr: Lang, letter: str) -> str:
    """A Research track (or Assignment column) by its colour: named after its area."""
    return area(tr, COLOUR_AREA[letter])


def line(tr: Lang, k: int) -> str:
    return tr.p_("mill line", LINE_NAMES[k])


def science(tr: Lang, name: str | None) -> str:
    return tr.p_("science", SCIENCES.get(name or "sponsor", (name or "").capitalize()))


def gear_space(tr: Lang, pos: int) -> str:
    """A Gear space of the Mill: "row 1, gap 2", "column 3, gap 1"."""
    if pos < 6:
        return tr._("row {row}, gap {gap}", row=pos // 2 + 1, gap=pos % 2 + 1)
    c, g = divmod(pos - 6, 2)
    return tr._("column {column}, gap {gap}", column=c + 1, gap=g + 1)


def where(tr: Lang, place: str) -> str:
    """A die on the player board: "Store slot 2", "Mill row 1 col 3"."""
    i = int(place[1:])
    if place[0] == "s":
        return tr._("Store slot {n}", n=i + 1)
    return tr._("Mill row {row} col {column}", row=i // 3 + 1, column=i % 3 + 1)


def amount(tr: Lang, cost: dict[str, int]) -> str:
    """Resources: "£3, 2 Coal, 1 Book" (engine.common.cost_text writes "1 Book(s)"; said here
    with a real plural)."""
    parts = []
    for kind, n in cost.items():
        if kind == "money":
            parts.append(tr._("£{n}", n=n))
        elif kind == "coal":
            parts.append(tr.n_("{n} Coal", "{n} Coal", n))
        elif kind == "brass":
            parts.append(tr.n_("{n} Brass", "{n} Brass", n))
        elif kind == "books":
            parts.append(tr.n_("{n} Book", "{n} Books", n))
        elif kind == "innovation":
            parts.append(tr.n_("{n} Innovation", "{n} Innovation", n))
        else:
            parts.append(f"{n} {kind}")
    return tr._(", ").join(parts)


def content(tr: Lang, context: str, text: str) -> str:
    """A text of the game's edition (an effect, an Objective...), by its kind and English text."""
    return tr.p_(context, text) if text else text


def institution(tr: Lang, st: GameState, i: int) -> str:
    return content(tr, "institution", str(st.edition.institutions[i]["name"]))


def gear_name(tr: Lang, st: GameState, gear: str) -> str:
    """ "Addition Gear", "Subtraction Gear", or a Multiplier by its build cost."""
    if gear == "add":
        return tr._("Addition Gear")
    if gear == "sub":
        return tr._("Subtraction Gear")
    if tr.code == "en":
        return st.edition.gear_name(gear)
    info = st.edition.multiplier.get(gear)
    cost = amount(tr, info["cost"]) if info else gear
    return tr._("Multiplier Gear ({cost})", cost=cost)


def loc(tr: Lang, st: GameState, place: str) -> str:
    """A disc location of the main board (engine.state): a University, a Meeting room, a
    Lecture space, an Objective."""
    kind, _, rest = place.partition(":")
    if kind == "uni":
        return str(st.edition.city[rest]["name"])
    if kind == "room":
        return tr._("Meeting room {n}", n=int(rest) + 1)
    if kind == "lec":
        i, level = rest.split(":")
        return tr._(
            "{institution}, level {level}", institution=institution(tr, st, int(i)), level=level
        )
    return tr._("the {area} Objective", area=area(tr, AREAS[int(rest)]))


def need(tr: Lang, card: dict[str, Any]) -> str:
    """What playing a Partner card asks of the active die."""
    need = card["need"]
    if need["kind"] == "value":
        values = tr.p_("list", " or ").join(str(v) for v in need["values"])
        return tr._("needs a {values}", values=values)
    return tr._("active die -1") if need["kind"] == "minus1" else tr._("£ = active die")


def partner(tr: Lang, st: GameState, card: str) -> str:
    """A Partner card in full: name, Science, Prestige, requirement and effect."""
    info = st.edition.partner[card]
    return tr._(
        "{name} ({science}, {prestige} PP, {need}): {text}",
        name=info["name"],
        science=science(tr, info["science"]),
        prestige=info["prestige"],
        need=need(tr, info),
        text=content(tr, "effect", info["text"]),
    )


def city_reward(tr: Lang, st: GameState, city: str) -> str:
    if city in st.universities:
        text = st.edition.university_tile[st.universities[city]]["text"]
    else:
        text = st.edition.city[city].get("text", "")
    return content(tr, "effect", text)


# -- prompts -----------------------------------------------------------------------------------


#: Prompts the bot says more plainly than the engine (whose words are fixed by its golden games):
#: every prompt says what to choose.
CLEARER_PROMPTS = {
    "choose": NP_("prompt", "Choose the reward you gain."),
}


def prompt(tr: Lang, dec: Decision) -> str:
    """The question of a decision (engine.rules.PROMPTS, or the bot's clearer words)."""
    return tr.p_("prompt", CLEARER_PROMPTS.get(dec.kind, dec.prompt))


# -- choice labels -----------------------------------------------------------------------------

# The engine's fixed label texts, declared once there (a step's Skip label, each area's Publish,
# the Study items) and translated here: i18n.extract takes them from engine_tables.
SKIP = ENGINE_SKIP[1]
_SKIPS = {op: kind.decline for op, kind in STEPS.items() if kind.decline}
PUBLISH = PUBLISH_TEXT
#: Ada's Study's Publish with nothing to stack on: said before the click (a player would not
#: expect the disc to leave the game)
PUBLISH_BOXES = N_(
    "no disc of yours on the main board to stack on, so one of your discs leaves the game "
    "instead (no advanced action)"
)
_ITEMS = STUDY_ITEM_TEXT


def label(tr: Lang, st: GameState, dec: Decision, choice: Choice, *, rebuild: bool = False) -> str:
    """A choice of the decision in front of the player, in the language.

    English gives the engine's label (``rebuild=True``: built here, as the other languages are).
    A choice this module cannot say (an id of a newer engine) keeps the engine's label. A few
    choices are said more plainly than the engine says them (``_clearer``)."""
    if tr.code == "en" and not rebuild and dec.kind not in CLEARER_KINDS:
        return choice.label
    try:
        value = dec.parse(choice.id)
        clearer = _clearer(tr, st, value)
        if clearer is not None:
            return clearer
        if tr.code == "en" and not rebuild:
            return choice.label
        return _label(tr, st, dec.kind, value)
    except Exception:
        return choice.label


#: The decisions with a choice said more plainly than the engine says it (``_clearer``).
CLEARER_KINDS = frozenset({"research", "publish_or_build"})


def _clearer(tr: Lang, st: GameState, value: C.ChoiceValue) -> str | None:
    """The label of a choice whose engine label could mislead (issue 28): a Research step says
    the level it goes from and to (the engine's "(now 0)" read as the level after); Ada's Study's
    Publish with no disc to stack on says that a disc leaves the game."""
    match value:
        case C.ResearchTrack(track=t):
            level = st.me.research[t]
            return tr._(
                "+1 Research on {track} (level {level} → {next})",
                track=track(tr, t),
                level=level,
                next=level + 1,
            )
        case C.Publish() if st.ctx.get("area") == "study" and publish_boxes_disc(st):
            return tr._("Publish (1 Book): {text}", text=tr._(PUBLISH_BOXES))
    return None


def labels(tr: Lang, st: GameState, dec: Decision) -> list[str]:
    return [label(tr, st, dec, c) for c in dec.choices]


def _label(tr: Lang, st: GameState, kind: str, value: C.ChoiceValue) -> str:  # noqa: C901
    ed = st.edition
    p = st.me
    match value:
        case C.Skip():
            return tr._(_SKIPS.get(kind, SKIP))
        case C.Done():
            return tr._("Done changing dice")
        case C.Pass():
            return tr._("No turn possible: pass")
        # -- turn
        case C.WorkshopMove(space=s, die=d, moves=moves):
            if moves == 2:
                return tr._(
                    "Workshop: move {die} from space {space} two spaces (1 Coal)",
                    die=die(tr, d),
                    space=s + 1,
                )
            return tr._("Workshop: move {die} from space {space}", die=die(tr, d), space=s + 1)
        case C.StoreAction(slot=i, area=a):
            d = p.store[i]
            assert d is not None
            return tr._(
                "Actions: {die} for {area}", die=die(tr, d), area=area(tr, a or COLOUR_AREA[d[0]])
            )
        case C.IdleDie(slot=i):
            d = p.store[i]
            assert d is not None
            return tr._(
                "No turn possible: put {die} in your Mill without an action", die=die(tr, d)
            )
        # -- Workshop turn
        case C.PushOut(index=idx, adjust=adjust):
            dest = st.workshop[st.ctx["to"]]
            d = dest[idx]
            v = int(d[1])
            name = die(tr, d)
            if adjust is None:
                return tr._("Push out {die}", die=name)
            if adjust == "-":
                return tr._(
                    "Spend 1 Coal: lower {die} to {value} and push it out", die=name, value=v - 1
                )
            if adjust == "+":
                return tr._(
                    "Push out {die} and spend 1 Coal to raise it to {value}", die=name, value=v + 1
                )
            return tr._(
                "Spend 1 Coal: raise the moving die to {value}, push out {die}", value=v, die=name
            )
        case C.CoalAdjust(space=s, index=idx, delta=delta):
            d = st.workshop[s][idx]
            return tr._(
                "Spend 1 Coal: {die} in space {space} to {value}",
                die=die(tr, d),
                space=s + 1,
                value=int(d[1]) + delta,
            )
        case C.PlayCard(card=card):
            info = ed.partner[card]
            text = content(tr, "effect", info["text"])
            if kind == "play_free":
                return tr._("Play {card} free: {text}", card=info["name"], text=text)
            return tr._(
                "Play {card} ({need}): {text}", card=info["name"], need=need(tr, info), text=text
            )
        # -- Actions turn
        case C.MillSlot(slot=k):
            return tr._("Mill row {row}, column {column}", row=k // 3 + 1, column=k % 3 + 1)
        case C.ProgramTile(slot=i):
            tile = ed.program[st.program_display[i]]  # type: ignore[index]
            return tr._(
                "{text} ({prestige} Prestige)",
                text=content(tr, "program", tile["text"]),
                prestige=tile["prestige"],
            )
        case C.ProgramLine(line=k):
            return tr._(
                "{line} (bonus: {bonus})",
                line=line(tr, k),
                bonus=content(tr, "effect", ed.program_spaces[k]["text"]),
            )
        case C.StudyItem(item=item):
            return tr._(_ITEMS[item])
        case C.AssignmentCard(slot=i):
            a = ed.assignment[st.assignment_display[i]]  # type: ignore[index]
            name = content(tr, "assignment", a["name"])
            text = content(tr, "effect", a["text"])
            if a["discard"]:
                return tr._("{name} (discard {n}): {text}", name=name, n=a["discard"], text=text)
            return tr._("{name}: {text}", name=name, text=text)
        case C.AssignmentColumn(colour=c):
            return tr._("Put it in the {track} column", track=track(tr, c))
        case C.GoTo(city=city):
            name = ed.city[city]["name"]
            if kind == "move_university":
                return tr._("Move to {city}", city=name)
            if kind == "move_small":
                text = content(tr, "effect", ed.city[city].get("text", ""))
                return tr._("Move free to {city}: {text}", city=name, text=text)
            cost = ed.travel_cost[p.city][city]
            if ed.city[city]["kind"] == "university" and st.current in st.university_discs[city]:
                return tr._(
                    "{city} (£{cost}; your disc is already there: no reward)", city=name, cost=cost
                )
            return tr._(
                "{city} (£{cost}): {reward}", city=name, cost=cost, reward=city_reward(tr, st, city)
            )
        case C.AttendRoom(room=r, pay=pay):
            room = ed.meeting_rooms[r]
            if pay == "money":
                return tr._("Meeting room {room}, pay £{cost}", room=r + 1, cost=room["money"])
            return tr._(
                "Meeting room {room}, pay {cost} Innovation", room=r + 1, cost=room["innovation"]
            )
        case C.DisplayCard(slot=s):
            card = st.partner_display[s]
            assert card is not None
            if kind == "meet_card":
                return tr._(
                    "{card} [draw {n}]", card=partner(tr, st, card), n=ed.meeting_rooms[s]["draw"]
                )
            return partner(tr, st, card)
        case C.DraftCard(card=card):
            return partner(tr, st, card)
        case C.RemoveCard(card=card):
            return tr._("Remove {card} from the game", card=ed.partner[card]["name"])
        case C.Draw():
            n = st.stack[-1]["n"]
            return tr.n_("Draw {n} card from your deck", "Draw {n} cards from your deck", n)
        case C.LectureSpace(institution=i, level=lvl):
            if kind == "lecture_disc":
                return tr._("Place a disc on {place}", place=loc(tr, st, f"lec:{i}:{lvl}"))
            inst = ed.institutions[i]
            return tr._(
                "{institution} level {level} ({cost} Innovation): {text}",
                institution=institution(tr, st, i),
                level=lvl,
                cost=lecture_costs(st, st.current)[lvl],
                text=content(tr, "effect", inst["spaces"][lvl]["text"]),
            )
        case C.AnalyticalSociety():
            return tr._(
                "Analytical Society: {text}",
                text=content(tr, "effect", ed.analytical_society["text"]),
            )
        case C.LowerSpace(institution=i, level=lvl):
            return tr._(
                "{institution} level {level}: {text}",
                institution=institution(tr, st, i),
                level=lvl,
                text=content(tr, "effect", ed.institutions[i]["spaces"][lvl]["text"]),
            )
        case C.MoveDiscHere(location=place) | C.MoveDiscFrom(location=place):
            return tr._("Move your disc from {place}", place=loc(tr, st, place))
        # -- Publish or Build
        case C.Publish():
            return tr._("Publish (1 Book): {text}", text=tr._(PUBLISH[st.ctx["area"]]))
        case C.BuildGear(gear=gear):
            return tr._(
                "Build {gear} ({cost})",
                gear=gear_name(tr, st, gear),
                cost=amount(tr, ed.gear_cost(gear)),
            )
        case C.GearSpace(space=pos):
            return tr._("Gear space {space}", space=gear_space(tr, pos))
        case C.AdvanceSteam():
            coal = ed.steam_track[p.steam + 1]["coal"]
            return tr._("Advance Steam (pay {n} Coal)", n=coal)
        case C.StackDisc(location=place):
            return tr._("Stack a disc on {place}", place=loc(tr, st, place))
        case C.ChangePip(die=place, delta=delta):
            d = _own_die(st, place)
            v = int(d[1]) + delta
            if delta < 0:
                return tr._(
                    "{die} ({where}) down to {value}",
                    die=die(tr, d),
                    where=where(tr, place),
                    value=v,
                )
            return tr._(
                "{die} ({where}) up to {value}", die=die(tr, d), where=where(tr, place), value=v
            )
        case C.SwapOwnDie(die=place):
            return tr._(
                "Swap your {die} ({where})",
                die=die(tr, _own_die(st, place)),
                where=where(tr, place),
            )
        case C.WorkshopDie(space=s, index=idx):
            return tr._(
                "with {die} in Workshop space {space}",
                die=die(tr, st.workshop[s][idx]),
                space=s + 1,
            )
        case C.DiscardCard(card=card):
            name = ed.partner[card]["name"]
            if kind == "hand_limit":
                return tr._("Discard {card} (hand limit {n})", card=name, n=ed.hand_limit)
            return tr._("Discard {card}", card=name)
        # -- effects
        case C.TopBonus(bonus=b):
            return tr._(
                "Spend {n} Innovation: {text}",
                n=ed.innovation_top_spend,
                text=content(tr, "effect", ed.workshop_bonuses[b]["text"]),
            )
        case C.ResearchTrack(track=t):
            return tr._(
                "+1 Research on {track} (now {level})", track=track(tr, t), level=p.research[t]
            )
        case C.WorkshopBonus(bonus=b):
            return content(tr, "effect", ed.workshop_bonuses[b]["text"])
        case C.MultiplierSlot(slot=i):
            gear = st.multiplier_display[i]
            assert gear is not None
            return tr._(
                "Multiplier Gear (build cost {cost})", cost=amount(tr, ed.multiplier[gear]["cost"])
            )
        case C.UseDisplayCard(slot=s):
            card = st.partner_display[s]
            assert card is not None
            info = ed.partner[card]
            return tr._(
                "Use {card}: {text}", card=info["name"], text=content(tr, "effect", info["text"])
            )
        case C.UpgradeGear(space=pos):
            return tr._(
                "Turn the Subtraction Gear at {space} into Addition", space=gear_space(tr, pos)
            )
        case C.MeetingRoom(room=r):
            return tr._("Place a disc in Meeting room {room}", room=r + 1)
        case C.University(city=city):
            return tr._("Place a disc on {place}", place=ed.city[city]["name"])
        case C.MoveDiscTo(location=place):
            return tr._("to {place}", place=loc(tr, st, place))
        case C.RelocateFrom(city=city):
            return tr._("Move your disc from {place}", place=ed.city[city]["name"])
        case C.RelocateTo(city=city):
            return tr._(
                "to {city}: {reward}", city=ed.city[city]["name"], reward=city_reward(tr, st, city)
            )
        case C.AssignmentToken(colour=c):
            return tr._("Take a 1-point {track} Assignment Scoring token", track=track(tr, c))
        case C.ScienceToken(science=s):
            return tr._("Take a 1-point {science} Science Scoring token", science=science(tr, s))
        case C.AdvancedAction(area=a):
            return tr._("Level I advanced action of {area}", area=area(tr, a))
        case C.Breakthrough(track=t):
            token = ed.breakthrough[st.breakthroughs[t]]
            return tr._(
                "Breakthrough ({track}): {text}",
                track=track(tr, t),
                text=content(tr, "effect", token["text"]),
            )
        case C.AdjustOwnDie(die=place, delta=delta):
            d = _own_die(st, place)
            return tr._(
                "Your {die} ({where}) to {value}",
                die=die(tr, d),
                where=where(tr, place),
                value=int(d[1]) + delta,
            )
        case C.AdjustWorkshopDie(space=s, index=idx, delta=delta):
            d = st.workshop[s][idx]
            return tr._(
                "{die} in Workshop space {space} to {value}",
                die=die(tr, d),
                space=s + 1,
                value=int(d[1]) + delta,
            )
        case C.Option(index=i):
            return content(tr, "effect", st.stack[-1]["options"][i]["label"])
    raise ValueError(f"no label for {value!r} in {kind}")


def _own_die(st: GameState, place: str) -> str:
    p = st.me
    d = (p.store if place[0] == "s" else p.mill)[int(place[1:])]
    assert d is not None
    return d


# -- log lines ---------------------------------------------------------------------------------

_DIE_TEXT = re.compile(r"(\w+) ([1-6])")
_GEAR_SPACE = re.compile(r"(row|column) (\d+), gap (\d+)")
_AMOUNT = re.compile(r"£(\d+)|(\d+) (Coal|Brass|Book\(s\)|Innovation)")
_AMOUNT_KIND = {"Coal": "coal", "Brass": "brass", "Book(s)": "books", "Innovation": "innovation"}
_ROOM = re.compile(r"Meeting room (\d+)")
_LECTURE = re.compile(r"(.+), level (\d+)")
_OBJECTIVE = re.compile(r"the (.+) Objective")
_MULTIPLIER = re.compile(r"Multiplier \((\w+)\)")


def _die_of(text: str) -> str:
    m = _DIE_TEXT.fullmatch(text)
    assert m is not None, text
    return _COLOUR_OF_NAME[m[1]] + m[2]


def _loc_of(st: GameState, text: str) -> str:
    """The disc location a log line names (engine.common.loc_name, read back)."""
    if m := _ROOM.fullmatch(text):
        return f"room:{int(m[1]) - 1}"
    if m := _OBJECTIVE.fullmatch(text):
        return f"obj:{AREAS.index(_AREA_OF_TITLE[m[1]])}"
    if m := _LECTURE.fullmatch(text):
        names = [str(inst["name"]) for inst in st.edition.institutions]
        if m[1] in names:
            return f"lec:{names.index(m[1])}:{m[2]}"
    cities = {str(info["name"]): c for c, info in st.edition.city.items()}
    if text in cities:
        return f"uni:{cities[text]}"
    raise ValueError(f"not a place: {text!r}")


def _amount_of(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in _AMOUNT.finditer(text):
        if m[1] is not None:
            out["money"] = int(m[1])
        else:
            out[_AMOUNT_KIND[m[3]]] = int(m[2])
    return out


def _gear_of(text: str) -> str:
    if text == "Addition Gear":
        return "add"
    if text == "Subtraction Gear":
        return "sub"
    m = _MULTIPLIER.fullmatch(text)
    assert m is not None, text
    return m[1]


def _gear_space_of(text: str) -> int:
    m = _GEAR_SPACE.fullmatch(text)
    assert m is not None, text
    a, b = int(m[2]) - 1, int(m[3]) - 1
    return a * 2 + b if m[1] == "row" else 6 + a * 2 + b


def log_fields(tr: Lang, st: GameState, fields: dict[str, str]) -> dict[str, str]:
    """A logged sentence's fields in the language (names and numbers stay as they are)."""
    out: dict[str, str] = {}
    for name, text in fields.items():
        if name in ("die", "die2"):
            out[name] = die(tr, _die_of(text))
        elif name == "area":
            out[name] = area(tr, _AREA_OF_TITLE[text])
        elif name == "track":
            out[name] = track(tr, _TRACK_OF_NAME[text])
        elif name == "line":
            out[name] = line(tr, LINE_NAMES.index(text))
        elif name == "amount":
            out[name] = amount(tr, _amount_of(text))
        elif name == "gear_space":
            out[name] = gear_space(tr, _gear_space_of(text))
        elif name in ("loc", "loc2"):
            out[name] = loc(tr, st, _loc_of(st, text))
        elif name == "gear":
            out[name] = gear_name(tr, st, _gear_of(text))
        elif name in ("bonus", "effect"):
            out[name] = content(tr, "effect", text)
        elif name in ("program", "assignment"):
            out[name] = content(tr, name, text)
        else:  # names (card, city, player) and numbers
            out[name] = text
    return out


@lru_cache(maxsize=8192)
def _parse(text: str) -> tuple[sentences.Sentence, dict[str, str]] | None:
    return sentences.parse(text)


def fake_plural(text: str) -> bool:
    """Whether an engine text says a plural as "(s)" ("1 Book(s)"): its stored words stay (the
    golden digests hold them), what a player reads is rebuilt with the catalog's plurals."""
    return "(s)" in text


def speaker(line_text: str, names: list[str]) -> tuple[int, str] | None:
    """(seat, text) of a log line spoken by a player; longest name first, as one may prefix
    another."""
    for seat in sorted(range(len(names)), key=lambda s: -len(names[s])):
        prefix = f"{names[seat]}: "
        if line_text.startswith(prefix):
            return seat, line_text[len(prefix) :]
    return None


def sentence(
    tr: Lang, st: GameState, text: str, *, template: str | None = None, rebuild: bool = False
) -> str:
    """A logged sentence (without its speaker) in the language; ``template``: another English
    template with the same fields to say it with (a short form). A line no rule writes stays."""
    if tr.code == "en" and not rebuild and template is None and not fake_plural(text):
        return text
    parsed = _parse(text)
    if parsed is None:
        return text
    said, fields = parsed
    try:
        values = log_fields(tr, st, fields)
    except Exception:
        return text
    if template is None:
        return tr.p_("log", said.text, **values)
    return tr._(template, **values)


def log_line(tr: Lang, st: GameState, text: str, *, rebuild: bool = False) -> str:
    """A line of the game's log in the language: "<player>: <sentence>" or a line of no player.
    English gives the engine's line, rebuilt only where it says a plural as "(s)"."""
    if tr.code == "en" and not rebuild and not fake_plural(text):
        return text
    spoken = speaker(text, st.seat_names)
    if spoken is None:
        return sentence(tr, st, text, rebuild=rebuild)
    seat, rest = spoken
    return tr._(
        "{player}: {text}", player=st.seat_names[seat], text=sentence(tr, st, rest, rebuild=rebuild)
    )


# -- the scorepad ------------------------------------------------------------------------------


def category(tr: Lang, name: str) -> str:
    """A scorepad category (engine.scoring.CATEGORIES, and "Total")."""
    return tr.p_("score", name)


def engine_tables() -> dict[str | None, list[str]]:
    """The engine's texts that the catalogs translate, by context (for i18n.extract; None: the
    choice labels, which have none)."""
    from engine.rules import PROMPTS
    from engine.scoring import CATEGORIES

    return {
        None: [SKIP, *_SKIPS.values(), *PUBLISH.values(), *_ITEMS.values()],
        "prompt": [p for p in PROMPTS.values() if isinstance(p, str)],
        "log": [s.text for s in sentences.SENTENCES],
        "area": list(AREA_TITLE.values()),
        "colour": list(COLOUR_NAMES.values()),
        "mill line": list(LINE_NAMES),
        "score": [*CATEGORIES, "Total"],
    }
