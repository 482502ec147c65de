"""The rules' facts about the content (engine/facts.py): the designed edition agrees with each,
and each one, contradicted on its own, is reported naming its source (so none can pass idly)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine import facts
from engine.edition import FIRST_EDITION, Edition, edition

ED = edition(FIRST_EDITION)

Edits = list[tuple[str, Any]]


def _without(section: str, item_id: str) -> Edits:
    return [(section, [x for x in ED.document[section] if x.get("id") != item_id])]


def _all_money_needs_become_minus1() -> Edits:
    return [
        (f"partners[{p['id']}].need", {"kind": "minus1"})
        for p in ED.partners
        if p["need"]["kind"] == "money"
    ]


def _route(a: str, b: str) -> int:
    return next(i for i, r in enumerate(ED.routes) if r[:2] == [a, b])


# fact -> the edits that contradict it (and nothing else the facts state)
CONTRADICTIONS: dict[str, Callable[[], Edits]] = {
    "dice": lambda: [("components.dice", 49)],
    "dice_removed": lambda: [("dice.removed_per_colour", {"2": 1, "3": 1, "4": 0})],
    "workshop_size": lambda: [("workshop.dice_per_space", 4)],
    "workshop_bonuses": lambda: [("workshop.bonuses.coal.effect", [{"op": "gain", "coal": 3}])],
    "programs": lambda: [("displays.programs", 4)],
    "assignments": lambda: [("displays.assignments", 3)],
    "objectives": lambda: [("objectives[study_two_programs].area", "travel")],
    "breakthroughs": lambda: _without("breakthroughs", "bt_money"),
    "university_tiles": lambda: [("university_tiles[uni_s_cards].region", "central")],
    "scottish_universities": lambda: [  # printed Universities become Small Cities
        (f"cities[{c}].{field}", value)
        for c in ("edinburgh", "glasgow", "st_andrews")
        for field, value in (("kind", "small"), ("region", None), ("prestige", None))
    ],
    "partner_counts": lambda: [("partners[augustus_de_morgan].tier", 2)],
    "tier1_cut": lambda: [("setup.tier1_deck_after_deal", 5)],
    "gear_counts": lambda: [("gears.subtraction", 9)],
    "start_gears": lambda: [("setup.start_gears", ["add", "add", "sub"])],
    "scoring_tokens": lambda: [("research.science_token_stack", [3, 1, 1, 1])],
    "per_player": lambda: [("components.books", 13)],
    "start_resources": lambda: [
        ("setup.start_resources", {"money": 5, "coal": 1, "brass": 1, "books": 1})
    ],
    "hand": lambda: [("setup.start_hand", 5)],
    "store": lambda: [("player_board.store_slots", 1)],
    "program_spaces": lambda: [("program_spaces[0].effect", [{"op": "gain", "books": 2}])],
    "steam": lambda: [("steam_track[3].cap", 21)],
    "innovation": lambda: [("innovation.top_spend", 3)],
    "research": lambda: [("research.track", {"top": 8, "advanced": [2, 5], "breakthroughs": []})],
    "named_cities": lambda: [("cities[liverpool].reward", [{"op": "gain", "money": 3}])],
    "route_costs": lambda: [("travel.route_cost", {"road": 1, "rail": 2, "ferry": 5})],
    "oxford_to_manchester": lambda: [
        (f"travel.routes[{_route('stoke', 'manchester')}]", ["stoke", "manchester", "road"])
    ],
    "meeting_rooms": lambda: [("meeting_rooms[0].money", 6)],
    "institutions": lambda: [("institutions[british_government].name", "Parliament")],
    "lecture_numbers": lambda: [("lectures.majority", {"6": 9, "5": 6, "4": 4, "3": 2, "2": 2})],
    "analytical_society": lambda: [("analytical_society.effect", [{"op": "draw", "n": 2}])],
    "royal_society": lambda: [
        ("institutions[royal_society].spaces[4].effect", [{"op": "use_display_partner"}])
    ],
    "lecture_rewards": lambda: [
        ("institutions[astronomical_society].spaces[3].effect", [{"op": "draw", "n": 2}])
    ],
    "objective_examples": lambda: [
        (
            "objectives[travel_bristol_manchester].condition",
            {"kind": "universities_visited", "cities": ["bristol"]},
        )
    ],
    "isobel_objective": lambda: [("objectives[meetings_three_rooms].high", 8)],
    "augustus_de_morgan": lambda: [
        ("partners[augustus_de_morgan].need", {"kind": "value", "values": [3]})
    ],
    "caroline_herschel": lambda: [
        ("partners[caroline_herschel].effect", [{"op": "gain", "money": 1}])
    ],
    "bryan_donkin": lambda: [
        (
            "partners[bryan_donkin].effect",
            [{"op": "gain", "money": 4}, {"op": "upgrade_subtraction"}],
        )
    ],
    "named_partners": lambda: [("partners[charles_dickens].name", "Wilkie Collins")],
    "partner_kinds": _all_money_needs_become_minus1,
    "assignment_facts": lambda: [("assignments[visit_textile_factory].colours", ["Y"])],
    "program_3_4": lambda: [("programs[prog_values_3_4].prestige", 9)],
    "gear_costs": lambda: [
        ("gears.costs", {"add": {"brass": 2, "coal": 1}, "sub": {"brass": 1, "coal": 1}})
    ],
    "ketan_breakthrough": lambda: [("standard_setup.breakthroughs.B", "bt_book")],
    "standard_objectives": lambda: [("standard_setup.objectives.study", "study_three_programs")],
    "manchester": lambda: [
        ("standard_setup.universities.manchester", "uni_c_steam"),
        ("standard_setup.universities.leeds", "uni_c_add_gear"),
    ],
    "isobel_travel": lambda: [("university_tiles[uni_s_brass].prestige", 3)],
}


def test_every_fact_has_its_contradiction_here():
    assert set(CONTRADICTIONS) == {f.name for f in facts.FACTS}


def test_the_designed_edition_agrees_with_every_fact():
    assert facts.check(ED) == []


@pytest.mark.parametrize("fact", facts.FACTS, ids=lambda f: f.name)
def test_a_contradicted_fact_is_reported_with_its_source(fact):
    variant: Edition = ED.derive("contradiction", CONTRADICTIONS[fact.name](), rules_facts=False)
    found = [str(p) for p in facts.check(variant)]
    assert found, f"{fact.name}: not caught"
    assert all(fact.source in p for p in found), found  # this fact, and only this one
