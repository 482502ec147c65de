"""What the rules state about the content, checked against an edition.

Every fact of ../shared/content-facts.md and of the rulebook's worked examples that an edition's
values could contradict is one function here, which names its source. `check(edition)` runs them
all and returns the problems (empty: the edition agrees with every fact). Loading an edition runs
it; `python -m engine check-edition FILE` prints it.

Designed values (marked provisional) are free as long as they agree with these facts; our own
design goals for the designed edition (fair starting decks, Prestige scales...) are tests of that
edition (tests/test_content.py), not facts: a printed edition need not meet them.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import vocabulary as V
from engine.edition_file import Problem

if TYPE_CHECKING:
    from engine.edition import Edition

Found = Iterator[tuple[str, Any, str | None, str]]  # (section, item, field, what is wrong)


@dataclass(frozen=True)
class Fact:
    name: str
    source: str
    check: Callable[[Edition], Found]


FACTS: list[Fact] = []


def fact(source: str) -> Callable[[Callable[[Edition], Found]], Callable[[Edition], Found]]:
    def register(fn: Callable[[Edition], Found]) -> Callable[[Edition], Found]:
        FACTS.append(Fact(fn.__name__, source, fn))
        return fn

    return register


def check(ed: Edition) -> list[Problem]:
    """Every problem of `ed` with the rules' facts, each naming the fact's source."""
    problems = []
    for f in FACTS:
        try:
            found = list(f.check(ed))
        except (KeyError, IndexError, TypeError, ValueError) as exc:  # a missing piece
            found = [("edition", None, None, f"cannot be checked ({type(exc).__name__}: {exc})")]
        for section, item, field, what in found:
            problems.append(Problem(section, item, field, f"{what} (rules: {f.source})"))
    return problems


def _effects(ed: Edition) -> Iterator[list[dict[str, Any]]]:
    yield from (b["effect"] for b in ed.workshop_bonuses.values())
    yield from (s["effect"] for s in ed.program_spaces)
    yield from (c["reward"] for c in ed.cities if c["reward"])
    yield from (t["reward"] for t in ed.university_tiles)
    yield from (s["effect"] for i in ed.institutions for s in i["spaces"].values())
    yield ed.analytical_society["effect"]
    yield from (b["effect"] for b in ed.breakthroughs)
    yield from (a["effect"] for a in ed.assignments)
    yield from (p["effect"] for p in ed.partners)


def _gains(effect: list[dict[str, Any]]) -> Counter[str]:
    """What an effect made only of `gain` steps gives (None-like: an empty Counter otherwise)."""
    total: Counter[str] = Counter()
    for step in effect:
        if step["op"] != "gain":
            return Counter()
        total.update({k: v for k, v in step.items() if k != "op"})
    return total


def _count(items: list[Any], n: int, section: str, what: str) -> Found:
    if len(items) != n:
        yield section, None, None, f"{what}: {n}, found {len(items)}"


def _component(ed: Edition, key: str, n: int) -> Found:
    if ed.components.get(key) != n:
        yield "components", None, key, f"is {ed.components.get(key)}, the box has {n}"


# ---------------------------------------------------------------------------------------------
# Counts (the component list)
# ---------------------------------------------------------------------------------------------


@fact("content-facts.md, Counts: dice 50 = 10 of each colour")
def dice(ed: Edition) -> Found:
    yield from _component(ed, "dice", 50)
    if ed.dice_per_colour * len(V.DIE_COLOURS) != 50:
        yield "dice", None, "per_colour", f"{ed.dice_per_colour} x 5 colours is not 50"


@fact("rulebook, Setup: 3 players remove 1 die of each colour, 2 players 2")
def dice_removed(ed: Edition) -> Found:
    if ed.dice_removed_per_colour != {2: 2, 3: 1, 4: 0}:
        yield "dice", None, "removed_per_colour", "must be { 2 = 2, 3 = 1, 4 = 0 }"


@fact("content-facts.md, Counts: the Workshop has 6 spaces with 3 rolled dice each")
def workshop_size(ed: Edition) -> Found:
    if ed.workshop_spaces != 6:
        yield "workshop", None, "spaces", f"is {ed.workshop_spaces}, not 6"
    if ed.workshop_dice_per_space != 3:
        yield "workshop", None, "dice_per_space", f"is {ed.workshop_dice_per_space}, not 3"


@fact(
    "content-facts.md, Counts: the Workshop bonuses are 1 Research, 2 Coal, £3, 1 Innovation, "
    "1 Brass, draw 2 Partner cards"
)
def workshop_bonuses(ed: Edition) -> Found:
    wanted = {
        "research": [{"op": "research", "track": "any", "n": 1, "different": False}],
        "coal": [{"op": "gain", "coal": 2}],
        "money": [{"op": "gain", "money": 3}],
        "innovation": [{"op": "innovation", "n": 1}],
        "brass": [{"op": "gain", "brass": 1}],
        "cards": [{"op": "draw", "n": 2}],
    }
    got = sorted(str(b["effect"]) for b in ed.workshop_bonuses.values())
    if got != sorted(str(e) for e in wanted.values()):
        yield "workshop.bonuses", None, None, "must be exactly the six stated rewards"


@fact("content-facts.md, Counts: 28 Program tiles, a display of 5")
def programs(ed: Edition) -> Found:
    yield from _count(ed.programs, 28, "programs", "Program tiles")
    yield from _component(ed, "program_tiles", 28)
    if ed.program_display != 5:
        yield "displays", None, "programs", f"is {ed.program_display}, not 5"


@fact("content-facts.md, Counts: 30 Assignment cards, a display of 4")
def assignments(ed: Edition) -> Found:
    yield from _count(ed.assignments, 30, "assignments", "Assignment cards")
    yield from _component(ed, "assignment_cards", 30)
    if ed.assignment_display != 4:
        yield "displays", None, "assignments", f"is {ed.assignment_display}, not 4"


@fact("content-facts.md, Counts: 24 Objective tiles, 6 per action area, marked A or B")
def objectives(ed: Edition) -> Found:
    yield from _count(ed.objectives, 24, "objectives", "Objective tiles")
    yield from _component(ed, "objective_tiles", 24)
    per_area = Counter(o["area"] for o in ed.objectives)
    for area in V.AREA_COLOUR:
        if per_area[area] != 6:
            yield "objectives", None, "area", f"{area} has {per_area[area]} tiles, not 6"
        sides = {o["side"] for o in ed.objectives if o["area"] == area}
        if sides != {"A", "B"}:  # the four tiles placed all show one letter, drawn at random
            yield "objectives", None, "side", f"{area} needs tiles of side A and of side B"


@fact("content-facts.md, Counts: 9 Breakthrough tokens, one per Research track, 4 used")
def breakthroughs(ed: Edition) -> Found:
    yield from _count(ed.breakthroughs, 9, "breakthroughs", "Breakthrough tokens")
    yield from _component(ed, "breakthrough_tokens", 9)


@fact("content-facts.md, Counts: 15 University tiles, 8 Southern and 7 Central")
def university_tiles(ed: Edition) -> Found:
    regions = Counter(t["region"] for t in ed.university_tiles)
    if regions != Counter({"southern": 8, "central": 7}):
        yield "university_tiles", None, "region", f"8 southern and 7 central, found {dict(regions)}"
    yield from _component(ed, "university_tiles", 15)
    spaces = Counter(c["region"] for c in ed.cities if c["kind"] == "university")
    if spaces["southern"] > 8 or spaces["central"] > 7:
        yield "cities", None, "region", "more University spaces of a region than its tiles"


@fact("content-facts.md, Counts: the Scottish universities are printed on the board")
def scottish_universities(ed: Edition) -> Found:
    scottish = [c for c in ed.cities if c["region"] == "scottish"]
    if not scottish:
        yield "cities", None, "region", "no Scottish University"
    for c in scottish:
        if not c["reward"] or not isinstance(c.get("prestige"), int):
            yield "cities", c["id"], "reward", "a Scottish University has its reward and Prestige"


@fact(
    "content-facts.md, Counts: 7 starting Partner cards per player (4 decks), 10 tier 1, 30 tier 2"
)
def partner_counts(ed: Edition) -> Found:
    tiers = Counter(p["tier"] for p in ed.partners)
    if tiers[1] != 10:
        yield "partners", None, "tier", f"10 tier 1 cards, found {tiers[1]}"
    if tiers[2] != 30:
        yield "partners", None, "tier", f"30 tier 2 cards, found {tiers[2]}"
    decks = Counter(p["deck"] for p in ed.partners if p["tier"] == "S")
    for colour in ed.player_colours:
        if decks[colour] != 7:
            yield "partners", None, "deck", f"the {colour} deck has {decks[colour]} cards, not 7"
    yield from _component(ed, "tier1_partners", 10)
    yield from _component(ed, "tier2_partners", 30)
    yield from _component(ed, "starting_partners_per_player", 7)


@fact("rulebook, Setup: with fewer than 4 players the tier 1 deck is cut to 6 cards")
def tier1_cut(ed: Edition) -> Found:
    if ed.tier1_deck_after_deal != 6:
        yield "setup", None, "tier1_deck_after_deal", f"is {ed.tier1_deck_after_deal}, not 6"


@fact("content-facts.md, Counts: 24 Addition, 8 Subtraction, 12 Multiplier Gears (display 2)")
def gear_counts(ed: Edition) -> Found:
    if ed.addition_gears != 24:
        yield "gears", None, "addition", f"is {ed.addition_gears}, not 24"
    if ed.subtraction_gears != 8:
        yield "gears", None, "subtraction", f"is {ed.subtraction_gears}, not 8"
    yield from _count(ed.multipliers, 12, "multipliers", "Multiplier Gears")
    for key, n in (("addition_gears", 24), ("subtraction_gears", 8), ("multiplier_gears", 12)):
        yield from _component(ed, key, n)
    if ed.multiplier_display != 2:
        yield "displays", None, "multipliers", f"is {ed.multiplier_display}, not 2"


@fact("content-facts.md, Counts: each player starts with 1 Addition and 2 Subtraction Gears")
def start_gears(ed: Edition) -> Found:
    if Counter(ed.start_gears) != Counter({"add": 1, "sub": 2}):
        yield "setup", None, "start_gears", "must be one add and two sub"


@fact(
    "content-facts.md, Counts: 16 Assignment Scoring tokens (4 per colour) and 16 Science "
    "Scoring tokens (4 per Science), a 2 on top of 1s"
)
def scoring_tokens(ed: Edition) -> Found:
    for name, stack, key in (
        ("assignment_token_stack", ed.assignment_token_stack, "assignment_scoring_tokens"),
        ("science_token_stack", ed.science_token_stack, "science_scoring_tokens"),
    ):
        if stack != [2, 1, 1, 1]:
            yield "research", None, name, "must be [2, 1, 1, 1] (top first)"
        yield from _component(ed, key, 16)


@fact(
    "content-facts.md, Counts: per player 12 discs on the 12 Gear spaces, 4 Research tokens, "
    "a Travel token in London; Books 12, Coal 36, Brass 36"
)
def per_player(ed: Edition) -> Found:
    for key, n in (
        ("discs_per_player", V.MILL_GEAR_SPACES),
        ("research_tokens_per_player", 4),
        ("books", 12),
        ("coal", 36),
        ("brass", 36),
    ):
        yield from _component(ed, key, n)
    if ed.start_city != "london":
        yield "setup", None, "start_city", "the Travel token starts in London"


# ---------------------------------------------------------------------------------------------
# Setup numbers
# ---------------------------------------------------------------------------------------------


@fact("rulebook, Setup: £4, 1 Coal, 1 Brass, 1 Book; 2nd seat +£1, 3rd +1 Coal, 4th +£1 +1 Coal")
def start_resources(ed: Edition) -> Found:
    if ed.start_resources != {"money": 4, "coal": 1, "brass": 1, "books": 1}:
        yield "setup", None, "start_resources", "must be £4, 1 Coal, 1 Brass, 1 Book"
    if ed.seat_bonus != [{}, {"money": 1}, {"coal": 1}, {"money": 1, "coal": 1}]:
        yield "setup", None, "seat_bonus", "must be [{}, {money 1}, {coal 1}, {money 1, coal 1}]"


@fact("rulebook, Setup and Partner cards: draw 4; hand limit 5; always 8 cards in the supply")
def hand(ed: Edition) -> Found:
    for name, value, want in (
        ("start_hand", ed.start_hand, 4),
        ("hand_limit", ed.hand_limit, 5),
        ("supply_size", ed.supply_size, 8),
    ):
        if value != want:
            yield "setup", None, name, f"is {value}, not {want}"


# ---------------------------------------------------------------------------------------------
# Player board
# ---------------------------------------------------------------------------------------------


@fact("content-facts.md, Player board: the Store has a few die slots")
def store(ed: Edition) -> Found:
    if ed.store_slots < 2:
        yield "player_board", None, "store_slots", "a few slots: at least 2"


@fact(
    "content-facts.md, Player board: 6 Program spaces, one per line: 1 Book; 2 Innovation; draw 3 "
    "Partner cards; 2 different Workshop bonus rewards; 2 Research; 2 Brass"
)
def program_spaces(ed: Edition) -> Found:
    wanted = [
        [{"op": "gain", "books": 1}],
        [{"op": "innovation", "n": 2}],
        [{"op": "draw", "n": 3}],
        [{"op": "workshop_bonus", "n": 2, "different": True}],
        [{"op": "research", "track": "any", "n": 2, "different": False}],
        [{"op": "gain", "brass": 2}],
    ]
    got = sorted(str(s["effect"]) for s in ed.program_spaces)
    if got != sorted(str(e) for e in wanted):
        yield "program_spaces", None, "effect", "must be exactly the six stated bonuses"


@fact(
    "content-facts.md, Player board: Steam level 3 caps at 20, lines capped at 25 and 30 "
    "appear in the examples (Anthony's 32 scores 30)"
)
def steam(ed: Edition) -> Found:
    caps = [level["cap"] for level in ed.steam_track]
    if len(caps) < 4 or caps[3] != 20:
        yield "steam_track", 3, "cap", "Steam level 3 caps at 20"
    for cap in (25, 30):
        if cap not in caps:
            yield "steam_track", None, "cap", f"a level capping at {cap} is missing"


@fact(
    "content-facts.md, Player board: Innovation 0..6, the top 2 spaces score; at the top you may "
    "spend 2 for a Workshop bonus"
)
def innovation(ed: Edition) -> Found:
    if ed.innovation_max != 6:
        yield "innovation", None, "max", f"is {ed.innovation_max}, not 6"
    if set(ed.innovation_prestige) != {5, 6} or min(ed.innovation_prestige.values()) <= 0:
        yield "innovation", None, "prestige", "the top 2 spaces (5 and 6) score Prestige"
    if ed.innovation_top_spend != 2:
        yield "innovation", None, "top_spend", f"is {ed.innovation_top_spend}, not 2"


@fact(
    "content-facts.md, Player board: Research tracks with Breakthrough spaces, advanced levels "
    "I and II and a top space"
)
def research(ed: Edition) -> Found:
    track = ed.research_track
    if not track["breakthroughs"]:
        yield "research", None, "track", "needs Breakthrough spaces"


# ---------------------------------------------------------------------------------------------
# Main board
# ---------------------------------------------------------------------------------------------


@fact(
    "content-facts.md, Main board: London (start), Oxford, Bristol and Manchester "
    "(Universities) and Liverpool (Small City: 1 Coal and £3)"
)
def named_cities(ed: Edition) -> Found:
    kinds = {"london": "small", "oxford": None, "bristol": "university"}
    kinds |= {"manchester": "university", "liverpool": "small"}
    for cid, kind in kinds.items():
        city = ed.city.get(cid)
        if city is None:
            yield "cities", cid, None, "is missing"
        elif kind and city["kind"] != kind:
            yield "cities", cid, "kind", f"must be {kind}"
    liverpool = ed.city.get("liverpool")
    if liverpool and _gains(liverpool["reward"] or []) != Counter({"coal": 1, "money": 3}):
        yield "cities", "liverpool", "reward", "must be 1 Coal and £3"


@fact("content-facts.md, Main board: routes cost road £1, rail £2, ferry £4")
def route_costs(ed: Edition) -> Found:
    if ed.route_cost != {"road": 1, "rail": 2, "ferry": 4}:
        yield "travel", None, "route_cost", "must be road 1, rail 2, ferry 4"


@fact(
    "content-facts.md, Main board (Anthony's Travel example): Oxford to Manchester costs £6, "
    "roads at £1 each plus one rail at £2"
)
def oxford_to_manchester(ed: Edition) -> Found:
    if "oxford" not in ed.city or "manchester" not in ed.city:
        return
    cost = ed.travel_cost["oxford"].get("manchester")
    if cost != 6:
        yield (
            "travel",
            None,
            "routes",
            f"the cheapest Oxford-Manchester journey costs {cost}, not 6",
        )
        return
    for kinds in _cheapest_journeys(ed, "oxford", "manchester", 6):
        if Counter(kinds) != Counter({"road": 4, "rail": 1}):
            yield "travel", None, "routes", f"a £6 Oxford-Manchester journey uses {kinds}"
            return


def _cheapest_journeys(ed: Edition, start: str, goal: str, budget: int) -> Iterator[list[str]]:
    """The route kinds of every simple journey from start to goal costing exactly `budget`."""
    adj: dict[str, list[tuple[str, str]]] = {c: [] for c in ed.city}
    for a, b, kind in ed.routes:
        adj[a].append((b, kind))
        adj[b].append((a, kind))
    queue: list[tuple[int, list[str], list[str]]] = [(0, [start], [])]
    while queue:
        cost, path, kinds = heapq.heappop(queue)
        here = path[-1]
        if here == goal:
            if cost == budget:
                yield kinds
            continue
        for there, kind in adj[here]:
            step = ed.route_cost[kind]
            if there not in path and cost + step <= budget:
                heapq.heappush(queue, (cost + step, path + [there], kinds + [kind]))


@fact(
    "content-facts.md, Main board: Meeting rooms cost £5 or 3, £4 or 2, £3 or 2, £2 or 1 "
    "Innovation; draws 2, 1, 1, 0 by slot; a Partner display of 4; several disc spaces"
)
def meeting_rooms(ed: Edition) -> Found:
    rooms = ed.meeting_rooms
    if [(r["money"], r["innovation"]) for r in rooms] != [(5, 3), (4, 2), (3, 2), (2, 1)]:
        yield "meeting_rooms", None, "money", "costs must be £5/3, £4/2, £3/2, £2/1 left to right"
    if [r["draw"] for r in rooms] != [2, 1, 1, 0]:
        yield "meeting_rooms", None, "draw", "draws must be 2, 1, 1, 0 left to right"
    for i, r in enumerate(rooms):
        if r["capacity"] < 2:
            yield "meeting_rooms", i, "capacity", "a room has several disc spaces"
    if ed.partner_display != 4:
        yield "displays", None, "partners", f"is {ed.partner_display}, not 4"


@fact(
    "content-facts.md, Main board: the Institutions are the Royal Society, the British "
    "Association for the Advancement of Science, the Royal Astronomical Society and the British "
    "Government, with Lecture levels 2 to 6"
)
def institutions(ed: Edition) -> Found:
    names = [i["name"] for i in ed.institutions]
    wanted = [
        "Royal Society",
        "British Association for the Advancement of Science",
        "Royal Astronomical Society",
        "British Government",
    ]
    if names != wanted:
        yield "institutions", None, "name", "must be " + ", ".join(wanted) + " in this order"
    if sorted(ed.lecture_levels) != [2, 3, 4, 5, 6]:
        yield "lectures", None, "levels", "Lecture levels are 2 to 6"


@fact(
    "content-facts.md, Main board: Lecture costs 1, 1, 2, 2, 3 Innovation for levels 2-6; row "
    "majorities 8/6/4/2/2 for levels 6/5/4/3/2"
)
def lecture_numbers(ed: Edition) -> Found:
    if ed.lecture_costs != {2: 1, 3: 1, 4: 2, 5: 2, 6: 3}:
        yield "lectures", None, "costs", "must be { 2 = 1, 3 = 1, 4 = 2, 5 = 2, 6 = 3 }"
    if ed.lecture_majority != {6: 8, 5: 6, 4: 4, 3: 2, 2: 2}:
        yield "lectures", None, "majority", "must be { 6 = 8, 5 = 6, 4 = 4, 3 = 2, 2 = 2 }"


@fact("content-facts.md, Main board: the Analytical Society (level 1) draws 1 card and gains £2")
def analytical_society(ed: Edition) -> Found:
    if ed.analytical_society["effect"] != [{"op": "draw", "n": 1}, {"op": "gain", "money": 2}]:
        yield "analytical_society", None, "effect", "must draw 1 card and gain £2"


@fact(
    "content-facts.md, Main board: Royal Society level 6 uses the effect of a Partner card in "
    "the Meetings display and takes an Engineering Science Scoring token"
)
def royal_society(ed: Edition) -> Found:
    top = next((i for i in ed.institutions if i["name"] == "Royal Society"), None)
    if top is None or top["spaces"].get(6, {}).get("effect") != [
        {"op": "use_display_partner"},
        {"op": "science_token", "science": "engineering"},
    ]:
        yield "institutions", "royal_society", "spaces", "level 6: display Partner + Engineering"


@fact(
    "content-facts.md, Main board: some Lecture space draws 2 Partner cards and gains 2 "
    "different Breakthroughs; some space below level 6 gains £1 and 2 different Study items"
)
def lecture_rewards(ed: Edition) -> Found:
    spaces = [(lvl, s["effect"]) for i in ed.institutions for lvl, s in i["spaces"].items()]
    bt = [{"op": "draw", "n": 2}, {"op": "breakthrough", "n": 2, "different": True}]
    study = [{"op": "gain", "money": 1}, {"op": "study_item", "n": 2, "different": True}]
    if not any(e == bt for _, e in spaces):
        yield "institutions", None, "spaces", "no space draws 2 and gains 2 Breakthroughs"
    if not any(e == study and lvl < 6 for lvl, e in spaces):
        yield "institutions", None, "spaces", "no space below 6 gains £1 and 2 Study items"


@fact(
    "content-facts.md, Main board: the Objective examples (Bristol and Manchester; 2 purple "
    "Assignments; a die of each main colour; 1 Multiplier; 2 Lecture majorities; 5 sponsors; 2 "
    "Programs; 3 Meeting rooms)"
)
def objective_examples(ed: Edition) -> Found:
    conditions = [o["condition"] for o in ed.objectives]
    for wanted in (
        {"kind": "universities_visited", "cities": ["bristol", "manchester"]},
        {"kind": "assignments_in_column", "colour": "P", "n": 2},
        {"kind": "mill_main_colours"},
        {"kind": "multipliers_built", "n": 1},
        {"kind": "lecture_majorities", "n": 2},
        {"kind": "sponsors_in_supply", "n": 5},
        {"kind": "programs_placed", "n": 2},
        {"kind": "meeting_rooms", "n": 3},
    ):
        if wanted not in conditions:
            yield "objectives", None, "condition", f"no Objective {wanted}"


@fact("rulebook, Objectives: Isobel's 3 different Meeting rooms takes the 7-Prestige space")
def isobel_objective(ed: Edition) -> Found:
    for o in ed.objectives:
        if o["condition"] == {"kind": "meeting_rooms", "n": 3} and o["high"] != 7:
            yield "objectives", o["id"], "high", "must be 7"


# ---------------------------------------------------------------------------------------------
# Cards and tiles named in the rules
# ---------------------------------------------------------------------------------------------


def _partner(ed: Edition, name: str) -> dict[str, Any] | None:
    return next((p for p in ed.partners if p["name"] == name), None)


@fact(
    "content-facts.md, Cards: Augustus de Morgan needs a die of 2 and gains 1 Innovation and a "
    "Study item"
)
def augustus_de_morgan(ed: Edition) -> Found:
    card = _partner(ed, "Augustus De Morgan")
    if card is None:
        yield "partners", None, "name", "Augustus De Morgan is missing"
        return
    if card["need"] != {"kind": "value", "values": [2]}:
        yield "partners", card["id"], "need", "needs a die of 2"
    if card["effect"] != [
        {"op": "innovation", "n": 1},
        {"op": "study_item", "n": 1, "different": False},
    ]:
        yield "partners", card["id"], "effect", "gains 1 Innovation and a Study item"


@fact("content-facts.md, Cards: Caroline Herschel builds an Addition Gear free")
def caroline_herschel(ed: Edition) -> Found:
    card = _partner(ed, "Caroline Herschel")
    if card is None or {"op": "build_free", "gear": "add"} not in card["effect"]:
        yield (
            "partners",
            card and card["id"],
            "effect",
            "Caroline Herschel builds an Addition Gear free",
        )


@fact(
    "content-facts.md, Cards: Bryan Donkin gains £3 and swaps a built Subtraction Gear for an "
    "Addition Gear"
)
def bryan_donkin(ed: Edition) -> Found:
    card = _partner(ed, "Bryan Donkin")
    if card is None or card["effect"] != [
        {"op": "gain", "money": 3},
        {"op": "upgrade_subtraction"},
    ]:
        yield (
            "partners",
            card and card["id"],
            "effect",
            "Bryan Donkin: £3 and upgrade a Subtraction Gear",
        )


@fact(
    "content-facts.md, Cards: Menabrea is a Partner (not a starting card: Isobel removes him "
    "from the display's deck); press names Charles Babbage, Charles Dickens, Queen Victoria"
)
def named_partners(ed: Edition) -> Found:
    for name in ("Luigi Menabrea", "Charles Babbage", "Charles Dickens", "Queen Victoria"):
        card = _partner(ed, name)
        if card is None:
            yield "partners", None, "name", f"{name} is missing"
        elif name == "Luigi Menabrea" and card["tier"] == "S":
            yield "partners", card["id"], "tier", "Menabrea is not a starting card"


@fact(
    "content-facts.md, Cards: requirements are a die value, N-1 or N x £; sponsors have no Science"
)
def partner_kinds(ed: Edition) -> Found:
    kinds = {p["need"]["kind"] for p in ed.partners}
    if kinds != set(V.NEED_KINDS):
        yield "partners", None, "need", f"every kind of requirement is used, found {sorted(kinds)}"
    if not any(p["science"] is None for p in ed.partners):
        yield "partners", None, "science", "sponsor cards (no Science) exist"


@fact(
    "content-facts.md, Cards: Visit Textile Factory (blue; gains 1 blue Research and 1 Coal); "
    "some Assignments cost discarding Partner cards; two-colour and colourless ones exist"
)
def assignment_facts(ed: Edition) -> Found:
    card = ed.assignment.get("visit_textile_factory")
    if card is None:
        yield "assignments", "visit_textile_factory", None, "is missing"
    else:
        if card["colours"] != ["B"]:
            yield "assignments", card["id"], "colours", "must be blue"
        if card["effect"] != [
            {"op": "research", "track": "B", "n": 1, "different": False},
            {"op": "gain", "coal": 1},
        ]:
            yield "assignments", card["id"], "effect", "gains 1 blue Research and 1 Coal"
    if not any(a["discard"] for a in ed.assignments):
        yield "assignments", None, "discard", "some Assignments cost discarding cards"
    sizes = {len(a["colours"]) for a in ed.assignments}
    if not {0, 2} <= sizes:
        yield "assignments", None, "colours", "two-colour and colourless Assignments exist"


@fact('content-facts.md, Cards: the Program "dice of values 3 and 4" is worth 8 Prestige')
def program_3_4(ed: Edition) -> Found:
    prog = next(
        (p for p in ed.programs if p["criteria"] == {"kind": "values_in", "values": [3, 4]}), None
    )
    if prog is None or prog["prestige"] != 8:
        yield "programs", prog and prog["id"], "prestige", "dice of values 3 and 4 is worth 8"


@fact(
    "content-facts.md, Cards: an Addition Gear costs 2 Brass and 1 Coal, a Subtraction Gear the "
    "same; each Multiplier has its own cost (Innovation, £, Coal or Brass)"
)
def gear_costs(ed: Edition) -> Found:
    if ed.gear_costs.get("add") != {"brass": 2, "coal": 1}:
        yield "gears", None, "costs", "an Addition Gear costs 2 Brass and 1 Coal"
    if ed.gear_costs.get("sub") != ed.gear_costs.get("add"):
        yield "gears", None, "costs", "a Subtraction Gear costs what an Addition Gear costs"
    costs = [tuple(sorted(m["cost"].items())) for m in ed.multipliers]
    if len(set(costs)) != len(costs):
        yield "multipliers", None, "cost", "each Multiplier has its own cost"


@fact("rulebook, Ketan's example: a Breakthrough token gains 1 Innovation (on the blue track)")
def ketan_breakthrough(ed: Edition) -> Found:
    if not any(b["effect"] == [{"op": "innovation", "n": 1}] for b in ed.breakthroughs):
        yield "breakthroughs", None, "effect", "a token gaining 1 Innovation"
    blue = ed.breakthrough.get(ed.standard_setup["breakthroughs"].get("B"))
    if blue is None or blue["effect"] != [{"op": "innovation", "n": 1}]:
        yield "standard_setup", None, "breakthroughs", "blue holds the 1-Innovation token"


# ---------------------------------------------------------------------------------------------
# The standard setup printed on the board
# ---------------------------------------------------------------------------------------------


@fact("content-facts.md, Counts: all 4 placed Objective tiles show the same letter")
def standard_objectives(ed: Edition) -> Found:
    sides = {ed.objective[oid]["side"] for oid in ed.standard_setup["objectives"].values()}
    if len(sides) != 1:
        yield "standard_setup", None, "objectives", "all four tiles show the same letter"


@fact(
    "rulebook, Anthony's Travel example: Manchester's reward gains an Addition Gear and builds it "
    "free"
)
def manchester(ed: Edition) -> Found:
    tile = ed.university_tile.get(ed.standard_setup["universities"].get("manchester", ""))
    if tile is None or tile["reward"] != [
        {"op": "gain_gear", "gear": "add"},
        {"op": "build_free", "gear": "add"},
    ]:
        yield (
            "standard_setup",
            None,
            "universities",
            "Manchester's tile gains and builds an Addition Gear",
        )


@fact(
    "rulebook, Isobel's scoring: 2 discs on Bristol (hers stacked on hers) and 1 on Manchester "
    "score 6 = Bristol + Manchester + 2"
)
def isobel_travel(ed: Edition) -> Found:
    unis = ed.standard_setup["universities"]
    tiles = [ed.university_tile.get(unis.get(c, "")) for c in ("bristol", "manchester")]
    if None in tiles or sum(t["prestige"] for t in tiles if t) + 2 != 6:
        yield "standard_setup", None, "universities", "Bristol's and Manchester's tiles sum to 4"
