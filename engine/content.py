"""Game content of Ada's Dream: cards, tiles, map and tracks, as plain Python data.

Nothing here runs at import except building the data; ``validate()`` checks it on demand.

Provenance
----------
The printed content is not public. Each item carries ``"provisional"``:

* ``False`` - every game value of the item is stated by the rules (``"source"`` names where);
* ``True``  - designed by us (or only partly stated: then ``"source"`` says which part the rules fix).

Scalars and tables that cannot carry a flag are listed in ``PROVISIONAL_CONSTANTS`` (name -> note).
Map coordinates (``"xy"``) are presentation only and always designed.

Colours and keys
----------------
Die colours: "Y" yellow, "B" blue, "G" green, "P" purple, "K" grey (wild). Action colours: Ada's Study
"P", Travel "B", Meetings "Y", Institutions "G". Research tracks and Assignment columns are keyed by
"P", "B", "Y", "G". Sciences: mathematics, physics, astronomy, engineering (None = sponsor).

Effects
-------
An effect is a list of steps resolved in order; each step is a dict with key "op" (see ``EFFECT_OPS``
for the allowed ops and their argument keys):

    gain {money,coal,brass,books}   pay {money,coal,brass,books} (unaffordable: skip the rest)
    innovation {n}   draw {n}   discard {n}
    research {track: any|P|B|Y|G, n, different}   workshop_bonus {n, different}
    study_item {n, different}   gain_gear {gear: add|sub}
    take_assignment   take_program   take_multiplier   take_partner   play_free   use_display_partner
    per_hand {gain}   per_disc {gain}   build   build_free {gear: add}   upgrade_subtraction
    move_small {max: 1|2}   move_university   stack_disc   meeting_disc   university_disc
    lecture_disc   move_disc   remove_disc   relocate_university_disc
    assignment_token   science_token {science: any|<science>}   steam {free}   advanced
    breakthrough {n, different}   swap_die   adjust_die {n}
    choose {options: [{label, effect}]}

Every item with an effect also has a short human ``"text"``.

Objective conditions (``OBJECTIVE_CONDITION_KINDS``) and Program criteria (``PROGRAM_CRITERIA_KINDS``)
are dicts with key "kind" plus the arguments listed in those tables.

Collections (all items also carry "provisional" and, where rules fix something, "source")
------------------------------------------------------------------------------------------
WORKSHOP_BONUSES   id -> {text, effect}; STANDARD_WORKSHOP_ORDER lists ids clockwise from space 0
STEAM_TRACK        [{cap, coal}] index = level; "coal" is paid to advance INTO that level
RESEARCH_TRACK     {top, advanced: [level I, level II], breakthroughs: [levels with !]}; start 0
PROGRAM_SPACES     [{line: row0..row2|col0..col2, text, effect}]
MULTIPLIERS        [{id, cost: {brass, coal, money, innovation}}]
CITIES             [{id, name, kind: small|university, region: None|southern|central|scottish,
                     xy, reward: effect|None (tile universities), text, prestige (scottish only)}]
ROUTES             [[city_a, city_b, road|rail|ferry]]; ROUTE_COST gives the £ per route
UNIVERSITY_TILES   [{id, region: southern|central, prestige, reward, text}]
MEETING_ROOMS      left to right [{money, innovation, draw (card slot below), capacity}]
INSTITUTIONS       column order [{id, name, spaces: {2..6: {text, effect}}}]; ANALYTICAL_SOCIETY
BREAKTHROUGHS      [{id, text, effect}]
OBJECTIVES         [{id, area, side: A|B, high, low, text, condition}]
PROGRAMS           [{id, text, prestige, criteria}]
ASSIGNMENTS        [{id, name, colours: [] any | [c] | [c1, c2], discard: 0..2, text, effect}]
PARTNERS           [{id, name, tier: S|1|2, deck: player colour (S only)|None, science|None,
                     prestige, need: {kind: value, values}|{kind: minus1}|{kind: money}, text, effect}]
STANDARD_SETUP     {universities: city -> tile, objectives: area -> id, breakthroughs: colour -> id,
                    science_rooms: [science per room 0..3], workshop_order}
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

# ---------------------------------------------------------------------------------------------
# Vocabulary (what the engine implements) - used by validate()
# ---------------------------------------------------------------------------------------------

RESOURCES = ["money", "coal", "brass", "books"]

# op -> (required argument keys, optional argument keys)
EFFECT_OPS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "gain": (frozenset(), frozenset(RESOURCES)),
    "pay": (frozenset(), frozenset(RESOURCES)),
    "innovation": (frozenset({"n"}), frozenset()),
    "draw": (frozenset({"n"}), frozenset()),
    "discard": (frozenset({"n"}), frozenset()),
    "research": (frozenset({"track", "n", "different"}), frozenset()),
    "workshop_bonus": (frozenset({"n", "different"}), frozenset()),
    "study_item": (frozenset({"n", "different"}), frozenset()),
    "gain_gear": (frozenset({"gear"}), frozenset()),
    "take_assignment": (frozenset(), frozenset()),
    "take_program": (frozenset(), frozenset()),
    "take_multiplier": (frozenset(), frozenset()),
    "take_partner": (frozenset(), frozenset()),
    "play_free": (frozenset(), frozenset()),
    "use_display_partner": (frozenset(), frozenset()),
    "per_hand": (frozenset({"gain"}), frozenset()),
    "per_disc": (frozenset({"gain"}), frozenset()),
    "build": (frozenset(), frozenset()),
    "build_free": (frozenset({"gear"}), frozenset()),
    "upgrade_subtraction": (frozenset(), frozenset()),
    "move_small": (frozenset({"max"}), frozenset()),
    "move_university": (frozenset(), frozenset()),
    "stack_disc": (frozenset(), frozenset()),
    "meeting_disc": (frozenset(), frozenset()),
    "university_disc": (frozenset(), frozenset()),
    "lecture_disc": (frozenset(), frozenset()),
    "move_disc": (frozenset(), frozenset()),
    "remove_disc": (frozenset(), frozenset()),
    "relocate_university_disc": (frozenset(), frozenset()),
    "assignment_token": (frozenset(), frozenset()),
    "science_token": (frozenset({"science"}), frozenset()),
    "steam": (frozenset({"free"}), frozenset()),
    "advanced": (frozenset(), frozenset()),
    "breakthrough": (frozenset({"n", "different"}), frozenset()),
    "swap_die": (frozenset(), frozenset()),
    "adjust_die": (frozenset({"n"}), frozenset()),
    "choose": (frozenset({"options"}), frozenset()),
}

# kind -> required argument keys
OBJECTIVE_CONDITION_KINDS: dict[str, frozenset[str]] = {
    "universities_visited": frozenset({"cities"}),
    "university_count": frozenset({"n", "region"}),
    "assignments_in_column": frozenset({"colour", "n"}),
    "assignment_count": frozenset({"n"}),
    "mill_main_colours": frozenset(),
    "multipliers_built": frozenset({"n"}),
    "gears_built": frozenset({"n"}),
    "lecture_majorities": frozenset({"n"}),
    "lecture_levels": frozenset({"n"}),
    "sponsors_in_supply": frozenset({"n"}),
    "science_cards": frozenset({"science", "n"}),
    "programs_placed": frozenset({"n"}),
    "meeting_rooms": frozenset({"n"}),
    "meeting_discs": frozenset({"n"}),
    "research_level": frozenset({"n", "tracks"}),
    "steam_level": frozenset({"n"}),
    "complete_lines": frozenset({"n"}),
}

PROGRAM_CRITERIA_KINDS: dict[str, frozenset[str]] = {
    "values_in": frozenset({"values"}),
    "sum_at_least": frozenset({"n"}),
    "sum_at_most": frozenset({"n"}),
    "all_same_colour": frozenset(),
    "all_different_colours": frozenset(),
    "colour_count": frozenset({"colour", "n"}),
    "all_same_value": frozenset(),
    "all_different_values": frozenset(),
    "run": frozenset(),
    "ascending": frozenset(),
    "descending": frozenset(),
    "all_even": frozenset(),
    "all_odd": frozenset(),
}

# ---------------------------------------------------------------------------------------------
# Basics
# ---------------------------------------------------------------------------------------------

COLOURS_MAIN = ["P", "B", "Y", "G"]
DIE_COLOURS = ["Y", "B", "G", "P", "K"]
DICE_PER_COLOUR = 10
DICE_REMOVED_PER_COLOUR = {4: 0, 3: 1, 2: 2}  # rulebook Setup: 3 players remove 1, 2 players 2
SCIENCES = ["mathematics", "physics", "astronomy", "engineering"]
PLAYER_COLOURS = ["red", "lime", "sky", "purple"]
REGIONS = ["southern", "central", "scottish"]
AREA_COLOURS = {"study": "P", "travel": "B", "meetings": "Y", "institutions": "G"}

# Component counts from the rulebook's component list (supply of resources is unlimited in play).
COMPONENTS = {
    "dice": 50,
    "program_tiles": 28,
    "assignment_cards": 30,
    "objective_tiles": 24,
    "breakthrough_tokens": 9,
    "university_tiles": 15,
    "tier1_partners": 10,
    "tier2_partners": 30,
    "starting_partners_per_player": 7,
    "addition_gears": 24,
    "subtraction_gears": 8,
    "multiplier_gears": 12,
    "assignment_scoring_tokens": 16,
    "science_scoring_tokens": 16,
    "books": 12,
    "coal": 36,
    "brass": 36,
    "discs_per_player": 12,
    "research_tokens_per_player": 4,
}

# Setup (rulebook: Setup)
START_CITY = "london"
START_RESOURCES = {"money": 4, "coal": 1, "brass": 1, "books": 1}
SEAT_BONUS = [{}, {"money": 1}, {"coal": 1}, {"money": 1, "coal": 1}]  # by turn order
START_HAND = 4
HAND_LIMIT = 5
SUPPLY_SIZE = 8  # Partner cards in deck + discard + hand
TIER1_DECK_AFTER_DEAL = 6  # with fewer than 4 players the tier 1 deck is cut to 6
PROGRAM_DISPLAY = 5
ASSIGNMENT_DISPLAY = 4
PARTNER_DISPLAY = 4
MULTIPLIER_DISPLAY = 2
WORKSHOP_SPACES = 6
WORKSHOP_DICE_PER_SPACE = 3

# ---------------------------------------------------------------------------------------------
# Player board
# ---------------------------------------------------------------------------------------------

STORE_SLOTS = 4  # designed: the rules only say "a few" slots
MILL_SIZE = 3  # 3x3 die slots, 12 Gear spaces (no data needed)
MILL_GEAR_SPACES = 12

WORKSHOP_BONUSES: dict[str, dict[str, Any]] = {
    "research": {
        "text": "Gain 1 Research on any track",
        "effect": [{"op": "research", "track": "any", "n": 1, "different": False}],
    },
    "coal": {"text": "Gain 2 Coal", "effect": [{"op": "gain", "coal": 2}]},
    "money": {"text": "Gain £3", "effect": [{"op": "gain", "money": 3}]},
    "innovation": {"text": "Gain 1 Innovation", "effect": [{"op": "innovation", "n": 1}]},
    "brass": {"text": "Gain 1 Brass", "effect": [{"op": "gain", "brass": 1}]},
    "cards": {"text": "Draw 2 Partner cards", "effect": [{"op": "draw", "n": 2}]},
}
# Clockwise from Workshop space 0 (designed: the rulebook lists them in this order).
STANDARD_WORKSHOP_ORDER = ["research", "coal", "money", "innovation", "brass", "cards"]

# Steam: index = level. Each level caps every completed line; "coal" = Coal paid to advance INTO it.
# Rulebook fixes only "Steam level 3 caps at 20" and that caps 25 and 30 exist.
STEAM_TRACK: list[dict[str, Any]] = [
    {"cap": 10, "coal": 0, "provisional": True},
    {"cap": 13, "coal": 0, "provisional": True},
    {"cap": 16, "coal": 1, "provisional": True},
    {
        "cap": 20,
        "coal": 1,
        "provisional": True,
        "source": "rulebook: level 3 caps at 20; coal designed",
    },
    {"cap": 25, "coal": 1, "provisional": True, "source": "rulebook: a cap of 25 exists (Isobel)"},
    {"cap": 30, "coal": 2, "provisional": True, "source": "rulebook: a cap of 30 exists (Anthony)"},
    {"cap": 40, "coal": 2, "provisional": True},
]
STEAM_START = 0

INNOVATION_MAX = 6
# 2, was 1: with 1, a player short of Innovation early could hold a green die no Lecture could
# use and fell behind in the race to fill the Mill (see bench/reports/balance.md)
INNOVATION_START = 2
INNOVATION_PRESTIGE = {5: 2, 6: 3}  # the top 2 spaces score (values designed)
INNOVATION_TOP_SPEND = 2  # at the top space you may spend 2 for a Workshop bonus of your choice

# Same for all four tracks. Tokens start at 0; reaching "top" takes an Assignment Scoring token.
RESEARCH_TRACK: dict[str, Any] = {"top": 8, "advanced": [2, 5], "breakthroughs": [3, 6]}
ASSIGNMENT_TOKEN_STACK = [2, 1, 1, 1]  # top first
SCIENCE_TOKEN_STACK = [2, 1, 1, 1]  # top first

# One Program space per Mill line. The six bonuses are stated; which line holds which is designed.
PROGRAM_SPACES: list[dict[str, Any]] = [
    {
        "line": "row0",
        "text": "Gain 1 Book",
        "effect": [{"op": "gain", "books": 1}],
        "provisional": True,
    },
    {
        "line": "row1",
        "text": "Gain 2 Innovation",
        "effect": [{"op": "innovation", "n": 2}],
        "provisional": True,
    },
    {
        "line": "row2",
        "text": "Draw 3 Partner cards",
        "effect": [{"op": "draw", "n": 3}],
        "provisional": True,
    },
    {
        "line": "col0",
        "text": "Gain 2 different Workshop bonus rewards",
        "effect": [{"op": "workshop_bonus", "n": 2, "different": True}],
        "provisional": True,
    },
    {
        "line": "col1",
        "text": "Gain 2 Research",
        "effect": [{"op": "research", "track": "any", "n": 2, "different": False}],
        "provisional": True,
    },
    {
        "line": "col2",
        "text": "Gain 2 Brass",
        "effect": [{"op": "gain", "brass": 2}],
        "provisional": True,
    },
]

# ---------------------------------------------------------------------------------------------
# Gears
# ---------------------------------------------------------------------------------------------

GEAR_COSTS = {"add": {"brass": 2, "coal": 1}, "sub": {"brass": 2, "coal": 1}}
ADDITION_GEARS = 24
SUBTRACTION_GEARS = 8
START_GEARS = ["add", "sub", "sub"]
GEAR_MISSING_PENALTY = 2  # Prestige lost per Gear space left unbuilt

# Each Multiplier has its own cost (designed): about an Addition Gear (2 Brass + 1 Coal) plus a bit.
MULTIPLIERS: list[dict[str, Any]] = [
    {
        "id": "mult_brass_coal_money",
        "cost": {"brass": 2, "coal": 1, "money": 2},
        "provisional": True,
    },
    {"id": "mult_brass_innovation", "cost": {"brass": 2, "innovation": 1}, "provisional": True},
    {"id": "mult_brass3", "cost": {"brass": 3}, "provisional": True},
    {"id": "mult_coal_money", "cost": {"brass": 1, "coal": 2, "money": 3}, "provisional": True},
    {
        "id": "mult_coal_innovation",
        "cost": {"brass": 1, "coal": 2, "innovation": 1},
        "provisional": True,
    },
    {"id": "mult_money6", "cost": {"brass": 1, "money": 6}, "provisional": True},
    {"id": "mult_coal3", "cost": {"brass": 1, "coal": 3}, "provisional": True},
    {"id": "mult_brass2_coal2", "cost": {"brass": 2, "coal": 2}, "provisional": True},
    {
        "id": "mult_innovation2",
        "cost": {"brass": 1, "coal": 1, "innovation": 2},
        "provisional": True,
    },
    {"id": "mult_mixed", "cost": {"brass": 1, "coal": 1, "money": 4}, "provisional": True},
    {"id": "mult_brass3_coal", "cost": {"brass": 3, "coal": 1}, "provisional": True},
    {
        "id": "mult_money_innovation",
        "cost": {"coal": 1, "money": 4, "innovation": 1},
        "provisional": True,
    },
]

# ---------------------------------------------------------------------------------------------
# Travel map
# ---------------------------------------------------------------------------------------------

ROUTE_COST = {"road": 1, "rail": 2, "ferry": 4}


def _small(cid: str, name: str, xy: list[float], text: str, reward: list[dict[str, Any]]) -> dict:
    return {
        "id": cid,
        "name": name,
        "kind": "small",
        "region": None,
        "xy": xy,
        "reward": reward,
        "text": text,
        "provisional": True,
    }


def _uni(cid: str, name: str, region: str, xy: list[float]) -> dict:
    return {
        "id": cid,
        "name": name,
        "kind": "university",
        "region": region,
        "xy": xy,
        "reward": None,  # from the University tile placed on it
        "text": f"{region.capitalize()} University: reward and Prestige from its tile",
        "provisional": True,
    }


CITIES: list[dict[str, Any]] = [
    # --- Small Cities (15) -----------------------------------------------------------------------
    {
        **_small("london", "London", [0.75, 0.82], "Gain £3", [{"op": "gain", "money": 3}]),
        "source": "rulebook: London is a Small City and the start; reward designed",
    },
    _small(
        "dover",
        "Dover",
        [0.92, 0.86],
        "Pay £3 to gain 2 Brass",
        [{"op": "pay", "money": 3}, {"op": "gain", "brass": 2}],
    ),
    _small(
        "plymouth",
        "Plymouth",
        [0.28, 0.95],
        "Gain 1 Innovation and £2",
        [{"op": "innovation", "n": 1}, {"op": "gain", "money": 2}],
    ),
    _small(
        "banbury",
        "Banbury",
        [0.62, 0.75],
        "Gain 1 Coal and £2",
        [{"op": "gain", "coal": 1, "money": 2}],
    ),
    _small(
        "coventry",
        "Coventry",
        [0.60, 0.71],
        "Gain 1 Research on any track",
        [{"op": "research", "track": "any", "n": 1, "different": False}],
    ),
    _small(
        "stoke",
        "Stoke-on-Trent",
        [0.51, 0.65],
        "Gain 1 Brass and 1 Coal",
        [{"op": "gain", "brass": 1, "coal": 1}],
    ),
    {
        **_small(
            "liverpool",
            "Liverpool",
            [0.41, 0.60],
            "Gain 1 Coal and £3",
            [{"op": "gain", "coal": 1, "money": 3}],
        ),
        "provisional": False,
        "source": "rulebook: Anthony Travel example (Small City, 1 Coal and £3)",
    },
    _small(
        "swansea",
        "Swansea",
        [0.29, 0.81],
        "Gain 1 Brass and 1 Coal",
        [{"op": "gain", "brass": 1, "coal": 1}],
    ),
    _small(
        "norwich",
        "Norwich",
        [0.92, 0.69],
        "Gain 1 Research on any track and £1",
        [
            {"op": "research", "track": "any", "n": 1, "different": False},
            {"op": "gain", "money": 1},
        ],
    ),
    _small(
        "sheffield",
        "Sheffield",
        [0.60, 0.61],
        "Gain 1 Brass and £2",
        [{"op": "gain", "brass": 1, "money": 2}],
    ),
    _small(
        "york",
        "York",
        [0.65, 0.53],
        "Gain 1 Innovation and 1 Coal",
        [{"op": "innovation", "n": 1}, {"op": "gain", "coal": 1}],
    ),
    _small("newcastle", "Newcastle", [0.60, 0.42], "Gain 3 Coal", [{"op": "gain", "coal": 3}]),
    _small(
        "carlisle",
        "Carlisle",
        [0.42, 0.44],
        "Gain 1 Brass and £2",
        [{"op": "gain", "brass": 1, "money": 2}],
    ),
    _small(
        "belfast",
        "Belfast",
        [0.07, 0.47],
        "Gain 2 Brass and 1 Coal",
        [{"op": "gain", "brass": 2, "coal": 1}],
    ),
    _small(
        "inverness",
        "Inverness",
        [0.27, 0.15],
        "Gain 1 Book and 1 Innovation",
        [{"op": "gain", "books": 1}, {"op": "innovation", "n": 1}],
    ),
    # --- Southern Universities (5 tile spaces) ---------------------------------------------------
    {
        **_uni("bristol", "Bristol", "southern", [0.46, 0.83]),
        "source": "rulebook: Bristol is a University (region designed)",
    },
    _uni("oxford", "Oxford", "southern", [0.62, 0.79]),
    _uni("cambridge", "Cambridge", "southern", [0.78, 0.74]),
    _uni("southampton", "Southampton", "southern", [0.60, 0.89]),
    _uni("cardiff", "Cardiff", "southern", [0.38, 0.82]),
    # --- Central Universities (4 tile spaces) ----------------------------------------------------
    {
        **_uni("manchester", "Manchester", "central", [0.50, 0.59]),
        "source": "rulebook: Manchester is a University (region designed)",
    },
    _uni("birmingham", "Birmingham", "central", [0.54, 0.70]),
    _uni("leeds", "Leeds", "central", [0.58, 0.55]),
    _uni("durham", "Durham", "central", [0.58, 0.46]),
    # --- Scottish Universities (printed on the board) --------------------------------------------
    {
        "id": "edinburgh",
        "name": "Edinburgh",
        "kind": "university",
        "region": "scottish",
        "xy": [0.40, 0.32],
        "reward": [{"op": "gain", "books": 1}, {"op": "innovation", "n": 1}],
        "text": "Gain 1 Book and 1 Innovation",
        "prestige": 4,
        "provisional": True,
    },
    {
        "id": "glasgow",
        "name": "Glasgow",
        "kind": "university",
        "region": "scottish",
        "xy": [0.27, 0.33],
        "reward": [{"op": "gain", "brass": 2, "coal": 2}],
        "text": "Gain 2 Brass and 2 Coal",
        "prestige": 3,
        "provisional": True,
    },
    {
        "id": "st_andrews",
        "name": "St Andrews",
        "kind": "university",
        "region": "scottish",
        "xy": [0.45, 0.27],
        "reward": [{"op": "science_token", "science": "any"}],
        "text": "Take a 1-point Science Scoring token of any Science",
        "prestige": 4,
        "provisional": True,
    },
]

# [city_a, city_b, kind]. Designed, except that the cheapest Oxford -> Manchester journey costs £6
# over 4 roads and 1 rail (rulebook: Anthony Travel example).
ROUTES: list[list[str]] = [
    # South
    ["london", "dover", "road"],
    ["london", "oxford", "road"],
    ["london", "cambridge", "road"],
    ["london", "southampton", "rail"],
    ["london", "coventry", "rail"],
    ["southampton", "oxford", "road"],
    ["southampton", "bristol", "road"],
    ["southampton", "plymouth", "road"],
    ["plymouth", "bristol", "rail"],
    ["oxford", "bristol", "rail"],
    ["bristol", "cardiff", "ferry"],
    ["cardiff", "swansea", "road"],
    ["cardiff", "birmingham", "road"],
    ["cambridge", "norwich", "road"],
    ["cambridge", "coventry", "road"],
    ["cambridge", "york", "rail"],
    # Midlands: Oxford -> Banbury -> Coventry -> Birmingham -> Stoke (roads) -> Manchester (rail)
    ["oxford", "banbury", "road"],
    ["banbury", "coventry", "road"],
    ["coventry", "birmingham", "road"],
    ["birmingham", "stoke", "road"],
    ["stoke", "manchester", "rail"],
    ["birmingham", "liverpool", "rail"],
    ["stoke", "sheffield", "road"],
    # North of England
    ["liverpool", "manchester", "rail"],
    ["liverpool", "belfast", "ferry"],
    ["manchester", "sheffield", "rail"],
    ["manchester", "leeds", "rail"],
    ["manchester", "carlisle", "rail"],
    ["sheffield", "leeds", "road"],
    ["leeds", "york", "road"],
    ["york", "durham", "rail"],
    ["durham", "newcastle", "road"],
    ["newcastle", "carlisle", "rail"],
    # Scotland
    ["newcastle", "edinburgh", "road"],
    ["carlisle", "edinburgh", "road"],
    ["carlisle", "glasgow", "rail"],
    ["glasgow", "edinburgh", "rail"],
    ["glasgow", "belfast", "ferry"],
    ["glasgow", "inverness", "road"],
    ["edinburgh", "st_andrews", "ferry"],
    ["st_andrews", "inverness", "road"],
]

# 15 University tiles: 8 Southern, 7 Central. Prestige 1-4 (Scottish 3-4); further from London = more
# Prestige. One less than first designed (Travel outscored the rulebook's example, see the balance
# report), except the standard setup's Bristol and Manchester tiles: the rulebook's Isobel scores 6
# for 2 discs on Bristol and 1 on Manchester, so those two tiles sum to 4.
UNIVERSITY_TILES: list[dict[str, Any]] = [
    # Southern (orange)
    {
        "id": "uni_s_book",
        "region": "southern",
        "prestige": 1,
        "reward": [{"op": "gain", "books": 1}],
        "text": "Gain 1 Book",
        "provisional": True,
    },
    {
        "id": "uni_s_innovation",
        "region": "southern",
        "prestige": 2,
        "reward": [{"op": "innovation", "n": 2}],
        "text": "Gain 2 Innovation",
        "provisional": True,
    },
    {
        "id": "uni_s_money_coal",
        "region": "southern",
        "prestige": 2,
        "reward": [{"op": "gain", "money": 3, "coal": 1}],
        "text": "Gain £3 and 1 Coal",
        "provisional": True,
    },
    {
        "id": "uni_s_study_item",
        "region": "southern",
        "prestige": 1,
        "reward": [{"op": "study_item", "n": 1, "different": False}],
        "text": "Gain 1 Study item",
        "provisional": True,
    },
    {
        "id": "uni_s_research",
        "region": "southern",
        "prestige": 1,
        "reward": [{"op": "research", "track": "any", "n": 2, "different": True}],
        "text": "Gain 2 Research on different tracks",
        "provisional": True,
    },
    {
        "id": "uni_s_brass",
        "region": "southern",
        "prestige": 2,
        "reward": [{"op": "gain", "brass": 2}],
        "text": "Gain 2 Brass",
        "provisional": True,
        "source": "prestige: rulebook, Isobel scoring example (with Manchester's tile)",
    },
    {
        "id": "uni_s_cards",
        "region": "southern",
        "prestige": 1,
        "reward": [{"op": "draw", "n": 2}, {"op": "innovation", "n": 1}],
        "text": "Draw 2 Partner cards and gain 1 Innovation",
        "provisional": True,
    },
    {
        "id": "uni_s_assignment",
        "region": "southern",
        "prestige": 1,
        "reward": [{"op": "take_assignment"}],
        "text": "Take an Assignment from the display",
        "provisional": True,
    },
    # Central (blue)
    {
        "id": "uni_c_add_gear",
        "region": "central",
        "prestige": 2,
        "reward": [{"op": "gain_gear", "gear": "add"}, {"op": "build_free", "gear": "add"}],
        "text": "Gain an Addition Gear and build an Addition Gear free",
        "provisional": True,
        "source": "rulebook: Anthony Travel example (Manchester's reward); prestige: Isobel "
        "scoring example (with Bristol's tile)",
    },
    {
        "id": "uni_c_steam",
        "region": "central",
        "prestige": 2,
        "reward": [{"op": "steam", "free": True}],
        "text": "Advance Steam one space free",
        "provisional": True,
    },
    {
        "id": "uni_c_multiplier",
        "region": "central",
        "prestige": 2,
        "reward": [{"op": "take_multiplier"}],
        "text": "Take a Multiplier Gear from the display",
        "provisional": True,
    },
    {
        "id": "uni_c_program",
        "region": "central",
        "prestige": 1,
        "reward": [{"op": "take_program"}],
        "text": "Take a Program and gain its space bonus",
        "provisional": True,
    },
    {
        "id": "uni_c_partner",
        "region": "central",
        "prestige": 2,
        "reward": [{"op": "take_partner"}],
        "text": "Gain a Partner from the Meetings display",
        "provisional": True,
    },
    {
        "id": "uni_c_workshop",
        "region": "central",
        "prestige": 3,
        "reward": [{"op": "workshop_bonus", "n": 2, "different": True}],
        "text": "Gain 2 different Workshop bonus rewards",
        "provisional": True,
    },
    {
        "id": "uni_c_lecture",
        "region": "central",
        "prestige": 1,
        "reward": [{"op": "lecture_disc"}],
        "text": "Place a disc on an available Lecture space (no reward, no Innovation)",
        "provisional": True,
    },
]

# ---------------------------------------------------------------------------------------------
# Meetings
# ---------------------------------------------------------------------------------------------

# Left to right. Costs and draws are stated (draw belongs to the card slot under the room);
# capacity (disc spaces per room) is designed.
_ROOM_SOURCE = "rulebook: costs and draws; capacity designed"
MEETING_ROOMS: list[dict[str, Any]] = [
    {
        "money": 5,
        "innovation": 3,
        "draw": 2,
        "capacity": 4,
        "provisional": True,
        "source": _ROOM_SOURCE,
    },
    {
        "money": 4,
        "innovation": 2,
        "draw": 1,
        "capacity": 4,
        "provisional": True,
        "source": _ROOM_SOURCE,
    },
    {
        "money": 3,
        "innovation": 2,
        "draw": 1,
        "capacity": 4,
        "provisional": True,
        "source": _ROOM_SOURCE,
    },
    {
        "money": 2,
        "innovation": 1,
        "draw": 0,
        "capacity": 4,
        "provisional": True,
        "source": _ROOM_SOURCE,
    },
]

# ---------------------------------------------------------------------------------------------
# Institutions
# ---------------------------------------------------------------------------------------------

LECTURE_LEVELS = [2, 3, 4, 5, 6]
LECTURE_COSTS = {2: 1, 3: 1, 4: 2, 5: 2, 6: 3}
LECTURE_MAJORITY = {6: 8, 5: 6, 4: 4, 3: 2, 2: 2}

ANALYTICAL_SOCIETY: dict[str, Any] = {
    "text": "Draw 1 card and gain £2",
    "effect": [{"op": "draw", "n": 1}, {"op": "gain", "money": 2}],
    "provisional": False,
    "source": "actions-turn: Analytical Society (level 1)",
}


def _sp(text: str, effect: list[dict[str, Any]], source: str | None = None) -> dict[str, Any]:
    space: dict[str, Any] = {"text": text, "effect": effect, "provisional": True}
    if source:
        space["source"] = source
    return space


_INST_SOURCE = "rulebook: names and column order (spaces carry their own flags)"

INSTITUTIONS: list[dict[str, Any]] = [
    {
        "id": "royal_society",
        "provisional": False,
        "source": _INST_SOURCE,
        "name": "Royal Society",
        "spaces": {
            2: _sp(
                "Draw 2 cards and gain £1",
                [{"op": "draw", "n": 2}, {"op": "gain", "money": 1}],
            ),
            3: _sp("Gain 2 Brass", [{"op": "gain", "brass": 2}]),
            4: _sp("Take a Multiplier Gear from the display", [{"op": "take_multiplier"}]),
            5: _sp(
                "Gain an Addition Gear and build an Addition Gear free",
                [{"op": "gain_gear", "gear": "add"}, {"op": "build_free", "gear": "add"}],
            ),
            6: {
                "text": "Use the effect of a Partner in the Meetings display and take an "
                "Engineering Science Scoring token",
                "effect": [
                    {"op": "use_display_partner"},
                    {"op": "science_token", "science": "engineering"},
                ],
                "provisional": False,
                "source": "rulebook: Ketan Institution example (Royal Society level 6)",
            },
        },
    },
    {
        "id": "advancement_of_science",
        "provisional": False,
        "source": _INST_SOURCE,
        "name": "British Association for the Advancement of Science",
        "spaces": {
            2: _sp(
                "Gain 1 Research on any track and £1",
                [
                    {"op": "research", "track": "any", "n": 1, "different": False},
                    {"op": "gain", "money": 1},
                ],
            ),
            3: _sp("Take an Assignment from the display", [{"op": "take_assignment"}]),
            4: _sp(
                "Gain £1 and 2 different Study items",
                [{"op": "gain", "money": 1}, {"op": "study_item", "n": 2, "different": True}],
                "rulebook: Ketan Institution example (a space below level 6); position designed",
            ),
            5: _sp(
                "Gain 3 Research on different tracks",
                [{"op": "research", "track": "any", "n": 3, "different": True}],
            ),
            6: _sp(
                "Take a Program (with its bonus) and a Physics Science Scoring token",
                [{"op": "take_program"}, {"op": "science_token", "science": "physics"}],
            ),
        },
    },
    {
        "id": "astronomical_society",
        "provisional": False,
        "source": _INST_SOURCE,
        "name": "Royal Astronomical Society",
        "spaces": {
            2: _sp(
                "Gain 1 Innovation and £1",
                [{"op": "innovation", "n": 1}, {"op": "gain", "money": 1}],
            ),
            3: _sp(
                "Take the reward of a Breakthrough token in play",
                [{"op": "breakthrough", "n": 1, "different": False}],
            ),
            4: _sp(
                "Adjust dice by 1 pip twice and gain 1 Innovation",
                [{"op": "adjust_die", "n": 2}, {"op": "innovation", "n": 1}],
            ),
            5: _sp(
                "Draw 2 cards and gain 2 different Breakthroughs",
                [{"op": "draw", "n": 2}, {"op": "breakthrough", "n": 2, "different": True}],
                "rulebook: Serena Publish example (Astronomical Society); level designed",
            ),
            6: _sp(
                "Advance Steam free and take an Astronomy Science Scoring token",
                [{"op": "steam", "free": True}, {"op": "science_token", "science": "astronomy"}],
            ),
        },
    },
    {
        "id": "british_government",
        "provisional": False,
        "source": _INST_SOURCE,
        "name": "British Government",
        "spaces": {
            2: _sp("Gain £3", [{"op": "gain", "money": 3}]),
            3: _sp("Gain 2 Coal and 1 Brass", [{"op": "gain", "coal": 2, "brass": 1}]),
            4: _sp(
                "Advance Steam (paying its Coal) and gain £2",
                [{"op": "steam", "free": False}, {"op": "gain", "money": 2}],
            ),
            5: _sp(
                "Place a disc on a University (no reward, no move) and gain £2",
                [{"op": "university_disc"}, {"op": "gain", "money": 2}],
            ),
            6: _sp(
                "Take a Mathematics Science Scoring token and gain 1 Book",
                [{"op": "science_token", "science": "mathematics"}, {"op": "gain", "books": 1}],
            ),
        },
    },
]

# ---------------------------------------------------------------------------------------------
# Breakthrough tokens (9; one per Research track in play)
# ---------------------------------------------------------------------------------------------

BREAKTHROUGHS: list[dict[str, Any]] = [
    {
        "id": "bt_innovation",
        "text": "Gain 1 Innovation",
        "effect": [{"op": "innovation", "n": 1}],
        "provisional": False,
        "source": "rulebook: Ketan Workshop example",
    },
    {
        "id": "bt_coal_brass",
        "text": "Gain 1 Coal and 2 Brass",
        "effect": [{"op": "gain", "coal": 1, "brass": 2}],
        "provisional": True,
    },
    {
        "id": "bt_book",
        "text": "Gain 1 Book",
        "effect": [{"op": "gain", "books": 1}],
        "provisional": True,
    },
    {
        "id": "bt_money",
        "text": "Gain £4",
        "effect": [{"op": "gain", "money": 4}],
        "provisional": True,
    },
    {
        "id": "bt_steam",
        "text": "Advance Steam (paying its Coal)",
        "effect": [{"op": "steam", "free": False}],
        "provisional": True,
    },
    {
        "id": "bt_cards",
        "text": "Draw 3 cards, then discard 1",
        "effect": [{"op": "draw", "n": 3}, {"op": "discard", "n": 1}],
        "provisional": True,
    },
    {
        "id": "bt_add_gear",
        "text": "Gain an Addition Gear",
        "effect": [{"op": "gain_gear", "gear": "add"}],
        "provisional": True,
    },
    {
        "id": "bt_workshop",
        "text": "Gain 1 Workshop bonus reward of your choice",
        "effect": [{"op": "workshop_bonus", "n": 1, "different": False}],
        "provisional": True,
    },
    {
        "id": "bt_remove_disc",
        "text": "Remove a disc from your board to the box and gain £2",
        "effect": [{"op": "remove_disc"}, {"op": "gain", "money": 2}],
        "provisional": True,
    },
]

# ---------------------------------------------------------------------------------------------
# Objectives (24: 6 per area, 3 side A + 3 side B)
# ---------------------------------------------------------------------------------------------


def _obj(
    oid: str,
    area: str,
    side: str,
    high: int,
    low: int,
    text: str,
    condition: dict[str, Any],
    source: str | None = None,
) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": oid,
        "area": area,
        "side": side,
        "high": high,
        "low": low,
        "text": text,
        "condition": condition,
        "provisional": True,
    }
    if source:
        item["source"] = source
    return item


_EX = "rulebook: Objective examples (condition); values designed"

OBJECTIVES: list[dict[str, Any]] = [
    # Ada's Study
    _obj(
        "study_purple_assignments",
        "study",
        "A",
        6,
        3,
        "Have 2 Assignments in the purple column",
        {"kind": "assignments_in_column", "colour": "P", "n": 2},
        _EX,
    ),
    _obj(
        "study_mill_colours",
        "study",
        "A",
        5,
        3,
        "Have 1 die of each main action colour in your Mill",
        {"kind": "mill_main_colours"},
        _EX,
    ),
    _obj(
        "study_two_programs",
        "study",
        "A",
        5,
        3,
        "Place 2 Programs",
        {"kind": "programs_placed", "n": 2},
        _EX,
    ),
    _obj(
        "study_three_programs",
        "study",
        "B",
        7,
        4,
        "Place 3 Programs",
        {"kind": "programs_placed", "n": 3},
    ),
    _obj(
        "study_three_assignments",
        "study",
        "B",
        7,
        4,
        "Have 3 Assignments",
        {"kind": "assignment_count", "n": 3},
    ),
    _obj(
        "study_two_lines",
        "study",
        "B",
        7,
        4,
        "Complete 2 lines of your Mill (3 dice and 2 Gears each)",
        {"kind": "complete_lines", "n": 2},
    ),
    # Travel
    _obj(
        "travel_bristol_manchester",
        "travel",
        "A",
        6,
        3,
        "Visit Bristol and Manchester",
        {"kind": "universities_visited", "cities": ["bristol", "manchester"]},
        _EX,
    ),
    _obj(
        "travel_three_universities",
        "travel",
        "A",
        6,
        3,
        "Have discs on 3 Universities",
        {"kind": "university_count", "n": 3, "region": None},
    ),
    _obj(
        "travel_steam_three",
        "travel",
        "A",
        6,
        3,
        "Reach Steam level 3",
        {"kind": "steam_level", "n": 3},
    ),
    _obj(
        "travel_scottish_university",
        "travel",
        "B",
        7,
        4,
        "Have a disc on a Scottish University",
        {"kind": "university_count", "n": 1, "region": "scottish"},
    ),
    _obj(
        "travel_two_central",
        "travel",
        "B",
        6,
        3,
        "Have discs on 2 Central Universities",
        {"kind": "university_count", "n": 2, "region": "central"},
    ),
    _obj(
        "travel_blue_assignments",
        "travel",
        "B",
        6,
        3,
        "Have 2 Assignments in the blue column",
        {"kind": "assignments_in_column", "colour": "B", "n": 2},
    ),
    # Meetings
    _obj(
        "meetings_three_rooms",
        "meetings",
        "A",
        7,
        4,
        "Have discs in 3 different Meeting rooms",
        {"kind": "meeting_rooms", "n": 3},
        "rulebook: Isobel Objective example (condition, high 7); low designed",
    ),
    _obj(
        "meetings_multiplier",
        "meetings",
        "A",
        6,
        3,
        "Build 1 Multiplier Gear",
        {"kind": "multipliers_built", "n": 1},
        _EX,
    ),
    _obj(
        "meetings_sponsors",
        "meetings",
        "A",
        7,
        4,
        "Have 5 Partner cards that don't belong to a Science",
        {"kind": "sponsors_in_supply", "n": 5},
        _EX,
    ),
    _obj(
        "meetings_four_discs",
        "meetings",
        "B",
        7,
        4,
        "Have 4 discs in the Meeting rooms",
        {"kind": "meeting_discs", "n": 4},
    ),
    _obj(
        "meetings_astronomers",
        "meetings",
        "B",
        6,
        3,
        "Have 3 Astronomy Partner cards",
        {"kind": "science_cards", "science": "astronomy", "n": 3},
    ),
    _obj(
        "meetings_three_discs",
        "meetings",
        "B",
        6,
        3,
        "Have 3 discs in the Meeting rooms",
        {"kind": "meeting_discs", "n": 3},
    ),
    # Institutions
    _obj(
        "institutions_two_majorities",
        "institutions",
        "A",
        7,
        4,
        "Give the most Lectures in 2 different Institutions",
        {"kind": "lecture_majorities", "n": 2},
        _EX,
    ),
    _obj(
        "institutions_three_levels",
        "institutions",
        "A",
        6,
        3,
        "Have discs on 3 different Lecture levels",
        {"kind": "lecture_levels", "n": 3},
    ),
    _obj(
        "institutions_six_gears",
        "institutions",
        "A",
        6,
        3,
        "Build 6 Gears",
        {"kind": "gears_built", "n": 6},
    ),
    _obj(
        "institutions_four_levels",
        "institutions",
        "B",
        8,
        4,
        "Have discs on 4 different Lecture levels",
        {"kind": "lecture_levels", "n": 4},
    ),
    _obj(
        "institutions_research",
        "institutions",
        "B",
        7,
        4,
        "Reach level 5 (advanced II) on 2 Research tracks",
        {"kind": "research_level", "n": 5, "tracks": 2},
    ),
    _obj(
        "institutions_green_assignments",
        "institutions",
        "B",
        6,
        3,
        "Have 2 Assignments in the green column",
        {"kind": "assignments_in_column", "colour": "G", "n": 2},
    ),
]

# ---------------------------------------------------------------------------------------------
# Programs (28). Prestige scaled by how hard the 3 dice of a line are to arrange.
# ---------------------------------------------------------------------------------------------


def _prog(pid: str, text: str, prestige: int, criteria: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": pid,
        "text": text,
        "prestige": prestige,
        "criteria": criteria,
        "provisional": True,
    }


PROGRAMS: list[dict[str, Any]] = [
    {
        **_prog(
            "prog_values_3_4", "Dice of values 3 and 4", 8, {"kind": "values_in", "values": [3, 4]}
        ),
        "provisional": False,
        "source": "rulebook: Serena Study example (dice of values 3 and 4; 8 Prestige)",
    },
    _prog("prog_values_1_2", "Dice of values 1 and 2", 8, {"kind": "values_in", "values": [1, 2]}),
    _prog("prog_values_2_3", "Dice of values 2 and 3", 8, {"kind": "values_in", "values": [2, 3]}),
    _prog("prog_values_4_5", "Dice of values 4 and 5", 8, {"kind": "values_in", "values": [4, 5]}),
    _prog("prog_values_5_6", "Dice of values 5 and 6", 9, {"kind": "values_in", "values": [5, 6]}),
    _prog("prog_values_1_6", "Dice of values 1 and 6", 8, {"kind": "values_in", "values": [1, 6]}),
    _prog(
        "prog_values_low", "Dice of values 1 to 3", 6, {"kind": "values_in", "values": [1, 2, 3]}
    ),
    _prog(
        "prog_values_high", "Dice of values 4 to 6", 5, {"kind": "values_in", "values": [4, 5, 6]}
    ),
    _prog("prog_sum_13", "Dice totalling 13 or more", 5, {"kind": "sum_at_least", "n": 13}),
    _prog("prog_sum_15", "Dice totalling 15 or more", 8, {"kind": "sum_at_least", "n": 15}),
    _prog("prog_sum_16", "Dice totalling 16 or more", 10, {"kind": "sum_at_least", "n": 16}),
    _prog("prog_sum_max_8", "Dice totalling 8 or less", 6, {"kind": "sum_at_most", "n": 8}),
    _prog("prog_sum_max_6", "Dice totalling 6 or less", 9, {"kind": "sum_at_most", "n": 6}),
    _prog("prog_same_colour", "3 dice of the same colour", 9, {"kind": "all_same_colour"}),
    _prog(
        "prog_different_colours",
        "3 dice of different colours",
        5,
        {"kind": "all_different_colours"},
    ),
    _prog(
        "prog_two_purple",
        "At least 2 purple dice",
        6,
        {"kind": "colour_count", "colour": "P", "n": 2},
    ),
    _prog(
        "prog_two_blue", "At least 2 blue dice", 6, {"kind": "colour_count", "colour": "B", "n": 2}
    ),
    _prog(
        "prog_two_yellow",
        "At least 2 yellow dice",
        6,
        {"kind": "colour_count", "colour": "Y", "n": 2},
    ),
    _prog(
        "prog_two_green",
        "At least 2 green dice",
        6,
        {"kind": "colour_count", "colour": "G", "n": 2},
    ),
    _prog(
        "prog_two_grey", "At least 2 grey dice", 7, {"kind": "colour_count", "colour": "K", "n": 2}
    ),
    _prog("prog_same_value", "3 dice of the same value", 12, {"kind": "all_same_value"}),
    _prog(
        "prog_different_values", "3 dice of different values", 5, {"kind": "all_different_values"}
    ),
    _prog("prog_run", "3 consecutive values, in any order", 7, {"kind": "run"}),
    _prog("prog_ascending", "Values strictly rising along the line", 7, {"kind": "ascending"}),
    _prog("prog_descending", "Values strictly falling along the line", 7, {"kind": "descending"}),
    _prog("prog_even", "3 even dice", 6, {"kind": "all_even"}),
    _prog("prog_odd", "3 odd dice", 6, {"kind": "all_odd"}),
    _prog("prog_values_1_5", "Dice of values 1 and 5", 8, {"kind": "values_in", "values": [1, 5]}),
]

# ---------------------------------------------------------------------------------------------
# Assignments (30)
# ---------------------------------------------------------------------------------------------


def _asg(
    aid: str, name: str, colours: list[str], discard: int, text: str, effect: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "id": aid,
        "name": name,
        "colours": colours,
        "discard": discard,
        "text": text,
        "effect": effect,
        "provisional": True,
    }


ASSIGNMENTS: list[dict[str, Any]] = [
    # Blue (Travel)
    {
        **_asg(
            "visit_textile_factory",
            "Visit Textile Factory",
            ["B"],
            0,
            "Gain 1 blue Research and 1 Coal",
            [
                {"op": "research", "track": "B", "n": 1, "different": False},
                {"op": "gain", "coal": 1},
            ],
        ),
        "provisional": False,
        "source": "rulebook: Ketan Workshop example",
    },
    _asg(
        "survey_a_railway",
        "Survey a Railway Line",
        ["B"],
        0,
        "Move free to the next Small City and gain its reward",
        [{"op": "move_small", "max": 1}],
    ),
    _asg(
        "inspect_a_coal_mine",
        "Inspect a Coal Mine",
        ["B"],
        0,
        "Gain 2 Coal",
        [{"op": "gain", "coal": 2}],
    ),
    _asg(
        "tour_the_northern_mills",
        "Tour the Northern Mills",
        ["B"],
        1,
        "Move to the nearest University and place a disc (no cost, no reward)",
        [{"op": "move_university"}],
    ),
    _asg(
        "visit_the_docks",
        "Visit the Liverpool Docks",
        ["B"],
        0,
        "Gain £2 and 1 Brass",
        [{"op": "gain", "money": 2, "brass": 1}],
    ),
    # Purple (Ada's Study)
    _asg(
        "translate_menabreas_paper",
        "Translate Menabrea's Paper",
        ["P"],
        1,
        "Gain 1 Book and 1 purple Research",
        [{"op": "gain", "books": 1}, {"op": "research", "track": "P", "n": 1, "different": False}],
    ),
    _asg(
        "compute_bernoulli_numbers",
        "Compute the Bernoulli Numbers",
        ["P"],
        0,
        "Gain 1 Innovation and 1 purple Research",
        [
            {"op": "innovation", "n": 1},
            {"op": "research", "track": "P", "n": 1, "different": False},
        ],
    ),
    _asg(
        "correspond_with_babbage",
        "Correspond with Babbage",
        ["P"],
        0,
        "Draw 2 Partner cards",
        [{"op": "draw", "n": 2}],
    ),
    _asg(
        "design_punched_cards",
        "Design Punched Cards",
        ["P"],
        0,
        "Gain an Addition Gear",
        [{"op": "gain_gear", "gear": "add"}],
    ),
    _asg(
        "write_the_notes",
        "Write the Notes",
        ["P"],
        2,
        "Take a Program and gain its space bonus",
        [{"op": "take_program"}],
    ),
    # Yellow (Meetings)
    _asg(
        "attend_a_soiree",
        "Attend Babbage's Soirée",
        ["Y"],
        0,
        "Gain 1 Innovation and draw 1 card",
        [{"op": "innovation", "n": 1}, {"op": "draw", "n": 1}],
    ),
    _asg(
        "host_a_salon",
        "Host a Salon",
        ["Y"],
        1,
        "Gain a Partner from the Meetings display free",
        [{"op": "take_partner"}],
    ),
    _asg(
        "letter_of_introduction",
        "Letter of Introduction",
        ["Y"],
        0,
        "Gain £2 and draw 1 card",
        [{"op": "gain", "money": 2}, {"op": "draw", "n": 1}],
    ),
    _asg(
        "dine_with_patrons", "Dine with Patrons", ["Y"], 0, "Gain £4", [{"op": "gain", "money": 4}]
    ),
    _asg(
        "audience_at_court",
        "Audience at Court",
        ["Y"],
        2,
        "Place a disc in any available Meeting room (no cost) and gain 1 Innovation",
        [{"op": "meeting_disc"}, {"op": "innovation", "n": 1}],
    ),
    # Green (Institutions)
    _asg(
        "prepare_a_lecture",
        "Prepare a Lecture",
        ["G"],
        0,
        "Gain 2 Innovation",
        [{"op": "innovation", "n": 2}],
    ),
    _asg(
        "publish_a_paper",
        "Publish a Paper",
        ["G"],
        1,
        "Gain 1 Book and 1 Innovation",
        [{"op": "gain", "books": 1}, {"op": "innovation", "n": 1}],
    ),
    _asg(
        "peer_review",
        "Peer Review",
        ["G"],
        0,
        "Gain 1 green Research and draw 1 card",
        [{"op": "research", "track": "G", "n": 1, "different": False}, {"op": "draw", "n": 1}],
    ),
    _asg(
        "observe_a_comet",
        "Observe a Comet",
        ["G"],
        0,
        "Take the reward of a Breakthrough token in play",
        [{"op": "breakthrough", "n": 1, "different": False}],
    ),
    _asg(
        "petition_parliament",
        "Petition Parliament",
        ["G"],
        2,
        "Place a disc on an available Lecture space (no cost, no reward)",
        [{"op": "lecture_disc"}],
    ),
    # Two colours
    _asg(
        "study_the_jacquard_loom",
        "Study the Jacquard Loom",
        ["P", "B"],
        0,
        "Gain 1 Brass and 1 Coal",
        [{"op": "gain", "brass": 1, "coal": 1}],
    ),
    _asg(
        "build_a_prototype",
        "Build a Prototype",
        ["P", "G"],
        1,
        "Gain an Addition Gear and 1 Brass",
        [{"op": "gain_gear", "gear": "add"}, {"op": "gain", "brass": 1}],
    ),
    _asg(
        "sketch_the_mill",
        "Sketch the Mill",
        ["P", "Y"],
        0,
        "Adjust a die by 1 pip and gain £2",
        [{"op": "adjust_die", "n": 1}, {"op": "gain", "money": 2}],
    ),
    _asg(
        "visit_the_observatory",
        "Visit the Observatory",
        ["B", "G"],
        0,
        "Gain 1 Innovation and 1 Coal",
        [{"op": "innovation", "n": 1}, {"op": "gain", "coal": 1}],
    ),
    _asg(
        "attend_the_british_association",
        "Attend the British Association",
        ["Y", "G"],
        0,
        "Gain 1 Workshop bonus reward of your choice",
        [{"op": "workshop_bonus", "n": 1, "different": False}],
    ),
    _asg(
        "exhibit_at_the_polytechnic",
        "Exhibit at the Polytechnic",
        ["B", "Y"],
        1,
        "Take a Multiplier Gear from the display",
        [{"op": "take_multiplier"}],
    ),
    # Colourless
    _asg(
        "errand_for_ada",
        "An Errand for Ada",
        [],
        0,
        "Gain 2 Coal, or 1 Brass, or £3",
        [
            {
                "op": "choose",
                "options": [
                    {"label": "2 Coal", "effect": [{"op": "gain", "coal": 2}]},
                    {"label": "1 Brass", "effect": [{"op": "gain", "brass": 1}]},
                    {"label": "£3", "effect": [{"op": "gain", "money": 3}]},
                ],
            }
        ],
    ),
    _asg(
        "wager_at_the_races",
        "A Wager at the Races",
        [],
        1,
        "Gain £6",
        [{"op": "gain", "money": 6}],
    ),
    _asg(
        "review_the_difference_engine",
        "Review the Difference Engine",
        [],
        2,
        "Advance Steam free and gain 1 Innovation",
        [{"op": "steam", "free": True}, {"op": "innovation", "n": 1}],
    ),
    _asg(
        "poetical_science",
        "Poetical Science",
        [],
        0,
        "Gain 1 Research on any track and 1 Innovation",
        [
            {"op": "research", "track": "any", "n": 1, "different": False},
            {"op": "innovation", "n": 1},
        ],
    ),
]

# ---------------------------------------------------------------------------------------------
# Partner cards (68 = 4 starting decks x 7 + 10 tier 1 + 30 tier 2)
# ---------------------------------------------------------------------------------------------

# The 7 starting-card slots: the four decks are functionally identical (same needs, effects,
# sciences and Prestige per slot), with different historical people.
# The two money cards pay £2 and £4 (were £1 and £3): with money that scarce the 4th seat's +£1
# (a rules fact) won 38-41% of greedy 4-player games; see bench/reports/balance.md.
_STARTING_SLOTS: list[dict[str, Any]] = [
    {
        "science": "mathematics",
        "prestige": 0,
        "need": {"kind": "value", "values": [1, 2]},
        "text": "Gain 1 Innovation",
        "effect": [{"op": "innovation", "n": 1}],
    },
    {
        "science": "physics",
        "prestige": 0,
        "need": {"kind": "value", "values": [3, 4]},
        "text": "Gain 1 Coal and £2",
        "effect": [{"op": "gain", "coal": 1, "money": 2}],
    },
    {
        "science": "engineering",
        "prestige": 0,
        "need": {"kind": "value", "values": [5, 6]},
        "text": "Gain 1 Brass",
        "effect": [{"op": "gain", "brass": 1}],
    },
    {
        "science": "astronomy",
        "prestige": 0,
        "need": {"kind": "minus1"},
        "text": "Gain 1 Research on any track",
        "effect": [{"op": "research", "track": "any", "n": 1, "different": False}],
    },
    {
        "science": "physics",
        "prestige": 0,
        "need": {"kind": "money"},
        "text": "Gain 2 Coal and 1 Brass",
        "effect": [{"op": "gain", "coal": 2, "brass": 1}],
    },
    {
        "science": None,
        "prestige": -1,
        "need": {"kind": "value", "values": [6]},
        "text": "Gain £4 and draw 1 card",
        "effect": [{"op": "gain", "money": 4}, {"op": "draw", "n": 1}],
    },
    {
        "science": "mathematics",
        "prestige": -1,
        "need": {"kind": "value", "values": [1]},
        "text": "Draw 2 cards",
        "effect": [{"op": "draw", "n": 2}],
    },
]

# Per player colour: (id, name) for slots 0..6 (sciences as in _STARTING_SLOTS).
_STARTING_PEOPLE: dict[str, list[tuple[str, str]]] = {
    "red": [
        ("george_peacock", "George Peacock"),
        ("william_sturgeon", "William Sturgeon"),
        ("joseph_clement", "Joseph Clement"),
        ("francis_baily", "Francis Baily"),
        ("john_frederic_daniell", "John Frederic Daniell"),
        ("samuel_rogers", "Samuel Rogers"),
        ("duncan_gregory", "Duncan Gregory"),
    ],
    "lime": [
        ("philip_kelland", "Philip Kelland"),
        ("peter_barlow", "Peter Barlow"),
        ("richard_roberts", "Richard Roberts"),
        ("richard_sheepshanks", "Richard Sheepshanks"),
        ("william_snow_harris", "William Snow Harris"),
        ("john_murray", "John Murray"),
        ("thomas_kirkman", "Thomas Kirkman"),
    ],
    "sky": [
        ("robert_leslie_ellis", "Robert Leslie Ellis"),
        ("francis_ronalds", "Francis Ronalds"),
        ("eaton_hodgkinson", "Eaton Hodgkinson"),
        ("william_henry_smyth", "William Henry Smyth"),
        ("william_robert_grove", "William Robert Grove"),
        ("woronzow_greig", "Woronzow Greig"),
        ("charles_graves", "Charles Graves"),
    ],
    "purple": [
        ("william_whewell", "William Whewell"),
        ("william_fox_talbot", "William Henry Fox Talbot"),
        ("joseph_locke", "Joseph Locke"),
        ("thomas_henderson", "Thomas Henderson"),
        ("andrew_crosse", "Andrew Crosse"),
        ("harriet_martineau", "Harriet Martineau"),
        ("henry_moseley", "Henry Moseley"),
    ],
}


def _starting_cards() -> list[dict[str, Any]]:
    cards = []
    for colour in PLAYER_COLOURS:
        for slot, (pid, name) in zip(_STARTING_SLOTS, _STARTING_PEOPLE[colour], strict=True):
            cards.append(
                {
                    "id": pid,
                    "name": name,
                    "tier": "S",
                    "deck": colour,
                    **deepcopy(slot),
                    "provisional": True,
                }
            )
    return cards


def _partner(
    pid: str,
    name: str,
    tier: int,
    science: str | None,
    prestige: int,
    need: dict[str, Any],
    text: str,
    effect: list[dict[str, Any]],
    source: str | None = None,
) -> dict[str, Any]:
    card: dict[str, Any] = {
        "id": pid,
        "name": name,
        "tier": tier,
        "deck": None,
        "science": science,
        "prestige": prestige,
        "need": need,
        "text": text,
        "effect": effect,
        "provisional": True,
    }
    if source:
        card["source"] = source
    return card


def _v(*values: int) -> dict[str, Any]:
    return {"kind": "value", "values": list(values)}


_MINUS1: dict[str, Any] = {"kind": "minus1"}
_MONEY: dict[str, Any] = {"kind": "money"}

_TIER1: list[dict[str, Any]] = [
    _partner(
        "augustus_de_morgan",
        "Augustus De Morgan",
        1,
        "mathematics",
        1,
        _v(2),
        "Gain 1 Innovation and 1 Study item",
        [{"op": "innovation", "n": 1}, {"op": "study_item", "n": 1, "different": False}],
        "rulebook: Ketan Workshop example (needs a 2; effect); tier, science, prestige designed",
    ),
    _partner(
        "luigi_menabrea",
        "Luigi Menabrea",
        1,
        "engineering",
        0,
        dict(_MINUS1),
        "Gain 1 purple Research and draw 1 card",
        [{"op": "research", "track": "P", "n": 1, "different": False}, {"op": "draw", "n": 1}],
        "rulebook: named (Isobel Meetings example); all values designed",
    ),
    _partner(
        "caroline_herschel",
        "Caroline Herschel",
        1,
        "astronomy",
        1,
        _v(5, 6),
        "Build an Addition Gear free",
        [{"op": "build_free", "gear": "add"}],
        "rulebook: Isobel Meetings example (effect); the rest designed",
    ),
    _partner(
        "mary_somerville",
        "Mary Somerville",
        1,
        "physics",
        1,
        dict(_MONEY),
        "Gain 2 Innovation",
        [{"op": "innovation", "n": 2}],
    ),
    _partner(
        "charles_wheatstone",
        "Charles Wheatstone",
        1,
        "physics",
        1,
        _v(3),
        "Move free to the next Small City and gain its reward",
        [{"op": "move_small", "max": 1}],
    ),
    _partner(
        "william_fairbairn",
        "William Fairbairn",
        1,
        "engineering",
        0,
        dict(_MINUS1),
        "Gain 2 Brass",
        [{"op": "gain", "brass": 2}],
    ),
    _partner(
        "john_couch_adams",
        "John Couch Adams",
        1,
        "astronomy",
        1,
        _v(1, 6),
        "Take the reward of a Breakthrough token in play",
        [{"op": "breakthrough", "n": 1, "different": False}],
    ),
    _partner(
        "george_boole",
        "George Boole",
        1,
        "mathematics",
        1,
        _v(1),
        "Gain 1 Innovation and 1 Research on any track",
        [
            {"op": "innovation", "n": 1},
            {"op": "research", "track": "any", "n": 1, "different": False},
        ],
    ),
    _partner(
        "lady_byron",
        "Lady Byron",
        1,
        None,
        1,
        _v(4, 5),
        "Gain £4",
        [{"op": "gain", "money": 4}],
    ),
    _partner(
        "earl_of_lovelace",
        "William King, Earl of Lovelace",
        1,
        None,
        1,
        dict(_MINUS1),
        "Move one of your discs to another available space (no reward) and gain £2",
        [{"op": "move_disc"}, {"op": "gain", "money": 2}],
    ),
]

_TIER2: list[dict[str, Any]] = [
    # Mathematics
    _partner(
        "charles_babbage",
        "Charles Babbage",
        2,
        "mathematics",
        3,
        _v(6),
        "Take a Program and gain its space bonus",
        [{"op": "take_program"}],
        "press: named as a Partner; all values designed",
    ),
    _partner(
        "william_rowan_hamilton",
        "William Rowan Hamilton",
        2,
        "mathematics",
        2,
        _v(1),
        "Gain 2 Innovation and 1 Research on any track",
        [
            {"op": "innovation", "n": 2},
            {"op": "research", "track": "any", "n": 1, "different": False},
        ],
    ),
    _partner(
        "arthur_cayley",
        "Arthur Cayley",
        2,
        "mathematics",
        1,
        dict(_MINUS1),
        "Gain 2 different Study items",
        [{"op": "study_item", "n": 2, "different": True}],
    ),
    _partner(
        "james_joseph_sylvester",
        "James Joseph Sylvester",
        2,
        "mathematics",
        1,
        _v(2, 3),
        "Adjust dice by 1 pip twice and gain £2",
        [{"op": "adjust_die", "n": 2}, {"op": "gain", "money": 2}],
    ),
    _partner(
        "florence_nightingale",
        "Florence Nightingale",
        2,
        "mathematics",
        2,
        _v(4),
        "Take a 1-point Assignment Scoring token from any Research track",
        [{"op": "assignment_token"}],
    ),
    _partner(
        "george_green",
        "George Green",
        2,
        "mathematics",
        1,
        _v(5),
        "Take any level-1 advanced action and gain 1 Innovation",
        [{"op": "advanced"}, {"op": "innovation", "n": 1}],
    ),
    # Physics
    _partner(
        "michael_faraday",
        "Michael Faraday",
        2,
        "physics",
        3,
        _v(3, 4),
        "Draw 2 cards, then play a card from your hand free",
        [{"op": "draw", "n": 2}, {"op": "play_free"}],
    ),
    _partner(
        "james_prescott_joule",
        "James Prescott Joule",
        2,
        "physics",
        1,
        dict(_MINUS1),
        "Advance Steam one space free",
        [{"op": "steam", "free": True}],
    ),
    _partner(
        "william_thomson",
        "William Thomson",
        2,
        "physics",
        2,
        dict(_MONEY),
        "Gain 2 Research on different tracks and 1 Coal",
        [{"op": "research", "track": "any", "n": 2, "different": True}, {"op": "gain", "coal": 1}],
    ),
    _partner(
        "david_brewster",
        "David Brewster",
        2,
        "physics",
        2,
        _v(2),
        "Swap a die on your board with one in the Workshop and gain £2",
        [{"op": "swap_die"}, {"op": "gain", "money": 2}],
    ),
    _partner(
        "john_tyndall",
        "John Tyndall",
        2,
        "physics",
        1,
        _v(5, 6),
        "Place a disc on an available Lecture space (no cost, no reward)",
        [{"op": "lecture_disc"}],
    ),
    _partner(
        "james_clerk_maxwell",
        "James Clerk Maxwell",
        2,
        "physics",
        2,
        _v(1, 2),
        "Take the rewards of 2 different Breakthrough tokens in play",
        [{"op": "breakthrough", "n": 2, "different": True}],
    ),
    # Astronomy
    _partner(
        "john_herschel",
        "John Herschel",
        2,
        "astronomy",
        2,
        _v(4),
        "Take a Multiplier Gear from the display",
        [{"op": "take_multiplier"}],
    ),
    _partner(
        "george_biddell_airy",
        "George Biddell Airy",
        2,
        "astronomy",
        2,
        dict(_MINUS1),
        "Gain 1 Book and 1 Innovation",
        [{"op": "gain", "books": 1}, {"op": "innovation", "n": 1}],
    ),
    _partner(
        "lord_rosse",
        "William Parsons, Lord Rosse",
        2,
        "astronomy",
        2,
        dict(_MONEY),
        "Take a 1-point Astronomy Science Scoring token and gain 1 Innovation",
        [{"op": "science_token", "science": "astronomy"}, {"op": "innovation", "n": 1}],
    ),
    _partner(
        "william_lassell",
        "William Lassell",
        2,
        "astronomy",
        1,
        _v(3),
        "Move your disc from one University to another and gain its reward",
        [{"op": "relocate_university_disc"}],
    ),
    _partner(
        "urbain_le_verrier",
        "Urbain Le Verrier",
        2,
        "astronomy",
        2,
        _v(6),
        "Gain 3 Research on different tracks",
        [{"op": "research", "track": "any", "n": 3, "different": True}],
    ),
    # Engineering
    _partner(
        "isambard_kingdom_brunel",
        "Isambard Kingdom Brunel",
        2,
        "engineering",
        3,
        _v(5, 6),
        "Advance Steam free and move free to the next Small City (gain its reward)",
        [{"op": "steam", "free": True}, {"op": "move_small", "max": 1}],
    ),
    _partner(
        "george_stephenson",
        "George Stephenson",
        2,
        "engineering",
        1,
        dict(_MINUS1),
        "Gain 2 Coal and move free to the next Small City (gain its reward)",
        [{"op": "gain", "coal": 2}, {"op": "move_small", "max": 1}],
    ),
    _partner(
        "robert_stephenson",
        "Robert Stephenson",
        2,
        "engineering",
        2,
        _v(4, 5),
        "Move to the nearest University and place a disc (no cost, no reward)",
        [{"op": "move_university"}],
    ),
    _partner(
        "joseph_whitworth",
        "Joseph Whitworth",
        2,
        "engineering",
        1,
        _v(1),
        "Gain an Addition Gear and build an Addition Gear free",
        [{"op": "gain_gear", "gear": "add"}, {"op": "build_free", "gear": "add"}],
    ),
    _partner(
        "james_nasmyth",
        "James Nasmyth",
        2,
        "engineering",
        2,
        dict(_MONEY),
        "Gain 2 Brass, then build a Gear paying its cost",
        [{"op": "gain", "brass": 2}, {"op": "build"}],
    ),
    _partner(
        "bryan_donkin",
        "Bryan Donkin",
        2,
        "engineering",
        1,
        _v(3),
        "Gain £3 and swap a built Subtraction Gear for an Addition Gear",
        [{"op": "gain", "money": 3}, {"op": "upgrade_subtraction"}],
        "rulebook: Ketan Institution example (effect); the rest designed",
    ),
    # Sponsors
    _partner(
        "queen_victoria",
        "Queen Victoria",
        2,
        None,
        4,
        _v(6),
        "Gain £3",
        [{"op": "gain", "money": 3}],
        "press: named as a Partner; all values designed",
    ),
    _partner(
        "prince_albert",
        "Prince Albert",
        2,
        None,
        3,
        _v(5),
        "Gain a Partner from the Meetings display free",
        [{"op": "take_partner"}],
    ),
    _partner(
        "charles_dickens",
        "Charles Dickens",
        2,
        None,
        3,
        _v(3, 4),
        "Gain £1 per card in your hand",
        [{"op": "per_hand", "gain": {"money": 1}}],
        "press: named as a Partner; all values designed",
    ),
    _partner(
        "duke_of_wellington",
        "Duke of Wellington",
        2,
        None,
        2,
        dict(_MINUS1),
        "Gain £1 per disc you have on Institutions and Universities",
        [{"op": "per_disc", "gain": {"money": 1}}],
    ),
    _partner(
        "robert_peel",
        "Robert Peel",
        2,
        None,
        2,
        _v(2, 3),
        "Place a disc in any available Meeting room (no cost, no reward)",
        [{"op": "meeting_disc"}],
    ),
    _partner(
        "angela_burdett_coutts",
        "Angela Burdett-Coutts",
        2,
        None,
        2,
        _v(1, 2),
        "Gain £4 and draw 1 card",
        [{"op": "gain", "money": 4}, {"op": "draw", "n": 1}],
    ),
    _partner(
        "george_hudson",
        "George Hudson",
        2,
        None,
        1,
        dict(_MONEY),
        "Place a disc on top of another of your discs (not on an Objective)",
        [{"op": "stack_disc"}],
    ),
]

PARTNERS: list[dict[str, Any]] = _starting_cards() + _TIER1 + _TIER2

# ---------------------------------------------------------------------------------------------
# Standard setup (printed on the board)
# ---------------------------------------------------------------------------------------------

STANDARD_SETUP: dict[str, Any] = {
    "universities": {
        "bristol": "uni_s_brass",
        "oxford": "uni_s_book",
        "cambridge": "uni_s_research",
        "southampton": "uni_s_money_coal",
        "cardiff": "uni_s_innovation",
        "manchester": "uni_c_add_gear",
        "birmingham": "uni_c_multiplier",
        "leeds": "uni_c_steam",
        "durham": "uni_c_partner",
    },
    "objectives": {
        "study": "study_purple_assignments",
        "travel": "travel_bristol_manchester",
        "meetings": "meetings_three_rooms",
        "institutions": "institutions_two_majorities",
    },
    # Blue holds the 1-Innovation token as in Ketan's example.
    "breakthroughs": {
        "P": "bt_add_gear",
        "B": "bt_innovation",
        "Y": "bt_cards",
        "G": "bt_coal_brass",
    },
    "science_rooms": ["engineering", "astronomy", "mathematics", "physics"],
    "workshop_order": STANDARD_WORKSHOP_ORDER,
    "provisional": True,
    "source": "rulebook: Manchester holds the add-gear reward (Anthony); the rest designed",
}

# Module-level numbers and tables that are designed (they cannot carry a "provisional" flag).
PROVISIONAL_CONSTANTS: dict[str, str] = {
    "STORE_SLOTS": "designed: the rules do not state the Store size",
    "STANDARD_WORKSHOP_ORDER": "designed: order of the 6 stated bonuses",
    "STEAM_START": "designed",
    "STEAM_TRACK": "designed except level 3 cap 20 and that caps 25 and 30 exist",
    "INNOVATION_START": "designed",
    "INNOVATION_PRESTIGE": "designed values; the rules say the top 2 spaces score",
    "RESEARCH_TRACK": "designed lengths and positions",
    "ROUTES": "designed except the Oxford -> Manchester £6 journey (4 roads + 1 rail)",
    "MEETING_ROOMS.capacity": "designed",
}

# ---------------------------------------------------------------------------------------------
# Validation (call explicitly; nothing runs at import)
# ---------------------------------------------------------------------------------------------


def _check_effect(effect: Any, where: str) -> None:
    assert isinstance(effect, list) and effect, f"{where}: effect must be a non-empty list"
    for step in effect:
        assert isinstance(step, dict) and "op" in step, f"{where}: bad step {step!r}"
        op = step["op"]
        assert op in EFFECT_OPS, f"{where}: unknown op {op!r}"
        required, optional = EFFECT_OPS[op]
        keys = set(step) - {"op"}
        assert required <= keys, f"{where}: {op} misses {sorted(required - keys)}"
        assert keys <= required | optional, f"{where}: {op} has extra {sorted(keys - required)}"
        if op in ("gain", "pay"):
            assert keys, f"{where}: {op} needs at least one resource"
            assert all(isinstance(step[k], int) and step[k] > 0 for k in keys), where
        if op in ("per_hand", "per_disc"):
            gain = step["gain"]
            assert gain and set(gain) <= set(RESOURCES), f"{where}: {op} gain {gain!r}"
        if op == "research":
            assert step["track"] == "any" or step["track"] in COLOURS_MAIN, where
        if op in ("gain_gear",):
            assert step["gear"] in ("add", "sub"), where
        if op == "build_free":
            assert step["gear"] == "add", where
        if op == "move_small":
            assert step["max"] in (1, 2), where
        if op == "science_token":
            assert step["science"] == "any" or step["science"] in SCIENCES, where
        if op == "steam":
            assert isinstance(step["free"], bool), where
        for key in ("n", "max"):
            if key in step:
                assert isinstance(step[key], int), f"{where}: {op}.{key} must be int"
        if op == "choose":
            options = step["options"]
            assert isinstance(options, list) and len(options) >= 2, f"{where}: choose options"
            for i, option in enumerate(options):
                assert isinstance(option.get("label"), str), f"{where}: option {i} label"
                _check_effect(option["effect"], f"{where}/option {i}")


def _check_unique(items: list[dict[str, Any]], name: str) -> set[str]:
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids)), f"{name}: duplicate ids"
    for i in ids:
        assert isinstance(i, str) and i == i.lower() and " " not in i, f"{name}: bad id {i!r}"
    for item in items:
        assert isinstance(item.get("provisional"), bool), f"{name}/{item['id']}: provisional flag"
    return set(ids)


def _check_args(spec: dict[str, frozenset[str]], cond: dict[str, Any], where: str) -> None:
    kind = cond.get("kind")
    assert kind in spec, f"{where}: unknown kind {kind!r}"
    assert set(cond) - {"kind"} == spec[kind], f"{where}: {kind} arguments {sorted(cond)}"


def validate() -> None:
    """Assert the content's internal consistency (ids, references, vocabulary)."""
    # Workshop
    assert set(WORKSHOP_BONUSES) == set(STANDARD_WORKSHOP_ORDER)
    assert len(STANDARD_WORKSHOP_ORDER) == WORKSHOP_SPACES
    for bid, bonus in WORKSHOP_BONUSES.items():
        assert bonus["text"], bid
        _check_effect(bonus["effect"], f"workshop/{bid}")

    # Tracks
    assert 0 <= STEAM_START < len(STEAM_TRACK)
    caps = [level["cap"] for level in STEAM_TRACK]
    assert caps == sorted(caps) and len(set(caps)) == len(caps), "steam caps must rise"
    assert 0 <= INNOVATION_START <= INNOVATION_MAX
    assert set(INNOVATION_PRESTIGE) == {INNOVATION_MAX - 1, INNOVATION_MAX}
    top = RESEARCH_TRACK["top"]
    assert all(
        0 < lvl < top for lvl in RESEARCH_TRACK["advanced"] + RESEARCH_TRACK["breakthroughs"]
    )

    # Program spaces
    assert sorted(s["line"] for s in PROGRAM_SPACES) == sorted(
        ["row0", "row1", "row2", "col0", "col1", "col2"]
    )
    for space in PROGRAM_SPACES:
        assert space["text"]
        _check_effect(space["effect"], f"program space {space['line']}")

    # Gears
    mult_ids = _check_unique(MULTIPLIERS, "MULTIPLIERS")
    assert not mult_ids & {"add", "sub"}
    for m in MULTIPLIERS:
        assert m["cost"] and set(m["cost"]) <= set(RESOURCES) | {"innovation"}, m["id"]

    # Map
    city_ids = _check_unique(CITIES, "CITIES")
    for city in CITIES:
        assert city["kind"] in ("small", "university"), city["id"]
        assert city["text"], city["id"]
        x, y = city["xy"]
        assert 0 <= x <= 1 and 0 <= y <= 1, city["id"]
        if city["kind"] == "small":
            assert city["region"] is None
            _check_effect(city["reward"], f"city/{city['id']}")
        else:
            assert city["region"] in REGIONS, city["id"]
            if city["region"] == "scottish":
                _check_effect(city["reward"], f"city/{city['id']}")
                assert isinstance(city["prestige"], int)
            else:
                assert city["reward"] is None
    seen_routes = set()
    for a, b, kind in ROUTES:
        assert a in city_ids and b in city_ids and a != b, (a, b)
        assert kind in ROUTE_COST, kind
        key = frozenset((a, b))
        assert key not in seen_routes, f"duplicate route {a}-{b}"
        seen_routes.add(key)
    assert START_CITY in city_ids

    tile_ids = _check_unique(UNIVERSITY_TILES, "UNIVERSITY_TILES")
    for tile in UNIVERSITY_TILES:
        assert tile["region"] in ("southern", "central"), tile["id"]
        assert tile["text"]
        _check_effect(tile["reward"], f"university tile/{tile['id']}")

    # Institutions
    inst_ids = _check_unique(INSTITUTIONS, "INSTITUTIONS")
    assert len(inst_ids) == 4
    for inst in INSTITUTIONS:
        assert sorted(inst["spaces"]) == LECTURE_LEVELS, inst["id"]
        for level, space in inst["spaces"].items():
            assert space["text"]
            _check_effect(space["effect"], f"{inst['id']}/{level}")
    _check_effect(ANALYTICAL_SOCIETY["effect"], "analytical society")

    # Meetings
    assert len(MEETING_ROOMS) == 4
    for room in MEETING_ROOMS:
        assert room["capacity"] > 0

    # Breakthroughs
    bt_ids = _check_unique(BREAKTHROUGHS, "BREAKTHROUGHS")
    for bt in BREAKTHROUGHS:
        assert bt["text"]
        _check_effect(bt["effect"], f"breakthrough/{bt['id']}")

    # Objectives
    obj_ids = _check_unique(OBJECTIVES, "OBJECTIVES")
    for obj in OBJECTIVES:
        assert obj["area"] in AREA_COLOURS and obj["side"] in ("A", "B"), obj["id"]
        assert obj["high"] > obj["low"] > 0, obj["id"]
        assert obj["text"]
        cond = obj["condition"]
        _check_args(OBJECTIVE_CONDITION_KINDS, cond, f"objective/{obj['id']}")
        if cond["kind"] == "universities_visited":
            for cid in cond["cities"]:
                assert cid in city_ids and cid != START_CITY, obj["id"]
        if cond["kind"] == "university_count":
            assert cond["region"] is None or cond["region"] in REGIONS
        if cond["kind"] == "assignments_in_column":
            assert cond["colour"] in COLOURS_MAIN
        if cond["kind"] == "science_cards":
            assert cond["science"] in SCIENCES

    # Programs
    _check_unique(PROGRAMS, "PROGRAMS")
    for prog in PROGRAMS:
        assert prog["text"] and isinstance(prog["prestige"], int)
        _check_args(PROGRAM_CRITERIA_KINDS, prog["criteria"], f"program/{prog['id']}")
        if prog["criteria"]["kind"] == "colour_count":
            assert prog["criteria"]["colour"] in DIE_COLOURS

    # Assignments
    _check_unique(ASSIGNMENTS, "ASSIGNMENTS")
    for asg in ASSIGNMENTS:
        assert asg["name"] and asg["text"]
        assert len(asg["colours"]) <= 2 and set(asg["colours"]) <= set(COLOURS_MAIN), asg["id"]
        assert asg["discard"] in (0, 1, 2), asg["id"]
        _check_effect(asg["effect"], f"assignment/{asg['id']}")

    # Partners
    _check_unique(PARTNERS, "PARTNERS")
    for card in PARTNERS:
        where = f"partner/{card['id']}"
        assert card["name"] and card["text"], where
        assert card["tier"] in ("S", 1, 2), where
        assert (card["deck"] in PLAYER_COLOURS) == (card["tier"] == "S"), where
        assert card["deck"] is None or card["tier"] == "S", where
        assert card["science"] is None or card["science"] in SCIENCES, where
        assert isinstance(card["prestige"], int), where
        need = card["need"]
        assert need["kind"] in ("value", "minus1", "money"), where
        if need["kind"] == "value":
            assert need["values"] and set(need["values"]) <= set(range(1, 7)), where
        else:
            assert set(need) == {"kind"}, where
        _check_effect(card["effect"], where)

    # Standard setup
    setup = STANDARD_SETUP
    tile_spaces = {c["id"] for c in CITIES if c["region"] in ("southern", "central")}
    assert set(setup["universities"]) == tile_spaces
    assert len(set(setup["universities"].values())) == len(setup["universities"])
    region_of = {c["id"]: c["region"] for c in CITIES}
    tile_region = {t["id"]: t["region"] for t in UNIVERSITY_TILES}
    for cid, tid in setup["universities"].items():
        assert tid in tile_ids and tile_region[tid] == region_of[cid], (cid, tid)
    assert set(setup["objectives"]) == set(AREA_COLOURS)
    obj_by_id = {o["id"]: o for o in OBJECTIVES}
    for area, oid in setup["objectives"].items():
        assert oid in obj_ids and obj_by_id[oid]["area"] == area, (area, oid)
        assert obj_by_id[oid]["side"] == "A", oid
    assert set(setup["breakthroughs"]) == set(COLOURS_MAIN)
    assert set(setup["breakthroughs"].values()) <= bt_ids
    assert len(set(setup["breakthroughs"].values())) == 4
    assert sorted(setup["science_rooms"]) == sorted(SCIENCES)
    assert sorted(setup["workshop_order"]) == sorted(WORKSHOP_BONUSES)
