"""The focus pictures of the board's areas (see render.focus for which decision gets which).

Every function draws from the visible state (the engine's view for the viewer) and the pending
decision as the viewer may see it, on a 720 px wide canvas with no text under MIN_PX (33 px: 10 px
tall on a phone). To stay that large, a picture shows what the decision is about and leaves the
rest to the Board and My Mill pictures. Options are outlined in orange and recorded in
`cv.marks` as ("option", choice id, box).
"""

from __future__ import annotations

import math
from typing import Any

from engine import choices as C
from engine import vocabulary as V
from engine.common import lecture_cost
from engine.edition import Edition
from engine.mill import gear_operator
from engine.state import AREA_COLOUR, AREAS, COLOUR_AREA, MILL_LINES, GameState
from engine.turn import area_possible
from i18n import N_, _, n_, p_
from render._common import (
    ROUTE_NAMES,
    content,
    cost_text,
    grid_frame,
    need_text,
    prompt,
    science_name,
    track_name,
)
from render._draw import (
    BAD,
    DIE_FILL,
    GOOD,
    HILITE,
    INK,
    LINE,
    MARK,
    MUTED,
    PANEL_ALT,
    PLAYER_FILL,
    WHITE,
    Box,
    Canvas,
    lines_needed,
    player_label,
    shade,
)
from render._pieces import LAND, SEA, MillGrid, city_marker, prestige_of, route
from render._state import Pending
from render.focus_parts import (
    FOCUS_W,
    LH,
    MIN_PX,
    PAD,
    finish,
    focus_canvas,
    focus_cities,
    header,
    mark,
    options,
    para,
    resources,
)
from render.mill_compact import (
    LINE_TITLES,
    MARKED_TITLES,
    MillMarks,
    _column_text,
    line_status,
    open_spaces,
)

W = FOCUS_W
T = MIN_PX  # every text of a focus picture
STORE_TAG = {
    "study": N_("Study"),
    "travel": N_("Travel"),
    "meetings": N_("Meetings"),
    "institutions": N_("Institut."),
}


def _ids(dec: Pending) -> list[str]:
    return [i for i, _ in dec.choices or []]


def _colours(st: GameState) -> list[str]:
    return [p.colour for p in st.players]


def _disc(cv: Canvas, cx: float, cy: float, seat: int, colours: list[str], r: int = 24) -> None:
    colour = colours[seat] if 0 <= seat < len(colours) else "grey"
    cv.disc(cx, cy, r, colour, player_label(seat))


def _section(cv: Canvas, y: int, title: str) -> int:
    """A section's bold title across the picture; returns the y under it."""
    return para(cv, 14, y, W - 14, title, bold=True) + 4


def _text_h(text: str, width: int, bold: bool = False) -> int:
    return lines_needed(text, T, width, bold=bold) * LH


# -- Workshop --------------------------------------------------------------------------------

COL_GAP = 24  # between the two columns of spaces (room for the clockwise arrows)
SPACE_W = (W - 2 * PAD - COL_GAP) // 2
ROW_GAP = 22
DIE, DICE_PER_ROW = 92, 3
DIE_ROW_H = DIE + 2 + LH + 4  # a row of dice with the spaces each may move to under them


