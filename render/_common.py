"""Small shared bits: names and short texts derived from the content (looked up, never hard-coded)."""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.scoring import score
from engine.state import TRACK_NAMES, GameState
from render._draw import Canvas, player_label
from render._state import supply_hidden

# Scorepad categories that depend on a player's hidden hand and deck: shown as "?" to others.
HIDDEN_CATEGORIES = ("Meetings", "Partners")

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


def visible_score(st: GameState, seat: int) -> dict[str, int | None]:
    """The seat's scorepad column as the (visible) state shows it: the categories that depend
    on hidden cards are None, and "Total" is the sum of the known ones."""
    if not supply_hidden(st, seat):
        return dict(score(st, seat))
    # Only Partners and Meetings read the supply: score the rest with it set aside.
    p = st.players[seat]
    bare = dataclasses.replace(p, deck=[], hand=[], discard=[])
    players = [bare if i == seat else q for i, q in enumerate(st.players)]
    row: dict[str, int | None] = dict(score(dataclasses.replace(st, players=players), seat))
    for cat in HIDDEN_CATEGORIES:
        row[cat] = None
    row["Total"] = sum(v for k, v in row.items() if k != "Total" and v is not None)
    return row


def total_text(row: dict[str, int | None]) -> str:
    """'41', or '41+?' when part of the score is hidden."""
    hidden = any(row.get(cat) is None for cat in HIDDEN_CATEGORIES)
    return f"{row['Total']}+?" if hidden else str(row["Total"])


def gears_hint(st: GameState, seat: int) -> str:
    """Why an early score is so low: every empty Gear space counts against it."""
    ed = st.edition
    empty = st.players[seat].gears.count(None)
    if not empty:
        return ""
    s = "s" if empty != 1 else ""
    return f"incl. \u2212{empty * ed.gear_missing_penalty} for {empty} empty Gear space{s}"


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
