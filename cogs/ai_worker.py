"""An AI seat's thinking, run in a separate process: the search policy is CPU-bound pure Python
and would otherwise hold the interpreter lock that the event loop and the image threads need.

Only the engine is imported here, so a worker process starts quickly.
"""

from __future__ import annotations

import logging
import random

from engine import GameState, compiled

log = logging.getLogger(__name__)


class OtherEngine(Exception):
    """This worker's engine is not the one the bot applies moves with (the sources or the
    build changed on disk since the bot started): its choices could be illegal there."""


def turn_choices(
    state_json: str, policy_name: str | None, seed: int, engine: str | None = None
) -> list[str]:
    """The AI's whole turn from a saved state: its choice ids in order (random legal choices if
    the policy fails, so a seat never stalls). ``engine``: the bot's engine fingerprint
    (``engine.compiled.fingerprint``); a worker running another engine refuses the job."""
    from engine.ai import get_policy, play_turn

    if engine is not None and engine != compiled.fingerprint():
        raise OtherEngine(f"the bot runs {engine}, this worker {compiled.fingerprint()}")

    rng = random.Random(seed)
    state = GameState.from_json(state_json)
    try:
        return play_turn(state, get_policy(policy_name or "greedy"), rng)
    except Exception:
        log.exception("AI policy %r failed; playing random legal choices", policy_name)
    state = GameState.from_json(state_json)
    seat = state.current
    out: list[str] = []
    while not state.is_over and state.decision is not None and state.decision.player == seat:
        choice = rng.choice(state.decision.choices).id
        state.apply(choice)
        out.append(choice)
    return out