def _dice_rows(dice: list[str]) -> int:
    return max(1, -(-len(dice) // DICE_PER_ROW))


# Spaces 1-3 down the left column, 4-6 up the right one: the clockwise ring of the board.
SPACE_AT = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]  # space -> (column, row)


def _bonus_text(st: GameState, s: int) -> str:
    bonus = st.workshop_bonus[s] if s < len(st.workshop_bonus) else None
    text = st.edition.workshop_bonuses.get(bonus, {}).get("text", "") if bonus else ""
    return content("effect", text)


def workshop_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    cv = focus_canvas()
    seat = dec.player
    top = header(cv, st, seat, title, _("Round {round}", round=st.round))
    # where each Workshop die may move (turn): space -> die -> destinations, and its choices
    moves: dict[int, dict[str, list[int]]] = {}
    move_ids: dict[tuple[int, str], list[str]] = {}
    # the dice of the landing space that may be pushed out (ws_push): index -> choices
    pushes: dict[int, list[str]] = {}
    # Coal adjusts and swaps name a Workshop die by space and position
    by_die: dict[tuple[int, int], list[str]] = {}
    for choice_id, value in options(dec):
        if isinstance(value, C.WorkshopMove):
            lands = (value.space + value.moves) % 6 + 1
            moves.setdefault(value.space, {}).setdefault(value.die, []).append(lands)
            move_ids.setdefault((value.space, value.die), []).append(choice_id)
        elif isinstance(value, C.PushOut):
            pushes.setdefault(value.index, []).append(choice_id)
        elif isinstance(value, (C.CoalAdjust, C.WorkshopDie, C.AdjustWorkshopDie)):
            by_die.setdefault((value.space, value.index), []).append(choice_id)
    target = st.ctx.get("to") if dec.kind == "ws_push" else None
    text_w = SPACE_W - 62 - 10
    # each row of two spaces is as tall as its longer bonus text
    row_h = []
    for row in range(3):
        pair = [s for s, (_c, r) in enumerate(SPACE_AT) if r == row]
        texts = max(max(_text_h(_bonus_text(st, s), text_w), 52) for s in pair)
        dice_rows = max(_dice_rows(st.workshop[s]) for s in pair)
        row_h.append(texts + 12 + dice_rows * DIE_ROW_H)
    row_y = [top]
    for h in row_h[:-1]:
        row_y.append(row_y[-1] + h + ROW_GAP)
    for s, dice in enumerate(st.workshop[:6]):
        col, row = SPACE_AT[s]
        x0 = PAD + col * (SPACE_W + COL_GAP)
        y0 = row_y[row]
        x1, y1 = x0 + SPACE_W, y0 + row_h[row]
        hot = s == target
        cv.box((x0, y0, x1, y1), fill=WHITE, outline=MARK if hot else LINE, width=5 if hot else 2)
        text = _bonus_text(st, s)
        band = y0 + 8 + max(_text_h(text, text_w), 52)
        cv.d.rounded_rectangle(
            (x0 + 3, y0 + 3, x1 - 4, band + 4), radius=8, fill=shade(HILITE, 1.6)
        )
        cv.badge(x0 + 32, y0 + 34, 25, str(s + 1), fill=WHITE)
        cv.text((x0 + 62, y0 + 8, x1 - 10, band), text, T, align="left")
        size = DIE
        for j, die in enumerate(dice):
            # three dice to a row, each row centred (a die's letter stays clear of its pips)
            in_row = min(DICE_PER_ROW, len(dice) - j // DICE_PER_ROW * DICE_PER_ROW)
            dx = x0 + (SPACE_W - (in_row * size + (in_row - 1) * 10)) // 2
            x = dx + j % DICE_PER_ROW * (size + 10)
            dy = band + 12 + j // DICE_PER_ROW * DIE_ROW_H
            cv.die(x, dy, size, die)
            box = (x, dy, x + size, dy + size)
            ids = by_die.get((s, j), [])
            if s in moves and die in moves[s]:
                ids = ids + move_ids.get((s, die), [])
                tag = "\u2192" + ",".join(str(d) for d in moves[s][die])
                cv.text(
                    (x - 5, dy + size + 2, x + size + 5, dy + size + 2 + LH),
                    tag,
                    T,
                    bold=True,
                    wrap=False,
                )
            elif hot and j == len(dice) - 1:  # the die that just arrived
                cx = min(max(x + size // 2, x0 + 4 + 86), x1 - 4 - 86)  # its caption in the space
                cv.text(
                    (cx - 86, dy + size + 2, cx + 86, dy + size + 2 + LH),
                    _("moving"),
                    T,
                    bold=True,
                    wrap=False,
                )
            elif hot:
                ids = ids + pushes.get(j, [])
            for choice_id in ids:
                mark(cv, box, choice_id, radius=8, width=4)
        if not dice:
            cv.text((x0 + 8, band + 12, x1 - 8, band + 12 + DIE), _("empty"), T, fill=MUTED)
    _clockwise_arrows(cv, row_y, row_h)
    y = row_y[-1] + row_h[-1] + ROW_GAP
    y = _store_strip(cv, st, dec, y)
    return finish(cv, resources(cv, st, seat, y + PAD))


def _clockwise_arrows(cv: Canvas, row_y: list[int], row_h: list[int]) -> None:
    """Down the left column, up the right one, across at the top and the bottom."""

    def tri(pts: list[tuple[float, float]]) -> None:
        cv.d.polygon(pts, fill=MUTED)

    xl = PAD + SPACE_W / 2
    xr = W - PAD - SPACE_W / 2
    for row in range(2):
        y = row_y[row] + row_h[row] + ROW_GAP / 2
        tri([(xl - 10, y - 7), (xl + 10, y - 7), (xl, y + 8)])
        tri([(xr - 10, y + 7), (xr + 10, y + 7), (xr, y - 8)])
    x = W / 2
    y_top = row_y[0] + row_h[0] / 2
    y_bot = row_y[2] + row_h[2] / 2
    tri([(x + 8, y_top - 10), (x + 8, y_top + 10), (x - 8, y_top)])
    tri([(x - 8, y_bot - 10), (x - 8, y_bot + 10), (x + 8, y_bot)])


def _store_tag(die: str) -> str:
    """The Action a Store die takes ("any Action" for a black one)."""
    area = None if die[0] == "K" else COLOUR_AREA.get(die[0])
    return _(STORE_TAG[area]) if area in STORE_TAG else "" if area else _("any Action")


def _store_strip(cv: Canvas, st: GameState, dec: Pending, y: int) -> int:
    """The decider's Store dice with the Action each would take, and which Actions are open
    (or, for a decision other than the turn itself, its prompt). Returns the y under it."""
    seat = dec.player
    p = st.players[seat]
    x0, x1 = PAD, W - PAD
    top = y
    y = para(cv, x0 + 12, y + 8, x1 - 12, _("Your Store (die \u2192 Action)"), bold=True) + 6
    # the engine offers each distinct die once: a second die of the same face is as usable
    actions: dict[str | None, list[str]] = {}  # a die's face -> its Actions turn choices
    adjusts: dict[str, list[str]] = {}  # "s<i>" -> the Coal adjusts of that Store die
    for choice_id, value in options(dec):
        if isinstance(value, C.StoreAction):
            actions.setdefault(p.store[value.slot], []).append(choice_id)
        elif isinstance(value, C.AdjustOwnDie):
            adjusts.setdefault(value.die, []).append(choice_id)
    s = 84
    slot_w = (x1 - x0 - 16) // 4
    labels = [_store_tag(die) for die in p.store[:4] if die]
    label_h = max((_text_h(t, slot_w) for t in labels), default=0)
    for i, die in enumerate(p.store[:4]):
        sx = x0 + 8 + i * slot_w
        dx = sx + (slot_w - s) // 2
        cv.die(dx, y, s, die)
        if die is None:
            continue
        label = _store_tag(die)
        ok = die in actions if dec.kind == "turn" else None
        for choice_id in adjusts.get(f"s{i}", []) + (actions.get(die, []) if ok else []):
            mark(cv, (dx, y, dx + s, y + s), choice_id, radius=8, width=4)
        colour = INK if ok is None else GOOD if ok else BAD
        cv.text(
            (sx, y + s + 4, sx + slot_w, y + s + 4 + label_h),
            label,
            T,
            fill=colour,
            valign="top",
            max_lines=2,
        )
    y += s + 8 + label_h
    if dec.kind != "turn":
        y = para(cv, x0 + 12, y, x1 - 12, prompt(dec))
    else:  # the Actions an Actions turn could use now, by colour
        item = cv.text(
            (x0 + 12, y, x1, y + LH + 8), _("Actions:"), T, bold=True, align="left", wrap=False
        )
        ax = item.bbox[2] + 16
        for area in AREAS:
            ok = area_possible(st, area) if seat == st.current else None
            cv.swatch((ax, y + 2, ax + 44, y + 46), AREA_COLOUR[area])
            sign = "" if ok is None else "\u2714" if ok else "\u2718"
            if sign:
                cv.text(
                    (ax + 48, y, ax + 84, y + LH + 8), sign, T, bold=True, fill=GOOD if ok else BAD
                )
            ax += 112
        y += LH + 12
    cv.d.rounded_rectangle((x0, top, x1 - 1, y + 7), radius=10, outline=LINE, width=2)
    return y + 8


# -- travel map ------------------------------------------------------------------------------

DX, DY = 540.0, 744.0  # board pixels per map unit (the board's proportions)
MAP_MAX_H = 620  # the map's height in a picture, unless many destinations need more room
MAP_CROWDED_H = 860
NODE_R = 27  # a city on the map: large enough for its Prestige and a letter at MIN_PX


def _cost_of(st: GameState, dec: Pending, city: str) -> str:
    ed = st.edition
    here = st.players[dec.player].city
    if dec.kind == "travel_move":
        return f"\u00a3{ed.travel_cost[here].get(city, '?')}"
    if dec.kind == "move_small":
        return _("free")
    return ""


def map_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    """The map around the decider, each destination lettered; under it the destinations by
    letter with their names, costs and discs (names on the map would not stay large)."""
    ed = st.edition
    seat = dec.player
    p = st.players[seat]
    cities = focus_cities(ed, dec)
    pawns: dict[str, list[int]] = {}
    for s, q in enumerate(st.players):
        pawns.setdefault(q.city, []).append(s)
    shown = [p.city, *[c for c in cities if c != p.city]]
    # the part of the map that matters, at the largest scale that fits
    pts = [ed.city[c]["xy"] for c in shown if c in ed.city]
    xs = [x * DX for x, _ in pts]
    ys = [y * DY for _, y in pts]
    pad = 60.0
    lo_x, hi_x = min(xs) - pad, max(xs) + pad
    lo_y, hi_y = min(ys) - pad, max(ys) + pad
    min_w, min_h = 300.0, 260.0
    if hi_x - lo_x < min_w:
        mid = (lo_x + hi_x) / 2
        lo_x, hi_x = mid - min_w / 2, mid + min_w / 2
    if hi_y - lo_y < min_h:
        mid = (lo_y + hi_y) / 2
        lo_y, hi_y = mid - min_h / 2, mid + min_h / 2
    mw = W - 2 * PAD
    max_h = MAP_CROWDED_H if len(cities) > 10 else MAP_MAX_H
    k = min(mw / (hi_x - lo_x), max_h / (hi_y - lo_y), 2.2)
    mh = int((hi_y - lo_y) * k)
    lo_x -= (mw / k - (hi_x - lo_x)) / 2  # centre the crop when the map is narrower
    cv = focus_canvas()
    here_name = ed.city[p.city]["name"]
    top = header(
        cv, st, seat, title, _("\u00a3{money} \u00b7 in {city}", money=p.money, city=here_name)
    )
    mx0, my0 = PAD, top
    mx1, my1 = mx0 + mw, my0 + mh

    def pos(city: str) -> tuple[int, int]:
        x, y = ed.city[city]["xy"]
        return int(mx0 + (x * DX - lo_x) * k), int(my0 + (y * DY - lo_y) * k)

    def inside(pt: tuple[int, int]) -> bool:
        return mx0 + NODE_R <= pt[0] <= mx1 - NODE_R and my0 + NODE_R <= pt[1] <= my1 - NODE_R

    land_r = int(26 * k)
    clip = Canvas(mw, mh, background=SEA)

    def local(pt: tuple[int, int]) -> tuple[int, int]:
        return pt[0] - mx0, pt[1] - my0

    for city in ed.city:
        x, y = local(pos(city))
        clip.d.ellipse((x - land_r, y - land_r, x + land_r, y + land_r), fill=LAND)
    for a, b, kind in ed.routes:
        if kind != "ferry" and a in ed.city and b in ed.city:
            clip.d.line((*local(pos(a)), *local(pos(b))), fill=LAND, width=2 * land_r)
    for a, b, kind in ed.routes:
        if a in ed.city and b in ed.city:
            route(clip, local(pos(a)), local(pos(b)), kind, max(1.5, k), dash=7)
    cv.im.paste(clip.im, (mx0, my0))
    cv.d.rectangle((mx0, my0, mx1, my1), outline=LINE, width=2)
    # lettered from the cheapest journey (then by name), as listed under the map (letters, not
    # numbers: a Travel token carries its seat's number)
    cities.sort(key=lambda c: (_cost_key(st, dec, c), ed.city[c]["name"]))
    letter = {city: _letter(n) for n, city in enumerate(cities)}
    for city, info in ed.city.items():
        x, y = pos(city)
        if not inside((x, y)) or city in letter:
            continue
        if city == p.city:
            cv.pawn(x, y, 2 * NODE_R + 8, p.colour, player_label(seat))
        else:
            city_marker(cv, info, x, y, 12, 9)
    # the destinations' letters, moved apart where cities lie too close for two of them, with
    # a line to the city when moved
    shown_at = {c: pos(c) for c in cities if inside(pos(c))}
    fixed = [pos(p.city)] if p.city not in letter and inside(pos(p.city)) else []
    moved = _spread(
        shown_at, fixed, 2 * NODE_R + 14, (mx0 + NODE_R, my0 + NODE_R, mx1 - NODE_R, my1 - NODE_R)
    )
    for city, (x, y) in moved.items():
        tx, ty = shown_at[city]
        if abs(x - tx) + abs(y - ty) > 4:
            cv.d.line((tx, ty, x, y), fill=INK, width=3)
            cv.d.ellipse((tx - 6, ty - 6, tx + 6, ty + 6), fill=INK)
    for city, (x, y) in moved.items():
        cv.d.ellipse(
            (x - NODE_R - 6, y - NODE_R - 6, x + NODE_R + 6, y + NODE_R + 6),
            fill=shade(HILITE, 1.3),
            outline=MARK,
            width=5,
        )
        cv.badge(x, y, NODE_R, letter[city], fill=WHITE)
    y = _destinations(cv, st, dec, cities, letter, pawns, my1 + PAD)
    # what the routes cost
    x = PAD + 6
    for kind in V.ROUTE_KINDS:
        label = _(
            "{kind} \u00a3{cost}", kind=_(ROUTE_NAMES[kind]), cost=ed.route_cost.get(kind, "?")
        )
        w = int(cv.width_of(label, T)) + 4
        if x + 56 + w > W - PAD:
            x, y = PAD + 6, y + LH + 8
        route(cv, (x, y + LH // 2 + 2), (x + 46, y + LH // 2 + 2), kind, 1.5, dash=7)
        cv.text((x + 54, y, x + 54 + w, y + LH + 4), label, T, align="left", wrap=False)
        x += 54 + w + 24
    return finish(cv, y + LH + 4)


def _spread(
    at: dict[str, tuple[int, int]], fixed: list[tuple[int, int]], gap: int, bounds: Box
) -> dict[str, tuple[int, int]]:
    """Markers at `at` pushed apart (and off the `fixed` points) until no two centres are
    closer than `gap`, or after a few rounds; each stays inside `bounds`. Deterministic."""
    pts = {c: [float(x), float(y)] for c, (x, y) in at.items()}
    names = sorted(pts)
    for _round in range(40):
        moved = False
        for i, a in enumerate(names):
            others = [pts[b] for b in names[i + 1 :]] + [[float(x), float(y)] for x, y in fixed]
            for k, o in enumerate(others):
                dx, dy = pts[a][0] - o[0], pts[a][1] - o[1]
                d = math.hypot(dx, dy)
                if d >= gap:
                    continue
                if d < 0.01:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (gap - d) / 2 + 0.5
                pts[a][0] += dx / d * push
                pts[a][1] += dy / d * push
                if k < len(names) - i - 1:  # another marker moves too; a fixed point does not
                    o[0] -= dx / d * push
                    o[1] -= dy / d * push
                moved = True
        for pt in pts.values():
            pt[0] = min(max(pt[0], bounds[0]), bounds[2])
            pt[1] = min(max(pt[1], bounds[1]), bounds[3])
        if not moved:
            break
    return {c: (round(x), round(y)) for c, (x, y) in pts.items()}


def _letter(n: int) -> str:
    """A, B, ... Z, then AA, AB ..."""
    return _letter(n // 26 - 1) + chr(65 + n % 26) if n >= 26 else chr(65 + n)


def _cost_key(st: GameState, dec: Pending, city: str) -> int:
    cost = st.edition.travel_cost[st.players[dec.player].city].get(city)
    return cost if dec.kind == "travel_move" and isinstance(cost, int) else 0


def _destinations(
    cv: Canvas,
    st: GameState,
    dec: Pending,
    cities: list[str],
    letter: dict[str, str],
    pawns: dict[str, list[int]],
    y: int,
) -> int:
    """The destinations by letter, two to a row: name, cost, a University's Prestige, and the
    discs and Travel tokens there. Returns the y under them."""
    ed = st.edition
    colours = _colours(st)
    col_w = (W - 3 * PAD) // 2
    ids: dict[str, list[str]] = {}  # a city -> the choices that name it
    for choice_id, value in options(dec):
        for place in C.places(value):
            ids.setdefault(place.city or "", []).append(choice_id)
    for row in range(0, len(cities), 2):
        pair = cities[row : row + 2]
        entries = []
        for city in pair:
            info = ed.city[city]
            text = " ".join(t for t in (info["name"], _cost_of(st, dec, city)) if t)
            if info["kind"] == "university":
                text += f" \u00b7 {prestige_of(st, city)}\u2605"
            tokens = [(s, True) for s in st.university_discs.get(city, [])]
            tokens += [(s, False) for s in pawns.get(city, [])]
            entries.append((city, text, tokens))
        h = max(
            _text_h(text, col_w - 80) + (58 if tokens else 0) + 12 for _c, text, tokens in entries
        )
        h = max(60, h)
        for k, (city, text, tokens) in enumerate(entries):
            x = PAD + k * (col_w + PAD)
            box = (x, y, x + col_w, y + h)
            cv.box(box, fill=shade(HILITE, 1.45), outline=MARK, width=3)
            cv.badge(x + 32, y + 32, NODE_R, letter[city], fill=WHITE)
            th = _text_h(text, col_w - 80)
            cv.text((x + 66, y + 6, x + col_w - 8, y + 6 + th), text, T, align="left")
            tx = x + 66
            for s, disc in tokens:  # discs on the University, then Travel tokens
                colour = colours[s] if s < len(colours) else ""
                if disc:
                    _disc(cv, tx + 25, y + 6 + th + 28, s, colours)
                else:
                    cv.pawn(tx + 25, y + 6 + th + 28, 50, colour, player_label(s))
                tx += 54
            for choice_id in dict.fromkeys(ids.get(city, [])):
                cv.marks.append(("option", choice_id, box))
        y += h + PAD
    return y


# -- Partner cards (Meetings and the hand) ---------------------------------------------------


def _partner_card(cv: Canvas, ed: Edition, pid: str | None, y: int, note: str = "") -> Box:
    """A Partner card across the picture from y: name (and `note`, where it lies), Prestige,
    science and need, then its effect. Returns its box."""
    x0, x1 = PAD, W - PAD
    if not pid or pid not in ed.partner:
        box = (x0, y, x1, y + LH + 16)
        cv.box(box, fill=PANEL_ALT, width=2)
        text = " \u00b7 ".join(t for t in (note, _("empty")) if t)
        cv.text((x0 + 12, y + 8, x1 - 12, y + 8 + LH), text, T, fill=MUTED, align="left")
        return box
    info = ed.partner[pid]
    name = " \u00b7 ".join(t for t in (note, info.get("name", pid)) if t)
    facts = " \u00b7 ".join(t for t in (science_name(info.get("science")), need_text(info)) if t)
    effect = content("effect", info.get("text", ""))
    inner = x1 - x0 - 24
    h = 8 + _text_h(name, inner - 64, bold=True) + 4 + _text_h(facts, inner - 64)
    h = max(h, 8 + 2 * LH) + 4 + _text_h(effect, inner) + 10
    box = (x0, y, x1, y + h)
    cv.box(box, fill=WHITE, width=2)
    ty = para(cv, x0 + 76, y + 8, x1 - 12, name, bold=True) + 4
    ty = para(cv, x0 + 76, ty, x1 - 12, facts, fill=MUTED)
    cv.badge(x0 + 38, y + 8 + LH, 27, str(info.get("prestige", 0)))
    para(cv, x0 + 12, max(ty, y + 8 + 2 * LH) + 4, x1 - 12, effect)
    return box


# -- Meetings --------------------------------------------------------------------------------

ROOM_W = (W - 3 * PAD) // 2


def meetings_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    """The Meeting rooms (with the card each would give), or the Partner display, or the
    Multiplier display: whichever the decision is about."""
    ed = st.edition
    seat = dec.player
    colours = _colours(st)
    room_opts: dict[int, list[str]] = {}
    card_opts: dict[int, str] = {}  # a Partner display slot -> its choice
    mult_opts: dict[int, str] = {}  # a Multiplier slot -> its choice
    for choice_id, value in options(dec):
        for place in C.places(value):
            if place.kind == "room" and place.index is not None:
                room_opts.setdefault(place.index, []).append(choice_id)
        if isinstance(value, (C.DisplayCard, C.UseDisplayCard)):
            card_opts[value.slot] = choice_id
        elif isinstance(value, C.MultiplierSlot):
            mult_opts[value.slot] = choice_id
    cv = focus_canvas()
    p = st.players[seat]
    y = header(
        cv, st, seat, title, _("\u00a3{money} \u00b7 Innovation {n}", money=p.money, n=p.innovation)
    )
    show_rooms = bool(room_opts) or not (card_opts or mult_opts)
    if show_rooms:
        y = _rooms(cv, st, y, room_opts, colours)
    if card_opts:
        y = _section(
            cv,
            y,
            _(
                "Partner display (deck {n}): the card under your room or one to its right",
                n=len(st.partner_deck),
            ),
        )
        for i, pid in enumerate(st.partner_display):
            box = _partner_card(cv, ed, pid, y, _("Room {n}", n=i + 1))
            if i in card_opts:
                mark(cv, box, card_opts[i])
            y = box[3] + PAD
    if mult_opts:
        y = _section(cv, y, _("Multiplier Gears (deck {n})", n=len(st.multiplier_deck)))
        for i, mid in enumerate(st.multiplier_display):
            text = _("empty")
            if mid:
                cost = ed.multiplier[mid]["cost"] if mid in ed.multiplier else {}
                text = _("Build cost: {cost}", cost=cost_text(cost))
            h = max(72, _text_h(text, W - 2 * PAD - 100) + 16)
            box = (PAD, y, W - PAD, y + h)
            cv.box(box, fill=WHITE, width=2)
            if mid:
                cv.gear(PAD + 44, y + h // 2, 32, "x")
            cv.text((PAD + 90, y + 8, W - PAD - 10, y + h - 8), text, T, align="left")
            if i in mult_opts:
                mark(cv, box, mult_opts[i])
            y += h + PAD
    return finish(cv, y)


def _rooms(
    cv: Canvas, st: GameState, y: int, room_opts: dict[int, list[str]], colours: list[str]
) -> int:
    """The Meeting rooms two by two: cost, cards drawn, science, the card under the room (the
    one a Meeting there gives, or one to its right) and the discs. Returns the y under them."""
    ed = st.edition

    def lines_of(r: int) -> list[tuple[str, bool, Any]]:
        info = ed.meeting_rooms[r] if r < len(ed.meeting_rooms) else {}
        draw = info.get("draw", 0)
        sci = st.room_science[r] if r < len(st.room_science) else None
        card = st.partner_display[r] if r < len(st.partner_display) else None
        if card in ed.partner:  # the card a Meeting in this room gives (or one to its right)
            name = _("Partner: {name}", name=ed.partner[card]["name"])
        else:
            name = _("empty")
        return [
            (_("Room {n}", n=r + 1), True, INK),
            (
                _(
                    "\u00a3{money} or {innovation} Innov.",
                    money=info.get("money", "?"),
                    innovation=info.get("innovation", "?"),
                ),
                False,
                INK,
            ),
            (n_("draw {n} card", "draw {n} cards", draw) if draw else _("no draw"), False, MUTED),
            (science_name(sci) if sci else "?", True, INK),
            (name, False, INK),
        ]

    inner = ROOM_W - 20
    rooms = list(range(len(st.rooms)))
    for row in range(0, len(rooms), 2):
        pair = rooms[row : row + 2]
        texts_h = max(sum(_text_h(t, inner, b) for t, b, _c in lines_of(r)) for r in pair)
        h = 10 + texts_h + 8 + 56 + 10
        for r in pair:
            x = PAD + (r % 2) * (ROOM_W + PAD)
            box = (x, y, x + ROOM_W, y + h)
            cv.box(box, fill=shade(DIE_FILL[AREA_COLOUR["meetings"]], 1.75), width=2)
            for choice_id in room_opts.get(r, []):
                mark(cv, box, choice_id)
            ty = y + 10
            for text, bold, fill in lines_of(r):
                ty = para(cv, x + 10, ty, x + ROOM_W - 10, text, bold=bold, fill=fill)
            seats: list[int] = []
            for space in st.rooms[r]:
                seats += [space] if isinstance(space, int) else list(space or [])
            for j, s in enumerate(seats[:6]):
                _disc(cv, x + 36 + j * 54, y + h - 38, s, colours)
        y += h + PAD
    return y


# -- Institutions ----------------------------------------------------------------------------


def lectures_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    """What each Lecture level costs the decider and scores the most discs, then the spaces
    the decision offers, by Institution: level, effect and the discs on it."""
    ed = st.edition
    seat = dec.player
    colours = _colours(st)
    spaces: dict[tuple[int, int], str] = {}  # (institution, level) -> its choice
    society: str | None = None
    for choice_id, value in options(dec):
        if isinstance(value, C.AnalyticalSociety):
            society = choice_id
        for place in C.places(value):
            if place.kind == "lec" and place.index is not None and place.level is not None:
                spaces[(place.index, int(place.level))] = choice_id
    cv = focus_canvas()
    p = st.players[seat]
    y = header(cv, st, seat, title, _("Innovation {n}", n=p.innovation))
    levels = sorted(ed.lecture_levels, reverse=True)
    everything = not spaces and society is None  # else only what the decision offers
    # what a level costs the decider and scores the most discs: the same in every Institution
    if spaces or everything:
        y = _section(cv, y, _("Lecture levels"))
    for lvl in levels if spaces or everything else []:
        head = _(
            "{cost} Innov. \u00b7 most discs: {points}\u2605",
            cost=lecture_cost(st, seat, lvl),
            points=ed.lecture_majority.get(lvl, "?"),
        )
        cv.badge(
            PAD + 34,
            y + LH // 2 + 4,
            25,
            str(lvl),
            fill=shade(DIE_FILL[AREA_COLOUR["institutions"]], 1.7),
        )
        y = para(cv, PAD + 72, y + 4, W - PAD, head) + 6
    y += PAD
    shown = sorted({i for i, _l in spaces}) or list(
        range(len(ed.institutions)) if everything else []
    )
    for i in shown:
        inst = ed.institutions[i]
        y = _section(cv, y, content("institution", inst["name"]))
        for lvl in levels:
            key = (i, lvl)
            if spaces and key not in spaces:
                continue
            space = inst["spaces"].get(lvl) or inst["spaces"].get(str(lvl)) or {}
            seats = st.lectures.get(f"{i}:{lvl}", [])
            effect = content("effect", space.get("text", ""))
            discs_w = len(seats[:3]) * 54
            h = max(60, _text_h(effect, W - 2 * PAD - 84 - discs_w) + 16)
            box = (PAD, y, W - PAD, y + h)
            fill = WHITE
            if seats:
                first = colours[seats[0]] if seats[0] < len(colours) else ""
                fill = shade(PLAYER_FILL.get(first, (220, 220, 220)), 1.75)
            cv.box(box, fill=fill, width=2)
            cv.badge(
                PAD + 34,
                y + 30,
                25,
                str(lvl),
                fill=shade(DIE_FILL[AREA_COLOUR["institutions"]], 1.7),
            )
            para(cv, PAD + 72, y + 8, W - PAD - 12 - discs_w, effect)
            for j, s in enumerate(seats[:3]):
                _disc(cv, W - PAD - 12 - discs_w + 27 + j * 54, y + 30, s, colours)
            if key in spaces:
                mark(cv, box, spaces[key], radius=6)
            y += h + PAD
    if society is not None or everything:
        text = _(
            "Level 1, Analytical Society (always open): {text}",
            text=content("effect", ed.analytical_society["text"]),
        )
        h = _text_h(text, W - 2 * PAD - 24) + 16
        box = (PAD, y, W - PAD, y + h)
        cv.box(box, fill=PANEL_ALT, width=2)
        para(cv, PAD + 12, y + 8, W - PAD - 12, text)
        if society is not None:
            mark(cv, box, society, radius=6)
        y += h + PAD
    return finish(cv, y)


# -- Ada's Study -----------------------------------------------------------------------------


def study_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    """The part of Ada's Study the decision is about: the Program display, the Assignment
    display, the Study rewards or the decider's Assignment columns (all of it if none)."""
    ed = st.edition
    seat = dec.player
    p = st.players[seat]
    prog_opts: dict[int, str] = {}  # a Program display slot -> its choice
    asg_opts: dict[int, str] = {}  # an Assignment display slot -> its choice
    ids = set(_ids(dec))
    for choice_id, value in options(dec):
        if isinstance(value, C.ProgramTile):
            prog_opts[value.slot] = choice_id
        elif isinstance(value, C.AssignmentCard):
            asg_opts[value.slot] = choice_id
    items = any(C.StudyItem.encode(k) in ids for k in ("book", "gear", "assignment"))
    columns = any(C.AssignmentColumn.encode(c) in ids for c in V.COLOURS_MAIN)
    everything = not (prog_opts or asg_opts or items or columns)
    cv = focus_canvas()
    y = header(
        cv, st, seat, title, _("hand {hand} \u00b7 Books {books}", hand=len(p.hand), books=p.books)
    )
    if prog_opts or everything:
        y = _section(
            cv,
            y,
            _(
                "Programs (deck {n}): the rightmost leaves after a Study action",
                n=len(st.program_deck),
            ),
        )
        for i, pid in enumerate(st.program_display):
            info = ed.program.get(pid) if pid else None
            text = content("program", info.get("text", "")) if info else _("empty")
            h = max(72, _text_h(text, W - 2 * PAD - 100) + 16)
            box = (PAD, y, W - PAD, y + h)
            cv.box(box, fill=(236, 228, 246) if info else PANEL_ALT, width=2)
            if info:
                cv.badge(PAD + 42, y + h // 2, 27, str(info.get("prestige", "?")))
            cv.text((PAD + 84, y + 8, W - PAD - 12, y + h - 8), text, T, align="left")
            if i in prog_opts:
                mark(cv, box, prog_opts[i])
            y += h + PAD
    if asg_opts or everything:
        y = _section(cv, y, _("Assignments (deck {n})", n=len(st.assignment_deck)))
        for i, aid in enumerate(st.assignment_display):
            box = _assignment_card(cv, ed, aid, y)
            if i in asg_opts:
                mark(cv, box, asg_opts[i])
            y = box[3] + PAD
    if items or everything:
        y = _section(cv, y, _("Study rewards"))
        rewards = [
            ("book", _("Book")),
            ("gear", _("Addition Gear ({n} left)", n=st.addition_supply)),
            ("assignment", _("Assignment card")),
        ]
        for item_id, label in rewards:
            h = _text_h(label, W - 2 * PAD - 24, True) + 16
            box = (PAD, y, W - PAD, y + h)
            cv.box(box, fill=PANEL_ALT, width=2)
            para(cv, PAD + 12, y + 8, W - PAD - 12, label, bold=True)
            if C.StudyItem.encode(item_id) in ids:
                mark(cv, box, C.StudyItem.encode(item_id))
            y += h + PAD
    if columns or everything:
        y = _section(cv, y, _("Your Assignments:"))
        for c in V.COLOURS_MAIN:
            n = len(p.assignments.get(c, []))
            token = p.assignment_tokens.get(c)
            label = f"{track_name(c)}: {n}" + (_(" (token {n})", n=token) if token else "")
            h = max(60, _text_h(label, W - 2 * PAD - 90, True) + 16)
            box = (PAD, y, W - PAD, y + h)
            cv.box(box, fill=WHITE, width=2)
            cv.swatch((PAD + 14, y + h // 2 - 22, PAD + 58, y + h // 2 + 22), c)
            cv.text((PAD + 74, y + 8, W - PAD - 12, y + h - 8), label, T, bold=True, align="left")
            column = C.AssignmentColumn.encode(c)
            if column in ids:
                mark(cv, box, column, radius=6)
            y += h + PAD
    return finish(cv, y)


def _assignment_card(cv: Canvas, ed: Edition, aid: str | None, y: int) -> Box:
    x0, x1 = PAD, W - PAD
    if not aid or aid not in ed.assignment:
        box = (x0, y, x1, y + LH + 16)
        cv.box(box, fill=PANEL_ALT)
        cv.text((x0 + 12, y + 8, x1 - 12, y + 8 + LH), _("empty"), T, fill=MUTED, align="left")
        return box
    info = ed.assignment[aid]
    name = content("assignment", info.get("name", aid))
    cols = info.get("colours") or []
    label = (_("column") if len(cols) == 1 else _("columns")) if cols else _("any column")
    disc = info.get("discard", 0)
    label += (
        n_(" \u00b7 discard {n} card", " \u00b7 discard {n} cards", disc)
        if disc
        else _(" \u00b7 free")
    )
    effect = content("effect", info.get("text", ""))
    inner = x1 - x0 - 24
    sw = len(cols) * 52 + (8 if cols else 0)
    h = 8 + _text_h(name, inner, True) + max(48, _text_h(label, inner - sw)) + 4
    h += _text_h(effect, inner) + 10
    box = (x0, y, x1, y + h)
    cv.box(box, fill=WHITE, width=2)
    ty = para(cv, x0 + 12, y + 8, x1 - 12, name, bold=True)
    for k, c in enumerate(cols):
        cv.swatch((x0 + 12 + k * 52, ty + 2, x0 + 56 + k * 52, ty + 46), c)
    lh = max(48, _text_h(label, inner - sw))
    cv.text((x0 + 12 + sw, ty, x1 - 12, ty + lh), label, T, fill=MUTED, align="left")
    para(cv, x0 + 12, ty + lh + 4, x1 - 12, effect)
    return box


# -- Research --------------------------------------------------------------------------------


def research_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    """Each Research track: who stands where, the step the decider may take, the Breakthrough
    and the Assignment token at its top."""
    ed = st.edition
    seat = dec.player
    colours = _colours(st)
    ids = set(_ids(dec))
    track = ed.research_track
    top = track["top"]
    adv = track.get("advanced", [])
    bts = track.get("breakthroughs", [])
    cv = focus_canvas()
    p = st.players[seat]
    y = header(cv, st, seat, title)
    cw = (W - 2 * PAD) // (top + 1)
    for colour in V.COLOURS_MAIN:
        cv.swatch((PAD + 6, y + 4, PAD + 50, y + 48), colour)
        cv.text(
            (PAD + 62, y, W - PAD, y + 52),
            track_name(colour),
            T,
            bold=True,
            align="left",
            wrap=False,
        )
        y += 56
        mine = p.research.get(colour, 0)
        advance = C.ResearchTrack.encode(colour)
        for lvl in range(top + 1):
            cx = PAD + lvl * cw
            fill = WHITE
            if lvl in adv:
                fill = shade(DIE_FILL[colour], 1.55)
            if lvl in bts:
                fill = shade(HILITE, 1.4)
            if lvl == top:
                fill = shade(HILITE, 1.1)
            box = (cx, y, cx + cw - 3, y + 56)
            cv.d.rectangle(box, fill=fill, outline=MUTED)
            star = "\u2605" if lvl in bts else ""
            cv.text((cx + 2, y + 2, cx + cw - 5, y + 54), f"{lvl}{star}", T, bold=True, wrap=False)
            if advance in ids and lvl == mine + 1:
                mark(cv, box, advance, radius=4)
        y += 60
        # where each player stands: their disc and level, in one row (discs stacked under
        # the levels would make the picture tall when several share one)
        x = PAD + 8
        for s, q in enumerate(st.players):
            _disc(cv, x + 24, y + 26, s, colours, r=24)
            item = cv.text(
                (x + 54, y, x + 120, y + 52),
                str(q.research.get(colour, 0)),
                T,
                bold=s == seat,
                align="left",
                wrap=False,
            )
            x = item.bbox[2] + 26
        y += 58
        bt = st.breakthroughs.get(colour)
        bt_text = (
            content("effect", ed.breakthrough[bt]["text"]) if bt in ed.breakthrough else _("none")
        )
        stack = st.assignment_token_stacks.get(colour, [])
        left = ", ".join(str(v) for v in reversed(stack)) if stack else _("none left")
        text = _(
            "\u2605 Breakthrough at {levels}: {text} \u00b7 at {top}: Assignment token ({left})",
            levels=_(" and ").join(map(str, bts)),
            text=bt_text,
            top=top,
            left=left,
        )
        h = _text_h(text, W - 2 * PAD - 16)
        box = (PAD, y, W - PAD, y + h + 8)
        para(cv, PAD + 8, y + 4, W - PAD - 8, text)
        for form in (C.Breakthrough, C.AssignmentToken):
            if form.encode(colour) in ids:
                mark(cv, box, form.encode(colour), radius=4)
        y += h + 8 + 14
        cv.d.line((PAD, y - 8, W - PAD, y - 8), fill=MUTED, width=2)
    return finish(cv, y - 8)


# -- Partner cards ---------------------------------------------------------------------------


def hand_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    ed = st.edition
    seat = dec.player
    p = st.players[seat]
    active = None
    slot = st.ctx.get("slot")
    if dec.kind == "partner_play" and isinstance(slot, int) and 0 <= slot < len(p.store):
        active = p.store[slot]
    if dec.choices is None or viewer != seat and dec.kind != "draft":
        return _hand_public(st, dec, title, active)
    option_of: dict[str, str] = {}  # a card -> its choice ("" for skip)
    for choice_id, value in options(dec):
        option_of.setdefault(getattr(value, "card", ""), choice_id)
    if dec.kind == "draft":
        cards = [card for card in option_of if card]
    else:
        cards = list(p.hand) + (list(p.discard) if dec.kind == "keep_eight" else [])
    cv = focus_canvas()
    y = header(
        cv, st, seat, title, _("hand {hand} \u00b7 deck {deck}", hand=len(p.hand), deck=len(p.deck))
    )
    if active:
        item = cv.text(
            (14, y, W - 14, y + 92), _("Active die:"), T, bold=True, align="left", wrap=False
        )
        cv.die(item.bbox[2] + 16, y + 4, 84, active)
        y += 100
        y = para(cv, 14, y, W - 14, _("cards marked fit it; play one or none"), fill=MUTED)
    else:
        y = para(cv, 14, y, W - 14, prompt(dec), bold=True)
    y += PAD
    n_hand = len(p.hand)
    for k, card in enumerate(cards):
        # keeping eight of hand and discard pile together: say which is which
        where = _("discard pile") if dec.kind == "keep_eight" and k >= n_hand else ""
        if dec.kind == "keep_eight" and k < n_hand:
            where = _("hand")
        box = _partner_card(cv, ed, card, y, where)
        if card in option_of:
            mark(cv, box, option_of[card])
        y = box[3] + PAD
    return finish(cv, y)


def _hand_public(st: GameState, dec: Pending, title: str, active: str | None) -> Canvas:
    seat = dec.player
    p = st.players[seat]
    cv = focus_canvas()
    y = header(cv, st, seat, title) + 6
    text = _(
        "{name} decides about their Partner cards. Only they see which cards they hold.",
        name=p.name,
    )
    h = _text_h(text, W - 32, True)
    cv.text((16, y, W - 16, y + h), text, T, bold=True, align="left", valign="top", kind="name")
    y += h + PAD
    y = para(
        cv,
        16,
        y,
        W - 16,
        _(
            "Hand {hand} \u00b7 deck {deck} \u00b7 discard pile {discard}",
            hand=len(p.hand),
            deck=len(p.deck),
            discard=len(p.discard),
        ),
    )
    if active:
        item = cv.text(
            (16, y + 8, W - 16, y + 100), _("Active die:"), T, bold=True, align="left", wrap=False
        )
        cv.die(item.bbox[2] + 16, y + 12, 84, active)
        y += 100
    return finish(cv, y)


# -- the Mill --------------------------------------------------------------------------------

CELL, GAP = 120, 64  # a Mill cell, and the gap between two cells that holds a Gear space
GEAR_R = 28
GRID_X = W - PAD - 3 * CELL - 2 * GAP - 20  # row names to the left of the grid


def mill_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    """The decider's Mill drawn for the decision: the die to place, the 3x3 grid with each Gear
    space numbered by its gap as the buttons name it ("row 1, gap 2": the second space of row 1
    from the left; "column 3, gap 1": the first of column 3 from the top), the lines' Programs,
    the gears to build, the Store and the resources."""
    cells: dict[int, tuple[str, ...]] = {}
    gears: dict[int, tuple[str, ...]] = {}
    lines: dict[int, tuple[str, ...]] = {}
    dice: dict[str, tuple[str, ...]] = {}
    builds: dict[str, tuple[str, ...]] = {}

    def add(table: dict[Any, tuple[str, ...]], key: Any, choice_id: str) -> None:
        table[key] = table.get(key, ()) + (choice_id,)

    for choice_id, value in options(dec):
        if isinstance(value, C.MillSlot):
            add(cells, value.slot, choice_id)
        elif isinstance(value, (C.GearSpace, C.UpgradeGear)):
            add(gears, value.space, choice_id)
        elif isinstance(value, C.ProgramLine):
            add(lines, value.line, choice_id)
        elif isinstance(value, (C.ChangePip, C.SwapOwnDie, C.AdjustOwnDie)):
            add(dice, value.die, choice_id)
        elif isinstance(value, C.BuildGear):
            add(builds, value.gear, choice_id)
    die = st.ctx.get("die") if dec.kind == "mill_place" else None
    marks = MillMarks(
        cells=cells,
        gears=gears,
        lines=lines,
        dice=dice,
        builds=builds,
        steam=dec.kind == "steam",
        next_steam=C.Publish.ID in _ids(dec) and st.ctx.get("area") == "workshop",
        active=die if isinstance(die, str) else None,
    )
    seat = dec.player
    p = st.players[seat]
    ed = st.edition
    cv = focus_canvas()
    y = header(cv, st, seat, title)
    if marks.active:
        item = cv.text(
            (14, y, W - 14, y + 96), _("Die to place"), T, bold=True, align="left", wrap=False
        )
        ax = item.bbox[2] + 20
        cv.d.rounded_rectangle((ax - 5, y - 1, ax + 93, y + 97), radius=12, outline=MARK, width=5)
        cv.die(ax, y + 4, 88, marks.active)
        y += 104
    y = _mill_grid(cv, st, seat, marks, y)
    y = _mill_lines(cv, st, seat, marks, y)
    if marks.builds or dec.kind in ("publish_or_build", "build"):
        y = _section(cv, y, _("Gear supply"))
        x = PAD + 40
        if not p.gear_supply:
            y = para(cv, PAD + 14, y, W - PAD, _("none"), fill=MUTED)
        for gear in p.gear_supply:
            if x > W - PAD - 40:
                x, y = PAD + 40, y + 88
            box = (x - 38, y, x + 38, y + 76)
            if gear in marks.builds:
                cv.d.ellipse(box, fill=shade(HILITE, 1.3), outline=MARK, width=4)
                for choice_id in marks.builds[gear]:
                    cv.marks.append(("option", choice_id, box))
            cv.gear(x, y + 38, 34, gear_operator(gear))
            x += 88
        y += 88
    y = _mill_store(cv, st, seat, marks, y)
    cap = ed.steam_track[min(p.steam, len(ed.steam_track) - 1)]["cap"]
    steam = _("Steam {steam}: lines capped at {cap}", steam=p.steam, cap=cap)
    nxt = p.steam + 1
    if nxt < len(ed.steam_track) and (marks.steam or marks.next_steam):
        steam += f" \u2192 {ed.steam_track[nxt]['cap']}"
    top = y
    y = para(cv, PAD + 14, y + 4, W - PAD - 14, steam) + 4
    if marks.steam:
        cv.d.rounded_rectangle((PAD, top, W - PAD, y), radius=6, outline=MARK, width=4)
    innovation = _(
        "Innovation {n} \u00b7 Gear spaces open: {open}", n=p.innovation, open=open_spaces(p)
    )
    y = para(cv, PAD + 14, y + 4, W - PAD - 14, innovation)
    return finish(cv, resources(cv, st, seat, y + PAD))


def _mill_grid(cv: Canvas, st: GameState, seat: int, marks: MillMarks, y: int) -> int:
    p = st.players[seat]
    x0, y0 = GRID_X, y + LH + 12
    grid = MillGrid(x0, y0, CELL, GAP)
    # "column" once, in the corner, and each column's number over it ("column 1 ... 3" side by
    # side would run together in Spanish)
    cv.text((PAD, y, x0 - 14, y + LH), _("column"), T, fill=MUTED, align="right")
    for c in range(3):
        x = x0 + c * grid.step
        cv.text((x, y, x + CELL, y + LH), str(c + 1), T, bold=True, fill=MUTED)
    for r in range(3):
        ry = y0 + r * grid.step
        cv.text((PAD, ry, x0 - 14, ry + CELL), _("row {n}", n=r + 1), T, fill=MUTED, align="right")
    span = grid.span
    grid_frame(cv, (x0 - 8, y0 - 8, x0 + span + 8, y0 + span + 8))
    for pos, gear in enumerate(p.gears):
        gx, gy = grid.gear_xy(pos)
        marked = pos in marks.gears
        box = (gx - GEAR_R, gy - GEAR_R, gx + GEAR_R, gy + GEAR_R)
        if marked:
            cv.d.ellipse(
                (gx - GEAR_R - 5, gy - GEAR_R - 5, gx + GEAR_R + 5, gy + GEAR_R + 5),
                fill=shade(HILITE, 1.3),
                outline=MARK,
                width=5,
            )
            for choice_id in marks.gears[pos]:
                cv.marks.append(("option", choice_id, box))
        gap = str(pos % 2 + 1)  # the number of its gap, as the buttons name the space
        if gear:  # a built gear shows its gap's number when it is the choice (to upgrade it)
            cv.gear(gx, gy, GEAR_R + 4, gear_operator(gear), label=gap if marked else None)
        else:
            cv.badge(gx, gy, GEAR_R - 2, gap, fill=WHITE)
    for i in range(9):
        x, cy = grid.cell_xy(i)
        cv.die(x, cy, CELL, p.mill[i] if i < len(p.mill) else None)
        ids = marks.cells.get(i, ()) + marks.dice.get(f"m{i}", ())
        if ids:
            cv.d.rounded_rectangle(
                (x - 5, cy - 5, x + CELL + 4, cy + CELL + 4), radius=14, outline=MARK, width=5
            )
            for choice_id in ids:
                cv.marks.append(("option", choice_id, (x, cy, x + CELL, cy + CELL)))
            if p.mill[i] is None and i in marks.cells:
                cv.text((x + 4, cy + 4, x + CELL - 4, cy + CELL - 4), p_("mill cell", "free"), T)
    return y0 + span + 8 + PAD


def _mill_lines(cv: Canvas, st: GameState, seat: int, marks: MillMarks, y: int) -> int:
    """The lines that are options, or that carry a Program (title, value or what is missing,
    and the Program); the others stay on My Mill."""
    p = st.players[seat]
    ed = st.edition
    for line in range(len(MILL_LINES)):
        marked = line in marks.lines
        tile = p.programs[line] if line < len(p.programs) else None
        if not marked and tile not in ed.program:
            continue
        _value, status = line_status(st, seat, line)
        title = _(MARKED_TITLES[line]) if marked else _(LINE_TITLES[line])
        head = f"{title} \u00b7 {status}"
        body = _column_text(st, seat, line, marked)
        inner = W - 2 * PAD - 24
        h = 8 + _text_h(head, inner, True) + _text_h(body, inner) + 10
        box = (PAD, y, W - PAD, y + h)
        cv.box(
            box,
            fill=shade(HILITE, 1.5) if marked else WHITE,
            outline=MARK if marked else LINE,
            width=5 if marked else 2,
        )
        for choice_id in marks.lines.get(line, ()):
            cv.marks.append(("option", choice_id, box))
        ty = para(cv, PAD + 12, y + 8, W - PAD - 12, head, bold=True)
        para(cv, PAD + 12, ty, W - PAD - 12, body)
        y += h + PAD
    return y


def _mill_store(cv: Canvas, st: GameState, seat: int, marks: MillMarks, y: int) -> int:
    p = st.players[seat]
    y = para(cv, 14, y, W - 14, _("Store (high \u2192 low)"), bold=True) + 10
    x = PAD + 14
    for i, die in enumerate(p.store):
        cv.die(x, y, 84, die)
        if f"s{i}" in marks.dice:
            box = (x, y, x + 84, y + 84)
            cv.d.rounded_rectangle((x - 5, y - 5, x + 88, y + 88), radius=12, outline=MARK, width=5)
            for choice_id in marks.dice[f"s{i}"]:
                cv.marks.append(("option", choice_id, box))
        x += 100
    return y + 84 + 2 * PAD
