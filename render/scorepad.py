"""The scorepad: the eleven categories per player with totals and the winner, and a bar chart of
the totals in ranking order. Mid-game it is the score so far (and the current leader)."""

from __future__ import annotations

from engine.scoring import CATEGORIES, ranking, score
from engine.state import GameState
from render._draw import (
    BAD,
    HILITE,
    INK,
    LINE,
    MUTED,
    PANEL_ALT,
    PLAYER_FILL,
    WHITE,
    Canvas,
    player_label,
    shade,
)
from render._state import HIDDEN

W, H = 1000, 640
ORDINAL = ["1st", "2nd", "3rd", "4th"]


def draw_scorepad(st: GameState) -> Canvas:
    cv = Canvas(W, H)
    n = len(st.players)
    if any(HIDDEN in p.supply() for p in st.players):
        raise ValueError("the scorepad needs the full game state (a view hides Partner decks)")
    rows = [score(st, seat) for seat in range(n)]
    order = ranking(st)
    first = order[0]
    cv.d.rectangle((0, 0, W, 52), fill=LINE)
    title = "Final scores" if st.over else f"Score so far \u00b7 round {st.round}"
    cv.text((12, 4, 420, 48), title, 22, bold=True, fill=WHITE, align="left", wrap=False)
    lead = "Winner" if st.over else "Leading"
    tied = sum(1 for r in rows if r["Total"] == rows[first]["Total"]) > 1
    cv.disc(440, 26, 14, st.players[first].colour, player_label(first))
    cv.text(
        (462, 4, W - 12, 48),
        f"\u2605 {lead}: {st.players[first].name} with {rows[first]['Total']} Prestige"
        + (" (tie-break)" if tied else ""),
        20,
        bold=True,
        fill=HILITE,
        align="left",
        wrap=False,
        min_size=12,
        kind="name",
    )
    _table(cv, st, rows, first, (8, 60, 604, H - 8))
    _chart(cv, st, rows, order, (612, 60, W - 8, H - 8))
    return cv


def _table(
    cv: Canvas,
    st: GameState,
    rows: list[dict[str, int]],
    first: int,
    box: tuple[int, int, int, int],
) -> None:
    x0, y0, x1, y1 = cv.panel(box, "Scorepad")
    n = len(rows)
    lw = 170
    cw = (x1 - x0 - lw) // max(1, n)
    hh = 48
    for seat, p in enumerate(st.players):
        cx = x0 + lw + seat * cw
        fill = shade(PLAYER_FILL.get(p.colour, (200, 200, 200)), 1.55)
        cv.d.rectangle((cx + 1, y0, cx + cw - 2, y0 + hh), fill=fill, outline=MUTED)
        cv.disc(cx + 14, y0 + 14, 10, p.colour, player_label(seat))
        cv.text(
            (cx + 27, y0 + 2, cx + cw - 4, y0 + 26),
            "\u2605 winner" if seat == first and st.over else "",
            11,
            bold=True,
            align="left",
            wrap=False,
        )
        cv.text(
            (cx + 4, y0 + 24, cx + cw - 4, y0 + hh - 2),
            p.name,
            13,
            bold=True,
            wrap=False,
            min_size=9,
            kind="name",
        )
    cats = [*CATEGORIES, "Total"]
    rh = (y1 - y0 - hh - 6) // len(cats)
    for k, cat in enumerate(cats):
        ry = y0 + hh + 4 + k * rh
        total = cat == "Total"
        base = PANEL_ALT if k % 2 == 0 else WHITE
        if total:
            base = shade(HILITE, 1.5)
            cv.d.line((x0, ry - 2, x1, ry - 2), fill=INK, width=2)
        cv.d.rectangle((x0, ry, x1, ry + rh - 2), fill=base)
        cv.text(
            (x0 + 6, ry, x0 + lw - 4, ry + rh - 2),
            cat,
            15 if total else 14,
            bold=total,
            align="left",
            wrap=False,
            min_size=10,
        )
        values = [r.get(cat, 0) for r in rows]
        best = max(values) if values else 0
        for seat, v in enumerate(values):
            cx = x0 + lw + seat * cw
            top = v == best and v != 0 and values.count(best) < len(values)
            if top:
                cv.d.rectangle(
                    (cx + 3, ry + 1, cx + cw - 4, ry + rh - 3),
                    fill=shade(PLAYER_FILL.get(st.players[seat].colour, (200, 200, 200)), 1.6),
                    outline=INK,
                )
            colour = BAD if v < 0 else INK if v > 0 else MUTED
            cv.text(
                (cx + 4, ry, cx + cw - 6, ry + rh - 2),
                str(v),
                17 if total else 15,
                bold=total or top,
                fill=colour,
                wrap=False,
            )


def _chart(
    cv: Canvas,
    st: GameState,
    rows: list[dict[str, int]],
    order: list[int],
    box: tuple[int, int, int, int],
) -> None:
    x0, y0, x1, y1 = cv.panel(box, "Total Prestige")
    totals = [rows[s]["Total"] for s in order]
    lo = min(0, *totals)
    hi = max(0, *totals)
    span = max(1, hi - lo)
    bx0, bx1 = x0 + 8, x1 - 8
    scale = (bx1 - bx0 - 60) / span  # leave room for the value label
    zero = bx0 + 30 + int((0 - lo) * scale) if lo < 0 else bx0
    slot = min(120, (y1 - y0 - 60) // max(1, len(order)))
    for k, seat in enumerate(order):
        p = st.players[seat]
        ty = y0 + 6 + k * slot
        v = rows[seat]["Total"]
        cv.disc(x0 + 11, ty + 11, 11, p.colour, player_label(seat))
        cv.text(
            (x0 + 28, ty, x1, ty + 22),
            f"{ORDINAL[k] if k < len(ORDINAL) else k + 1} \u00b7 {p.name}",
            15,
            bold=k == 0,
            align="left",
            wrap=False,
            min_size=10,
            kind="name",
        )
        by = ty + 26
        bh = min(40, slot - 36)
        fill = PLAYER_FILL.get(p.colour, (200, 200, 200))
        if v >= 0:
            a, b = zero, zero + int(v * scale)
        else:
            a, b = zero + int(v * scale), zero
        cv.d.rectangle((a, by, max(a + 2, b), by + bh), fill=fill, outline=INK, width=2)
        # the zero axis only beside the bars: a full-height line would cross the seat discs
        cv.d.line((zero, by - 4, zero, by + bh + 4), fill=INK, width=2)
        label = str(v)
        if v >= 0:
            lx0, lx1, al = max(a, b) + 6, x1, "left"
        else:
            lx0, lx1, al = x0, min(a, b) - 6, "right"
        cv.text(
            (lx0, by, lx1, by + bh),
            label,
            18,
            bold=True,
            align=al,
            wrap=False,
            fill=BAD if v < 0 else INK,
        )
    note = (
        "Ties: most gears built, then highest Mill dice total, then seat order."
        if st.over
        else "Game not over: the final scoring may change a lot."
    )
    cv.text((x0, y1 - 44, x1, y1), note, 12, fill=MUTED, align="left")
