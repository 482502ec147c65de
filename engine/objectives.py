"""Objective conditions: has a player met an Objective tile's requirement?"""

from __future__ import annotations

from typing import Any

from engine import vocabulary as V
from engine.common import (
    discs_at,
)
from engine.mill import line_value
from engine.state import (
    GameState,
)

# ======================================================================================
# Objectives
# ======================================================================================


# The steps after which an Objective may have become met (or unmet): what `objective_met` reads is
# changed only by these (discs placed or moved, Mill dice, built Gears, Programs, Assignments,
# Research, Steam, the Partner supply once back to eight). Rules version 2 checks the Objectives
# after each of them (`turn.claim_objectives`); a new condition reading something else must add
# the steps that change it here.
OBJECTIVE_STEPS = frozenset(
    {
        "place_disc",
        "move_disc_to",
        "relocate_to",
        "mill_place",
        "swap_with",
        "gear_place",
        "program_place",
        "assign_column",
        "research_step",
        "steam",
        "keep_eight",
    }
)


def objective_met(st: GameState, seat: int, cond: dict[str, Any]) -> bool:
    p = st.players[seat]
    kind = cond["kind"]
    n = cond.get("n", 0)
    if kind == "universities_visited":
        return all(seat in st.university_discs[c] for c in cond["cities"])
    if kind == "university_count":
        region = cond.get("region")
        return (
            sum(
                1
                for c in st.edition.university_cities
                if seat in st.university_discs[c] and region in (None, st.edition.city[c]["region"])
            )
            >= n
        )
    if kind == "assignments_in_column":
        return len(p.assignments[cond["colour"]]) >= n
    if kind == "assignment_count":
        return sum(len(v) for v in p.assignments.values()) >= n
    if kind == "mill_main_colours":
        return set(V.COLOURS_MAIN) <= {d[0] for d in p.mill if d}
    if kind == "multipliers_built":
        return sum(1 for g in p.gears if g and g not in ("add", "sub")) >= n
    if kind == "gears_built":
        return sum(1 for g in p.gears if g) >= n
    if kind == "lecture_majorities":
        return (
            sum(1 for i in range(len(st.edition.institutions)) if _lecture_leader(st, i) == seat)
            >= n
        )
    if kind == "lecture_levels":
        return len({k.split(":")[1] for k, s in st.lectures.items() if seat in s}) >= n
    if kind == "sponsors_in_supply":
        return sum(1 for c in p.supply() if st.edition.partner[c]["science"] is None) >= n
    if kind == "science_cards":
        return (
            sum(1 for c in p.supply() if st.edition.partner[c]["science"] == cond["science"]) >= n
        )
    if kind == "programs_placed":
        return sum(1 for t in p.programs if t) >= n
    if kind == "meeting_rooms":
        return sum(1 for r in range(4) if seat in discs_at(st, f"room:{r}")) >= n
    if kind == "meeting_discs":
        return sum(discs_at(st, f"room:{r}").count(seat) for r in range(4)) >= n
    if kind == "research_level":
        return sum(1 for v in p.research.values() if v >= n) >= cond.get("tracks", 1)
    if kind == "steam_level":
        return p.steam >= n
    if kind == "complete_lines":
        return sum(1 for line in range(6) if line_value(p.mill, p.gears, line) is not None) >= n
    raise ValueError(f"unknown Objective condition {kind!r}")


def _lecture_leader(st: GameState, inst: int) -> int | None:
    """The seat with strictly the most Lectures in an Institution, if any."""
    counts: dict[int, int] = {}
    for key, seats in st.lectures.items():
        if key.startswith(f"{inst}:"):
            for s in seats:
                counts[s] = counts.get(s, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    leaders = [s for s, c in counts.items() if c == best]
    return leaders[0] if len(leaders) == 1 else None
