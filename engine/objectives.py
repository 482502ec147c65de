"""Objective conditions: has a player met an Objective tile's requirement?"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import chain
from typing import TYPE_CHECKING, Any

from engine import vocabulary as V
from engine.mill import LINE_DICE, LINE_GEARS
from engine.state import (
    GameState,
)

if TYPE_CHECKING:
    from engine.edition import Edition

# ======================================================================================
# Objectives
# ======================================================================================


ObjectiveTest = Callable[[GameState, int], bool]


def objective_met(st: GameState, seat: int, cond: dict[str, Any]) -> bool:
    """Whether `seat` meets an Objective condition (the edition's own Objectives have their
    tests ready in `objective_tests(st.edition)`)."""
    return condition_test(cond, st.edition)(st, seat)


@cache
def objective_tests(ed: Edition) -> dict[str, ObjectiveTest]:
    """Objective id -> its condition's test `(state, seat) -> met?`, compiled once per edition
    (here, in the rules: an edition is content and runs no rule code)."""
    return {o["id"]: condition_test(o["condition"], ed) for o in ed.objectives}


def condition_test(cond: dict[str, Any], ed: Edition) -> ObjectiveTest:
    """The test `(state, seat) -> met?` of an Objective condition, with what it needs from the
    edition looked up once: the Objectives are checked after most steps (rules version 2)."""
    kind = cond["kind"]
    n = cond.get("n", 0)
    if kind == "universities_visited":
        cities = list(cond["cities"])

        def universities_visited(st: GameState, seat: int) -> bool:
            discs = st.university_discs
            for c in cities:
                if seat not in discs[c]:
                    return False
            return True

        return universities_visited
    if kind == "university_count":
        region = cond.get("region")
        cities = [c for c in ed.university_cities if region in (None, ed.city[c]["region"])]

        def university_count(st: GameState, seat: int) -> bool:
            discs = st.university_discs
            count = 0
            for c in cities:
                if seat in discs[c]:
                    count += 1
            return count >= n

        return university_count
    if kind == "assignments_in_column":
        colour = cond["colour"]
        return lambda st, seat: len(st.players[seat].assignments[colour]) >= n
    if kind == "assignment_count":
        return lambda st, seat: sum(map(len, st.players[seat].assignments.values())) >= n
    if kind == "mill_main_colours":
        main = set(V.COLOURS_MAIN)

        def mill_main_colours(st: GameState, seat: int) -> bool:
            mill = st.players[seat].mill
            # fewer dice than colours asked cannot show them all (most checks: answered here)
            if len(mill) - mill.count(None) < len(main):
                return False
            return main <= {d[0] for d in mill if d}

        return mill_main_colours
    if kind == "multipliers_built":

        def multipliers_built(st: GameState, seat: int) -> bool:
            gears = st.players[seat].gears  # None, "add", "sub" or a Multiplier
            return len(gears) - gears.count(None) - gears.count("add") - gears.count("sub") >= n

        return multipliers_built
    if kind == "gears_built":
        return lambda st, seat: _placed(st.players[seat].gears) >= n
    # (Lecture majorities and levels: n of them need n Lecture spaces taken, by anyone; most
    # checks are answered by that count)
    if kind == "lecture_majorities":
        return lambda st, seat: len(st.lectures) >= n and _majorities(st, seat) >= n
    if kind == "lecture_levels":
        level = ed.lecture_level
        return lambda st, seat: (
            len(st.lectures) >= n
            and len({level[k] for k, s in st.lectures.items() if seat in s}) >= n
        )
    if kind in ("sponsors_in_supply", "science_cards"):
        science = cond.get("science")  # None: a sponsor
        is_card = frozenset(c["id"] for c in ed.partners if c["science"] == science).__contains__

        def cards_in_supply(st: GameState, seat: int) -> bool:
            p = st.players[seat]  # (the piles of `PlayerState.supply`, counted without joining)
            return sum(map(is_card, chain(p.deck, p.hand, p.discard, p.played))) >= n

        return cards_in_supply
    if kind == "programs_placed":
        return lambda st, seat: _placed(st.players[seat].programs) >= n
    if kind == "meeting_rooms":

        def meeting_rooms(st: GameState, seat: int) -> bool:
            count = 0
            for room in st.rooms[:4]:
                for space in room:  # a stack of seats, or None
                    if space and seat in space:
                        count += 1
                        break
            return count >= n

        return meeting_rooms
    if kind == "meeting_discs":

        def meeting_discs(st: GameState, seat: int) -> bool:
            discs = 0
            for room in st.rooms[:4]:
                for space in room:  # a stack of seats, or None
                    if space:
                        discs += space.count(seat)
            return discs >= n

        return meeting_discs
    if kind == "research_level":
        tracks = cond.get("tracks", 1)
        if tracks < 1:
            return lambda st, seat: True

        def research_level(st: GameState, seat: int) -> bool:
            # `tracks` tracks at n or more: the tracks-th highest level is at n or more
            levels = sorted(st.players[seat].research.values(), reverse=True)
            return len(levels) >= tracks and levels[tracks - 1] >= n

        return research_level
    if kind == "steam_level":
        return lambda st, seat: st.players[seat].steam >= n
    if kind == "complete_lines":
        # a line is complete with its three dice and two Gears (`mill.line_value` is not None)
        lines = list(zip(LINE_DICE, LINE_GEARS, strict=True))
        # each line has Gear spaces of its own: n complete lines need 2n Gears built
        gears_needed = 2 * n if len(set(chain(*LINE_GEARS))) == 2 * len(LINE_GEARS) else 0

        def complete_lines(st: GameState, seat: int) -> bool:
            mill, gears = st.players[seat].mill, st.players[seat].gears
            if len(gears) - gears.count(None) < gears_needed:
                return False  # (most checks: answered here)
            complete = 0
            for (a, b, c), (g, h) in lines:
                if mill[a] and mill[b] and mill[c] and gears[g] and gears[h]:  # (None: empty)
                    complete += 1
            return complete >= n

        return complete_lines
    raise ValueError(f"unknown Objective condition {kind!r}")


def _majorities(st: GameState, seat: int) -> int:
    """In how many Institutions `seat` has strictly more Lectures than any other player."""
    counts: dict[str, list[int]] = {}  # Institution -> Lectures per seat
    players = len(st.players)
    for key, seats in st.lectures.items():
        institution = key.partition(":")[0]
        per_seat = counts.get(institution)
        if per_seat is None:
            per_seat = counts[institution] = [0] * players
        for s in seats:
            per_seat[s] += 1
    led = 0
    for per_seat in counts.values():
        mine = per_seat[seat]
        # strictly more than any other: the most, and no one else has as many
        if mine and mine == max(per_seat) and per_seat.count(mine) == 1:
            led += 1
    return led


def _placed(spaces: list[str | None]) -> int:
    """How many of a player board's spaces (Gear spaces, Program spaces) are filled."""
    return len(spaces) - spaces.count(None)
