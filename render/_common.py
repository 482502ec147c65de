"""Small shared bits: names and short texts derived from the content (looked up, never
hard-coded), in the language the image is drawn in (``i18n.current()``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.scoring import score
from engine.state import Choice, Decision, GameState
from i18n import N_, NP_, _, current, n_, p_
from i18n import game as words
from render._draw import LINE, Box, Canvas, player_label, shade
from render._state import Pending, supply_hidden

ROUTE_NAMES = {"road": N_("road"), "rail": N_("rail"), "ferry": N_("ferry")}

# Scorepad categories that depend on a player's hidden hand and deck: shown as "?" to others.
HIDDEN_CATEGORIES = ("Meetings", "Partners")

SCIENCE_SHORT = {
    "mathematics": NP_("science short", "Maths"),
    "physics": NP_("science short", "Physics"),
    "astronomy": NP_("science short", "Astronomy"),
    "engineering": NP_("science short", "Engineering"),
}


def content(context: str, text: str) -> str:
    """A text of the edition (an effect, an Objective, a Program...) in the image's language."""
    return words.content(current(), context, text)


def prompt(dec: Pending) -> str:
    """The question of the pending decision in the image's language (as the bot says it)."""
    return p_("prompt", words.CLEARER_PROMPTS.get(dec.kind, dec.prompt)) if dec.prompt else ""


def option(st: GameState, dec: Pending, choice_id: str, label: str) -> str:
    """A choice's label in the image's language (rebuilt from its value, as the bot does; in
    English the engine's label, or the bot's clearer one)."""
    tr = current()
    choices = [Choice(i, lab) for i, lab in dec.choices or []]
    return words.label(
        tr, st, Decision(dec.player, dec.kind, dec.prompt, choices), Choice(choice_id, label)
    )


PLAYER_COLOURS = {
    "red": NP_("player colour", "red"),
    "lime": NP_("player colour", "lime"),
    "sky": NP_("player colour", "sky"),
    "purple": NP_("player colour", "purple"),
}


def player_colour(colour: str) -> str:
    """A player's colour (red, lime...) in the image's language."""
    return p_("player colour", PLAYER_COLOURS.get(colour, colour))


def area_name(area: str) -> str:
    return words.area(current(), area)


def science_name(science: str | None) -> str:
    if science is None:
        return p_("science short", "Sponsor")
    return p_("science short", SCIENCE_SHORT.get(science, science.capitalize()))


def need_text(card: dict[str, Any]) -> str:
    need = card.get("need") or {}
    kind = need.get("kind")
    if kind == "value":
        values = p_("list", " or ").join(str(v) for v in need.get("values", []))
        return _("Needs {values}", values=values)
    if kind == "minus1":
        return _("Active die \u22121")
    if kind == "money":
        return _("Pay \u00a3 = die")
    return ""


def cost_text(cost: dict[str, int]) -> str:
    parts = []
    for k, v in cost.items():
        if k == "money":
            parts.append(f"\u00a3{v}")
        elif k == "coal":
            parts.append(n_("{n} Coal", "{n} Coal", v))
        elif k == "brass":
            parts.append(n_("{n} Brass", "{n} Brass", v))
        elif k == "innovation":
            parts.append(n_("{n} Innov.", "{n} Innov.", v))
        elif k == "books":
            parts.append(n_("{n} Book", "{n} Books", v))
        else:
            parts.append(f"{v} {k}")
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


def category(name: str) -> str:
    """A scorepad category in the image's language."""
    return words.category(current(), name)


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
    return n_(
        "incl. \u2212{points} for {n} empty Gear space",
        "incl. \u2212{points} for {n} empty Gear spaces",
        empty,
        points=empty * ed.gear_missing_penalty,
    )


def track_name(colour: str) -> str:
    return words.track(current(), colour)


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


def grid_frame(cv: Canvas, box: Box) -> None:
    """The frame around a Mill's 3x3 cells and their Gear spaces."""
    cv.d.rounded_rectangle(box, radius=12, fill=shade(LINE, 1.75), outline=LINE, width=2)
