"""store/codec.py: the store's own state text is the engine's, byte for byte, and its fast path
stays on for every kind of game (it wrote setup and player fields that the engine leaves out of
older games, so it gave up at its first self-check and every move paid the slow path)."""

from __future__ import annotations

import random

import pytest

from engine import GameSetup, GameState, new_game
from store import codec


def states(version: int, seed: int) -> list[GameState]:
    rnd = random.Random(seed)
    st = new_game(GameSetup(players=3, seed=seed, rules_version=version))
    out = [st]
    for _ in range(120):
        st = codec.copy(st)
        options = st.legal_choices()
        st.apply(options[rnd.randrange(len(options))].id)
        out.append(st)
    return out


@pytest.fixture
def fresh_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codec, "_fast", {"encode": True, "decode": True})
    monkeypatch.setattr(codec, "_checks_left", {"encode": 1000, "decode": 1000})


class TestFastPath:
    @pytest.mark.parametrize("version", [1, 2])
    def test_encode_writes_the_engines_text_and_stays_fast(self, fresh_checks, version):
        for st in states(version, 11):
            text, digest = codec.encode(st)
            assert text == st.to_json() and digest == st.digest()
        assert codec._fast["encode"], "the fast encoder gave up: it differs from the engine"

    @pytest.mark.parametrize("version", [1, 2])
    def test_decode_gives_the_engines_state_and_stays_fast(self, fresh_checks, version):
        for st in states(version, 12)[::10]:
            back = codec.decode(st.to_json())
            assert back.to_json() == st.to_json() and back.edition is st.edition
        assert codec._fast["decode"]
