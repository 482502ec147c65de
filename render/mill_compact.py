"""The compact Mill: one player's board drawn to be read inline (720 px wide, no text under 16 px).

It keeps what a turn needs (the 3x3 dice with their Gear spaces, each line's value and Program,
resources, Store, Steam, gear supply and Partner card counts) and leaves the rest (Assignments,
Research, the score by category) to the full Mill. It can mark the options of a Mill decision
(`MillMarks`); the focus image of a Mill decision, read on a phone, is drawn larger by
render.focus_areas.mill_focus with the same marks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.mill import LINE_DICE, LINE_GEARS, gear_operator, line_value, program_met
from engine.state import MILL_LINES, GameState
from i18n import N_, _, p_
from render._common import content, gears_hint, grid_frame, total_text, visible_score
from render._draw import (
    BAD,
    GOOD,
    HILITE,
    INK,
    LINE,
    MARK,
    MUTED,
    PANEL,
    PANEL_ALT,
    WHITE,
    Box,
    Canvas,
    fits_one_line,
    line_height,
    lines_needed,
    player_label,
    shade,
)
from render._pieces import MillGrid
from render._state import visible

W, H = 720, 636
HEAD = 56
CELL, GAP = 76, 42
X0, Y0 = 72, HEAD + 30
COL_BOX_H = 164  # the column boxes under the grid (and the resources beside them) end here
GRID = MillGrid(X0, Y0, CELL, GAP)
STEP, SPAN = GRID.step, GRID.span
LINE_TITLES = [
    N_("Row 1"),
    N_("Row 2"),
    N_("Row 3"),
    N_("Column 1"),
    N_("Column 2"),
    N_("Column 3"),
]
# A marked line's title, in the words of the choice labels ("top row", "middle column"...).
MARKED_TITLES = [
    N_("Top row"),
    N_("Middle row"),
    N_("Bottom row"),
    N_("Left col."),
    N_("Middle col."),
    N_("Right col."),
]
RESOURCE_FILL = {
    "money": (240, 220, 120),
    "coal": (90, 90, 90),
    "brass": (205, 160, 60),
    "books": (150, 90, 60),
}


Ids = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MillMarks:
    """The options of a Mill decision to mark on the picture: where each choice id points."""

    cells: dict[int, Ids] = field(default_factory=dict)  # Mill cells (row * 3 + column)
    gears: dict[int, Ids] = field(default_factory=dict)  # Gear spaces (engine.mill numbering)
    lines: dict[int, Ids] = field(default_factory=dict)  # lines (rows 0-2, columns 3-5)
    dice: dict[str, Ids] = field(default_factory=dict)  # own dice: "s<i>" Store, "m<i>" Mill
    builds: dict[str, Ids] = field(default_factory=dict)  # gears of the supply to build
    steam: bool = False  # the Steam track is what is decided
    next_steam: bool = False  # show the cap after one more Steam step
    active: str | None = None  # the die being placed


def _record(cv: Canvas, ids: Ids, box: Box) -> None:
    for choice_id in ids:
        cv.marks.append(("option", choice_id, box))


def open_spaces(p: Any) -> int:
    """Gear spaces a Gear can be built on now: the discs still on the Mill keep the rest shut."""
    return max(0, len(p.gears) - sum(1 for g in p.gears if g) - p.discs)


def draw_mill_compact(
    state: GameState | dict[str, Any],
    seat: int,
    viewer: int | None = None,
    marks: MillMarks | None = None,
) -> Canvas:
    st = visible(state, viewer)
    if not 0 <= seat < len(st.players):
        raise ValueError(f"no seat {seat} in a {len(st.players)}-player game")
    marks = marks or MillMarks()
    col_h = COL_BOX_H + _taller_columns(st, seat, marks)
    height = H + col_h - COL_BOX_H
    cv = Canvas(W, height, background=PANEL)
    cv.min_glyph = 16  # read inline: no mark under 16 px (12 px at 550 px wide)
    _header(cv, st, seat, viewer)
    _grid(cv, st, seat, marks)
    for line in range(len(MILL_LINES)):
        _line_box(cv, st, seat, line, marks, col_h)
    _resources(cv, st, seat, marks, (416, Y0 + SPAN + 12, W - 8, Y0 + SPAN + col_h))
    _store(cv, st, seat, marks, (8, height - 64, W - 8, height - 6))
    return cv


COL_TEXT_W = CELL + 38 - 12 - 30  # a column box's text, beside its Program's Prestige badge


def _column_text(st: GameState, seat: int, line: int, marked: bool) -> str:
    """The text under a column's title: its Program (with ✔/✘ once judged), or its bonus."""
    ed = st.edition
    p = st.players[seat]
    tile = p.programs[line] if line < len(p.programs) else None
    if tile in ed.program:
        info = ed.program[tile]
        dice = [p.mill[i] for i in LINE_DICE[line]]
        mark = ""
        if None not in dice:
            met = program_met(info["criteria"], dice)  # type: ignore[arg-type]
            mark = "\u2714 " if met else "\u2718 "
        return mark + content("program", info.get("text", tile))
    bonus = next((s["text"] for s in ed.program_spaces if s.get("line") == MILL_LINES[line]), "")
    if marked and bonus:
        return _("Bonus: {text}", text=content("effect", bonus))
    return _("no Program")


