"""Accept what the Discord layer has: a GameState, its to_dict(), or a per-viewer view().

A redacted view (engine.view.redact) has decks as counts, the bag as colour counts and other
players' hands as counts. The renderers only ever look at the sizes of those, so they are
rebuilt here as lists of placeholders ("?"), never as real content.
"""

from __future__ import annotations

from typing import Any

from engine.state import GameState

HIDDEN = "?"


def as_state(state: GameState | dict[str, Any]) -> GameState:
    if isinstance(state, GameState):
        return state
    d = dict(state)
    d.pop("decision", None)
    for name in ("program_deck", "assignment_deck", "partner_deck", "multiplier_deck"):
        if isinstance(d.get(name), int):
            d[name] = [HIDDEN] * d[name]
    if isinstance(d.get("bag"), dict):
        d["bag"] = [c for c, n in sorted(d["bag"].items()) for _ in range(n)]
    players = []
    for p in d.get("players", []):
        p = dict(p)
        for name in ("deck", "hand", "discard"):
            if isinstance(p.get(name), int):
                p[name] = [HIDDEN] * p[name]
        players.append(p)
    d["players"] = players
    d.setdefault("rng", 0)
    d.setdefault("stack", [])
    return GameState.from_dict(d)
