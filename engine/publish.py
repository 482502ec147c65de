"""Publish or Build at the end of a turn: each area's Publish (Steam, a stacked disc, pips, a
Multiplier Gear, a swapped die) and building Gears."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Final

from engine import sentences as S
from engine.choices import (
    AdvanceSteam,
    BuildGear,
    ChangePip,
    Done,
    GearSpace,
    Publish,
    Skip,
    StackDisc,
    SwapOwnDie,
    WorkshopDie,
)
from engine.common import (
    AUTO,
    SKIP,
    Choices,
    Step,
    can_pay,
    discs_at,
    may_build,
    open_gear_spaces,
    own_board_discs,
    own_dice,
    pay,
    push,
    say,
    set_own_die,
)
from engine.mill import gear_space_name
from engine.state import GameState, die_name
from engine.steps import StepKind
from engine.turn import advanced_steps
from engine.versions import rule
from engine.vocabulary import AREA_TITLE

if TYPE_CHECKING:
    from engine.edition import Edition


def _publish_possible(st: GameState, area: str) -> bool:
    p = st.players[st.current]
    if p.books < 1:
        return False
    if area == "workshop":
        return (
            p.steam + 1 < len(st.edition.steam_track)
            and p.coal >= st.edition.steam_track[p.steam + 1]["coal"]
        )
    if area == "study":
        return p.discs > 0
    if area == "travel":
        return any(p.store) or any(p.mill)  # a die on the board (`own_dice`)
    if area == "meetings":
        return any(m is not None for m in st.multiplier_display)
    return (any(p.store) or any(p.mill)) and any(st.workshop)


PUBLISH_TEXT: Final = {
    "workshop": "advance Steam one space (paying its Coal)",
    "study": "stack a disc on one of your discs and take that area's level I advanced action",
    "travel": "change your dice by up to 4 pips",
    "meetings": "take a Multiplier Gear from the display",
    "institutions": "swap a die on your board with a Workshop die",
}


def build_options(st: GameState) -> Choices:
    p = st.players[st.current]
    if not may_build(p):
        return []
    out: Choices = []
    for gear in sorted(set(p.gear_supply)):
        cost, choice = _build_gear(st.edition, gear)
        if can_pay(p, cost):
            out.append(choice)
    return out


@cache
def _build_gear(ed: Edition, gear: str) -> tuple[dict[str, int], str]:
    """A Gear's cost and the choice to build it (made once per edition and Gear)."""
    return ed.gear_cost(gear), BuildGear.encode(gear)


# the label of its Skip choice (declared with its step too: i18n translates it from there)
NEITHER: Final = "Neither Publish nor Build"


def choices_publish_or_build(st: GameState, step: Step) -> Choices:
    area = st.ctx.get("area")  # None: a turn without an action area (no turn possible)
    out = build_options(st)
    if area is not None and _publish_possible(st, area):
        out.insert(0, Publish.ID)
    if out:
        out.append(Skip.ID)
    return out