RESOURCES_TEXT_W = W - 8 - 8 - 424  # the resources box beside the column boxes, inside


def _innovation_text(p: Any) -> str:
    return _("Innovation {n} \u00b7 Gear spaces open: {open}", n=p.innovation, open=open_spaces(p))


def _two_lines(text: str) -> bool:
    return not fits_one_line(text, 16, 16, RESOURCES_TEXT_W, 22)


def _taller_columns(st: GameState, seat: int, marks: MillMarks) -> int:
    """How much taller the column boxes and the resources beside them (and the picture) must be
    for their texts: none in English; a longer language may need a line more."""
    body = COL_BOX_H - 12 - 2 * 24 - 4
    need = max(
        lines_needed(_column_text(st, seat, line, line in marks.lines), 16, COL_TEXT_W)
        * line_height(16)
        for line in range(3, 6)
    )
    resources = 22 if _two_lines(_innovation_text(st.players[seat])) else 0
    return max(0, need - body, resources)


def _header(cv: Canvas, st: GameState, seat: int, viewer: int | None) -> None:
    p = st.players[seat]
    cv.d.rectangle((0, 0, W, HEAD), fill=LINE)
    cv.disc(26, HEAD // 2, 16, p.colour, player_label(seat))
    who = (
        _("{name}'s Mill", name=p.name) if viewer != seat else _("{name}'s Mill (you)", name=p.name)
    )
    cv.text(
        (50, 4, 360, HEAD - 4),
        who,
        20,
        bold=True,
        fill=WHITE,
        align="left",
        max_lines=2,
        min_size=16,
        kind="name",
    )
    row = visible_score(st, seat)
    label = _("Prestige") if st.over else _("Prestige so far")
    hint = "" if st.over else gears_hint(st, seat)
    cv.text(
        (370, 3, W - 12, 29 if hint else HEAD - 4),
        _("{label}: {total}", label=label, total=total_text(row)),
        19,
        bold=True,
        fill=WHITE,
        align="right",
        wrap=False,
        min_size=16,
    )
    if hint:
        cv.text((366, 30, W - 12, HEAD - 2), hint, 16, fill=HILITE, align="right", wrap=False)


def _grid(cv: Canvas, st: GameState, seat: int, marks: MillMarks) -> None:
    p = st.players[seat]
    for c in range(3):
        x = X0 + c * STEP
        cv.text((x - 14, HEAD + 3, x + CELL + 14, Y0 - 6), _("column {n}", n=c + 1), 16, fill=MUTED)
    for r in range(3):
        y = Y0 + r * STEP
        cv.text((4, y, X0 - 8, y + CELL), _("row {n}", n=r + 1), 16, fill=MUTED, align="right")
    grid_frame(cv, (X0 - 8, Y0 - 8, X0 + SPAN + 8, Y0 + SPAN + 8))
    for pos, gear in enumerate(p.gears):
        gx, gy = GRID.gear_xy(pos)
        marked = pos in marks.gears
        box = (gx - 15, gy - 15, gx + 15, gy + 15)
        if gear:
            if marked:
                cv.d.ellipse(
                    (gx - 22, gy - 22, gx + 22, gy + 22),
                    fill=shade(HILITE, 1.3),
                    outline=MARK,
                    width=4,
                )
            cv.gear(gx, gy, 19, gear_operator(gear))
        else:
            cv.d.ellipse(
                box,
                fill=shade(HILITE, 1.4) if marked else WHITE,
                outline=MARK if marked else MUTED,
                width=4 if marked else 2,
            )
        if marked:
            _record(cv, marks.gears[pos], box)
    for i in range(9):
        x, y = GRID.cell_xy(i)
        die = p.mill[i] if i < len(p.mill) else None
        cv.die(x, y, CELL, die)
        ids = marks.cells.get(i, ()) + marks.dice.get(f"m{i}", ())
        if ids:
            cv.d.rounded_rectangle(
                (x - 4, y - 4, x + CELL + 3, y + CELL + 3), radius=12, outline=MARK, width=4
            )
            _record(cv, ids, (x, y, x + CELL, y + CELL))
        if die is None and i in marks.cells:
            cv.text(
                (x + 4, y + 4, x + CELL - 4, y + CELL - 4), p_("mill cell", "free"), 16, fill=MUTED
            )


def line_status(st: GameState, seat: int, line: int) -> tuple[int | None, str]:
    """A line's value once complete ("= 14 → 13" past the Steam cap), else what it misses."""
    p = st.players[seat]
    ed = st.edition
    value = line_value(p.mill, p.gears, line)
    cap = ed.steam_track[min(p.steam, len(ed.steam_track) - 1)]["cap"]
    if value is not None:
        return value, f"= {value} \u2192 {cap}" if value > cap else f"= {value}"
    missing = sum(1 for i in LINE_DICE[line] if p.mill[i] is None)
    missing += sum(1 for g in LINE_GEARS[line] if p.gears[g] is None)
    return None, _("{n} to fill", n=missing)


def _line_box(
    cv: Canvas, st: GameState, seat: int, line: int, marks: MillMarks, col_h: int = COL_BOX_H
) -> None:
    ed = st.edition
    p = st.players[seat]
    if line < 3:
        y = Y0 + line * STEP - 4
        box: Box = (X0 + SPAN + 18, y, W - 8, y + CELL + 8)
    else:
        x = X0 + (line - 3) * STEP - 20
        box = (x, Y0 + SPAN + 12, x + CELL + 38, Y0 + SPAN + col_h)
    x0, y0, x1, y1 = box
    marked = line in marks.lines
    cv.box(
        box,
        fill=shade(HILITE, 1.5) if marked else WHITE,
        outline=MARK if marked else LINE,
        width=4 if marked else 2,
    )
    if marked:
        _record(cv, marks.lines[line], box)
    value, status = line_status(st, seat, line)
    title = _(MARKED_TITLES[line]) if marked else _(LINE_TITLES[line])
    if marked and line >= 3 and not fits_one_line(title, 17, 16, CELL + 26, 21, bold=True):
        title = _(LINE_TITLES[line])  # "Col. izquierda" is too wide for a column: "Col. 1"
    wide = line < 3
    head_h = 24
    if wide:
        cv.text(
            (x0 + 8, y0 + 3, x0 + 150, y0 + head_h), title, 17, bold=True, align="left", wrap=False
        )
        cv.text(
            (x0 + 150, y0 + 3, x1 - 8, y0 + head_h),
            status,
            17,
            bold=value is not None,
            align="right",
            wrap=False,
            fill=GOOD if value is not None else MUTED,
        )
        body: Box = (x0 + 8, y0 + head_h + 2, x1 - 8, y1 - 4)
    else:
        cv.text(
            (x0 + 6, y0 + 3, x1 - 6, y0 + head_h), title, 17, bold=True, align="left", wrap=False
        )
        cv.text(
            (x0 + 6, y0 + head_h, x1 - 6, y0 + 2 * head_h - 2),
            status,
            17,
            bold=value is not None,
            align="left",
            wrap=False,
            fill=GOOD if value is not None else MUTED,
        )
        body = (x0 + 6, y0 + 2 * head_h, x1 - 6, y1 - 4)
    tile = p.programs[line] if line < len(p.programs) else None
    if tile in ed.program:
        info = ed.program[tile]
        dice = [p.mill[i] for i in LINE_DICE[line]]
        bx0, by0, bx1, by1 = body
        cv.badge(bx1 - 14, by0 + 14, 14, str(info.get("prestige", "?")))
        mark = ""
        colour = MUTED
        if None not in dice:
            met = program_met(info["criteria"], dice)  # type: ignore[arg-type]
            mark, colour = ("\u2714 ", GOOD) if met else ("\u2718 ", BAD)
        text = content("program", info.get("text", tile))
        cv.text(
            (bx0, by0, bx1 - 30, by1),
            mark + text,
            16,
            min_size=16,
            align="left",
            valign="top",
            fill=INK if colour == MUTED else colour,
        )
    else:
        bonus = next(
            (s["text"] for s in ed.program_spaces if s.get("line") == MILL_LINES[line]), ""
        )
        text = (
            _("Bonus: {text}", text=content("effect", bonus))
            if marked and bonus
            else _("no Program")
        )
        cv.text(
            body, text, 16, min_size=16, fill=INK if marked else MUTED, align="left", valign="top"
        )


def _resources(cv: Canvas, st: GameState, seat: int, marks: MillMarks, box: Box) -> None:
    ed = st.edition
    p = st.players[seat]
    x0, y0, x1, y1 = box
    cv.box(box, fill=WHITE, width=2)
    x0, y0, x1 = x0 + 8, y0 + 4, x1 - 8
    items = (
        ("money", "\u00a3{n}"),
        ("coal", N_("Coal {n}")),
        ("brass", N_("Brass {n}")),
        ("books", N_("Books {n}")),
    )
    half = (x1 - x0) // 2
    for k, (key, label) in enumerate(items):
        x = x0 + (k % 2) * half
        y = y0 + (k // 2) * 22
        cv.d.rounded_rectangle(
            (x, y + 4, x + 14, y + 18), radius=3, fill=RESOURCE_FILL[key], outline=INK
        )
        cv.text(
            (x + 19, y, x + half - 6, y + 22),
            _(label, n=getattr(p, key)),
            17,
            bold=True,
            align="left",
            wrap=False,
        )
    y0 += 22
    cap = ed.steam_track[min(p.steam, len(ed.steam_track) - 1)]["cap"]
    steam = _("Steam {steam}: lines capped at {cap}", steam=p.steam, cap=cap)
    nxt = p.steam + 1
    if nxt < len(ed.steam_track) and (marks.steam or marks.next_steam):
        steam += f" \u2192 {ed.steam_track[nxt]['cap']}"
    cv.text(
        (x0, y0 + 24, x1, y0 + 46),
        steam,
        16,
        align="left",
        wrap=False,
        fill=INK,
    )
    if marks.steam:
        cv.d.rounded_rectangle((x0 - 4, y0 + 23, x1 + 2, y0 + 47), radius=6, outline=MARK, width=3)
        _record(cv, ("steam",), (x0, y0 + 24, x1, y0 + 46))
    innovation = _innovation_text(p)
    two = _two_lines(innovation)  # the picture is taller by a line (_taller_columns)
    cv.text(
        (x0, y0 + 46, x1, y0 + (90 if two else 68)),
        innovation,
        16,
        align="left",
        valign="top" if two else "middle",
        wrap=two,
        max_lines=2,
    )
    gy = y0 + (96 if two else 74)
    item = cv.text((x0, gy, x0 + 110, gy + 40), _("Gear supply"), 16, align="left", wrap=False)
    gx = item.bbox[2] + 24
    if not p.gear_supply:
        cv.text((gx - 10, gy, x1, gy + 40), _("none"), 16, fill=MUTED, align="left", wrap=False)
    step = min(42, (x1 - gx - 20) // max(1, len(p.gear_supply) - 1))
    for i, gear in enumerate(p.gear_supply):
        cx = gx + i * step
        if gear in marks.builds:
            cv.d.ellipse(
                (cx - 21, gy - 1, cx + 21, gy + 41), fill=shade(HILITE, 1.3), outline=MARK, width=3
            )
            _record(cv, marks.builds[gear], (cx - 20, gy, cx + 20, gy + 40))
        cv.gear(cx, gy + 20, 19, gear_operator(gear))


def _store(cv: Canvas, st: GameState, seat: int, marks: MillMarks, box: Box) -> None:
    p = st.players[seat]
    x0, y0, x1, y1 = box
    cv.box(box, fill=PANEL_ALT, width=2)
    s = 46
    dy = y0 + (y1 - y0 - s) // 2
    label = _("Store (high \u2192 low)")
    wide = not fits_one_line(label, 17, 16, 160, y1 - y0, bold=True)  # "Almacén (alto → bajo)"
    item = cv.text(
        (x0 + 10, y0, x0 + (210 if wide else 170), y1),
        label,
        17,
        bold=True,
        align="left",
        wrap=False,
    )
    x = item.bbox[2] + 14
    for i, die in enumerate(p.store):
        cv.die(x, dy, s, die)
        if f"s{i}" in marks.dice:
            _record(cv, marks.dice[f"s{i}"], (x, dy, x + s, dy + s))
            cv.d.rounded_rectangle(
                (x - 4, dy - 4, x + s + 3, dy + s + 3), radius=10, outline=MARK, width=4
            )
        x += s + 8
    if not marks.active:
        cards = _(
            "Partner cards: hand {hand} \u00b7 deck {deck} \u00b7 discard {discard}",
            hand=len(p.hand),
            deck=len(p.deck),
            discard=len(p.discard),
        )
        cv.text((x + 12, y0, x1 - 10, y1), cards, 16, align="right", max_lines=2, min_size=16)
    else:
        x += 20
        item = cv.text(
            (x, y0, x + 160, y1), _("Die to place"), 17, bold=True, align="left", wrap=False
        )
        ax = item.bbox[2] + 12
        cv.d.rounded_rectangle(
            (ax - 4, dy - 4, ax + s + 3, dy + s + 3), radius=10, outline=MARK, width=4
        )
        cv.die(ax, dy, s, marks.active)
