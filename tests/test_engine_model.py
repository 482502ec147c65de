"""The engine's contract: serialisation, the decision model, determinism, redaction and undo."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import GameSetup, GameState, IllegalChoice, new_game, replay, rules
from engine.edition import FIRST_EDITION, edition
from engine.rules import apply, legal_choices
from tests.engine_helpers import random_game, random_states

ED = edition(FIRST_EDITION)


class TestSerialisation:
    def test_round_trip_of_many_states_is_lossless(self) -> None:
        for st in random_states(3, seed=5, every=37):
            text = st.to_json()
            back = GameState.from_json(text)
            assert back == st
            assert back.to_json() == text
            assert back.digest() == st.digest()

    def test_state_is_plain_json(self) -> None:
        st, _ = random_game(2, seed=2)
        assert json.loads(st.to_json()) == st.to_dict()

    def test_restored_state_plays_on_identically(self) -> None:
        # A pending chain of effects must survive serialisation: play on from a restored copy.
        for st in random_states(4, seed=8, every=53):
            other = GameState.from_json(st.to_json())
            for _ in range(40):
                if st.over:
                    break
                choice = legal_choices(st)[-1][0]
                apply(st, choice)
                apply(other, choice)
            assert other.digest() == st.digest()


class TestDecisionModel:
    def test_choices_are_unique_stable_and_labelled(self) -> None:
        for st in random_states(4, seed=3, every=11):
            if st.over:
                continue
            first = legal_choices(st)
            assert first == legal_choices(st)
            assert len({i for i, _ in first}) == len(first)
            assert all(label for _, label in first)
            assert len(first) >= 2, "single-choice decisions are applied automatically"
            assert st.decision is not None and st.decision.player == st.current

    def test_illegal_choice_raises_and_changes_nothing(self) -> None:
        for st in random_states(2, seed=4, every=29):
            if st.over:
                continue
            before = st.to_json()
            with pytest.raises(IllegalChoice, match="not a legal choice"):
                st.apply("no-such-choice")
            assert st.to_json() == before

    def test_the_choices_are_listed_once_per_decision(self, monkeypatch) -> None:
        # run() lists the pending decision's choice ids; legal_ids, legal_choices (which labels
        # them), decision and apply reuse them.
        st = new_game(GameSetup(players=3, seed=6))
        calls: list[str] = []

        def counted(op: str, fn: Any) -> Any:
            def listing(state: GameState, step: dict) -> object:
                calls.append(op)
                return fn(state, step)

            return listing

        monkeypatch.setattr(
            rules, "CHOICES", {op: counted(op, fn) for op, fn in rules.CHOICES.items()}
        )
        monkeypatch.setattr(rules, "CHECK_REUSED_CHOICES", False)
        listing = rules.legal_ids(st)
        assert st.decision is not None and st.legal_choices() and legal_choices(st)
        assert calls == [] and rules.legal_ids(st) is listing
        apply(st, listing[0])
        assert calls, "apply ran on to the next decision, listing its choices there"
        calls.clear()
        legal_choices(st)
        assert calls == []

    def test_a_state_arranged_by_hand_forgets_its_listing(self) -> None:
        st = new_game(GameSetup(players=2, seed=1, shuffle_seats=False, random_setup=False))
        st.players[0].store[0] = "B1"  # a Store die: the Actions turn opens
        with pytest.raises(AssertionError, match="forget_choices"):
            legal_choices(st)  # tests check every reused listing (tests/conftest.py)
        rules.forget_choices(st)
        assert "act:0" in [i for i, _ in legal_choices(st)]

    def test_a_finished_game_has_no_decision(self) -> None:
        st, _ = random_game(2, seed=9)
        assert st.is_over and st.decision is None and legal_choices(st) == []
        with pytest.raises(IllegalChoice):
            st.apply("anything")


class TestDeterminism:
    def test_same_setup_same_game(self) -> None:
        a, n_a = random_game(3, seed=11)
        b, n_b = random_game(3, seed=11)
        assert n_a == n_b and a.digest() == b.digest()

    def test_different_seeds_differ(self) -> None:
        setups = [new_game(GameSetup(players=3, seed=s)) for s in (1, 2)]
        assert setups[0].digest() != setups[1].digest()

    def test_replay_rebuilds_the_identical_state(self) -> None:
        st, _ = random_game(4, seed=12)
        again = replay(st.setup, st.history)
        assert again == st

    def test_replay_of_an_illegal_record_raises(self) -> None:
        st, _ = random_game(2, seed=13)
        broken = list(st.history)
        broken[5] = "bogus"
        with pytest.raises(IllegalChoice):
            replay(st.setup, broken)

    def test_seat_order_is_drawn_from_the_seed(self) -> None:
        orders = {
            tuple(new_game(GameSetup(players=4, seed=s, names=list("abcd"))).seat_names)
            for s in range(12)
        }
        assert len(orders) > 1


class TestRedaction:
    def test_view_hides_other_hands_and_deck_order(self) -> None:
        st = next(random_states(3, seed=14, every=40))
        view = st.view(1)
        assert "rng" not in view and "stack" not in view
        assert isinstance(view["players"][1]["hand"], list)
        assert view["players"][1]["hand"] == st.players[1].hand
        for seat in (0, 2):
            assert view["players"][seat]["hand"] == len(st.players[seat].hand)
        for p, real in zip(view["players"], st.players, strict=True):
            assert p["deck"] == len(real.deck)
        assert view["partner_deck"] == len(st.partner_deck)
        assert view["program_deck"] == len(st.program_deck)

    def test_only_the_deciding_player_sees_the_choices(self) -> None:
        st = new_game(GameSetup(players=2, seed=3))
        assert "choices" in st.view(st.current)["decision"]
        assert "choices" not in st.view(1 - st.current)["decision"]
        assert "choices" not in st.view(None)["decision"]


class TestUndo:
    def test_no_undo_at_the_start_of_a_turn(self) -> None:
        st = new_game(GameSetup(players=2, seed=1))
        assert not st.can_undo()

    def test_undo_floor_never_passes_a_reveal_or_a_turn(self) -> None:
        # Undo replays history[:-1]; the floor marks the last draw, roll or turn change.
        for st in random_states(2, seed=15, every=7):
            if st.can_undo():
                back = replay(st.setup, st.history[:-1])
                assert back.current == st.current
                assert len(back.history) >= st.undo_floor


class TestPrivateDecisions:
    def test_decisions_naming_hand_cards_are_private(self) -> None:
        # Hidden information: a choice naming a card in hand must only reach its owner.
        seen = set()
        for st in random_states(3, seed=21, every=1):
            dec = st.decision
            if dec is None:
                continue
            hand_names = {ED.partner[c]["name"] for c in st.me.hand}
            names_hand = any(
                c.id.split(":", 1)[-1] in st.me.hand and any(n in c.label for n in hand_names)
                for c in dec.choices
            )
            if names_hand:
                assert dec.private, dec.kind
                seen.add(dec.kind)
        assert seen  # the game met such decisions
