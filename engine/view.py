"""Per-viewer redaction: what one player (or a spectator) may see of the state."""

from __future__ import annotations

from typing import Any

from engine.state import GameState


def redact(st: GameState, seat: int | None) -> dict[str, Any]:
    """A JSON-able view: own hand visible, other hands and every deck's order hidden.

    Decks become counts, the random seed and the pending steps are dropped (they would reveal
    future draws), and only the deciding player sees the choices of a decision about their hand.
    """
    d = st.to_dict()
    d.pop("rng")
    d.pop("stack")
    for name in ("program_deck", "assignment_deck", "partner_deck", "multiplier_deck"):
        d[name] = len(d[name])
    d["bag"] = {c: d["bag"].count(c) for c in sorted(set(d["bag"]))}
    for i, p in enumerate(d["players"]):
        p["deck"] = len(p["deck"])
        if i != seat:
            p["hand"] = len(p["hand"])
    dec = st.decision
    if dec is not None:
        d["decision"] = {"player": dec.player, "kind": dec.kind, "prompt": dec.prompt}
        if dec.player == seat:
            d["decision"]["choices"] = [[c.id, c.label] for c in dec.choices]
    return d
