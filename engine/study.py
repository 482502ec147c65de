"""Ada's Study: Program tiles and their line of the Mill, Study rewards (Book, Addition Gear,
Assignment card), and the Assignment cards and their columns."""

from __future__ import annotations

from typing import Final

from engine import sentences as S
from engine import vocabulary as V
from engine.choices import (
    AssignmentCard,
    AssignmentColumn,
    ProgramLine,
    ProgramTile,
    Skip,
    StudyItem,
)
from engine.common import SKIP, Choices, Step, push, push_effect, say, slide_and_refill
from engine.state import GameState
from engine.steps import StepKind
from engine.versions import rule
from engine.vocabulary import LINE_NAMES


def choices_study_program(st: GameState, step: Step) -> Choices:
    if None not in st.players[st.current].programs:
        return []
    return [ProgramTile.encode(i) for i, t in enumerate(st.program_display) if t is not None]


def resolve_study_program(st: GameState, step: Step, choice: str) -> None:
    (i,) = ProgramTile.decode(choice)
    tile = st.program_display[i]
    st.program_display[i] = None
    slide_and_refill(st, "program", remove_rightmost=step.get("op") == "study_program")
    push(st, {"op": "program_place", "program": tile})


def choices_program_place(st: GameState, step: Step) -> Choices:
    return [
        ProgramLine.encode(k) for k, t in enumerate(st.players[st.current].programs) if t is None
    ]


def resolve_program_place(st: GameState, step: Step, choice: str) -> None:
    (k,) = ProgramLine.decode(choice)
    st.players[st.current].programs[k] = step["program"]
    say(
        st,
        S.PLACES_PROGRAM,
        program=st.edition.program[step["program"]]["text"],
        line=LINE_NAMES[k],
    )
    push_effect(st, st.edition.program_spaces[k]["effect"])


def _affordable_assignments(st: GameState) -> list[int]:
    hand = len(st.players[st.current].hand)
    return [
        i
        for i, a in enumerate(st.assignment_display)
        if a is not None and st.edition.assignment[a]["discard"] <= hand
    ]


_STUDY_ITEMS: Final = [StudyItem.encode(item) for item in ("book", "gear", "assignment")]
# the label of each Study item (engine.labels says it; i18n translates it from here)
STUDY_ITEM_TEXT: Final = {
    "book": "Gain 1 Book",
    "gear": "Gain 1 Addition Gear",
    "assignment": "Gain 1 Assignment card",
}


def study_item_choices(st: GameState, exclude: list[str]) -> Choices:
    out: Choices = []
    book, gear, assignment = _STUDY_ITEMS
    if book not in exclude:
        out.append(book)
    if gear not in exclude and st.addition_supply > 0:
        out.append(gear)
    if assignment not in exclude and _affordable_assignments(st):
        out.append(assignment)
    return out


def gain_study_item(st: GameState, item: str, main: bool = False) -> None:
    """Gain a Study item. main: the main action's Study reward (rules version 2), whose
    Assignment refills with the Study cleanup; any other Assignment slides and refills at once.
    `item` is a StudyItem choice."""
    p = st.players[st.current]
    (item,) = StudyItem.decode(item)
    if item == "book":
        p.books += 1
        say(st, S.GAINS_BOOK)
    elif item == "gear":
        st.addition_supply -= 1
        p.gear_supply.append("add")
        say(st, S.GAINS_ADDITION)
    else:
        if not rule(st, "study_cleanup_after_main_reward"):
            main = st.ctx.get("area") == "study"  # version 1: every Study-action Assignment
        push(st, {"op": "take_assignment", "main": main})


def choices_study_reward(st: GameState, step: Step) -> Choices:
    out = study_item_choices(st, st.ctx.get("study_taken", []))
    return out + [SKIP] if step.get("optional") and out else out


def resolve_study_reward(st: GameState, step: Step, choice: str) -> None:
    if choice != Skip.ID:
        st.ctx.setdefault("study_taken", []).append(choice)
        gain_study_item(st, choice, main=bool(step.get("main")))


def resolve_study_cleanup(st: GameState, step: Step, choice: None) -> None:
    slide_and_refill(st, "assignment", remove_rightmost=True)


def choices_take_assignment(st: GameState, step: Step) -> Choices:
    return [AssignmentCard.encode(i) for i in _affordable_assignments(st)]


def resolve_take_assignment(st: GameState, step: Step, choice: str) -> None:
    (i,) = AssignmentCard.decode(choice)
    card = st.assignment_display[i]
    assert card is not None
    st.assignment_display[i] = None
    info = st.edition.assignment[card]
    say(st, S.TAKES_ASSIGNMENT, assignment=info["name"])
    follow: list[Step] = []
    if info["discard"]:
        follow.append({"op": "discard", "n": info["discard"]})
    follow.append({"op": "run_effect", "steps": info["effect"]})
    follow.append({"op": "assign_column", "card": card})
    if not step.get("main"):
        follow.append({"op": "refill", "display": "assignment"})
    push(st, *follow)


def choices_assign_column(st: GameState, step: Step) -> Choices:
    colours = st.edition.assignment[step["card"]]["colours"] or V.COLOURS_MAIN
    return [AssignmentColumn.encode(c) for c in colours]


def resolve_assign_column(st: GameState, step: Step, choice: str) -> None:
    (colour,) = AssignmentColumn.decode(choice)
    st.players[st.current].assignments[colour].append(step["card"])


# The steps of this module (engine.steps; gathered by engine.rules).
STUDY_PROGRAM: Final = StepKind(
    "study_program",
    resolve_study_program,
    choices_study_program,
    prompt="Ada's Study: choose a Program tile.",
    place="study",
)
STEPS: Final[tuple[StepKind, ...]] = (
    STUDY_PROGRAM,
    # an effect's Program tile: the same step in its own words, without the main action's
    # removal of the rightmost tile (resolve_study_program tells the two apart by op)
    STUDY_PROGRAM.also("take_program", prompt="Choose a Program tile."),
    StepKind(
        "program_place",
        resolve_program_place,
        choices_program_place,
        prompt="Place the Program on a line of your Mill (you gain that space's bonus).",
        objectives=True,
        place="mill",
    ),
    StepKind(
        "study_reward",
        resolve_study_reward,
        choices_study_reward,
        prompt="Ada's Study: choose a Study reward.",
        place="study",
    ),
    StepKind("study_cleanup", resolve_study_cleanup),
    StepKind(
        "take_assignment",
        resolve_take_assignment,
        choices_take_assignment,
        prompt="Choose an Assignment card.",
        place="study",
    ),
    StepKind(
        "assign_column",
        resolve_assign_column,
        choices_assign_column,
        prompt="Which Assignment column does the card go in?",
        objectives=True,
        place="study",
    ),
)