def resolve_publish_or_build(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    if choice != Publish.ID:
        (gear,) = BuildGear.decode(choice)
        push(st, {"op": "gear_place", "gear": gear})
        return
    p = st.players[st.current]
    p.books -= 1
    area = st.ctx["area"]
    say(st, S.PUBLISHES, area=AREA_TITLE[area])
    push(st, _PUBLISH_STEP[area])


# the step of each area's Publish (see PUBLISH_TEXT)
_PUBLISH_STEP: Final[dict[str, Step]] = {
    "workshop": {"op": "steam", "free": False, "forced": True},
    "study": {"op": "stack_disc", "publish": True},
    "travel": {"op": "pips", "left": 4},
    "meetings": {"op": "take_multiplier"},
    "institutions": {"op": "swap_die"},
}


def choices_gear_place(st: GameState, step: Step) -> Choices:
    if step["gear"] not in st.players[st.current].gear_supply:
        return []
    return [_GEAR_SPACES[pos] for pos in open_gear_spaces(st.players[st.current])]


_GEAR_SPACES: Final = [GearSpace.encode(pos) for pos in range(12)]


def resolve_gear_place(st: GameState, step: Step, choice: str) -> None:
    p = st.players[st.current]
    gear = step["gear"]
    if not step.get("free"):
        pay(p, st.edition.gear_cost(gear))
    p.gear_supply.remove(gear)
    (pos,) = GearSpace.decode(choice)
    p.gears[pos] = gear
    say(st, S.BUILDS, gear=st.edition.gear_name(gear), gear_space=gear_space_name(pos))


def choices_steam(st: GameState, step: Step) -> Choices | None:
    p = st.players[st.current]
    if p.steam + 1 >= len(st.edition.steam_track):
        return []
    coal = st.edition.steam_track[p.steam + 1]["coal"]
    if step.get("free") or step.get("forced"):
        return AUTO if step.get("free") or p.coal >= coal else []
    if p.coal < coal:
        return []
    return [AdvanceSteam.ID, SKIP]


def resolve_steam(st: GameState, step: Step, choice: str | None) -> None:
    p = st.players[st.current]
    if choice == Skip.ID or p.steam + 1 >= len(st.edition.steam_track):
        return
    if not step.get("free"):
        p.coal -= st.edition.steam_track[p.steam + 1]["coal"]
    p.steam += 1
    say(st, S.STEAM, level=p.steam, cap=st.edition.steam_track[p.steam]["cap"])


def publish_boxes_disc(st: GameState) -> bool:
    """Would Ada's Study's Publish now put one of the player's discs in the box, having no disc
    of theirs to stack on (resolve_stack_disc)? The bot says so on the choice."""
    return not _stack_targets(st)


def _stack_targets(st: GameState) -> list[str]:
    """Where Ada's Study Publish may stack a disc: "You may never have more than two discs in the
    same location". Rules version 2: a location is one disc space (a University's, a Lecture
    space, one space of a Meeting room), so a room where you hold a space with one disc of yours
    qualifies however many other spaces there are yours; version 1 counted the whole room."""
    seat = st.current
    per_space = rule(st, "two_discs_per_disc_space")
    out = []
    for loc in own_board_discs(st, seat):
        if per_space and loc.startswith("room:"):
            if any(space == [seat] for space in st.rooms[int(loc[5:])]):
                out.append(loc)
        elif discs_at(st, loc).count(seat) < 2:
            out.append(loc)
    return out


def choices_stack_disc(st: GameState, step: Step) -> Choices | None:
    if st.players[st.current].discs < 1:
        return []
    targets = _stack_targets(st)
    if not targets:
        return AUTO if step.get("publish") else []
    return [StackDisc.encode(loc) for loc in targets]


def resolve_stack_disc(st: GameState, step: Step, choice: str | None) -> None:
    p = st.players[st.current]
    if choice is None:  # Ada's Study Publish with no disc on the board: the disc leaves the game
        p.discs -= 1
        p.discs_boxed += 1
        say(st, S.NO_DISC_BOXED)
        return
    (loc,) = StackDisc.decode(choice)
    follow: list[Step] = [{"op": "place_disc", "to": loc, "stack": True}]
    if step.get("publish"):
        kind, _, rest = loc.partition(":")  # a disc location (engine.state)
        area = {"uni": "travel", "room": "meetings", "lec": "institutions"}[kind]
        follow += advanced_steps(st, area, 1, ref=rest if kind == "lec" else None)
    push(st, *follow)


def choices_pips(st: GameState, step: Step) -> Choices:
    out: Choices = [Done.ID]
    for where, die in own_dice(st.players[st.current]):
        v = int(die[1])
        if v > 1:
            out.append(ChangePip.encode(where, -1))
        if v < 6:
            out.append(ChangePip.encode(where, 1))
    return out


def resolve_pips(st: GameState, step: Step, choice: str) -> None:
    if choice == Done.ID:
        return
    where, delta = ChangePip.decode(choice)
    p = st.players[st.current]
    die = (p.store if where[0] == "s" else p.mill)[int(where[1:])]
    assert die is not None
    set_own_die(p, where, f"{die[0]}{int(die[1]) + delta}")
    if step["left"] > 1:
        push(st, {"op": "pips", "left": step["left"] - 1})


def choices_swap_die(st: GameState, step: Step) -> Choices:
    if not any(st.workshop):
        return []
    return [SwapOwnDie.encode(w) for w, _ in own_dice(st.players[st.current])]


def resolve_swap_die(st: GameState, step: Step, choice: str) -> None:
    (own,) = SwapOwnDie.decode(choice)
    push(st, {"op": "swap_with", "own": own})


def choices_swap_with(st: GameState, step: Step) -> Choices:
    out: Choices = []
    for s, space in enumerate(st.workshop):
        for idx, die in enumerate(space):
            if die not in space[:idx]:
                out.append(WorkshopDie.encode(s, idx))
    return out


def resolve_swap_with(st: GameState, step: Step, choice: str) -> None:
    p = st.players[st.current]
    s, idx = WorkshopDie.decode(choice)
    where = step["own"]
    mine = (p.store if where[0] == "s" else p.mill)[int(where[1:])]
    assert mine is not None
    theirs = st.workshop[s][idx]
    st.workshop[s][idx] = mine
    set_own_die(p, where, theirs)
    say(st, S.SWAPS_DIE, die=die_name(mine), die2=die_name(theirs))


# The steps of this module (engine.steps; gathered by engine.rules).
STEPS: Final[tuple[StepKind, ...]] = (
    StepKind(
        "publish_or_build",
        resolve_publish_or_build,
        choices_publish_or_build,
        prompt="End of turn: Publish (spend a Book), Build a Gear, or neither.",
        place="mill",
        decline=NEITHER,
    ),
    StepKind(
        "gear_place",
        resolve_gear_place,
        choices_gear_place,
        prompt="Where do you build the Gear?",
        objectives=True,
        place="mill",
    ),
    StepKind(
        "steam",
        resolve_steam,
        choices_steam,
        prompt="Advance your Steam marker?",
        objectives=True,
        place="mill",
    ),
    StepKind(
        "stack_disc",
        resolve_stack_disc,
        choices_stack_disc,
        prompt="Stack a disc on one of your discs.",
        place="discs",
    ),
    StepKind(
        "pips",
        resolve_pips,
        choices_pips,
        prompt="Change your dice (up to 4 pips in all).",
        place="mill",
    ),
    StepKind(
        "swap_die",
        resolve_swap_die,
        choices_swap_die,
        prompt="Which of your dice do you swap with a Workshop die?",
        place="mill",
    ),
    StepKind(
        "swap_with",
        resolve_swap_with,
        choices_swap_with,
        prompt="Which Workshop die do you swap it with?",
        objectives=True,
        place="workshop",
    ),
)
