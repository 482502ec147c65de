"""The focus pictures of the board's areas (see render.focus for which decision gets which).

Every function draws from the visible state (the engine's view for the viewer) and the pending
decision as the viewer may see it, on a 720 px wide canvas with no text under 16 px. Options are
outlined in orange and recorded in `cv.marks` as ("option", choice id, box).
"""

from __future__ import annotations

import math
from typing import Any

from engine import choices as C
from engine import vocabulary as V
from engine.common import lecture_cost
from engine.edition import Edition
from engine.state import AREA_COLOUR, AREAS, COLOUR_AREA, GameState
from render._common import cost_text, need_text, science_name, track_name
from render._draw import (
    BAD,
    DIE_FILL,
    GOOD,
    HILITE,
    INK,
    LINE,
    MUTED,
    PANEL_ALT,
    PLAYER_FILL,
    WHITE,
    Box,
    Canvas,
    line_height,
    player_label,
    shade,
)
from render._state import Pending
from render.focus import (
    FOCUS_W,
    HEAD,
    MARK,
    MIN_PX,
    focus_canvas,
    focus_cities,
    header,
    lines_needed,
    mark,
    options,
    resources_text,
)
from render.mill_compact import MillMarks, draw_mill_compact

W = FOCUS_W
AREA_NAME = {
    "study": "Ada's Study",
    "travel": "Travel",
    "meetings": "Meetings",
    "institutions": "Institutions",
}
STORE_TAG = {
    "study": "Study",
    "travel": "Travel",
    "meetings": "Meetings",
    "institutions": "Institut.",
}


def _ids(dec: Pending) -> list[str]:
    return [i for i, _ in dec.choices or []]


def _colours(st: GameState) -> list[str]:
    return [p.colour for p in st.players]


def _disc(cv: Canvas, cx: float, cy: float, seat: int, colours: list[str], r: int = 13) -> None:
    colour = colours[seat] if 0 <= seat < len(colours) else "grey"
    cv.disc(cx, cy, r, colour, player_label(seat))


# -- Workshop --------------------------------------------------------------------------------

SPACE_W, SPACE_H = 222, 138
SPACE_GAP_X, SPACE_GAP_Y = 19, 24


def _space_box(s: int) -> Box:
    """Spaces 1-3 left to right on top, 4-6 right to left below: clockwise, as on the board."""
    row, col = (0, s) if s < 3 else (1, 5 - s)
    x = 8 + col * (SPACE_W + SPACE_GAP_X)
    y = HEAD + 10 + row * (SPACE_H + SPACE_GAP_Y)
    return (x, y, x + SPACE_W, y + SPACE_H)


def _area_possible(st: GameState, area: str) -> bool | None:
    """Whether the decider could take this Action (the engine's own test); None if unknown."""
    from engine import turn

    try:
        return bool(turn._area_possible(st, area))
    except Exception:  # the engine's internals moved: the picture simply says less
        return None


