"""The main board: Workshop, Ada's Study, the travel map, Meetings, Institutions, Research
tracks and Objectives, with a header for the round and whose turn it is."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image

from engine import vocabulary as V
from engine.edition import Edition
from engine.state import AREA_COLOUR, AREAS, GameState
from i18n import N_, _, current, n_
from render._common import (
    ROUTE_NAMES,
    area_name,
    content,
    cost_text,
    discs_row,
    need_text,
    science_name,
    track_name,
)
from render._draw import (
    DIE_FILL,
    HILITE,
    INK,
    LINE,
    MUTED,
    PANEL_ALT,
    PLAYER_FILL,
    WHITE,
    Box,
    Canvas,
    GlyphItem,
    TextItem,
    panel_inner,
    player_label,
    shade,
)
from render._pieces import LAND, SEA, city_marker, prestige_of, region_fill, route
from render._state import visible

W, H = 1680, 1260


# Each panel by its title (in English; drawn in the image's language).
WORKSHOP, STUDY, OBJECTIVES = N_("Workshop"), N_("Ada's Study"), N_("Objectives")
MAP, UNIVERSITIES = N_("Travel map"), N_("Universities (discs bottom \u2192 top)")
MEETINGS, INSTITUTIONS, RESEARCH = (
    N_("Meetings"),
    N_("Institutions (Lectures)"),
    N_("Research tracks"),
)
SECTIONS: dict[str, Box] = {
    WORKSHOP: (8, 60, 508, 400),
    STUDY: (8, 408, 508, 846),
    OBJECTIVES: (8, 854, 508, H - 8),
    MAP: (516, 60, 1056, 800),
    UNIVERSITIES: (516, 808, 1056, H - 8),
    MEETINGS: (1064, 60, W - 8, 474),
    INSTITUTIONS: (1064, 482, W - 8, 922),
    RESEARCH: (1064, 930, W - 8, H - 8),
}


def draw_board(state: GameState | dict, viewer: int | None = None) -> Canvas:
    st = visible(state, viewer)
    layer, texts, glyphs = _static_layer(st.edition, current().code)
    cv = Canvas(W, H, base=layer)
    cv.texts.extend(texts)
    cv.glyphs.extend(glyphs)
    cv.frames_drawn = True
    colours = [p.colour for p in st.players]
    _header(cv, st, viewer)
    _workshop(cv, st, SECTIONS[WORKSHOP])
    _study(cv, st, SECTIONS[STUDY])
    _objectives(cv, st, colours, SECTIONS[OBJECTIVES])
    _map(cv, st, colours, SECTIONS[MAP])
    _universities(cv, st, colours, SECTIONS[UNIVERSITIES])
    _meetings(cv, st, colours, SECTIONS[MEETINGS])
    _institutions(cv, st, colours, SECTIONS[INSTITUTIONS])
    _research(cv, st, colours, SECTIONS[RESEARCH])
    return cv


@lru_cache(maxsize=4)
def _static_layer(
    ed: Edition, lang: str
) -> tuple[Image.Image, tuple[TextItem, ...], tuple[GlyphItem, ...]]:
    """What never changes in an edition and a language, drawn once per process: the table, every
    panel with its title, and the travel map's sea, land, routes, city markers and legend."""
    cv = Canvas(W, H)
    for title, box in SECTIONS.items():
        cv.panel(box, _(title))
    cv.frames_drawn = True
    _map_background(cv, ed, SECTIONS[MAP])
    return cv.im, tuple(cv.texts), tuple(cv.glyphs)


# -- header -------------------------------------------------------------------------------


def _header(cv: Canvas, st: GameState, viewer: int | None) -> None:
    cv.d.rectangle((0, 0, W, 52), fill=LINE)
    cv.text((12, 4, 190, 48), _("Ada's Dream"), 24, bold=True, fill=WHITE, align="left")
    if st.over:
        status = _("Game over \u00b7 round {round}", round=st.round)
    elif st.end_triggered:
        status = _("Round {round} \u00b7 last round", round=st.round)
    else:
        status = _("Round {round}", round=st.round)
    cv.text((196, 4, 420, 48), status, 20, bold=True, fill=HILITE, align="left")
    if not st.over and 0 <= st.current < len(st.players):
        p = st.players[st.current]
        cv.disc(440, 26, 14, p.colour, player_label(st.current))
        cv.text(
            (462, 4, 760, 48),
            _("{name} to play", name=p.name),
            20,
            bold=True,
            fill=WHITE,
            align="left",
            min_size=12,
            kind="name",
        )
    x = 770
    step = (W - 8 - x) // max(1, len(st.players))
    for seat, p in enumerate(st.players):
        cv.disc(x + 12, 26, 12, p.colour, player_label(seat))
        name = _("{name} (you)", name=p.name) if viewer == seat else p.name
        cv.text(
            (x + 28, 6, x + step - 6, 46),
            name,
            15,
            bold=viewer == seat,
            fill=WHITE,
            align="left",
            max_lines=2,
            kind="name",
        )
        x += step


