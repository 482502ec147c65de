"""Many random games stay identical decision by decision: the guard of the engine's speed work.

`golden_games/digests.json` holds, for 30 seeded random games (2, 3 and 4 players, rules versions
1, 2 and 3, the designed-1 edition), a short fingerprint of every decision met along the game: the
state's digest, and the decision as a player sees it (kind, prompt, every choice id and label, in
order). It was recorded before the engine was optimised (issue 22), so any optimisation that
changes a state, a choice, a label or the order of choices anywhere in these games fails here,
naming the game and the first decision that differs.

Regenerate (only for an intended rules change, which belongs in a new rules version: only the
latest version's games may be regenerated) with
    ENGINE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_engine_digests.py
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from engine import GameSetup, GameState, new_game
from engine.edition import FIRST_EDITION
from engine.rules import apply, decision

PATH = Path(__file__).parent / "golden_games" / "digests.json"
UPDATE = os.environ.get("ENGINE_UPDATE_GOLDEN") == "1"
VERSIONS = [1, 2, 3]
GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(1000, 1005)]
SHORT = 12  # hex digits kept of each digest: 48 bits, plenty to tell two positions apart


def fingerprint(st: GameState) -> str:
    """The state's digest and the pending decision's fingerprint, both shortened."""
    dec = decision(st)
    shown = (
        None
        if dec is None
        else [
            dec.player,
            dec.kind,
            dec.prompt,
            dec.optional,
            dec.private,
            [[c.id, c.label] for c in dec.choices],
        ]
    )
    seen = hashlib.sha256(json.dumps(shown).encode()).hexdigest()
    return f"{st.digest()[:SHORT]}{seen[:SHORT]}"


def play(players: int, seed: int, version: int) -> list[str]:
    """A seeded random game; the fingerprint of every decision, and of the final state."""
    rnd = random.Random(seed)
    st = new_game(
        GameSetup(players=players, seed=seed, rules_version=version, edition=FIRST_EDITION)
    )
    out = [fingerprint(st)]
    while not st.over:
        options = decision(st).choices
        apply(st, options[rnd.randrange(len(options))].id)
        out.append(fingerprint(st))
    return out


def _key(players: int, seed: int, version: int) -> str:
    return f"v{version}:{players}p:{seed}"


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_random_game_is_identical_at_every_decision(players: int, seed: int, version: int) -> None:
    golden = json.loads(PATH.read_text()) if PATH.exists() else {}
    key = _key(players, seed, version)
    got = play(players, seed, version)
    if UPDATE and version == VERSIONS[-1]:
        golden[key] = got
        PATH.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    want = golden[key]
    first = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
    assert first is None, f"{key} differs first after decision {first}"
    assert len(got) == len(want), f"{key}: {len(got)} decisions, recorded {len(want)}"
