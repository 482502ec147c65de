"""Institutions: giving a Lecture (a disc on a Lecture space) and the advanced action's lower
space."""

from __future__ import annotations

from typing import Final

from engine import sentences as S
from engine.choices import AnalyticalSociety, LectureSpace, LowerSpace, Skip
from engine.common import (
    SKIP,
    Choices,
    Step,
    empty_lectures,
    lecture_cost,
    lecture_costs,
    loc_name,
    push,
    push_effect,
    say,
)
from engine.state import GameState
from engine.steps import StepKind


def choices_lecture(st: GameState, step: Step) -> Choices:
    costs, innovation = lecture_costs(st, st.current), st.players[st.current].innovation
    return [
        LectureSpace.encode(i, lvl) for i, lvl in empty_lectures(st) if costs[lvl] <= innovation
    ]


def resolve_lecture(st: GameState, step: Step, choice: str) -> None:
    i, lvl = LectureSpace.decode(choice)
    cost = lecture_cost(st, st.current, lvl)
    st.players[st.current].innovation -= cost
    st.ctx["lecture"] = f"{i}:{lvl}"
    say(st, S.LECTURES, loc=loc_name(st, f"lec:{i}:{lvl}"), cost=cost)
    effect = st.edition.institutions[i]["spaces"][lvl]["effect"]
    push(st, {"op": "place_disc", "to": f"lec:{i}:{lvl}"}, {"op": "run_effect", "steps": effect})


def choices_lower_space(st: GameState, step: Step) -> Choices:
    out: Choices = [SKIP, AnalyticalSociety.ID]
    for i, lvl in empty_lectures(st):
        if lvl < step["below"] and step["inst"] in (None, i):
            out.append(LowerSpace.encode(i, lvl))
    return out


def resolve_lower_space(st: GameState, step: Step, choice: str) -> None:
    if choice == Skip.ID:
        return
    if choice == AnalyticalSociety.ID:
        push_effect(st, st.edition.analytical_society["effect"])
        return
    i, lvl = LowerSpace.decode(choice)
    say(st, S.GAINS_REWARD, loc=loc_name(st, f"lec:{i}:{lvl}"))
    push_effect(st, st.edition.institutions[i]["spaces"][lvl]["effect"])


# The steps of this module (engine.steps; gathered by engine.rules).
STEPS: Final[tuple[StepKind, ...]] = (
    StepKind(
        "lecture",
        resolve_lecture,
        choices_lecture,
        prompt="Institutions: where do you give a Lecture?",
        place="lectures",
    ),
    StepKind(
        "lower_space",
        resolve_lower_space,
        choices_lower_space,
        prompt="Advanced: you may gain the reward of an unoccupied lower space.",
        place="lectures",
    ),
)
