"""The step registry (engine/steps.py): each step of the rules declared once, beside its
functions, and the loop's tables, prompts, privacy, Objective checks, pictures and AI answers
read from it (issue 31)."""

from __future__ import annotations

import pytest

from engine import GameSetup, new_game, rules
from engine.choices import DECISION_FORMS, DraftCard, Skip
from engine.common import Choices, Step
from engine.state import GameState
from engine.steps import PLACES, RegistryError, StepKind, registry
from render.focus import CHOICE_TITLES, FOCUS_OF_KIND


def _resolve(st: GameState, step: Step, choice: str | None) -> None:
    """A step's resolve function, for registries made up here."""


def _choices(st: GameState, step: Step) -> Choices:
    return [(Skip.ID, "Skip")]


FORMS = {"pick": (Skip,)}
PICK = StepKind("pick", _resolve, _choices, prompt="Pick one.")
QUIET = StepKind("quiet", _resolve)


class TestTheRegistryChecksItself:
    def test_a_consistent_set_of_steps_is_accepted(self) -> None:
        table = registry([PICK], [QUIET], forms=FORMS)
        assert table == {"pick": PICK, "quiet": QUIET}

    def test_an_op_declared_twice_is_refused(self) -> None:
        with pytest.raises(RegistryError, match="quiet: declared twice"):
            registry([PICK, QUIET], [StepKind("quiet", _resolve)], forms=FORMS)

    def test_a_step_that_asks_without_a_prompt_is_refused(self) -> None:
        silent = StepKind("pick", _resolve, _choices)
        with pytest.raises(RegistryError, match="pick: asks a player but has no prompt"):
            registry([silent], forms=FORMS)

    def test_a_step_that_asks_without_choice_forms_is_refused(self) -> None:
        formless = StepKind("choose_colour", _resolve, _choices, prompt="Which colour?")
        with pytest.raises(RegistryError, match="choose_colour: .* no choice-id forms"):
            registry([PICK, formless], forms=FORMS)

    def test_forms_of_no_step_that_asks_are_refused(self) -> None:
        # stored choice ids a game can no longer be asked (its step lost its choices function)
        with pytest.raises(RegistryError, match="pick: has choice-id forms but no step"):
            registry([StepKind("pick", _resolve)], forms=FORMS)

    def test_a_step_that_never_asks_has_no_traits_of_a_decision(self) -> None:
        with pytest.raises(RegistryError, match="quiet: never asks"):
            registry([PICK, StepKind("quiet", _resolve, prompt="Never shown.")], forms=FORMS)

    def test_an_unknown_board_place_is_refused(self) -> None:
        nowhere = StepKind("pick", _resolve, _choices, prompt="Pick one.", place="attic")
        with pytest.raises(RegistryError, match="'attic' is not a board place"):
            registry([nowhere], forms=FORMS)

    def test_an_ai_answer_that_is_no_choice_is_refused(self) -> None:
        wrong = StepKind("ws_adjust", _resolve, _choices, prompt="Adjust?", ai_default="maybe")
        with pytest.raises(RegistryError, match="the AI's answer 'maybe' is no choice"):
            registry([wrong], forms={"ws_adjust": DECISION_FORMS["ws_adjust"]})

    def test_every_problem_is_named_at_once(self) -> None:
        with pytest.raises(RegistryError) as caught:
            registry([StepKind("pick", _resolve, _choices), QUIET, QUIET], forms=FORMS)
        assert "declared twice" in str(caught.value) and "no prompt" in str(caught.value)


class TestTheEnginesSteps:
    def test_the_steps_that_ask_are_the_kinds_with_stored_forms(self) -> None:
        asking = {op for op, kind in rules.STEPS.items() if kind.choices is not None}
        assert asking == set(DECISION_FORMS)

    def test_each_step_is_declared_beside_its_functions(self) -> None:
        for module in rules.STEP_MODULES:
            for kind in module.STEPS:
                for fn in (kind.resolve, kind.choices):
                    assert fn is None or fn.__module__ == module.__name__, kind.op
        assert {k.op for k in rules.SETUP_STEPS} == {"set_seat", "draft"}

    def test_the_loops_tables_are_read_from_the_registry(self) -> None:
        steps = rules.STEPS
        assert rules.RESOLVE == {op: kind.resolve for op, kind in steps.items()}
        assert rules.CHOICES == {op: k.choices for op, k in steps.items() if k.choices}
        assert set(rules.PROMPTS) == set(rules.CHOICES)
        assert rules.PRIVATE_DECISIONS == {op for op, k in steps.items() if k.private}
        assert rules.OBJECTIVE_STEPS == {op for op, k in steps.items() if k.objectives}
        assert rules.AI_DEFAULTS == {"ws_adjust": Skip.ID}

    def test_the_hand_is_shown_only_by_the_decisions_about_it(self) -> None:
        hand = {"partner_play", "play_free", "keep_eight", "hand_limit", "discard"}
        assert rules.PRIVATE_DECISIONS == hand

    def test_the_objectives_are_checked_after_the_steps_that_change_them(self) -> None:
        # rulebook, Objectives: "When you complete the Objective you must place a disc on it"
        assert {"place_disc", "mill_place", "gear_place", "research_step"} <= rules.OBJECTIVE_STEPS
        assert "turn" not in rules.OBJECTIVE_STEPS and "draw" not in rules.OBJECTIVE_STEPS

    def test_an_effects_program_tile_is_ada_s_study_s_step_in_its_own_words(self) -> None:
        study, take = rules.STEPS["study_program"], rules.STEPS["take_program"]
        assert (take.resolve, take.choices) == (study.resolve, study.choices)
        assert take.prompt != study.prompt

    def test_every_step_that_asks_has_a_picture_or_a_list_title(self) -> None:
        for op, kind in rules.STEPS.items():
            if kind.choices is not None:
                assert kind.place in PLACES or op in CHOICE_TITLES, op
        assert FOCUS_OF_KIND == {op: k.place for op, k in rules.STEPS.items() if k.place}


class TestTheDraftAsks:
    def test_the_draft_has_a_prompt_of_its_own(self) -> None:
        # rulebook, Setup: experienced players draft the dealt tier 1 cards in reverse turn order;
        # the prompt was once the step's name, "draft"
        st = new_game(GameSetup(players=3, seed=2, draft_tier1=True))
        dec = st.decision
        assert dec is not None and dec.kind == "draft" and dec.player == 2
        assert dec.prompt == "Draft one of the dealt Partner cards: it goes into your deck."
        assert all(DraftCard.decode(c.id) for c in dec.choices)