def workshop_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    ed = st.edition
    cv = focus_canvas(548)
    seat = dec.player
    header(cv, st, seat, title, f"Round {st.round}")
    # where each Workshop die may move (turn): space -> die -> destinations, and its choices
    moves: dict[int, dict[str, list[int]]] = {}
    move_ids: dict[tuple[int, str], list[str]] = {}
    # the dice of the landing space that may be pushed out (ws_push): index -> choices
    pushes: dict[int, list[str]] = {}
    # Coal adjusts and swaps name a Workshop die by space and position
    by_die: dict[tuple[int, int], list[str]] = {}
    for i, value in options(dec):
        if isinstance(value, C.WorkshopMove):
            lands = (value.space + value.moves) % 6 + 1
            moves.setdefault(value.space, {}).setdefault(value.die, []).append(lands)
            move_ids.setdefault((value.space, value.die), []).append(i)
        elif isinstance(value, C.PushOut):
            pushes.setdefault(value.index, []).append(i)
        elif isinstance(value, (C.CoalAdjust, C.WorkshopDie, C.AdjustWorkshopDie)):
            by_die.setdefault((value.space, value.index), []).append(i)
    target = st.ctx.get("to") if dec.kind == "ws_push" else None
    for s, dice in enumerate(st.workshop):
        box = _space_box(s)
        x0, y0, x1, y1 = box
        hot = s == target
        cv.box(box, fill=WHITE, outline=MARK if hot else LINE, width=4 if hot else 2, radius=10)
        # the space's number and bonus on top, its dice below
        bonus = st.workshop_bonus[s] if s < len(st.workshop_bonus) else None
        text = ed.workshop_bonuses.get(bonus, {}).get("text", "") if bonus else ""
        cv.d.rounded_rectangle((x0 + 3, y0 + 3, x1 - 4, y0 + 48), radius=8, fill=shade(HILITE, 1.6))
        cv.badge(x0 + 21, y0 + 25, 15, str(s + 1), fill=WHITE)
        cv.text((x0 + 42, y0 + 4, x1 - 8, y0 + 47), text, 16, min_size=MIN_PX)
        k = max(1, len(dice))
        size = min(48, (SPACE_W - 12 - (k - 1) * 6) // k)
        dx = x0 + (SPACE_W - (k * size + (k - 1) * 6)) // 2
        dy = y0 + 56
        for j, die in enumerate(dice):
            x = dx + j * (size + 6)
            cv.die(x, dy, size, die)
            tag = ""
            if s in moves and die in moves[s]:
                tag = "\u2192" + ",".join(str(d) for d in moves[s][die])
                for choice_id in move_ids.get((s, die), ()):
                    mark(cv, (x, dy, x + size, dy + size), choice_id, radius=8, width=3)
            elif hot and j == len(dice) - 1:
                tag = "moving"
            elif hot and j in pushes:
                for choice_id in pushes[j]:
                    mark(cv, (x, dy, x + size, dy + size), choice_id, radius=8, width=3)
            for choice_id in by_die.get((s, j), ()):
                mark(cv, (x, dy, x + size, dy + size), choice_id, radius=8, width=3)
            if tag:
                tw = int(cv.width_of(tag, 16, bold=True)) + 4
                tx = min(max(x + size // 2 - tw // 2, x0 + 4), x1 - 4 - tw)
                cv.text(
                    (tx, dy + size + 3, tx + tw, dy + size + 25),
                    tag,
                    16,
                    bold=True,
                    wrap=False,
                    min_size=MIN_PX,
                )
        if not dice:
            cv.text((x0 + 8, dy, x1 - 8, dy + 48), "empty", 16, fill=MUTED)
    _clockwise_arrows(cv)
    _store_strip(cv, st, dec, (8, HEAD + 10 + 2 * SPACE_H + SPACE_GAP_Y + 12, W - 8, cv.height - 8))
    return cv


def _clockwise_arrows(cv: Canvas) -> None:
    def tri(pts: list[tuple[float, float]]) -> None:
        cv.d.polygon(pts, fill=MUTED)

    y_top = HEAD + 10 + SPACE_H // 2
    y_bot = y_top + SPACE_H + SPACE_GAP_Y
    for col in range(2):
        x = 8 + (col + 1) * SPACE_W + col * SPACE_GAP_X + SPACE_GAP_X / 2
        tri([(x - 6, y_top - 9), (x + 7, y_top), (x - 6, y_top + 9)])
        tri([(x + 6, y_bot - 9), (x - 7, y_bot), (x + 6, y_bot + 9)])
    y = HEAD + 10 + SPACE_H + SPACE_GAP_Y / 2
    xr = 8 + 2 * (SPACE_W + SPACE_GAP_X) + SPACE_W / 2
    tri([(xr - 9, y - 6), (xr + 9, y - 6), (xr, y + 7)])
    xl = 8 + SPACE_W / 2
    tri([(xl - 9, y + 6), (xl + 9, y + 6), (xl, y - 7)])


def _store_strip(cv: Canvas, st: GameState, dec: Pending, box: Box) -> None:
    """The decider's Store dice with the Action each would take, and which Actions are open."""
    seat = dec.player
    p = st.players[seat]
    x0, y0, x1, y1 = box
    cv.box(box, fill=WHITE, width=2, radius=10)
    cv.text(
        (x0 + 10, y0 + 4, x0 + 370, y0 + 28),
        "Your Store (die \u2192 Action)",
        17,
        bold=True,
        align="left",
        wrap=False,
    )
    # the engine offers each distinct die once: a second die of the same face is as usable
    actions: dict[str | None, list[str]] = {}  # a die's face -> its Actions turn choices
    adjusts: dict[str, list[str]] = {}  # "s<i>" -> the Coal adjusts of that Store die
    for i, value in options(dec):
        if isinstance(value, C.StoreAction):
            actions.setdefault(p.store[value.slot], []).append(i)
        elif isinstance(value, C.AdjustOwnDie):
            adjusts.setdefault(value.die, []).append(i)
    s = 50
    slot_w = 96
    for i, die in enumerate(p.store):
        sx = x0 + 10 + i * slot_w
        dx = sx + (slot_w - 8 - s) // 2
        cv.die(dx, y0 + 34, s, die)
        if die is None:
            continue
        area = None if die[0] == "K" else COLOUR_AREA.get(die[0])
        label = STORE_TAG.get(area, "") if area else "any Action"
        ok = die in actions if dec.kind == "turn" else None
        for choice_id in adjusts.get(f"s{i}", []) + (actions.get(die, []) if ok else []):
            mark(cv, (dx, y0 + 34, dx + s, y0 + 34 + s), choice_id, radius=8, width=3)
        colour = INK if ok is None else GOOD if ok else BAD
        cv.text(
            (sx - 2, y0 + 88, sx + slot_w - 6, y0 + 110),
            label,
            16,
            bold=bool(ok),
            fill=colour,
            wrap=False,
            min_size=MIN_PX,
        )
    ax = x0 + 10 + 4 * slot_w + 6
    if dec.kind != "turn":
        cv.text(
            (ax, y0 + 6, x1 - 10, y1 - 30),
            dec.prompt,
            17,
            align="left",
            valign="top",
            min_size=MIN_PX,
        )
        cv.text(
            (x0 + 10, y1 - 26, x1 - 10, y1 - 4),
            resources_text(st, seat),
            16,
            align="left",
            wrap=False,
            fill=MUTED,
            min_size=MIN_PX,
        )
        return
    # Action areas: which an Actions turn could use now
    cv.text(
        (ax, y0 + 4, x1 - 8, y0 + 28),
        "Actions you can take",
        17,
        bold=True,
        align="left",
        wrap=False,
    )
    for k, area in enumerate(AREAS):
        ay = y0 + 32 + k * 22
        colour = AREA_COLOUR[area]
        cv.swatch((ax, ay + 1, ax + 22, ay + 21), colour)
        ok = _area_possible(st, area) if seat == st.current else None
        sign = "" if ok is None else " \u2714" if ok else " \u2718 too costly"
        cv.text(
            (ax + 28, ay, x1 - 8, ay + 22),
            AREA_NAME[area] + sign,
            16,
            fill=INK if ok is None else GOOD if ok else BAD,
            align="left",
            wrap=False,
            min_size=MIN_PX,
        )
    cv.text(
        (x0 + 10, y1 - 26, x1 - 10, y1 - 4),
        resources_text(st, seat) + " \u00b7 \u2192n: can move to space n",
        16,
        align="left",
        wrap=False,
        fill=MUTED,
        min_size=MIN_PX,
    )


# -- travel map ------------------------------------------------------------------------------

DX, DY = 540.0, 744.0  # board pixels per map unit (the board's proportions)
SEA = (176, 208, 226)
LAND = (214, 226, 184)
REGION_FILL = {"southern": (240, 170, 90), "central": (120, 160, 220), "scottish": (180, 180, 180)}
MAP_MAX_H = 640  # the map's height in a picture, unless a crowded whole map needs more
MAP_CROWDED_H = 800


def _cost_of(st: GameState, dec: Pending, city: str) -> str:
    ed = st.edition
    here = st.players[dec.player].city
    if dec.kind == "travel_move":
        return f"\u00a3{ed.travel_cost[here].get(city, '?')}"
    if dec.kind == "move_small":
        return "free"
    return ""


def map_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    ed = st.edition
    seat = dec.player
    p = st.players[seat]
    colours = _colours(st)
    cities = focus_cities(ed, dec)
    pawns: dict[str, list[int]] = {}
    for s, q in enumerate(st.players):
        pawns.setdefault(q.city, []).append(s)
    shown = [p.city, *[c for c in cities if c != p.city]]
    # the part of the map that matters, at the largest scale that fits
    pts = [ed.city[c]["xy"] for c in shown if c in ed.city]
    xs = [x * DX for x, _ in pts]
    ys = [y * DY for _, y in pts]
    pad_x, pad_y = 95.0, 50.0
    lo_x, hi_x = min(xs) - pad_x, max(xs) + pad_x
    lo_y, hi_y = min(ys) - pad_y, max(ys) + pad_y
    min_w, min_h = 300.0, 260.0
    if hi_x - lo_x < min_w:
        mid = (lo_x + hi_x) / 2
        lo_x, hi_x = mid - min_w / 2, mid + min_w / 2
    if hi_y - lo_y < min_h:
        mid = (lo_y + hi_y) / 2
        lo_y, hi_y = mid - min_h / 2, mid + min_h / 2
    # many destinations far apart: give the crowded middle of the map more room
    max_h = MAP_CROWDED_H if len(cities) > 12 else MAP_MAX_H
    k = min((W - 16) / (hi_x - lo_x), max_h / (hi_y - lo_y), 2.2)
    mw = W - 16
    mh = int((hi_y - lo_y) * k)
    # centre the crop horizontally when the map is narrower than the canvas
    extra = (mw / k - (hi_x - lo_x)) / 2
    lo_x -= extra
    legend_h = 34
    cv = focus_canvas(HEAD + 8 + mh + legend_h + 8)
    header(cv, st, seat, title, f"\u00a3{p.money} \u00b7 in {ed.city[p.city]['name']}")
    mx0, my0 = 8, HEAD + 8
    mx1, my1 = mx0 + mw, my0 + mh
    cv.d.rectangle((mx0, my0, mx1, my1), fill=SEA, outline=LINE)

    def pos(city: str) -> tuple[int, int]:
        x, y = ed.city[city]["xy"]
        return int(mx0 + (x * DX - lo_x) * k), int(my0 + (y * DY - lo_y) * k)

    def inside(pt: tuple[int, int], margin: int = 0) -> bool:
        return mx0 - margin <= pt[0] <= mx1 + margin and my0 - margin <= pt[1] <= my1 + margin

    land_r = int(26 * k)
    clip = Canvas(mw, mh, background=SEA)
    off = (mx0, my0)

    def local(pt: tuple[int, int]) -> tuple[int, int]:
        return pt[0] - off[0], pt[1] - off[1]

    for city in ed.city:
        x, y = local(pos(city))
        clip.d.ellipse((x - land_r, y - land_r, x + land_r, y + land_r), fill=LAND)
    for a, b, kind in ed.routes:
        if kind != "ferry" and a in ed.city and b in ed.city:
            clip.d.line((*local(pos(a)), *local(pos(b))), fill=LAND, width=2 * land_r)
    for a, b, kind in ed.routes:
        if a in ed.city and b in ed.city:
            _route(clip, local(pos(a)), local(pos(b)), kind, max(1.0, k))
    cv.im.paste(clip.im, off)
    cv.d.rectangle((mx0, my0, mx1, my1), outline=LINE, width=2)
    # nodes
    node_r = 13
    placed: list[Box] = []
    for city, info in ed.city.items():
        x, y = pos(city)
        if not inside((x, y), -node_r):
            continue
        hot = city in cities
        if info["kind"] == "university":
            fill = REGION_FILL.get(info.get("region") or "", (200, 200, 200))
            cv.d.rounded_rectangle(
                (x - node_r, y - node_r, x + node_r, y + node_r),
                radius=4,
                fill=fill,
                outline=INK,
                width=2,
            )
            cv.glyph((x, y + 0.5), str(_prestige(st, city)), 16, INK)
        else:
            cv.d.ellipse((x - 9, y - 9, x + 9, y + 9), fill=WHITE, outline=INK, width=2)
        if hot:
            cv.d.ellipse(
                (x - node_r - 7, y - node_r - 7, x + node_r + 7, y + node_r + 7),
                outline=MARK,
                width=4,
            )
        placed.append((x - node_r - 2, y - node_r - 2, x + node_r + 2, y + node_r + 2))
    # labels: options and where the players are (with their Travel tokens), then the rest
    bounds = (mx0 + 2, my0 + 2, mx1 - 2, my1 - 2)
    labelled = [c for c in shown] + [c for c in pawns if c not in shown]
    for city in labelled:
        x, y = pos(city)
        if not inside((x, y), -node_r):
            continue
        ids = [i for i, v in options(dec) if city in (place.city for place in C.places(v))]
        _city_label(cv, st, dec, city, (x, y), pawns.get(city, []), colours, placed, bounds, ids)
    # the other cities, for orientation, where their names fit without covering anything
    for city in ed.city:
        x, y = pos(city)
        if city in labelled or not inside((x, y), -node_r):
            continue
        _free_label(cv, ed.city[city]["name"], (x, y), placed, bounds)
    # legend
    ly = my1 + 8
    lx = mx0
    for kind in ("road", "rail", "ferry"):
        _route(cv, (lx, ly + 12), (lx + 34, ly + 12), kind, 1.0)
        item = cv.text(
            (lx + 40, ly, lx + 140, ly + 24),
            f"{kind} \u00a3{ed.route_cost.get(kind, '?')}",
            16,
            align="left",
            wrap=False,
        )
        lx = item.bbox[2] + 18
    cv.d.ellipse((lx + 2, ly + 2, lx + 22, ly + 22), outline=MARK, width=4)
    cv.text(
        (lx + 28, ly, mx1, ly + 24),
        "you can go there (cost of the journey)",
        16,
        align="left",
        wrap=False,
        min_size=MIN_PX,
    )
    return cv


def _prestige(st: GameState, city: str) -> int | str:
    ed = st.edition
    tile = st.universities.get(city)
    if tile in ed.university_tile:
        return ed.university_tile[tile].get("prestige", "?")
    return ed.city.get(city, {}).get("prestige", "?")


def _city_label(
    cv: Canvas,
    st: GameState,
    dec: Pending,
    city: str,
    at: tuple[int, int],
    here: list[int],
    colours: list[str],
    placed: list[Box],
    bounds: Box,
    ids: list[str],
) -> None:
    ed = st.edition
    option = bool(ids)
    x, y = at
    name = ed.city[city]["name"]
    cost = _cost_of(st, dec, city) if option else ""
    text = f"{name} {cost}" if cost else name
    tw = int(cv.width_of(text, 16, bold=option)) + 8
    stack = st.university_discs.get(city, [])
    gw = tw + (len(stack) * 26 + 4 if stack else 0) + (len(here) * 26 + 4 if here else 0)
    gh = 28
    r = 16
    best: Box | None = None
    best_cost = None
    for ox, oy in (
        (r + 4, -gh // 2),
        (-r - 4 - gw, -gh // 2),
        (-gw // 2, -r - 4 - gh),
        (-gw // 2, r + 4),
        (r, -r - gh),
        (r, r),
        (-r - gw, -r - gh),
        (-r - gw, r),
        (r + 4, -gh // 2 - gh),
        (r + 4, gh // 2),
        (-r - 4 - gw, -gh // 2 - gh),
        (-r - 4 - gw, gh // 2),
    ):
        box = (x + ox, y + oy, x + ox + gw, y + oy + gh)
        c = _overlap(box, placed) * 10 + _outside(box, bounds) * 200
        if best_cost is None or c < best_cost:
            best, best_cost = box, c
            if c == 0:
                break
    assert best is not None
    bx0, by0, bx1, by1 = best
    cv.d.rounded_rectangle(
        (bx0, by0, bx1, by1),
        radius=5,
        fill=shade(HILITE, 1.45) if option else WHITE,
        outline=MARK if option else MUTED,
        width=2 if option else 1,
    )
    cv.text(
        (bx0 + 4, by0, bx0 + tw, by1),
        text,
        16,
        bold=option,
        align="left",
        wrap=False,
        min_size=MIN_PX,
    )
    for choice_id in ids:
        cv.marks.append(("option", choice_id, best))
    px = bx0 + tw
    for seat in stack:
        _disc(cv, px + 13, by0 + gh / 2, seat, colours, r=12)
        px += 26
    if stack:
        px += 4
    for seat in here:
        col = colours[seat] if 0 <= seat < len(colours) else "grey"
        cv.pawn(px + 13, by0 + gh / 2, 26, col, player_label(seat))
        px += 26
    placed.append(best)


def _free_label(cv: Canvas, name: str, at: tuple[int, int], placed: list[Box], bounds: Box) -> None:
    x, y = at
    tw = int(cv.width_of(name, 16)) + 8
    gh = 24
    for ox, oy in ((16, -gh // 2), (-16 - tw, -gh // 2), (-tw // 2, -16 - gh), (-tw // 2, 16)):
        box = (x + ox, y + oy, x + ox + tw, y + oy + gh)
        if not _overlap(box, placed) and not _outside(box, bounds):
            cv.d.rounded_rectangle(box, radius=5, fill=shade(WHITE, 0.97))
            cv.text(
                (box[0] + 4, box[1], box[2], box[3]), name, 16, fill=MUTED, align="left", wrap=False
            )
            placed.append(box)
            return


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


def _route(cv: Canvas, a: tuple[int, int], b: tuple[int, int], kind: str, k: float) -> None:
    (ax, ay), (bx, by) = a, b
    if kind == "rail":
        cv.d.line((ax, ay, bx, by), fill=INK, width=max(5, int(5 * k)))
        _dashed(cv, a, b, WHITE, max(2, int(2 * k)), 7, 7)
    elif kind == "ferry":
        _dashed(cv, a, b, (30, 80, 170), max(3, int(3 * k)), 9, 7)
    else:
        cv.d.line((ax, ay, bx, by), fill=(150, 95, 40), width=max(3, int(3 * k)))


def _dashed(
    cv: Canvas, a: tuple[int, int], b: tuple[int, int], fill: Any, width: int, on: int, off: int
) -> None:
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if length < 1:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length
    t = 0.0
    while t < length:
        e = min(length, t + on)
        cv.d.line((ax + ux * t, ay + uy * t, ax + ux * e, ay + uy * e), fill=fill, width=width)
        t += on + off


# -- Meetings --------------------------------------------------------------------------------

COL_W = (W - 16 - 3 * 8) // 4


def _partner_card(cv: Canvas, ed: Edition, pid: str | None, box: Box, hidden: bool = False) -> None:
    x0, y0, x1, y1 = box
    if hidden or not pid or pid not in ed.partner:
        cv.box(box, fill=PANEL_ALT, width=2)
        cv.text((x0 + 6, y0 + 6, x1 - 6, y1 - 6), "hidden" if hidden else "empty", 16, fill=MUTED)
        return
    info = ed.partner[pid]
    cv.box(box, fill=WHITE, width=2)
    cv.text(
        (x0 + 6, y0 + 4, x1 - 6, y0 + 46),
        info.get("name", pid),
        16,
        bold=True,
        max_lines=2,
        min_size=MIN_PX,
    )
    prestige = str(info.get("prestige", 0))
    cv.badge(x0 + 20, y0 + 62, 14 if len(prestige) < 2 else 17, prestige)
    cv.text(
        (x0 + 38, y0 + 50, x1 - 6, y0 + 74),
        science_name(info.get("science")),
        16,
        align="left",
        wrap=False,
        min_size=MIN_PX,
    )
    cv.d.rectangle((x0 + 5, y0 + 78, x1 - 6, y0 + 100), fill=PANEL_ALT)
    cv.text((x0 + 6, y0 + 78, x1 - 6, y0 + 100), need_text(info), 16, bold=True, min_size=MIN_PX)
    cv.text(
        (x0 + 6, y0 + 104, x1 - 6, y1 - 4), info.get("text", ""), 16, min_size=MIN_PX, valign="top"
    )


def _partner_card_height(ed: Edition, ids: list[str | None], width: int) -> int:
    need = max(
        (lines_needed(ed.partner[c]["text"], 16, width - 12) for c in ids if c in ed.partner),
        default=1,
    )
    return 104 + need * line_height(16) + 8


def meetings_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    ed = st.edition
    seat = dec.player
    colours = _colours(st)
    room_opts: dict[int, list[str]] = {}
    card_opts: dict[int, str] = {}  # a Partner display slot -> its choice
    mult_opts: dict[int, str] = {}  # a Multiplier slot -> its choice
    for i, value in options(dec):
        for place in C.places(value):
            if place.kind == "room" and place.index is not None:
                room_opts.setdefault(place.index, []).append(i)
        if isinstance(value, (C.DisplayCard, C.UseDisplayCard)):
            card_opts[value.slot] = i
        elif isinstance(value, C.MultiplierSlot):
            mult_opts[value.slot] = i
    card_h = _partner_card_height(ed, list(st.partner_display), COL_W)
    room_h = 178
    height = HEAD + 8 + room_h + 10 + 24 + card_h + 10 + 24 + 48 + 8
    cv = focus_canvas(height)
    p = st.players[seat]
    header(cv, st, seat, title, f"\u00a3{p.money} \u00b7 Innovation {p.innovation}")
    y = HEAD + 8
    for r, room in enumerate(st.rooms):
        x = 8 + r * (COL_W + 8)
        box = (x, y, x + COL_W, y + room_h)
        info = ed.meeting_rooms[r] if r < len(ed.meeting_rooms) else {}
        cv.box(box, fill=shade(DIE_FILL["Y"], 1.75), width=2)
        for choice_id in room_opts.get(r, []):
            mark(cv, box, choice_id)
        cv.text((x + 4, y + 4, x + COL_W - 4, y + 28), f"Room {r + 1}", 18, bold=True)
        cost = f"\u00a3{info.get('money', '?')} or {info.get('innovation', '?')} Innov."
        cv.text((x + 4, y + 30, x + COL_W - 4, y + 52), cost, 16, min_size=MIN_PX)
        draw = info.get("draw", 0)
        cv.text(
            (x + 4, y + 52, x + COL_W - 4, y + 74),
            f"draw {draw} card{'s' if draw != 1 else ''}" if draw else "no draw",
            16,
            fill=MUTED,
        )
        sci = st.room_science[r] if r < len(st.room_science) else None
        cv.d.rounded_rectangle(
            (x + 8, y + 78, x + COL_W - 8, y + 102), radius=10, fill=WHITE, outline=INK
        )
        cv.text(
            (x + 12, y + 78, x + COL_W - 12, y + 102),
            science_name(sci) if sci else "?",
            16,
            bold=True,
            min_size=MIN_PX,
        )
        sw = (COL_W - 12) // 2
        for k, space in enumerate(room):
            sx = x + 6 + (k % 2) * sw
            sy = y + 108 + (k // 2) * 34
            cv.d.rounded_rectangle(
                (sx + 2, sy, sx + sw - 2, sy + 30), radius=8, fill=WHITE, outline=MUTED
            )
            seats = [space] if isinstance(space, int) else list(space or [])
            for j, s in enumerate(seats[:2]):
                _disc(cv, sx + 18 + j * 28, sy + 15, s, colours)
    y += room_h + 10
    cv.text(
        (8, y, W - 8, y + 24),
        f"Partner display (deck {len(st.partner_deck)}): "
        "the card under your room or one to its right",
        16,
        bold=True,
        align="left",
        wrap=False,
        min_size=MIN_PX,
    )
    y += 24
    for i, pid in enumerate(st.partner_display):
        x = 8 + i * (COL_W + 8)
        box = (x, y, x + COL_W, y + card_h)
        _partner_card(cv, ed, pid, box)
        if i in card_opts:
            mark(cv, box, card_opts[i])
    y += card_h + 10
    cv.text(
        (8, y, W - 8, y + 24),
        f"Multiplier Gears (deck {len(st.multiplier_deck)})",
        16,
        bold=True,
        align="left",
        wrap=False,
    )
    y += 24
    mw = (W - 16 - 8) // 2
    for i, mid in enumerate(st.multiplier_display):
        x = 8 + i * (mw + 8)
        box = (x, y, x + mw, y + 44)
        cv.box(box, fill=WHITE, width=2)
        if i in mult_opts:
            mark(cv, box, mult_opts[i])
        if not mid:
            cv.text((x + 6, y + 2, x + mw - 6, y + 42), "empty", 16, fill=MUTED)
            continue
        cv.gear(x + 24, y + 22, 19, "x")
        cost = ed.multiplier[mid]["cost"] if mid in ed.multiplier else {}
        cv.text(
            (x + 50, y + 2, x + mw - 6, y + 42),
            "Build cost: " + cost_text(cost),
            16,
            align="left",
            min_size=MIN_PX,
        )
    return cv


# -- Institutions ----------------------------------------------------------------------------


def lectures_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    ed = st.edition
    seat = dec.player
    colours = _colours(st)
    spaces: dict[str, str] = {}  # "<institution>:<level>" (or "as") -> its choice
    for i, value in options(dec):
        if isinstance(value, C.AnalyticalSociety):
            spaces["as"] = i
        for place in C.places(value):
            if place.kind == "lec":
                spaces[f"{place.index}:{place.level}"] = i
    n = max(1, len(ed.institutions))
    lw = 92
    cw = (W - 16 - lw) // n
    levels = sorted(ed.lecture_levels, reverse=True)
    head_h = max(lines_needed(inst["name"], 16, cw - 8, bold=True) for inst in ed.institutions)
    head_h = head_h * line_height(16) + 8
    row_h: list[int] = []
    for lvl in levels:
        need = 1
        for i, inst in enumerate(ed.institutions):
            space = inst["spaces"].get(lvl) or inst["spaces"].get(str(lvl)) or {}
            taken = bool(st.lectures.get(f"{i}:{lvl}"))
            width = cw - 10 - (30 if taken else 0)
            need = max(need, lines_needed(space.get("text", ""), 16, width))
        row_h.append(max(3 * line_height(16) + 8, need * line_height(16) + 10))
    as_text = f"Level 1, Analytical Society (always open): {ed.analytical_society['text']}"
    as_h = lines_needed(as_text, 16, W - 28) * line_height(16) + 10
    height = HEAD + 8 + head_h + 4 + sum(row_h) + 4 * len(levels) + 6 + as_h + 8
    cv = focus_canvas(height)
    p = st.players[seat]
    header(cv, st, seat, title, f"Innovation {p.innovation}")
    x0, y = 8, HEAD + 8
    cv.text(
        (x0, y, x0 + lw - 6, y + head_h), "your cost, most discs", 16, fill=MUTED, min_size=MIN_PX
    )
    for i, inst in enumerate(ed.institutions):
        cx = x0 + lw + i * cw
        cv.d.rectangle((cx + 1, y, cx + cw - 2, y + head_h), fill=shade(DIE_FILL["G"], 1.7))
        cv.text(
            (cx + 4, y + 2, cx + cw - 4, y + head_h - 2),
            inst["name"],
            16,
            bold=True,
            min_size=MIN_PX,
        )
    y += head_h + 4
    for k, lvl in enumerate(levels):
        rh = row_h[k]
        cost = lecture_cost(st, seat, lvl)
        maj = ed.lecture_majority.get(lvl, "?")
        cv.d.rectangle((x0, y, x0 + lw - 4, y + rh), fill=PANEL_ALT)
        cv.text(
            (x0 + 2, y + 2, x0 + lw - 6, y + rh - 2),
            f"Level {lvl}\n{cost} Innov.\nmost: {maj}\u2605",
            16,
            bold=False,
            min_size=MIN_PX,
        )
        for i, inst in enumerate(ed.institutions):
            cx = x0 + lw + i * cw
            seats = st.lectures.get(f"{i}:{lvl}", [])
            fill = WHITE
            if seats:
                first = colours[seats[0]] if seats[0] < len(colours) else ""
                fill = shade(PLAYER_FILL.get(first, (220, 220, 220)), 1.75)
            box = (cx + 1, y, cx + cw - 2, y + rh)
            cv.d.rectangle(box, fill=fill, outline=MUTED)
            space = inst["spaces"].get(lvl) or inst["spaces"].get(str(lvl)) or {}
            right = cx + cw - 5 - (30 if seats else 0)
            cv.text(
                (cx + 5, y + 3, right, y + rh - 3),
                space.get("text", ""),
                16,
                min_size=MIN_PX,
                align="left",
                valign="top",
            )
            for j, s in enumerate(seats[:3]):
                _disc(cv, cx + cw - 18, y + 17 + j * 28, s, colours)
            key = f"{i}:{lvl}"
            if key in spaces:
                mark(cv, box, spaces[key], radius=4)
        y += rh + 4
    y += 2
    box = (x0, y, W - 8, y + as_h)
    cv.d.rectangle(box, fill=PANEL_ALT)
    cv.text((x0 + 6, y + 3, W - 14, y + as_h - 3), as_text, 16, align="left", min_size=MIN_PX)
    if "as" in spaces:
        mark(cv, box, spaces["as"], radius=4)
    return cv


# -- Ada's Study -----------------------------------------------------------------------------


def study_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    ed = st.edition
    seat = dec.player
    p = st.players[seat]
    prog_opts: dict[int, str] = {}  # a Program display slot -> its choice
    asg_opts: dict[int, str] = {}  # an Assignment display slot -> its choice
    for i, value in options(dec):
        if isinstance(value, C.ProgramTile):
            prog_opts[value.slot] = i
        elif isinstance(value, C.AssignmentCard):
            asg_opts[value.slot] = i
    n = max(1, len(st.program_display))
    tw = (W - 16 - (n - 1) * 8) // n
    prog_h = (
        34
        + max(
            (
                lines_needed(ed.program[t]["text"], 16, tw - 10)
                for t in st.program_display
                if t in ed.program
            ),
            default=1,
        )
        * line_height(16)
        + 8
    )
    cw = (W - 16 - 8) // 2
    asg_h = (
        56
        + max(
            (
                lines_needed(ed.assignment[a]["text"], 16, cw - 12)
                for a in st.assignment_display
                if a in ed.assignment
            ),
            default=1,
        )
        * line_height(16)
        + 8
    )
    rows = (len(st.assignment_display) + 1) // 2
    height = HEAD + 8 + 24 + prog_h + 10 + 24 + rows * (asg_h + 8) + 4 + 96 + 8
    cv = focus_canvas(height)
    header(cv, st, seat, title, f"hand {len(p.hand)} \u00b7 Books {p.books}")
    y = HEAD + 8
    cv.text(
        (8, y, W - 8, y + 24),
        f"Programs (deck {len(st.program_deck)}): the rightmost leaves after a Study action",
        16,
        bold=True,
        align="left",
        wrap=False,
        min_size=MIN_PX,
    )
    y += 24
    for i, pid in enumerate(st.program_display):
        x = 8 + i * (tw + 8)
        box = (x, y, x + tw, y + prog_h)
        if not pid or pid not in ed.program:
            cv.box(box, fill=PANEL_ALT)
            cv.text((x + 4, y + 4, x + tw - 4, y + prog_h - 4), "empty", 16, fill=MUTED)
            continue
        info = ed.program[pid]
        cv.box(box, fill=(236, 228, 246), width=2)
        cv.badge(x + tw - 18, y + 17, 14, str(info.get("prestige", "?")))
        cv.text(
            (x + 6, y + 4, x + tw - 36, y + 30),
            "Program",
            16,
            bold=True,
            fill=MUTED,
            align="left",
            wrap=False,
        )
        cv.text(
            (x + 5, y + 34, x + tw - 5, y + prog_h - 4),
            info.get("text", pid),
            16,
            min_size=MIN_PX,
            valign="top",
        )
        if i in prog_opts:
            mark(cv, box, prog_opts[i])
    y += prog_h + 10
    cv.text(
        (8, y, W - 8, y + 24),
        f"Assignments (deck {len(st.assignment_deck)})",
        16,
        bold=True,
        align="left",
        wrap=False,
    )
    y += 24
    for i, aid in enumerate(st.assignment_display):
        x = 8 + (i % 2) * (cw + 8)
        ay = y + (i // 2) * (asg_h + 8)
        box = (x, ay, x + cw, ay + asg_h)
        _assignment_card(cv, ed, aid, box)
        if i in asg_opts:
            mark(cv, box, asg_opts[i])
    y += rows * (asg_h + 8) + 4
    _study_items(cv, st, dec, (8, y, W - 8, cv.height - 8))
    return cv


def _assignment_card(cv: Canvas, ed: Edition, aid: str | None, box: Box) -> None:
    x0, y0, x1, y1 = box
    if not aid or aid not in ed.assignment:
        cv.box(box, fill=PANEL_ALT)
        cv.text((x0 + 4, y0 + 4, x1 - 4, y1 - 4), "empty", 16, fill=MUTED)
        return
    info = ed.assignment[aid]
    cv.box(box, fill=WHITE, width=2)
    cv.text(
        (x0 + 6, y0 + 3, x1 - 6, y0 + 26),
        info.get("name", aid),
        17,
        bold=True,
        align="left",
        wrap=False,
        min_size=MIN_PX,
    )
    cols = info.get("colours") or []
    cx = x0 + 6
    for c in cols:
        cv.swatch((cx, y0 + 28, cx + 26, y0 + 52), c)
        cx += 30
    label = ("column" if len(cols) == 1 else "columns") if cols else "any column"
    disc = info.get("discard", 0)
    label += f" \u00b7 discard {disc} card{'s' if disc != 1 else ''}" if disc else " \u00b7 free"
    cv.text(
        (cx + 2, y0 + 28, x1 - 6, y0 + 52),
        label,
        16,
        align="left",
        fill=MUTED,
        wrap=False,
        min_size=MIN_PX,
    )
    cv.text(
        (x0 + 6, y0 + 56, x1 - 6, y1 - 4),
        info.get("text", ""),
        16,
        min_size=MIN_PX,
        align="left",
        valign="top",
    )


def _study_items(cv: Canvas, st: GameState, dec: Pending, box: Box) -> None:
    """Study rewards (Book, Addition Gear, Assignment) and the decider's Assignment columns."""
    seat = dec.player
    p = st.players[seat]
    ids = set(_ids(dec))
    x0, y0, x1, y1 = box
    cv.box(box, fill=WHITE, width=2)
    cv.text(
        (x0 + 8, y0 + 4, x0 + 200, y0 + 28),
        "Study rewards",
        17,
        bold=True,
        align="left",
        wrap=False,
    )
    items = [
        ("book", "Book"),
        ("gear", f"Addition Gear ({st.addition_supply} left)"),
        ("assignment", "Assignment card"),
    ]
    x = x0 + 8
    for item_id, label in items:
        w = int(cv.width_of(label, 16, bold=True)) + 18
        b = (x, y0 + 32, x + w, y0 + 58)
        cv.d.rounded_rectangle(b, radius=8, fill=PANEL_ALT)
        cv.text(
            (x + 9, y0 + 32, x + w - 9, y0 + 58), label, 16, bold=True, wrap=False, min_size=MIN_PX
        )
        if C.StudyItem.encode(item_id) in ids:
            mark(cv, b, C.StudyItem.encode(item_id))
        x += w + 14
    cv.text((x0 + 8, y0 + 62, x0 + 250, y0 + 86), "Your Assignments:", 16, align="left", wrap=False)
    ax = x0 + 170
    for c in V.COLOURS_MAIN:
        b = (ax, y0 + 62, ax + 26, y0 + 86)
        cv.swatch(b, c)
        n = len(p.assignments.get(c, []))
        token = p.assignment_tokens.get(c)
        label = f"{n}" + (f" (token {token})" if token else "")
        item = cv.text(
            (ax + 30, y0 + 62, x1 - 8, y0 + 86), label, 16, bold=True, align="left", wrap=False
        )
        column = C.AssignmentColumn.encode(c)
        if column in ids:
            mark(cv, (ax, y0 + 62, item.bbox[2], y0 + 86), column, radius=4, width=3)
        ax = item.bbox[2] + 22


# -- Research --------------------------------------------------------------------------------


def research_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    ed = st.edition
    seat = dec.player
    colours = _colours(st)
    ids = set(_ids(dec))
    track = ed.research_track
    top = track["top"]
    adv = track.get("advanced", [])
    bts = track.get("breakthroughs", [])
    lw = 118
    cw = (W - 16 - lw) // (top + 1)
    cell_h = 78
    texts = []
    for colour in V.COLOURS_MAIN:
        bt = st.breakthroughs.get(colour)
        bt_text = ed.breakthrough[bt]["text"] if bt in ed.breakthrough else "none"
        stack = st.assignment_token_stacks.get(colour, [])
        left = ", ".join(str(v) for v in reversed(stack)) if stack else "none left"
        texts.append(
            f"\u2605 Breakthrough at {' and '.join(map(str, bts))}: {bt_text}"
            f" \u00b7 at {top}: Assignment token ({left})"
        )
    text_h = [lines_needed(t, 16, W - 24) * line_height(16) + 4 for t in texts]
    height = HEAD + 8 + sum(cell_h + 4 + h + 10 for h in text_h) + 4
    cv = focus_canvas(height)
    p = st.players[seat]
    header(cv, st, seat, title)
    y = HEAD + 8
    for t, colour in enumerate(V.COLOURS_MAIN):
        x0 = 8
        cv.d.rectangle((x0, y, x0 + lw - 4, y + cell_h), fill=shade(DIE_FILL[colour], 1.6))
        cv.swatch((x0 + 4, y + 4, x0 + 28, y + 28), colour)
        cv.text(
            (x0 + 4, y + 30, x0 + lw - 6, y + cell_h - 2),
            track_name(colour),
            16,
            bold=True,
            align="left",
            min_size=MIN_PX,
        )
        mine = p.research.get(colour, 0)
        advance = C.ResearchTrack.encode(colour)
        option = advance in ids
        for lvl in range(top + 1):
            cx = x0 + lw + lvl * cw
            fill = WHITE
            tag = ""
            if lvl in adv:
                fill = shade(DIE_FILL[colour], 1.55)
                tag = "Adv"
            if lvl in bts:
                fill = shade(HILITE, 1.4)
                tag = "\u2605"
            if lvl == top:
                fill = shade(HILITE, 1.1)
                tag = "top"
            box = (cx, y, cx + cw - 2, y + cell_h)
            cv.d.rectangle(box, fill=fill, outline=MUTED)
            cv.text(
                (cx + 3, y + 1, cx + 22, y + 22), str(lvl), 16, bold=True, wrap=False, align="left"
            )
            if tag:
                cv.text(
                    (cx + 20, y + 1, cx + cw - 4, y + 22),
                    tag,
                    16,
                    wrap=False,
                    align="right",
                    min_size=MIN_PX,
                )
            here = [s for s, q in enumerate(st.players) if q.research.get(colour, 0) == lvl]
            for j, s in enumerate(here):
                _disc(cv, cx + 15 + (j % 2) * 28, y + 38 + (j // 2) * 26, s, colours, r=12)
            if option and lvl == mine + 1:
                mark(cv, box, advance, radius=4)
        y += cell_h + 4
        box = (x0, y, W - 8, y + text_h[t])
        cv.text((x0 + 4, y, W - 12, y + text_h[t]), texts[t], 16, align="left", min_size=MIN_PX)
        for form in (C.Breakthrough, C.AssignmentToken):
            if form.encode(colour) in ids:
                mark(cv, box, form.encode(colour), radius=4)
        y += text_h[t] + 10
    return cv


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
    for i, value in options(dec):
        option_of.setdefault(getattr(value, "card", ""), i)
    if dec.kind == "draft":
        cards = [card for card in option_of if card]
    else:
        cards = list(p.hand) + (list(p.discard) if dec.kind == "keep_eight" else [])
    per_row = 4
    card_w = COL_W
    card_h = _partner_card_height(ed, list(cards), card_w)
    rows = max(1, (len(cards) + per_row - 1) // per_row)
    strip = 64 if active else 40
    height = HEAD + 8 + strip + rows * (card_h + 28) + 8
    cv = focus_canvas(height)
    header(cv, st, seat, title, f"hand {len(p.hand)} \u00b7 deck {len(p.deck)}")
    y = HEAD + 8
    if active:
        cv.text((8, y, 230, y + 56), "Active die:", 18, bold=True, align="left", wrap=False)
        cv.die(150, y + 4, 48, active)
        cv.text(
            (214, y, W - 8, y + 56),
            "cards marked fit it; play one or none",
            16,
            align="left",
            fill=MUTED,
            min_size=MIN_PX,
        )
    else:
        cv.text((8, y, W - 8, y + 32), dec.prompt, 17, bold=True, align="left", min_size=MIN_PX)
    y += strip
    n_hand = len(p.hand)
    for k, card in enumerate(cards):
        x = 8 + (k % per_row) * (card_w + 8)
        cy = y + (k // per_row) * (card_h + 28)
        where = (
            "discard pile"
            if dec.kind == "keep_eight" and k >= n_hand
            else ("offered" if dec.kind == "draft" else "hand")
        )
        cv.text((x, cy, x + card_w, cy + 24), where, 16, fill=MUTED, wrap=False)
        box = (x, cy + 24, x + card_w, cy + 24 + card_h)
        _partner_card(cv, ed, card, box)
        if card in option_of:
            mark(cv, box, option_of[card])
    return cv


def _hand_public(st: GameState, dec: Pending, title: str, active: str | None) -> Canvas:
    seat = dec.player
    p = st.players[seat]
    cv = focus_canvas(260)
    header(cv, st, seat, title)
    y = HEAD + 14
    cv.text(
        (16, y, W - 16, y + 60),
        f"{p.name} decides about their Partner cards. Only they see which cards they hold.",
        18,
        bold=True,
        align="left",
        min_size=MIN_PX,
        kind="name",
    )
    y += 70
    cv.text(
        (16, y, W - 16, y + 26),
        f"Hand {len(p.hand)} \u00b7 deck {len(p.deck)} \u00b7 discard pile {len(p.discard)}",
        17,
        align="left",
        wrap=False,
    )
    y += 34
    if active:
        cv.text((16, y, 200, y + 56), "Active die:", 18, bold=True, align="left", wrap=False)
        cv.die(160, y + 4, 48, active)
    return cv


# -- the Mill --------------------------------------------------------------------------------


def mill_focus(state: Any, st: GameState, dec: Pending, viewer: int | None) -> Canvas:
    """The compact Mill of the decider with the options marked."""
    cells: dict[int, tuple[str, ...]] = {}
    gears: dict[int, tuple[str, ...]] = {}
    lines: dict[int, tuple[str, ...]] = {}
    dice: dict[str, tuple[str, ...]] = {}
    builds: dict[str, tuple[str, ...]] = {}

    def add(table: dict[Any, tuple[str, ...]], key: Any, choice_id: str) -> None:
        table[key] = table.get(key, ()) + (choice_id,)

    for i, value in options(dec):
        if isinstance(value, C.MillSlot):
            add(cells, value.slot, i)
        elif isinstance(value, (C.GearSpace, C.UpgradeGear)):
            add(gears, value.space, i)
        elif isinstance(value, C.ProgramLine):
            add(lines, value.line, i)
        elif isinstance(value, (C.ChangePip, C.SwapOwnDie, C.AdjustOwnDie)):
            add(dice, value.die, i)
        elif isinstance(value, C.BuildGear):
            add(builds, value.gear, i)
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
    return draw_mill_compact(state, dec.player, viewer, marks)
