"""What a renderer may look at: the engine's per-player view of the state, never the full state.

`visible(state, viewer)` is the one way in. It accepts what the Discord layer has (a GameState, its
to_dict(), or an engine view() dict) and returns a GameState rebuilt from the engine's redacted
view for `viewer` (None: a spectator, for public images):

- decks are counts, the bag is colour counts, other players' hands are counts: they come back as
  lists of placeholders ("?"), never as real content, so a renderer cannot draw them;
- the viewer's own deck comes back sorted: a player knows which cards make up their deck, not
  its order (their own Partners score needs it);
- once the game is over the final scoring reveals every supply, so the state is used as it is
  (hands are still only listed to their owner by the Mill).

The pending decision is kept apart (`Pending`): its kind and prompt, and its choices only when the
viewer may see them (the decider's own, or any decision that does not show a hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.state import GameState

HIDDEN = "?"


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision in front of a player, as `viewer` may see it."""

    player: int
    kind: str
    prompt: str
    choices: tuple[tuple[str, str], ...] | None  # (id, label) in the engine's order; None: hidden


def visible(state: GameState | dict[str, Any], viewer: int | None) -> GameState:
    """The state as `viewer` may see it (see the module docstring)."""
    if isinstance(state, dict) and "rng" not in state:
        return as_state(state)  # already an engine view
    st = state if isinstance(state, GameState) else GameState.from_dict(state)
    if st.over:
        return st
    view = st.view(viewer)
    if viewer is not None and 0 <= viewer < len(st.players):
        view["players"][viewer]["deck"] = sorted(st.players[viewer].deck)
    return as_state(view)


def pending(state: GameState | dict[str, Any], viewer: int | None) -> Pending | None:
    """The pending decision as `viewer` may see it; None once the game is over."""
    if isinstance(state, dict) and "rng" not in state:
        dec = state.get("decision")
        if not dec:
            return None
        raw = dec.get("choices")
        choices = tuple((str(i), str(label)) for i, label in raw) if raw is not None else None
        return Pending(dec["player"], dec["kind"], dec.get("prompt", ""), choices)
    st = state if isinstance(state, GameState) else GameState.from_dict(state)
    dec = st.decision
    if dec is None:
        return None
    shown = not dec.private or viewer == dec.player
    choices = tuple((c.id, c.label) for c in dec.choices) if shown else None
    return Pending(dec.player, dec.kind, dec.prompt, choices)


def as_state(state: GameState | dict[str, Any]) -> GameState:
    """A GameState from a GameState, a to_dict() or a view() dict (hidden parts as "?")."""
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


def supply_hidden(st: GameState, seat: int) -> bool:
    """Whether part of the seat's eight Partner cards is hidden in this (visible) state."""
    ed = st.edition
    return any(c not in ed.partner for c in st.players[seat].supply())
