"""Choices as a player meets them on a phone (issue 28): every prompt says what to choose, a
choice that does something unexpected says it before the click, and a long list of choices is
grouped the way the game groups them (by die, by kind of place, by row), with no group lost."""

from __future__ import annotations

import collections

import pytest

import i18n
from cogs import ui
from engine import GameSetup, GameState, new_game
from engine.rules import PROMPTS, apply
from engine.state import Decision
from i18n import game as words
from tests.engine_helpers import random_game

LANGS = ("en", "es", "ja")
MENU_MAX = 10  # no menu longer than this where the choices have a natural grouping


class TestPrompts:
    def test_every_prompt_says_what_to_choose(self) -> None:
        """No bare "Choose one." and no decision whose prompt is its own name ("draft")."""
        kinds = set(PROMPTS) | {"draft"}
        for kind in kinds:
            dec = Decision(player=0, kind=kind, prompt=PROMPTS.get(kind, kind), choices=[])
            for code in LANGS:
                said = words.prompt(i18n.get(code), dec)
                assert said != kind and len(said) > 5, (code, kind, said)
                assert said not in ("Choose one.", "Elige una opción.", "1つ選んでください。")

    def test_the_draft_prompt_says_where_the_card_goes(self) -> None:
        # rulebook, Setup: experienced players "draft these cards in reverse turn order"
        st = new_game(GameSetup(players=3, seed=2, draft_tier1=True))
        dec = st.decision
        assert dec is not None and dec.kind == "draft"
        assert "deck" in words.prompt(i18n.ENGLISH, dec)
        assert "mazo" in words.prompt(i18n.get("es"), dec)
        assert "デッキ" in words.prompt(i18n.get("ja"), dec)


class TestLabels:
    def test_research_says_the_level_it_goes_from_and_to(self) -> None:
        """ "(now 0)" read as the level after the step; the label says both."""
        seen = 0

        def each(st: GameState) -> None:
            nonlocal seen
            dec = st.decision
            if dec is None or dec.kind != "research":
                return
            for c in dec.choices:
                t = c.id.removeprefix("rs:")
                level = st.me.research[t]
                said = words.label(i18n.ENGLISH, st, dec, c)
                assert said.endswith(f"(level {level} → {level + 1})") and "now" not in said
                assert f"{level} → {level + 1}" in words.label(i18n.get("ja"), st, dec, c)
                seen += 1

        random_game(3, 5, each)
        assert seen > 10

    def test_publish_says_when_a_disc_will_leave_the_game(self) -> None:
        """Ada's Study Publish: "stack a disc on one of your discs"; with none of yours to stack
        on, the Book is spent and a disc goes to the box (resolve_stack_disc). The label says
        which will happen, in every case met over many games."""
        counts: collections.Counter[bool] = collections.Counter()

        def each(st: GameState) -> None:
            dec = st.decision
            if dec is None or dec.kind != "publish_or_build" or st.ctx.get("area") != "study":
                return
            for c in dec.choices:
                if c.id != "publish":
                    continue
                said = {code: words.label(i18n.get(code), st, dec, c) for code in LANGS}
                says_boxed = "leaves the game" in said["en"]
                after = st.copy()
                apply(after, "publish")
                seat = st.current
                boxed = after.players[seat].discs_boxed > st.players[seat].discs_boxed
                assert says_boxed == boxed, said
                if boxed:
                    assert "sale de la partida" in said["es"] and "除外" in said["ja"]
                counts[boxed] += 1

        for seed in range(1, 30):
            random_game(2, seed, each)
        assert counts[True] > 0 and counts[False] > 0
