"""store/codec.py: the store's own state text is the engine's, byte for byte, and its fast path
stays on for every kind of game (it wrote setup and player fields that the engine leaves out of
older games, so it gave up at its first self-check and every move paid the slow path)."""

from __future__ import annotations

import json
import random
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

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


# JSON-like values as game states hold them, with the strings that differ between orjson and
# json.dumps: beyond ASCII (names in Japanese, '£' in the log), astral characters (surrogate
# pairs), DEL and control characters; integers past 64 bits go to the standard library.
_text = hst.text(hst.characters(blacklist_categories=("Cs",)), max_size=12)
_json_like = hst.recursive(
    hst.none() | hst.booleans() | hst.integers(min_value=-(2**70), max_value=2**70) | _text,
    lambda inner: hst.lists(inner, max_size=4) | hst.dictionaries(_text, inner, max_size=4),
    max_leaves=20,
)


def _stdlib(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class TestJsonText:
    """``codec.json_text`` writes a state's text with orjson: it must be the standard library's
    text to the byte, or every stored digest would change."""

    @settings(max_examples=400, deadline=None)
    @given(_json_like)
    def test_the_same_text_as_json_dumps(self, value):
        assert codec.json_text(value) == _stdlib(value)

    @pytest.mark.parametrize(
        "value",
        [
            {
                "log": [
                    "Ada gains £3.",
                    "エイダ: 蒸気",
                    "emoji 🎲 and DEL \x7f",
                    "tab\tnew\nline\x01",
                ]
            },
            {"names": ["Zoë", "😀"], "b": 1, "a": [True, None]},
            {"rng": 2**64 - 1, "big": 2**64},  # past 64 bits: the standard library writes it
            {"lone surrogate": "\ud800"},  # orjson refuses it: the standard library writes it
        ],
    )
    def test_the_characters_orjson_writes_its_own_way(self, value):
        assert codec.json_text(value) == _stdlib(value)

    def test_what_json_dumps_refuses_is_refused(self):
        for value in ({1: "a", "b": 2}, {"when": datetime(2026, 1, 1)}, {"set": {1}}):
            with pytest.raises(TypeError):
                _stdlib(value)
            with pytest.raises(TypeError):
                codec.json_text(value)

    def test_a_game_in_japanese_keeps_its_digest(self, fresh_checks):
        names = ["エイダ", "Zoë", "Charles 🎩"]
        rnd = random.Random(3)
        st = new_game(GameSetup(players=3, seed=3, names=names))
        for _ in range(80):
            options = st.legal_choices()
            st.apply(options[rnd.randrange(len(options))].id)
        assert codec.encode(st) == (st.to_json(), st.digest())
        assert codec._fast["encode"]
