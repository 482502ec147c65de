"""Recorded games replay to the identical state; golden playthroughs and perft-style counts.

The files under tests/golden_games/ hold a setup, its seed and every choice of a few seeded games,
with the digest and scores of the final state. Any rule or content change that alters play shows up
here as a failure; after an intended change regenerate them with
    ENGINE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_engine_replay.py
and review the diff of the files.

There is one set per rules version (engine.versions): `game_2p_seed101.json` and `perft.json` are
rules version 1, recorded before versions existed (their setups have no `rules_version`, which
reads as 1), and must keep replaying byte for byte; `*_v2.json` are version 2. A rules change
belongs in a new version: only the latest version's files may be regenerated.

Each file records the content edition it was played with (engine.edition), by name and
fingerprint, and replays under it whatever the default edition for new games is: the games here
were all played with designed-1 (their setups have no `edition`, which reads as designed-1).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine import GameSetup, GameState, new_game, replay
from engine.copies import fast_copy
from engine.edition import FIRST_EDITION, edition
from engine.rules import apply, legal_choices, legal_ids
from tests.engine_helpers import random_game

GOLDEN = Path(__file__).parent / "golden_games"
UPDATE = os.environ.get("ENGINE_UPDATE_GOLDEN") == "1"
GAMES = [(2, 101), (3, 202), (4, 303)]
VERSIONS = [1, 2]


def _suffix(version: int) -> str:
    return "" if version == 1 else f"_v{version}"


def edition_record(name: str) -> dict[str, str]:
    return {"edition": name, "edition_fingerprint": edition(name).fingerprint}


def golden_edition(golden: dict) -> str:
    """The edition a golden file was recorded with; it must be the edition it names, unchanged."""
    name = golden["edition"]
    assert edition(name).fingerprint == golden["edition_fingerprint"], name
    if "setup" in golden:
        assert GameSetup.from_dict(golden["setup"]).edition == name
    return name


def record(players: int, seed: int, version: int) -> dict:
    st, _ = random_game(players, seed, rules_version=version, edition=FIRST_EDITION)
    return {
        **edition_record(st.setup.edition),
        "setup": st.setup.to_dict(),
        "choices": st.history,
        "final_digest": st.digest(),
        "scores": st.final_scores(),
        "winner": st.winner(),
    }


def perft(st: GameState, depth: int) -> int:
    """Number of distinct choice sequences of the given length (auto-applied steps excluded)."""
    if depth == 0 or st.over:
        return 1
    total = 0
    for choice in legal_ids(st):  # the ids alone: labels take no part in counting
        child = fast_copy(st)  # the AI's copy, which the search relies on to be exact
        apply(child, choice)
        total += perft(child, depth - 1)
    return total


def perft_counts(version: int, edition_name: str = FIRST_EDITION) -> dict[str, list[int]]:
    out = {}
    for players in (2, 3, 4):
        setup = GameSetup(
            players=players,
            seed=7,
            shuffle_seats=False,
            random_setup=False,
            rules_version=version,
            edition=edition_name,
        )
        out[str(players)] = [perft(new_game(setup), d) for d in (1, 2, 3)]
    return out


def _update(version: int) -> bool:
    """Regenerate only the latest version's files: older versions are frozen."""
    return UPDATE and version == VERSIONS[-1]


class TestGoldenPlaythroughs:
    @pytest.mark.parametrize("version", VERSIONS)
    @pytest.mark.parametrize(("players", "seed"), GAMES)
    def test_recorded_game_replays_identically(self, players: int, seed: int, version: int) -> None:
        path = GOLDEN / f"game_{players}p_seed{seed}{_suffix(version)}.json"
        if _update(version):
            path.write_text(json.dumps(record(players, seed, version), indent=1) + "\n")
        golden = json.loads(path.read_text())
        golden_edition(golden)
        assert GameSetup.from_dict(golden["setup"]).rules_version == version
        st = replay(GameSetup.from_dict(golden["setup"]), golden["choices"])
        assert st.is_over
        assert st.final_scores() == golden["scores"]
        assert st.winner() == golden["winner"]
        assert st.digest() == golden["final_digest"]


class TestPerft:
    @pytest.mark.parametrize("version", VERSIONS)
    def test_choice_tree_counts_match_golden(self, version: int) -> None:
        path = GOLDEN / f"perft{_suffix(version)}.json"
        if _update(version):
            record = {**edition_record(FIRST_EDITION), **perft_counts(version)}
            path.write_text(json.dumps(record, indent=1) + "\n")
        golden = json.loads(path.read_text())
        name = golden_edition(golden)
        counts = {k: v for k, v in golden.items() if not k.startswith("edition")}
        assert perft_counts(version, name) == counts

    def test_depth_one_is_the_number_of_legal_choices(self) -> None:
        st = new_game(GameSetup(players=2, seed=7))
        assert perft(st, 1) == len(legal_choices(st)) > 0