# -- Workshop -----------------------------------------------------------------------------


WORKSHOP_RADII = (178, 100)  # the ellipse the Workshop's spaces sit on


def workshop_spaces(n: int) -> list[Box]:
    """Where each Workshop space is drawn, clockwise from the top."""
    x0, y0, x1, y1 = panel_inner(SECTIONS[WORKSHOP])
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2 + 2
    rx, ry = WORKSHOP_RADII
    bw, bh = 148, 92
    out = []
    for i in range(n):
        ang = math.radians(-90 + 360 * i / max(1, n))
        sx, sy = int(cx + rx * math.cos(ang)), int(cy + ry * math.sin(ang))
        out.append((sx - bw // 2, sy - bh // 2, sx - bw // 2 + bw, sy - bh // 2 + bh))
    return out


def _workshop(cv: Canvas, st: GameState, box: Box) -> None:
    ed = st.edition
    x0, y0, x1, y1 = cv.panel(box, _(WORKSHOP))
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2 + 2
    rx, ry = WORKSHOP_RADII
    cv.d.ellipse((cx - rx + 30, cy - ry + 10, cx + rx - 30, cy + ry - 10), outline=MUTED, width=6)
    spaces = workshop_spaces(len(st.workshop))
    for i, dice in enumerate(st.workshop):
        bx0, by0, bx1, by1 = spaces[i]
        bw, bh = bx1 - bx0, by1 - by0
        cv.box((bx0, by0, bx0 + bw, by0 + bh), fill=WHITE, width=2, radius=8)
        cv.badge(bx0 + 2, by0 + 2, 10, str(i + 1), fill=PANEL_ALT)
        k = max(1, len(dice))
        s = min(36, (bw - 16 - (k - 1) * 5) // k)
        dx = bx0 + (bw - (k * s + (k - 1) * 5)) // 2
        for j, die in enumerate(dice):
            cv.die(dx + j * (s + 5), by0 + 8, s, die)
        if not dice:
            cv.text((bx0 + 6, by0 + 8, bx0 + bw - 6, by0 + 44), _("empty"), 12, fill=MUTED)
        bonus = st.workshop_bonus[i] if i < len(st.workshop_bonus) else None
        text = ed.workshop_bonuses.get(bonus, {}).get("text", "") if bonus else ""
        text = content("effect", text) if text else ""
        cv.d.rectangle((bx0 + 3, by0 + 50, bx0 + bw - 4, by0 + bh - 4), fill=shade(HILITE, 1.6))
        cv.text(
            (bx0 + 6, by0 + 51, bx0 + bw - 6, by0 + bh - 4),
            _("Bonus: {text}", text=text),
            13,
            min_size=10,
        )
    bag = len(st.bag)
    cv.text(
        (cx - 66, cy - 28, cx + 66, cy + 28),
        n_("Bag: {n} die\nclockwise 1\u21926", "Bag: {n} dice\nclockwise 1\u21926", bag),
        13,
        fill=MUTED,
    )


# -- Ada's Study --------------------------------------------------------------------------


def _row(section: str, top: int, height: int, n: int, columns: int | None = None) -> list[Box]:
    """``n`` boxes side by side across a panel, 6 px apart, ``top`` px below its title: each as
    wide as one of ``columns`` (default ``n``) filling the width."""
    x0, y0, x1, _y1 = panel_inner(SECTIONS[section])
    k = max(1, columns or n)
    w = (x1 - x0 - (k - 1) * 6) // k
    return [(x0 + i * (w + 6), y0 + top, x0 + i * (w + 6) + w, y0 + top + height) for i in range(n)]


def program_slots(n: int) -> list[Box]:
    """Where each Program tile of the display is drawn in Ada's Study."""
    return _row(STUDY, 22, 100, n)


def assignment_slots(n: int) -> list[Box]:
    """Where each card of the Assignment display is drawn (two columns)."""
    x0, y0, x1, _y1 = panel_inner(SECTIONS[STUDY])
    y = y0 + 154
    cw = (x1 - x0 - 6) // 2
    out = []
    for i in range(n):
        ax, ay = x0 + (i % 2) * (cw + 6), y + (i // 2) * 104
        out.append((ax, ay, ax + cw, ay + 98))
    return out


def _study(cv: Canvas, st: GameState, box: Box) -> None:
    ed = st.edition
    x0, y0, x1, y1 = cv.panel(box, _(STUDY))
    cv.text(
        (x0, y0, x1, y0 + 18),
        _(
            "Program display (deck {n}) \u2192 the rightmost leaves after each pick",
            n=len(st.program_deck),
        ),
        13,
        bold=True,
        align="left",
    )
    y = y0 + 22
    for pid, tile in zip(st.program_display, program_slots(len(st.program_display)), strict=True):
        _program_tile(cv, ed, pid, tile)
    y += 110
    cv.text(
        (x0, y, x1, y + 18),
        _("Assignment display (deck {n})", n=len(st.assignment_deck)),
        13,
        bold=True,
        align="left",
    )
    y += 22
    cards = assignment_slots(len(st.assignment_display))
    for aid, card in zip(st.assignment_display, cards, strict=True):
        _assignment_card(cv, ed, aid, card)
    y += 2 * 104 + 4
    cv.gear(x0 + 18, y + 18, 16, "+")
    cv.text(
        (x0 + 42, y, x1, y + 36),
        _("Addition Gear supply: {n}", n=st.addition_supply),
        16,
        bold=True,
        align="left",
    )


def _empty_slot(cv: Canvas, box: Box) -> None:
    """A display slot with nothing in it (deck ran out)."""
    x0, y0, x1, y1 = box
    cv.box(box, fill=PANEL_ALT)
    cv.text((x0 + 4, y0 + 4, x1 - 4, y1 - 4), _("empty"), 12, fill=MUTED)


def _program_tile(cv: Canvas, ed: Edition, pid: str | None, box: Box) -> None:
    x0, y0, x1, y1 = box
    if not pid:
        _empty_slot(cv, box)
        return
    info = ed.program.get(pid, {})
    cv.box(box, fill=(236, 228, 246), width=2)
    cv.badge(x1 - 16, y0 + 15, 12, str(info.get("prestige", "?")))
    cv.text(
        (x0 + 4, y0 + 4, x1 - 30, y0 + 26), _("Program"), 11, bold=True, fill=MUTED, align="left"
    )
    cv.text(
        (x0 + 5, y0 + 30, x1 - 5, y1 - 4),
        content("program", info.get("text", pid)),
        14,
        min_size=10,
    )


def _assignment_card(cv: Canvas, ed: Edition, aid: str | None, box: Box) -> None:
    x0, y0, x1, y1 = box
    if not aid:
        _empty_slot(cv, box)
        return
    info = ed.assignment.get(aid, {})
    cv.box(box, fill=WHITE, width=2)
    cv.text(
        (x0 + 6, y0 + 3, x1 - 6, y0 + 22),
        content("assignment", info.get("name", aid)),
        14,
        bold=True,
        align="left",
        wrap=False,
    )
    cols = info.get("colours") or []
    cx = x0 + 6
    if cols:
        for c in cols:
            cv.swatch((cx, y0 + 26, cx + 20, y0 + 44), c)
            cx += 24
        label = n_("column", "columns", len(cols))
    else:
        label = _("any column")
    disc = info.get("discard", 0)
    label += (
        n_(" \u00b7 discard {n} card", " \u00b7 discard {n} cards", disc)
        if disc
        else _(" \u00b7 free")
    )
    cv.text((cx + 2, y0 + 25, x1 - 6, y0 + 45), label, 12, align="left", fill=MUTED, wrap=False)
    cv.text(
        (x0 + 6, y0 + 48, x1 - 6, y1 - 4),
        content("effect", info.get("text", "")),
        13,
        min_size=10,
        align="left",
    )


# -- Objectives ---------------------------------------------------------------------------


def _objectives(cv: Canvas, st: GameState, colours: list[str], box: Box) -> None:
    ed = st.edition
    x0, y0, x1, y1 = cv.panel(box, _(OBJECTIVES))
    cw = (x1 - x0 - 8) // 2
    ch = (y1 - y0 - 8) // 2
    for a, oid in enumerate(st.objectives):
        ox = x0 + (a % 2) * (cw + 8)
        oy = y0 + (a // 2) * (ch + 8)
        info = ed.objective.get(oid, {})
        area = info.get("area", AREAS[a] if a < len(AREAS) else "")
        colour = AREA_COLOUR.get(area, "K")
        cv.box((ox, oy, ox + cw, oy + ch), fill=WHITE, width=2)
        cv.swatch((ox + 6, oy + 6, ox + 28, oy + 26), colour)
        cv.text(
            (ox + 34, oy + 4, ox + cw - 6, oy + 28),
            area_name(area),
            15,
            bold=True,
            align="left",
        )
        cv.text(
            (ox + 8, oy + 32, ox + cw - 8, oy + 90),
            content("objective", info.get("text", oid)),
            14,
            min_size=10,
            align="left",
            valign="top",
        )
        first = st.objective_first_round[a] if a < len(st.objective_first_round) else None
        hi, lo = info.get("high", "?"), info.get("low", "?")
        cv.badge(ox + 18, oy + 104, 12, str(hi))
        when = _("in round {round}", round=first) if first else _("in the first round it is met")
        cv.text((ox + 34, oy + 94, ox + cw - 6, oy + 114), when, 12, align="left", fill=MUTED)
        cv.badge(ox + 18, oy + 130, 12, str(lo), fill=PANEL_ALT)
        cv.text(
            (ox + 34, oy + 120, ox + cw - 6, oy + 140),
            _("later rounds"),
            12,
            align="left",
            fill=MUTED,
        )
        entries = st.objective_discs[a] if a < len(st.objective_discs) else []
        hx, lx = ox + cw - 10, ox + cw - 10
        for who, slot in reversed(entries):
            col = colours[who] if 0 <= who < len(colours) else "grey"
            if slot == "high":
                cv.disc(hx - 10, oy + 104, 10, col, player_label(who))
                hx -= 23
            else:
                cv.disc(lx - 10, oy + 130, 10, col, player_label(who))
                lx -= 23


# -- travel map ---------------------------------------------------------------------------


def _map_frame(cv: Canvas, ed: Edition, box: Box) -> tuple[Box, Any]:
    """The map's area inside its panel and where each city is drawn in it."""
    cv.panel(box, _(MAP))
    return map_frame(ed)


def map_frame(ed: Edition) -> tuple[Box, Any]:
    """The travel map's area on the board and where each city is drawn in it."""
    x0, y0, x1, y1 = panel_inner(SECTIONS[MAP])
    mx0, my0, mx1, my1 = x0, y0, x1, y1 - 30
    xs = [c["xy"][0] for c in ed.cities] or [0.5]
    ys = [c["xy"][1] for c in ed.cities] or [0.5]
    lox, hix = min(xs) - 0.06, max(xs) + 0.06
    loy, hiy = min(ys) - 0.05, max(ys) + 0.04

    def pos(city: str) -> tuple[int, int]:
        x, y = ed.city[city]["xy"]
        px = mx0 + 8 + (x - lox) / max(1e-6, hix - lox) * (mx1 - mx0 - 16)
        py = my0 + 8 + (y - loy) / max(1e-6, hiy - loy) * (my1 - my0 - 16)
        return int(px), int(py)

    return (mx0, my0, mx1, my1), pos


def _map_background(cv: Canvas, ed: Edition, box: Box) -> None:
    """Sea, land, routes, city markers and the legend: the same in every game."""
    (mx0, my0, mx1, my1), pos = _map_frame(cv, ed, box)
    x0, x1 = mx0, mx1
    cv.d.rectangle((mx0, my0, mx1, my1), fill=SEA, outline=LINE)
    # land: soft blobs around cities and along land routes
    land_r = 30
    for city in ed.city:
        px, py = pos(city)
        cv.d.ellipse((px - land_r, py - land_r, px + land_r, py + land_r), fill=LAND)
    for a, b, kind in ed.routes:
        if kind == "ferry" or a not in ed.city or b not in ed.city:
            continue
        (ax, ay), (bx, by) = pos(a), pos(b)
        cv.d.line((ax, ay, bx, by), fill=LAND, width=2 * land_r)
    # routes
    for a, b, kind in ed.routes:
        if a not in ed.city or b not in ed.city:
            continue
        (ax, ay), (bx, by) = pos(a), pos(b)
        route(cv, (ax, ay), (bx, by), kind)
    # city markers (a University's Prestige comes from its tile: drawn per game)
    for city, info in ed.city.items():
        px, py = pos(city)
        city_marker(cv, info, px, py, 11, 7)
    # legend
    ly = my1 + 6
    lx = x0
    for kind in V.ROUTE_KINDS:
        route(cv, (lx, ly + 10), (lx + 34, ly + 10), kind)
        cv.text(
            (lx + 40, ly, lx + 126, ly + 20),
            _("{kind} \u00a3{cost}", kind=_(ROUTE_NAMES[kind]), cost=ed.route_cost.get(kind, "?")),
            13,
            align="left",
        )
        lx += 128
    cv.pawn(lx + 8, ly + 10, 16, "red", "1")
    cv.text((lx + 20, ly, x1, ly + 20), _("Travel token"), 13, align="left")


def _map(cv: Canvas, st: GameState, colours: list[str], box: Box) -> None:
    ed = st.edition
    (mx0, my0, mx1, my1), pos = _map_frame(cv, ed, box)
    nodes: list[Box] = []
    for city, info in ed.city.items():
        px, py = pos(city)
        if info["kind"] == "university":
            cv.glyph((px, py + 0.5), str(prestige_of(st, city)), 13, INK)
            nodes.append((px - 12, py - 12, px + 12, py + 12))
        else:
            nodes.append((px - 8, py - 8, px + 8, py + 8))
    # labels: city name, then University discs (stack order) and Travel tokens
    placed: list[Box] = list(nodes)
    bounds = (mx0 + 2, my0 + 2, mx1 - 2, my1 - 2)
    order = sorted(
        ed.city, key=lambda c: (ed.city[c]["kind"] != "university", ed.city[c]["xy"][1], c)
    )
    tokens: dict[str, list[int]] = {}
    for seat, p in enumerate(st.players):
        tokens.setdefault(p.city, []).append(seat)
    for city in order:
        info = ed.city[city]
        px, py = pos(city)
        name = info["name"]
        size = 12
        nw = int(cv.width_of(name, size, bold=True)) + 2
        stack = st.university_discs.get(city, [])
        pawns = tokens.get(city, [])
        gw = nw + (len(stack) * 15 + 3 if stack else 0) + (len(pawns) * 15 + 3 if pawns else 0)
        gh = 16
        rr = 12 if info["kind"] == "university" else 8
        best: Box | None = None
        best_cost = None
        reach = (px - gw - 2 * gh - rr, py - 3 * gh - rr, px + gw + 2 * gh + rr, py + 3 * gh + rr)
        near = [o for o in placed if _overlap(reach, [o])]
        for ox, oy in _candidates(rr, gw, gh):
            r = (px + ox, py + oy, px + ox + gw, py + oy + gh)
            cost = _overlap(r, near) * 10 + _outside(r, bounds) * 100
            if best_cost is None or cost < best_cost:
                best, best_cost = r, cost
                if cost == 0:
                    break
        assert best is not None
        bx0, by0, bx1, by1 = best
        cv.d.rounded_rectangle((bx0 - 1, by0, bx1, by1), radius=3, fill=(255, 255, 255))
        cv.text(
            (bx0, by0, bx0 + nw, by1),
            name,
            size,
            bold=True,
            align="left",
            wrap=False,
            min_size=size,
        )
        x = bx0 + nw + 2
        if stack:
            x = discs_row(cv, x, by0 + gh / 2, 7, stack, colours, step=15) + 3
        for seat in pawns:
            col = colours[seat] if 0 <= seat < len(colours) else "grey"
            cv.pawn(x + 7, by0 + gh / 2, 15, col, player_label(seat))
            x += 15
        placed.append(best)


def _candidates(r: int, w: int, h: int) -> list[tuple[int, int]]:
    return [
        (r + 3, -h // 2),
        (-r - 3 - w, -h // 2),
        (-w // 2, -r - 2 - h),
        (-w // 2, r + 2),
        (r, -r - h),
        (r, r),
        (-r - w, -r - h),
        (-r - w, r),
        (r + 3, -h // 2 - h),
        (r + 3, h // 2),
        (-r - 3 - w, -h // 2 - h),
        (-r - 3 - w, h // 2),
        (-w // 2, -r - 4 - 2 * h),
        (-w // 2, r + 4 + h),
    ]


def _overlap(r: Box, others: list[Box]) -> int:
    total = 0
    for o in others:
        w = min(r[2], o[2]) - max(r[0], o[0])
        h = min(r[3], o[3]) - max(r[1], o[1])
        if w > 0 and h > 0:
            total += w * h
    return total


def _outside(r: Box, b: Box) -> int:
    return max(0, b[0] - r[0]) + max(0, r[2] - b[2]) + max(0, b[1] - r[1]) + max(0, r[3] - b[3])


# -- University table ---------------------------------------------------------------------


def _universities(cv: Canvas, st: GameState, colours: list[str], box: Box) -> None:
    ed = st.edition
    x0, y0, x1, y1 = cv.panel(box, _(UNIVERSITIES))
    cities = [c for c in ed.city if ed.city[c]["kind"] == "university"]
    rh = min(34, (y1 - y0) // max(1, len(cities)))
    for i, city in enumerate(cities):
        info = ed.city[city]
        ry = y0 + i * rh
        fill = region_fill(info)
        cv.d.rectangle(
            (x0, ry, x1, ry + rh - 2), fill=shade(fill, 1.7) if i % 2 == 0 else shade(fill, 1.55)
        )
        cv.d.rectangle((x0, ry, x0 + 5, ry + rh - 2), fill=fill)
        cv.text(
            (x0 + 8, ry, x0 + 112, ry + rh - 2),
            info["name"],
            13,
            bold=True,
            align="left",
            wrap=False,
        )
        cv.badge(x0 + 126, ry + rh // 2 - 1, 11, str(prestige_of(st, city)))
        tile = st.universities.get(city)
        text = (
            ed.university_tile[tile]["text"] if tile in ed.university_tile else info.get("text", "")
        )
        text = content("effect", text) if text else ""
        cv.text((x0 + 142, ry, x1 - 126, ry + rh - 2), text, 12, min_size=10, align="left")
        stack = st.university_discs.get(city, [])
        if stack:
            step = min(22, (118 - 20) // max(1, len(stack) - 1)) if len(stack) > 1 else 22
            discs_row(cv, x1 - 122, ry + rh // 2 - 1, 10, stack, colours, step=step)


# -- Meetings -----------------------------------------------------------------------------


def room_boxes(n: int) -> list[Box]:
    """Where each Meeting room is drawn (its spaces included)."""
    return _row(MEETINGS, 0, 144, n)


def partner_slots(n: int) -> list[Box]:
    """Where each card of the Partner display is drawn (under the Meeting rooms)."""
    return _row(MEETINGS, 170, 150, n)


def multiplier_slots(n: int) -> list[Box]:
    """Where each Multiplier Gear of the display is drawn (under the Partner display)."""
    return _row(MEETINGS, 346, 40, n, columns=2)


def _meetings(cv: Canvas, st: GameState, colours: list[str], box: Box) -> None:
    ed = st.edition
    x0, y0, x1, y1 = cv.panel(box, _(MEETINGS))
    rooms = room_boxes(len(st.rooms))
    for r, room in enumerate(st.rooms):
        rx = rooms[r][0]
        rw = rooms[r][2] - rx
        info = ed.meeting_rooms[r] if r < len(ed.meeting_rooms) else {}
        cv.box(
            (rx, y0, rx + rw, y0 + 144),
            fill=shade(DIE_FILL[AREA_COLOUR["meetings"]], 1.75),
            width=2,
        )
        cv.text((rx + 4, y0 + 2, rx + rw - 4, y0 + 20), _("Room {n}", n=r + 1), 14, bold=True)
        cost = _(
            "\u00a3{money} or {innovation} Innov.",
            money=info.get("money", "?"),
            innovation=info.get("innovation", "?"),
        )
        cv.text((rx + 4, y0 + 20, rx + rw - 4, y0 + 37), cost, 12)
        draw = info.get("draw", 0)
        cv.text(
            (rx + 4, y0 + 37, rx + rw - 4, y0 + 54),
            n_("draw {n} card", "draw {n} cards", draw) if draw else _("no draw"),
            12,
            fill=MUTED,
        )
        sci = st.room_science[r] if r < len(st.room_science) else None
        cv.d.rounded_rectangle(
            (rx + 6, y0 + 57, rx + rw - 6, y0 + 77), radius=8, fill=WHITE, outline=INK
        )
        cv.text(
            (rx + 12, y0 + 58, rx + rw - 12, y0 + 76),
            science_name(sci) if sci else "?",
            13,
            bold=True,
        )
        spaces = list(room)
        cols = 2
        sw = (rw - 12) // cols
        for k, space in enumerate(spaces):
            sx = rx + 6 + (k % cols) * sw
            sy = y0 + 80 + (k // cols) * 31
            cv.d.rounded_rectangle(
                (sx + 2, sy, sx + sw - 2, sy + 28), radius=6, fill=WHITE, outline=MUTED
            )
            if space:
                discs_row(
                    cv,
                    sx + 6,
                    sy + 14,
                    11,
                    list(space),
                    colours,
                    step=min(24, (sw - 32) // max(1, len(space) - 1)) if len(space) > 1 else 24,
                )
    # Partner display
    y = y0 + 150
    cv.text(
        (x0, y, x1, y + 18),
        _("Partner display (deck {n})", n=len(st.partner_deck)),
        13,
        bold=True,
        align="left",
    )
    for pid, card in zip(st.partner_display, partner_slots(len(st.partner_display)), strict=True):
        _partner_card(cv, ed, pid, card)
    y += 176
    cv.text(
        (x0, y, x1, y + 18),
        _("Multiplier display (deck {n})", n=len(st.multiplier_deck)),
        13,
        bold=True,
        align="left",
        wrap=False,
    )
    slots = multiplier_slots(len(st.multiplier_display))
    for i, mid in enumerate(st.multiplier_display):
        mx, y, mw = slots[i][0], slots[i][1], slots[i][2] - slots[i][0]
        cv.box((mx, y, mx + mw, y + 40), fill=WHITE, width=2)
        if not mid:
            cv.text((mx + 4, y + 2, mx + mw - 4, y + 38), _("empty"), 12, fill=MUTED)
            continue
        cv.gear(mx + 20, y + 20, 16, "x")
        cost = ed.multiplier[mid]["cost"] if mid in ed.multiplier else {}
        cv.text(
            (mx + 42, y + 2, mx + mw - 4, y + 38),
            _("Cost: {cost}", cost=cost_text(cost)),
            13,
            align="left",
        )


def _partner_card(cv: Canvas, ed: Edition, pid: str | None, box: Box) -> None:
    x0, y0, x1, y1 = box
    if not pid:
        _empty_slot(cv, box)
        return
    info = ed.partner.get(pid, {})
    cv.box(box, fill=WHITE, width=2)
    cv.text(
        (x0 + 5, y0 + 3, x1 - 5, y0 + 36),
        info.get("name", pid),
        13,
        bold=True,
        max_lines=2,
        min_size=10,
    )
    cv.badge(x0 + 14, y0 + 50, 11, str(info.get("prestige", 0)))
    cv.text(
        (x0 + 28, y0 + 40, x1 - 5, y0 + 60),
        science_name(info.get("science")),
        13,
        align="left",
        wrap=False,
    )
    cv.d.rectangle((x0 + 5, y0 + 63, x1 - 6, y0 + 82), fill=PANEL_ALT)
    cv.text((x0 + 6, y0 + 63, x1 - 6, y0 + 82), need_text(info), 12, bold=True)
    cv.text(
        (x0 + 5, y0 + 85, x1 - 5, y1 - 4), content("effect", info.get("text", "")), 12, min_size=10
    )


# -- Institutions -------------------------------------------------------------------------


def _lecture_grid(ed: Edition) -> tuple[int, int, int]:
    """The Institutions panel's grid: the level column's width, a column's, a row's height."""
    x0, y0, x1, y1 = panel_inner(SECTIONS[INSTITUTIONS])
    lw = 60
    cw = (x1 - x0 - lw) // max(1, len(ed.institutions))
    rh = (y1 - y0 - 38 - 26) // max(1, len(ed.lecture_levels))
    return lw, cw, rh


def lecture_squares(ed: Edition) -> dict[tuple[int, int], Box]:
    """Where each Lecture square (Institution, level) is drawn."""
    x0, y0, _x1, _y1 = panel_inner(SECTIONS[INSTITUTIONS])
    lw, cw, rh = _lecture_grid(ed)
    out = {}
    for k, lvl in enumerate(sorted(ed.lecture_levels, reverse=True)):
        ry = y0 + 38 + k * rh
        for i in range(len(ed.institutions)):
            cx = x0 + lw + i * cw
            out[(i, lvl)] = (cx + 1, ry, cx + cw - 2, ry + rh - 2)
    return out


def _institutions(cv: Canvas, st: GameState, colours: list[str], box: Box) -> None:
    ed = st.edition
    x0, y0, x1, y1 = cv.panel(box, _(INSTITUTIONS))
    lw, cw, rh = _lecture_grid(ed)
    cv.text((x0, y0, x0 + lw - 4, y0 + 34), _("level\nInnov./maj."), 10, fill=MUTED)
    for i, inst in enumerate(ed.institutions):
        cx = x0 + lw + i * cw
        cv.d.rectangle(
            (cx + 1, y0, cx + cw - 2, y0 + 34),
            fill=shade(DIE_FILL[AREA_COLOUR["institutions"]], 1.7),
        )
        cv.text(
            (cx + 3, y0, cx + cw - 4, y0 + 34),
            content("institution", inst["name"]),
            12,
            bold=True,
            min_size=9,
        )
    levels = sorted(ed.lecture_levels, reverse=True)
    for k, lvl in enumerate(levels):
        ry = y0 + 38 + k * rh
        cv.d.rectangle((x0, ry, x0 + lw - 4, ry + rh - 2), fill=PANEL_ALT)
        cv.text((x0 + 2, ry, x0 + lw - 6, ry + rh // 2), _("L{level}", level=lvl), 15, bold=True)
        cost = ed.lecture_costs.get(lvl, "?")
        maj = ed.lecture_majority.get(lvl, "?")
        cv.text(
            (x0 + 2, ry + rh // 2, x0 + lw - 6, ry + rh - 2),
            _("{cost} Inn. {points}\u2605", cost=cost, points=maj),
            11,
        )
        for i, inst in enumerate(ed.institutions):
            cx = x0 + lw + i * cw
            seats = st.lectures.get(f"{i}:{lvl}", [])
            fill = (
                WHITE
                if not seats
                else shade(
                    PLAYER_FILL.get(
                        colours[seats[0]] if seats[0] < len(colours) else "", (220, 220, 220)
                    ),
                    1.75,
                )
            )
            cv.d.rectangle((cx + 1, ry, cx + cw - 2, ry + rh - 2), fill=fill, outline=MUTED)
            space = inst["spaces"].get(lvl) or inst["spaces"].get(str(lvl)) or {}
            right = cx + cw - 4 - (22 if seats else 0)
            cv.text(
                (cx + 4, ry + 1, right, ry + rh - 3),
                content("effect", space.get("text", "")),
                11,
                min_size=9,
                align="left",
            )
            for j, seat in enumerate(seats[:3]):
                col = colours[seat] if 0 <= seat < len(colours) else "grey"
                cv.disc(cx + cw - 14, ry + 11 + j * 20, 9, col, player_label(seat))
    ay = y1 - 24
    cv.d.rectangle((x0, ay, x1, y1), fill=PANEL_ALT)
    cv.text(
        (x0 + 4, ay, x1 - 4, y1),
        _(
            "L1 Analytical Society (always open): {text}",
            text=content("effect", ed.analytical_society["text"]),
        ),
        12,
        align="left",
    )


# -- Research -----------------------------------------------------------------------------


RESEARCH_ROW_H = 50


def research_rows() -> dict[str, Box]:
    """Where each Research track's row of levels is drawn, by its colour letter."""
    x0, y0, x1, y1 = panel_inner(SECTIONS[RESEARCH])
    th = (y1 - y0) // 4
    return {
        colour: (x0, y0 + t * th, x1, y0 + t * th + RESEARCH_ROW_H)
        for t, colour in enumerate(V.COLOURS_MAIN)
    }


def _research(cv: Canvas, st: GameState, colours: list[str], box: Box) -> None:
    ed = st.edition
    x0, y0, x1, y1 = cv.panel(box, _(RESEARCH))
    track = ed.research_track
    top = track["top"]
    adv = track.get("advanced", [])
    bts = track.get("breakthroughs", [])
    lw = 104
    cw = (x1 - x0 - lw) // (top + 1)
    th = (y1 - y0) // 4
    cell_h = RESEARCH_ROW_H
    for t, colour in enumerate(V.COLOURS_MAIN):
        ty = y0 + t * th
        cv.d.rectangle((x0, ty, x0 + lw - 4, ty + cell_h), fill=shade(DIE_FILL[colour], 1.6))
        cv.swatch((x0 + 4, ty + 4, x0 + 24, ty + 24), colour)
        cv.text(
            (x0 + 28, ty + 2, x0 + lw - 6, ty + cell_h - 2),
            track_name(colour),
            13,
            bold=True,
            align="left",
            min_size=10,
        )
        for lvl in range(top + 1):
            cx = x0 + lw + lvl * cw
            fill = WHITE
            tag = ""
            if lvl in adv:
                fill = shade(DIE_FILL[colour], 1.55)
                tag = _("Adv {numeral}", numeral="I" * (adv.index(lvl) + 1))
            if lvl in bts:
                fill = shade(HILITE, 1.4)
                tag = _("\u2605BT")
            if lvl == top:
                fill = shade(HILITE, 1.1)
                tag = _("top")
            cv.d.rectangle((cx, ty, cx + cw - 2, ty + cell_h), fill=fill, outline=MUTED)
            cv.text(
                (cx + 2, ty + 1, cx + 16, ty + 16),
                str(lvl),
                13,
                bold=True,
                wrap=False,
                align="left",
            )
            if tag:
                cv.text(
                    (cx + 15, ty + 2, cx + cw - 3, ty + 16),
                    tag,
                    11,
                    min_size=8,
                    wrap=False,
                    align="right",
                )
            here = [s for s, p in enumerate(st.players) if p.research.get(colour, 0) == lvl]
            for j, seat in enumerate(here):
                cv.disc(
                    cx + 12 + (j % 2) * 18,
                    ty + 25 + (j // 2) * 16,
                    8,
                    colours[seat],
                    player_label(seat),
                )
        bt = st.breakthroughs.get(colour)
        bt_text = (
            content("effect", ed.breakthrough[bt]["text"]) if bt in ed.breakthrough else _("none")
        )
        stack = st.assignment_token_stacks.get(colour, [])
        left = ", ".join(str(v) for v in reversed(stack)) if stack else _("none")
        cv.text(
            (x0, ty + cell_h + 1, x1, ty + th - 2),
            _(
                "\u2605BT at {levels}: {text} \u00b7 top: Assignment tokens {left}",
                levels=", ".join(map(str, bts)),
                text=bt_text,
                left=left,
            ),
            12,
            min_size=9,
            align="left",
        )
