"""Small shared bits: names and short texts derived from the content (looked up, never hard-coded)."""

from __future__ import annotations

from typing import Any

from engine.scoring import score
from engine.state import TRACK_NAMES, GameState
from render._draw import Canvas, player_label
from render._state import HIDDEN

SCIENCE_SHORT = {
    "mathematics": "Maths",
    "physics": "Physics",
    "astronomy": "Astronomy",
    "engineering": "Engineering",
}


def science_name(science: str | None) -> str:
    if science is None:
        return "Sponsor"
    return SCIENCE_SHORT.get(science, science.capitalize())


def need_text(card: dict[str, Any]) -> str:
    need = card.get("need") or {}
    kind = need.get("kind")
    if kind == "value":
        return "Needs " + " or ".join(str(v) for v in need.get("values", []))
    if kind == "minus1":
        return "Active die \u22121"
    if kind == "money":
        return "Pay \u00a3 = die"
    return ""


def cost_text(cost: dict[str, int]) -> str:
    names = {"coal": "Coal", "brass": "Brass", "innovation": "Innov.", "books": "Book"}
    parts = []
    for k, v in cost.items():
        parts.append(f"\u00a3{v}" if k == "money" else f"{v} {names.get(k, k)}")
    return " + ".join(parts)


def safe_score(st: GameState, seat: int) -> dict[str, int] | None:
    """The seat's scorepad column, or None when drawn from a redacted view whose hidden cards
    (the Partner deck) are needed to score."""
    if HIDDEN in st.players[seat].supply():
        return None
    return score(st, seat)


def track_name(colour: str) -> str:
    return TRACK_NAMES.get(colour, colour)


def discs_row(
    cv: Canvas,
    x: float,
    cy: float,
    r: float,
    seats: list[int],
    colours: list[str],
    step: float | None = None,
) -> float:
    """Draw discs left to right (bottom of a stack first); returns the x after the last one."""
    step = step if step is not None else 2 * r + 2
    for i, seat in enumerate(seats):
        colour = colours[seat] if 0 <= seat < len(colours) else "grey"
        cv.disc(x + r + i * step, cy, r, colour, player_label(seat))
    return x + (len(seats) - 1) * step + 2 * r if seats else x
