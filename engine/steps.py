"""The step registry: every step the rules know, declared once, beside its functions.

A step is a small dict on the state's stack, `{"op": name, ...}` (see engine.rules). Each module
of an area of the game ends with its `STEPS`: for each op the function that resolves it and, if a
player may have to decide something, the function that lists the legal choices, together with
what the rest of the project needs to know about that decision (its prompt, whether it shows the
hand, whether it can complete an Objective, the board place its picture shows, the AI's quick
answer). `engine.rules` gathers them with `registry`, which checks them against the stored
choice-id forms (`engine.choices.DECISION_FORMS`) and refuses to load if they disagree; the
loop's tables, the prompts, the private and Objective sets and render's picture of a decision
are all read from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import KW_ONLY, dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from engine.choices import DECISION_FORMS, BadChoiceId, parse

if TYPE_CHECKING:
    from engine.common import Choices, Step
    from engine.state import GameState

    ChoicesFn = Callable[[GameState, Step], Choices | None]
    ResolveFn = Callable[[GameState, Step, Any], None]

# The places of the boards a decision's picture can show (render/focus.py draws each): the
# Workshop, the Travel map, the Meeting rooms, the Lecture spaces, the player's Mill, Ada's Study,
# the Research tracks, the Partner cards in hand; "discs": wherever the disc choices point.
PLACES: Final = (
    "workshop",
    "map",
    "meetings",
    "lectures",
    "mill",
    "study",
    "research",
    "hand",
    "discs",
)


@dataclass(frozen=True, slots=True)
class StepKind:
    """One step of the rules (a decision kind, when it asks a player)."""

    op: str
    resolve: ResolveFn
    # the ids of the legal choices, in a stable order; AUTO (None) to resolve without asking.
    # A step without it never asks. (Each choice's label: engine.labels, by its id's form.)
    choices: ChoicesFn | None = None
    _: KW_ONLY
    prompt: str | None = None  # the question, in English (i18n translates it)
    private: bool = False  # the choices name cards in the hand: shown to that player only
    # It can change what an Objective asks (discs placed or moved, Mill dice, Gears, Programs,
    # Assignments, Research, Steam, the Partner supply): rules version 2 checks the Objectives
    # after it. A new Objective condition reading something else must mark the steps changing it.
    objectives: bool = False
    place: str | None = None  # the board place its picture shows (one of PLACES)
    decline: str | None = None  # the label of its Skip choice, where it says more than "Skip"
    ai_default: str | None = None  # the choice the AI's quick play takes without trying others

    def also(self, op: str, *, prompt: str) -> StepKind:
        """The same step under another op, asking its own question: its functions are shared
        (they may tell the two apart by `step["op"]`)."""
        return replace(self, op=op, prompt=prompt)


class RegistryError(Exception):
    """The declared steps disagree with one another or with the stored choice-id forms."""


def registry(
    *groups: Iterable[StepKind],
    forms: Mapping[str, tuple[Any, ...]] = DECISION_FORMS,
) -> dict[str, StepKind]:
    """The steps of all groups by op, checked: no op declared twice; a step that asks has a
    prompt and choice-id forms, one that never asks has neither (nor any other trait of a
    decision); every kind with forms is a step that asks; places and AI answers are valid."""
    table: dict[str, StepKind] = {}
    problems: list[str] = []
    for group in groups:
        for kind in group:
            if kind.op in table:
                problems.append(f"{kind.op}: declared twice")
            table[kind.op] = kind
    for op, kind in table.items():
        if kind.choices is None:
            if (
                kind.prompt is not None
                or kind.private
                or kind.place
                or kind.ai_default
                or kind.decline
            ):
                problems.append(f"{op}: never asks, yet has traits of a decision")
            continue
        if not kind.prompt:
            problems.append(f"{op}: asks a player but has no prompt")
        if op not in forms:
            problems.append(f"{op}: asks a player but has no choice-id forms (DECISION_FORMS)")
        if kind.place is not None and kind.place not in PLACES:
            problems.append(f"{op}: {kind.place!r} is not a board place ({', '.join(PLACES)})")
        if kind.ai_default is not None and op in forms:
            try:
                parse(op, kind.ai_default)
            except BadChoiceId:
                problems.append(f"{op}: the AI's answer {kind.ai_default!r} is no choice of it")
    for op in forms:
        if op not in table or table[op].choices is None:
            problems.append(f"{op}: has choice-id forms but no step that asks")
    if problems:
        raise RegistryError("the step registry is inconsistent:\n" + "\n".join(problems))
    return table
