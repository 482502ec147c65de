"""The store's fast state text (``store.codec``) is byte for byte the engine's own, under every
rules version, so the store keeps its fast path (a difference makes it fall back for good)."""

from __future__ import annotations

import logging
import random

import pytest

from engine import GameSetup, GameState, new_game
from engine.versions import RULES_VERSIONS
from store import codec
from store.testing import pick


def states(rules_version: int, moves: int = 60) -> list[GameState]:
    state = new_game(GameSetup(players=3, seed=7, rules_version=rules_version))
    rng, out = random.Random(rules_version), [codec.copy(state)]
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(pick(state, rng)[1])
        out.append(codec.copy(state))
    return out


@pytest.fixture
def fresh_checks(monkeypatch):
    """Each test starts with the fast paths on and self-checks left to run."""
    monkeypatch.setitem(codec._fast, "encode", True)
    monkeypatch.setitem(codec._fast, "decode", True)
    monkeypatch.setitem(codec._checks_left, "encode", 10**6)
    monkeypatch.setitem(codec._checks_left, "decode", 10**6)


class TestFastStateText:
    @pytest.mark.parametrize("rules_version", sorted(RULES_VERSIONS))
    def test_encode_and_decode_match_the_engine_and_stay_fast(
        self, rules_version, fresh_checks, caplog
    ):
        caplog.set_level(logging.WARNING, logger="store.codec")
        for state in states(rules_version):
            text, digest = codec.encode(state)
            assert (text, digest) == (state.to_json(), state.digest())
            assert codec.decode(text).to_json() == text
        assert [r.getMessage() for r in caplog.records] == []
        assert codec._fast == {"encode": True, "decode": True}
