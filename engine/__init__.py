"""Ada's Dream rules engine: plain, deterministic, serialisable data plus pure functions.

    from engine import GameSetup, new_game
    state = new_game(GameSetup(players=3, seed=7))
    while not state.is_over:
        decision = state.decision            # who decides, what, and the legal choices
        state.apply(decision.choices[0].id)  # or any other legal choice id
    state.final_scores()

A game's content (cards, tiles, map, tracks) is its edition, data loaded from engine/editions/
(`GameSetup.edition`, read by the rules as `state.edition`: engine.edition); its behaviour is its
rules version (engine.versions). Choice ids are a stored format: engine.choices parses and prints
them (`state.decision.parse(choice_id)`).

No Discord, SQL or Pillow here: this package can be tested, replayed and benchmarked alone.

The engine is pure Python. `scripts/build-engine` can compile its hot modules with mypyc for
speed (opt-in); `COMPILED` says which path runs, `engine.compiled.describe()` in words.
"""

from engine import compiled

compiled.choose()  # first: whether the modules below load compiled or from their sources

from engine.rules import new_game, replay  # noqa: E402
from engine.state import (  # noqa: E402
    Choice,
    Decision,
    GameSetup,
    GameState,
    IllegalChoice,
    PlayerState,
)

COMPILED = compiled.loaded()
"""True when the engine runs its mypyc-compiled modules, False on pure Python."""

__all__ = [
    "COMPILED",
    "Choice",
    "Decision",
    "GameSetup",
    "GameState",
    "IllegalChoice",
    "PlayerState",
    "new_game",
    "replay",
]
