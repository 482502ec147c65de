"""A player's board (the Mill): 3x3 dice, 12 gear spaces, Programs on lines with each complete
line's value and cap, Store, Steam and Innovation tracks, resources, gear supply, Assignment
columns, scoring tokens, and the Partner cards (names only for the owner)."""

from __future__ import annotations

from engine import vocabulary as V
from engine.mill import LINE_DICE, LINE_GEARS, gear_operator, line_value, program_met
from engine.state import MILL_LINES, GameState
from i18n import N_, _, p_
from render._common import (
    category,
    content,
    gears_hint,
    grid_frame,
    player_colour,
    science_name,
    total_text,
    visible_score,
)
from render._draw import (
    DIE_FILL,
    GOOD,
    HILITE,
    INK,
    LINE,
    MUTED,
    PANEL_ALT,
    WHITE,
    Box,
    Canvas,
    player_label,
    shade,
)
from render._pieces import MillGrid
from render._state import HIDDEN, visible

W, H = 1000, 800
CELL = 88  # die slot
GAP = 48  # gear space between slots
GX, GY = 36, 110  # top-left of the 3x3 grid
GRID = MillGrid(GX, GY, CELL, GAP)
LINE_TITLES = [N_("Row 1"), N_("Row 2"), N_("Row 3"), N_("Col 1"), N_("Col 2"), N_("Col 3")]


def draw_mill(state: GameState | dict, seat: int, viewer: int | None = None) -> Canvas:
    st = visible(state, viewer)
    if not 0 <= seat < len(st.players):
        raise ValueError(f"no seat {seat} in a {len(st.players)}-player game")
    cv = Canvas(W, H)
    _header(cv, st, seat, viewer)
    mill_box = cv.panel((8, 60, 604, H - 8), _("Mill"), title_size=16)
    _grid(cv, st, seat, mill_box)
    _score_summary(cv, st, seat, (mill_box[0], 636, mill_box[2], mill_box[3]))
    x0 = 612
    y = 60
    y = _resources(cv, st, seat, (x0, y, W - 8, y + 96)) + 8
    y = _tracks(cv, st, seat, (x0, y, W - 8, y + 178)) + 8
    y = _gears(cv, st, seat, (x0, y, W - 8, y + 82)) + 8
    y = _assignments(cv, st, seat, (x0, y, W - 8, y + 176)) + 8
    _cards(cv, st, seat, viewer, (x0, y, W - 8, H - 8))

    return cv


def _header(cv: Canvas, st: GameState, seat: int, viewer: int | None) -> None:
    p = st.players[seat]
    cv.d.rectangle((0, 0, W, 52), fill=LINE)
    cv.disc(28, 26, 17, p.colour, player_label(seat))
    who = _("{name} (you)", name=p.name) if viewer == seat else p.name
    cv.text(
        (54, 4, 470, 48),
        who,
        22,
        bold=True,
        fill=WHITE,
        align="left",
        wrap=False,
        min_size=14,
        kind="name",
    )
    status = _(
        "{colour} \u00b7 seat {seat} \u00b7 round {round}",
        colour=player_colour(p.colour),
        seat=seat + 1,
        round=st.round,
    )
    if not st.over and st.current == seat:
        status += _(" \u00b7 to play")
    cv.text((476, 4, 720, 48), status, 15, fill=HILITE, align="left", wrap=False, min_size=11)
    row = visible_score(st, seat)
    label = _("Prestige") if st.over else _("Prestige so far")
    hint = "" if st.over else gears_hint(st, seat)
    cv.text(
        (724, 4, W - 12, 30 if hint else 48),
        _("{label}: {total}", label=label, total=total_text(row)),
        18,
        bold=True,
        fill=WHITE,
        align="right",
        wrap=False,
    )
    if hint:
        cv.text((724, 30, W - 12, 50), hint, 13, fill=HILITE, align="right", wrap=False)


