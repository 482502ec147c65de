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
        for kind, text in PROMPTS.items():
            dec = Decision(player=0, kind=kind, prompt=text, choices=[])
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


def layouts(players: int, seed: int) -> list[tuple[GameState, dict[str, tuple]]]:
    """The decisions of a random game too long for buttons alone, with their layout in each
    language."""
    found: list[tuple[GameState, dict[str, tuple]]] = []

    def each(st: GameState) -> None:
        dec = st.decision
        if dec is not None and len(dec.choices) > ui.BUTTON_MAX:
            found.append((st.copy(), {c: ui.choice_layout(st, i18n.get(c)) for c in LANGS}))

    random_game(players, seed, each)
    return found


class TestGroups:
    @pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (4, 4), (4, 8), (3, 9)])
    def test_long_lists_are_grouped_and_no_choice_is_lost(self, players: int, seed: int) -> None:
        kinds: collections.Counter[str] = collections.Counter()
        for st, by_lang in layouts(players, seed):
            dec = st.decision
            assert dec is not None
            quiet = [i for i, c in enumerate(dec.choices) if c.id in ui.QUIET]
            partitions = set()
            for code, (direct, groups) in by_lang.items():
                # grouped the game's way, not cut into runs of 25
                assert groups and not any(g.run for g in groups), (dec.kind, code)
                assert all(len(g.indexes) <= MENU_MAX for g in groups), (dec.kind, code)
                # a single choice stays in its group: only Skip/Done/Pass beside the groups
                assert direct == quiet, (dec.kind, [dec.choices[i].label for i in direct])
                shown = sorted(direct + [i for g in groups for i in g.indexes])
                assert shown == list(range(len(dec.choices))), dec.kind  # each choice once
                assert len({g.label for g in groups}) == len(groups)
                partitions.add(tuple(g.indexes for g in groups))
            assert len(partitions) == 1  # the same groups in every language
            kinds[dec.kind] += 1
        assert kinds

    def test_the_kinds_that_were_flat_menus_are_grouped(self) -> None:
        """ "Adjust a die by 1 pip" (24-25 options) by where the die is: a Workshop space, the
        Store, a row of the Mill; "Where does the disc go?" (32 options) by kind of place: the
        Universities of a region, the Meeting rooms, an Institution's Lecture spaces."""
        titles: dict[str, set[str]] = collections.defaultdict(set)
        for players, seed in [(4, 1), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6)]:
            for st, by_lang in layouts(players, seed):
                titles[st.decision.kind] |= {g.label for g in by_lang["en"][1]}  # type: ignore[union-attr]
        assert {"Workshop space 1", "Your Store", "Your Mill, row 1"} <= titles["adjust_die"]
        assert {"Meeting rooms", "Southern Universities"} <= titles["move_disc_to"]
