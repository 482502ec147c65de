"""Discs placed on the main board and on Objectives, taken from the player board or, with none
left there, moved from the main board."""

from __future__ import annotations

from typing import Final

from engine import sentences as S
from engine.choices import MoveDiscHere, Skip
from engine.common import AUTO, Choices, Step, loc_name, own_board_discs, put_disc, say, take_disc
from engine.objectives import objective_tests
from engine.state import GameState
from engine.steps import StepKind


def movable_discs(st: GameState, step: Step) -> list[str]:
    seat = st.current
    out = [loc for loc in own_board_discs(st, seat) if loc != step["to"]]
    if step["to"].startswith("obj:"):
        met = objective_tests(st.edition)[st.objectives[int(step["to"][4:])]]
        keep = []
        for loc in out:  # a disc that meets the Objective's requirement may not move
            trial = st.copy()
            take_disc(trial, seat, loc)
            if met(trial, seat):
                keep.append(loc)
        out = keep
    return out


# the label of its Skip choice (declared with its step too: i18n translates it from there)
NO_DISC: Final = "Place no disc"


def choices_place_disc(st: GameState, step: Step) -> Choices | None:
    if st.players[st.current].discs > 0:
        return AUTO
    out: Choices = [MoveDiscHere.encode(loc) for loc in movable_discs(st, step)]
    if out and not step["to"].startswith("obj:"):
        out.insert(0, Skip.ID)
    return out


def resolve_place_disc(st: GameState, step: Step, choice: str | None) -> None:
    p = st.players[st.current]
    if choice == Skip.ID:
        return
    if choice is None:
        p.discs -= 1
    else:
        (here,) = MoveDiscHere.decode(choice)
        take_disc(st, st.current, here)
    put_disc(st, st.current, step["to"], stack=bool(step.get("stack")))
    say(st, S.PLACES_DISC, loc=loc_name(st, step["to"]))


# The steps of this module (engine.steps; gathered by engine.rules).
STEPS: Final[tuple[StepKind, ...]] = (
    StepKind(
        "place_disc",
        resolve_place_disc,
        choices_place_disc,
        prompt="You have no discs left on your board: move one from the main board?",
        objectives=True,
        place="discs",
        decline=NO_DISC,
    ),
)
