"""The engine's vocabulary: what an edition's content may be made of.

An edition (engine.edition) holds the values of one set of cards, tiles, map and tracks. What it may
say is fixed here, by the code that runs it: the effect steps the interpreter knows, the Objective
conditions and Program criteria it can test, and the names the rules give colours, Sciences and
regions. These are not content: a new word here needs new engine code.
"""

from __future__ import annotations

RESOURCES = ("money", "coal", "brass", "books")

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

# kind -> (required argument keys, arguments that may be left out: then None, "any")
OBJECTIVE_CONDITION_KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "universities_visited": (frozenset({"cities"}), frozenset()),
    "university_count": (frozenset({"n"}), frozenset({"region"})),
    "assignments_in_column": (frozenset({"colour", "n"}), frozenset()),
    "assignment_count": (frozenset({"n"}), frozenset()),
    "mill_main_colours": (frozenset(), frozenset()),
    "multipliers_built": (frozenset({"n"}), frozenset()),
    "gears_built": (frozenset({"n"}), frozenset()),
    "lecture_majorities": (frozenset({"n"}), frozenset()),
    "lecture_levels": (frozenset({"n"}), frozenset()),
    "sponsors_in_supply": (frozenset({"n"}), frozenset()),
    "science_cards": (frozenset({"science", "n"}), frozenset()),
    "programs_placed": (frozenset({"n"}), frozenset()),
    "meeting_rooms": (frozenset({"n"}), frozenset()),
    "meeting_discs": (frozenset({"n"}), frozenset()),
    "research_level": (frozenset({"n", "tracks"}), frozenset()),
    "steam_level": (frozenset({"n"}), frozenset()),
    "complete_lines": (frozenset({"n"}), frozenset()),
}

# kind -> required argument keys
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

# Names the rules give (content-facts.md) and the engine's code is written with.
DIE_COLOURS = ("Y", "B", "G", "P", "K")  # "K" grey is wild
SCIENCES = ("mathematics", "physics", "astronomy", "engineering")
REGIONS = ("southern", "central", "scottish")
# the action areas, in the board's order (an Objective's disc location "obj:<a>" counts them)
AREAS = ("study", "travel", "meetings", "institutions")
AREA_COLOUR = {"study": "P", "travel": "B", "meetings": "Y", "institutions": "G"}
COLOUR_AREA = {c: a for a, c in AREA_COLOUR.items()}
COLOURS_MAIN = tuple(AREA_COLOUR[area] for area in AREAS)  # the action colours: P, B, Y, G
# What the engine's texts (log lines, labels, prompts) call the areas, colours, tracks and lines
AREA_TITLE = {
    "workshop": "Workshop",
    "study": "Ada's Study",
    "travel": "Travel",
    "meetings": "Meetings",
    "institutions": "Institutions",
}
COLOUR_NAMES = {"Y": "yellow", "B": "blue", "G": "green", "P": "purple", "K": "grey"}
# a Research track is named after its action area
TRACK_NAMES = {colour: AREA_TITLE[area] for area, colour in AREA_COLOUR.items()}
NEED_KINDS = ("value", "minus1", "money")
ROUTE_KINDS = ("road", "rail", "ferry")
MILL_LINES = ("row0", "row1", "row2", "col0", "col1", "col2")
LINE_NAMES = ("top row", "middle row", "bottom row", "left column", "middle column", "right column")
MILL_SIZE = 3  # 3x3 die slots (engine.mill)
MILL_GEAR_SPACES = 12  # between them, 2 per row and 2 per column
GEAR_KINDS = ("add", "sub")  # Multipliers are named by their tile id