def _grid(cv: Canvas, st: GameState, seat: int, box: Box) -> None:
    ed = st.edition
    p = st.players[seat]
    x0, y0, x1, y1 = box
    span = GRID.span
    grid_frame(cv, (GX - 10, GY - 10, GX + span + 10, GY + span + 10))
    # gear spaces: built gears, discs still covering spaces, or open sockets
    unbuilt = [i for i, g in enumerate(p.gears) if g is None]
    covered = set(sorted(unbuilt, reverse=True)[: max(0, p.discs)])
    for pos in range(len(p.gears)):
        gx, gy = GRID.gear_xy(pos)
        gear = p.gears[pos]
        if gear:
            cv.gear(gx, gy, 21, gear_operator(gear))
        elif pos in covered:
            cv.d.ellipse((gx - 17, gy - 17, gx + 17, gy + 17), fill=PANEL_ALT, outline=MUTED)
            cv.disc(gx, gy, 14, p.colour, player_label(seat))
        else:
            cv.d.ellipse((gx - 17, gy - 17, gx + 17, gy + 17), fill=WHITE, outline=MUTED, width=2)
            cv.text(
                (gx - 16, gy - 8, gx + 16, gy + 8),
                p_("gear space", "open"),
                9,
                min_size=8,
                fill=MUTED,
                wrap=False,
            )
    for i in range(9):
        sx, sy = GRID.cell_xy(i)
        cv.die(sx, sy, CELL, p.mill[i] if i < len(p.mill) else None)
    # lines: rows to the right, columns below
    cap = ed.steam_track[min(p.steam, len(ed.steam_track) - 1)]["cap"]
    for line in range(len(MILL_LINES)):
        if line < 3:
            lx0 = GX + span + 16
            ly0 = GY + line * (CELL + GAP) - 8
            lbox = (lx0, ly0, x1 - 4, ly0 + CELL + 16)
        else:
            c = line - 3
            lx0 = GX + c * (CELL + GAP) - 20
            ly0 = GY + span + 18
            lbox = (lx0, ly0, lx0 + CELL + 40, ly0 + 132)
        _line_box(cv, st, seat, line, lbox, cap)
    # legend under the column boxes is not needed; note the disc rule at the bottom of the grid
    built = sum(1 for g in p.gears if g)
    open_spaces = max(0, len(p.gears) - built - p.discs)
    cv.text(
        (x0 + 60, 62, x1, 84),
        _(
            "Gears built {built}/12 \u00b7 discs on Mill {discs} \u00b7 open spaces {open}",
            built=built,
            discs=p.discs,
            open=open_spaces,
        )
        + (_(" \u00b7 boxed {n}", n=p.discs_boxed) if p.discs_boxed else ""),
        13,
        align="right",
        wrap=False,
        min_size=10,
        fill=WHITE,
    )


def _line_box(cv: Canvas, st: GameState, seat: int, line: int, box: Box, cap: int) -> None:
    ed = st.edition
    p = st.players[seat]
    x0, y0, x1, y1 = box
    value = line_value(p.mill, p.gears, line)
    tile = p.programs[line] if line < len(p.programs) else None
    dice = [p.mill[i] for i in LINE_DICE[line]]
    cv.box(box, fill=WHITE, width=2)
    title = _(LINE_TITLES[line])
    if value is not None:
        scored = min(value, cap)
        head = (
            f"= {value} \u2192 {scored}"
            if value > cap
            else _("= {value} (cap {cap})", value=value, cap=cap)
        )
        cv.d.rectangle((x0 + 2, y0 + 2, x1 - 3, y0 + 22), fill=shade(GOOD, 1.75))
    else:
        missing = sum(1 for d in dice if d is None) + sum(
            1 for g in LINE_GEARS[line] if p.gears[g] is None
        )
        head = _("{n} to fill", n=missing)
    cv.text((x0 + 5, y0 + 2, x0 + 50, y0 + 22), title, 13, bold=True, align="left", wrap=False)
    cv.text(
        (x0 + 50, y0 + 2, x1 - 5, y0 + 22),
        head,
        13,
        bold=value is not None,
        align="right",
        min_size=9,
        wrap=False,
    )
    body = (x0 + 5, y0 + 25, x1 - 5, y1 - 4)
    if tile and tile in ed.program:
        info = ed.program[tile]
        cv.badge(x1 - 17, y0 + 38, 12, str(info.get("prestige", "?")))
        if None not in dice:
            met = program_met(info["criteria"], dice)  # type: ignore[arg-type]
            mark, colour = (_("\u2714 met"), GOOD) if met else (_("\u2718 not met"), (170, 30, 30))
        else:
            mark, colour = _("open"), MUTED
        cv.text(
            (x0 + 5, y0 + 26, x1 - 34, y0 + 46),
            mark,
            12,
            bold=True,
            fill=colour,
            align="left",
            wrap=False,
            min_size=9,
        )
        cv.text(
            (x0 + 5, y0 + 50, x1 - 5, y1 - 4),
            content("program", info.get("text", tile)),
            13,
            min_size=10,
            align="left",
            valign="top",
        )
    else:
        bonus = next(
            (s["text"] for s in ed.program_spaces if s.get("line") == MILL_LINES[line]), ""
        )
        cv.text(
            body,
            _("No Program (space bonus: {bonus})", bonus=content("effect", bonus))
            if bonus
            else _("No Program"),
            12,
            fill=MUTED,
            min_size=9,
            align="left",
            valign="top",
        )


def _score_summary(cv: Canvas, st: GameState, seat: int, box: Box) -> None:
    from engine.scoring import CATEGORIES

    x0, y0, x1, y1 = box
    row = visible_score(st, seat)
    cv.text(
        (x0, y0, x1, y0 + 20),
        _("Prestige so far by scorepad category")
        + (_(" (? = hidden cards)") if None in row.values() else ""),
        13,
        bold=True,
        align="left",
        wrap=False,
    )
    cols = 3
    cw = (x1 - x0) // cols
    rows = (len(CATEGORIES) + cols - 1) // cols
    rh = min(26, (y1 - y0 - 24) // max(1, rows))
    for k, cat in enumerate(CATEGORIES):
        cx = x0 + (k // rows) * cw
        cy = y0 + 24 + (k % rows) * rh
        v = row.get(cat, 0)
        cv.d.rectangle((cx, cy, cx + cw - 6, cy + rh - 3), fill=WHITE if k % 2 else PANEL_ALT)
        shown = "?" if v is None else str(v)
        v = v or 0
        cv.text(
            (cx + 4, cy, cx + cw - 44, cy + rh - 3),
            category(cat),
            12,
            align="left",
            wrap=False,
            min_size=9,
        )
        colour = GOOD if v > 0 else (170, 30, 30) if v < 0 else MUTED
        cv.text(
            (cx + cw - 44, cy, cx + cw - 10, cy + rh - 3),
            shown,
            13,
            bold=True,
            align="right",
            wrap=False,
            fill=colour,
        )


def _resources(cv: Canvas, st: GameState, seat: int, box: Box) -> int:
    p = st.players[seat]
    x0, y0, x1, y1 = cv.panel(box, _("Resources & Store"), title_size=14)
    items = [
        ("\u00a3", p.money, (240, 220, 120)),
        (_("Coal"), p.coal, (90, 90, 90)),
        (_("Brass"), p.brass, (205, 160, 60)),
        (_("Books"), p.books, (150, 90, 60)),
    ]
    cw = (x1 - x0) // 4
    for i, (name, n, fill) in enumerate(items):
        cx = x0 + i * cw
        cv.d.rounded_rectangle((cx, y0, cx + 14, y0 + 14), radius=3, fill=fill, outline=INK)
        cv.text(
            (cx + 18, y0 - 3, cx + cw - 4, y0 + 17),
            f"{name} {n}" if name != "\u00a3" else f"\u00a3{n}",
            14,
            bold=True,
            align="left",
            wrap=False,
        )
    # Store: index 0 is the highest slot
    sy = y0 + 22
    cv.text((x0, sy, x0 + 96, y1), _("Store\n(high \u2192 low)"), 11, fill=MUTED, align="left")
    s = min(36, y1 - sy)
    for i, die in enumerate(p.store):
        cv.die(x0 + 100 + i * (s + 8), sy, s, die)
    return box[3]


def _tracks(cv: Canvas, st: GameState, seat: int, box: Box) -> int:
    ed = st.edition
    p = st.players[seat]
    x0, y0, x1, y1 = cv.panel(box, _("Steam & Innovation"), title_size=14)
    n = len(ed.steam_track)
    lw = 58
    cw = (x1 - x0 - lw) // max(1, n)
    cv.text((x0, y0, x0 + lw - 4, y0 + 54), _("Steam\ncap\ncoal"), 11, fill=MUTED, align="left")
    for lvl, info in enumerate(ed.steam_track):
        cx = x0 + lw + lvl * cw
        here = lvl == p.steam
        cv.d.rectangle(
            (cx, y0, cx + cw - 2, y0 + 56),
            fill=shade(HILITE, 1.3) if here else WHITE,
            outline=MUTED,
        )
        cv.text(
            (cx + 3, y0 + 1, cx + cw - 20, y0 + 16),
            str(lvl),
            11,
            fill=MUTED,
            wrap=False,
            align="left",
        )
        cv.text(
            (cx + 2, y0 + 15, cx + cw - 3, y0 + 35), str(info["cap"]), 15, bold=True, wrap=False
        )
        cv.text(
            (cx + 2, y0 + 36, cx + cw - 3, y0 + 54),
            _("{n}c", n=info["coal"]) if info.get("coal") else "\u2013",
            11,
            wrap=False,
            fill=MUTED,
        )
        if here:
            cv.disc(cx + cw - 12, y0 + 10, 8, p.colour, player_label(seat))
    iy = y0 + 64
    top = ed.innovation_max
    cw2 = (x1 - x0 - lw) // (top + 1)
    cv.text((x0, iy, x0 + lw - 4, iy + 44), _("Innov.\nPrestige"), 11, fill=MUTED, align="left")
    for lvl in range(top + 1):
        cx = x0 + lw + lvl * cw2
        here = lvl == p.innovation
        cv.d.rectangle(
            (cx, iy, cx + cw2 - 2, iy + 44),
            fill=shade(HILITE, 1.3) if here else WHITE,
            outline=MUTED,
        )
        cv.text(
            (cx + 3, iy + 1, cx + cw2 - 20, iy + 22),
            str(lvl),
            15,
            bold=True,
            wrap=False,
            align="left",
        )
        pp = ed.innovation_prestige.get(lvl)
        if pp:
            cv.badge(cx + cw2 // 2, iy + 32, 9, str(pp))
        if here:
            cv.disc(cx + cw2 - 12, iy + 10, 8, p.colour, player_label(seat))
    # Research levels (the board shows the tracks; a summary helps decide)
    ry = iy + 50
    cv.text((x0, ry, x0 + lw - 4, ry + 20), _("Research"), 11, fill=MUTED, align="left")
    rw = (x1 - x0 - lw) // 4
    for i, colour in enumerate(V.COLOURS_MAIN):
        rx = x0 + lw + i * rw
        cv.swatch((rx, ry + 1, rx + 18, ry + 19), colour)
        cv.text(
            (rx + 22, ry, rx + rw - 4, ry + 20),
            f"{p.research.get(colour, 0)}/{ed.research_track['top']}",
            13,
            bold=True,
            align="left",
            wrap=False,
        )
    return box[3]


def _gears(cv: Canvas, st: GameState, seat: int, box: Box) -> int:
    p = st.players[seat]
    x0, y0, x1, y1 = cv.panel(box, _("Gear supply (ready to build)"), title_size=14)
    if not p.gear_supply:
        cv.text((x0, y0, x1, y1), _("none"), 13, fill=MUTED, align="left")
        return box[3]
    n = len(p.gear_supply)
    step = min(40, (x1 - x0 - 36) // max(1, n - 1)) if n > 1 else 40
    for i, gear in enumerate(p.gear_supply):
        cv.gear(x0 + 18 + i * step, (y0 + y1) // 2, 17, gear_operator(gear))
    return box[3]


def _assignments(cv: Canvas, st: GameState, seat: int, box: Box) -> int:
    ed = st.edition
    p = st.players[seat]
    x0, y0, x1, y1 = cv.panel(box, _("Assignments & scoring tokens"), title_size=14)
    cw = (x1 - x0 - 12) // 4
    colh = y1 - y0 - 26
    for i, colour in enumerate(V.COLOURS_MAIN):
        cx = x0 + i * (cw + 4)
        cv.d.rectangle(
            (cx, y0, cx + cw, y0 + colh), fill=shade(DIE_FILL[colour], 1.7), outline=MUTED
        )
        cv.swatch((cx + 3, y0 + 3, cx + 21, y0 + 21), colour)
        cards = p.assignments.get(colour, [])
        cv.text(
            (cx + 24, y0 + 2, cx + cw - 24, y0 + 22),
            str(len(cards)),
            13,
            bold=True,
            align="left",
            wrap=False,
        )
        token = p.assignment_tokens.get(colour)
        if token:
            cv.badge(
                cx + cw - 12, y0 + 12, 10, str(token), fill=shade(DIE_FILL[colour], 1.2), ink=INK
            )
        names = "\n".join(
            "\u2022 "
            + (content("assignment", ed.assignment[a]["name"]) if a in ed.assignment else a)
            for a in cards
        )
        if names:
            cv.text(
                (cx + 3, y0 + 25, cx + cw - 3, y0 + colh - 2),
                names,
                11,
                min_size=8,
                align="left",
                valign="top",
            )
    sy = y0 + colh + 4
    parts = [f"{science_name(k)} {v}" for k, v in sorted(p.science_tokens.items())]
    text = _("Science tokens: {tokens}", tokens=", ".join(parts) if parts else _("none"))
    cv.text((x0, sy, x1, y1 + 6), text, 12, align="left", min_size=9, wrap=False)
    return box[3]


def _cards(cv: Canvas, st: GameState, seat: int, viewer: int | None, box: Box) -> None:
    ed = st.edition
    p = st.players[seat]
    x0, y0, x1, y1 = cv.panel(box, _("Partner cards"), title_size=14)
    own = viewer == seat and not any(c == HIDDEN for c in p.hand)
    cv.text(
        (x0, y0, x1, y0 + 20),
        _(
            "Hand {hand} \u00b7 deck {deck} \u00b7 discard {discard}",
            hand=len(p.hand),
            deck=len(p.deck),
            discard=len(p.discard),
        ),
        13,
        bold=True,
        align="left",
        wrap=False,
    )
    if own:
        if p.hand:
            names = [ed.partner[c]["name"] if c in ed.partner else c for c in p.hand]
            cols = 2
            rows = (len(names) + cols - 1) // cols
            rh = min(20, (y1 - y0 - 24) // max(1, rows))
            cw = (x1 - x0) // cols
            for k, name in enumerate(names):
                rx = x0 + (k % cols) * cw
                ry = y0 + 24 + (k // cols) * rh
                cv.text(
                    (rx, ry, rx + cw - 6, ry + rh),
                    "\u2022 " + name,
                    12,
                    align="left",
                    wrap=False,
                    min_size=9,
                )
        else:
            cv.text(
                (x0, y0 + 24, x1, y1),
                _("Your hand is empty."),
                12,
                fill=MUTED,
                align="left",
                valign="top",
            )
    else:
        cv.text(
            (x0, y0 + 24, x1, y1),
            _("Hand hidden (only its owner sees the names)."),
            12,
            fill=MUTED,
            align="left",
            valign="top",
        )
