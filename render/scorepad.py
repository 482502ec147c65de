"""The scorepad: the eleven categories per player with totals and the winner, and a bar chart of
the totals in ranking order, drawn to be read inline (720 px wide, no text under 16 px).

Mid-game it is the score so far as the viewer may see it: another player's Partners and Meetings
depend on their hidden cards and show "?", their total "41+?"."""

from __future__ import annotations

from engine.scoring import CATEGORIES, ranking
from engine.state import GameState
from i18n import N_, _
from render._common import HIDDEN_CATEGORIES, category, total_text, visible_score
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
    text_width,
)
from render._state import visible

W = 720
ORDINAL = [N_("1st"), N_("2nd"), N_("3rd"), N_("4th")]
HEAD_H = 80
ROW_H = 30
BAR_ROW = 40
NEGATIVE_FILL = (246, 222, 222)  # the chart's area below zero


def size_of(players: int) -> tuple[int, int]:
    table = 56 + (len(CATEGORIES) + 1) * ROW_H + 24
    chart = 34 + players * BAR_ROW + 40 + 30
    return W, HEAD_H + 8 + table + 8 + chart + 8


def draw_scorepad(state: GameState | dict, viewer: int | None = None) -> Canvas:
    st = visible(state, viewer)
    n = len(st.players)
    cv = Canvas(*size_of(n))
    cv.min_glyph = 16  # read inline: no mark under 16 px (12 px at 550 px wide)
    rows = [visible_score(st, seat) for seat in range(n)]
    hidden = any(r[c] is None for r in rows for c in HIDDEN_CATEGORIES)
    order = sorted(range(n), key=lambda s: (-(rows[s]["Total"] or 0), s)) if hidden else ranking(st)
    first = order[0]
    cv.d.rectangle((0, 0, W, HEAD_H), fill=LINE)
    title = _("Final scores") if st.over else _("Score so far \u00b7 round {round}", round=st.round)
    cv.text((14, 4, W - 14, 40), title, 24, bold=True, fill=WHITE, align="left", wrap=False)
    if hidden:
        lead = _("? = depends on hidden cards (Partners, Meetings)")
        cv.text((14, 42, W - 14, 76), lead, 17, fill=HILITE, align="left", wrap=False)
    else:
        word = _("Winner") if st.over else _("Leading")
        tied = sum(1 for r in rows if r["Total"] == rows[first]["Total"]) > 1
        cv.disc(28, 59, 14, st.players[first].colour, player_label(first))
        cv.text(
            (50, 42, W - 14, 76),
            _(
                "\u2605 {word}: {name} with {total} Prestige",
                word=word,
                name=st.players[first].name,
                total=rows[first]["Total"],
            )
            + (_(" (tie-break)") if tied and st.over else ""),
            20,
            bold=True,
            fill=HILITE,
            align="left",
            wrap=False,
            min_size=16,
            kind="name",
        )
    y = HEAD_H + 8
    table_h = 56 + (len(CATEGORIES) + 1) * ROW_H + 24
    _table(cv, st, rows, first if not hidden else None, (8, y, W - 8, y + table_h))
    y += table_h + 8
    _chart(cv, st, rows, order, (8, y, W - 8, cv.height - 8), ranked=not hidden)
    return cv


def _table(
    cv: Canvas,
    st: GameState,
    rows: list[dict[str, int | None]],
    first: int | None,
    box: tuple[int, int, int, int],
) -> None:
    x0, y0, x1, y1 = box
    cv.box(box, fill=WHITE, width=2, radius=10)
    x0, y0, x1 = x0 + 8, y0 + 8, x1 - 8
    n = len(rows)
    lw = 196
    cw = (x1 - x0 - lw) // max(1, n)
    hh = 50
    for seat, p in enumerate(st.players):
        cx = x0 + lw + seat * cw
        fill = shade(PLAYER_FILL.get(p.colour, (200, 200, 200)), 1.55)
        cv.d.rectangle((cx + 1, y0, cx + cw - 2, y0 + hh), fill=fill, outline=MUTED)
        cv.disc(cx + 16, y0 + 15, 12, p.colour, player_label(seat))
        if seat == first and st.over:
            cv.text((cx + 32, y0 + 2, cx + cw - 4, y0 + 28), "\u2605", 18, bold=True)
        cv.text(
            (cx + 4, y0 + 28, cx + cw - 4, y0 + hh - 1),
            p.name,
            16,
            bold=True,
            wrap=False,
            min_size=16,
            kind="name",
        )
    cats = [*CATEGORIES, "Total"]
    for k, cat in enumerate(cats):
        ry = y0 + hh + 4 + k * ROW_H
        total = cat == "Total"
        base = PANEL_ALT if k % 2 == 0 else WHITE
        if total:
            base = shade(HILITE, 1.5)
            ry += 4
            cv.d.line((x0, ry - 3, x1, ry - 3), fill=INK, width=2)
        cv.d.rectangle((x0, ry, x1, ry + ROW_H - 2), fill=base)
        cv.text(
            (x0 + 6, ry, x0 + lw - 4, ry + ROW_H - 2),
            category(cat),
            18 if total else 17,
            bold=total,
            align="left",
            wrap=False,
            min_size=16,
        )
        values = [r[cat] for r in rows]
        known = [v for v in values if v is not None]
        best = max(known) if known else 0
        for seat, v in enumerate(values):
            cx = x0 + lw + seat * cw
            top = (
                v is not None
                and len(known) == len(values)
                and (not total or first is not None)
                and v == best
                and v != 0
                and known.count(best) < len(values)
            )
            if top:
                cv.d.rectangle(
                    (cx + 3, ry + 1, cx + cw - 4, ry + ROW_H - 3),
                    fill=shade(PLAYER_FILL.get(st.players[seat].colour, (200, 200, 200)), 1.6),
                    outline=INK,
                )
            if total:
                shown = total_text(rows[seat])
                colour = BAD if (v or 0) < 0 else INK
            elif v is None:
                shown, colour = "?", MUTED
            else:
                shown = str(v)
                colour = BAD if v < 0 else INK if v > 0 else MUTED
            cv.text(
                (cx + 4, ry, cx + cw - 6, ry + ROW_H - 2),
                shown,
                19 if total else 18,
                bold=total or top,
                fill=colour,
                wrap=False,
                min_size=16,
            )


def _chart(
    cv: Canvas,
    st: GameState,
    rows: list[dict[str, int | None]],
    order: list[int],
    box: tuple[int, int, int, int],
    ranked: bool = True,
) -> None:
    """Bars from a marked zero line: totals below zero grow left of it over a tinted area, so a
    long bar to the left reads as a low score, never as a high one."""
    x0, y0, x1, y1 = cv.panel(box, _("Total Prestige"), title_size=18)
    totals = [rows[s]["Total"] or 0 for s in order]
    lo, hi = min(0, *totals), max(0, *totals)
    span = max(1, hi - lo)
    nw = 176  # names column: the bars never reach into it
    ax0, ax1 = x0 + nw + 56, x1 - 56  # room for a value label on either side
    scale = (ax1 - ax0) / span
    zero = ax0 + round(-lo * scale)
    top = y0 + 2
    bottom = top + len(order) * BAR_ROW
    if lo < 0:
        cv.d.rectangle((x0 + nw, top, zero, bottom), fill=NEGATIVE_FILL)
    cv.d.line((zero, top - 2, zero, bottom + 4), fill=INK, width=2)
    cv.marks.append(("zero", 0, (zero, top, zero + 1, bottom)))
    for k, seat in enumerate(order):
        p = st.players[seat]
        ty = top + k * BAR_ROW
        v = totals[k]
        cv.disc(x0 + 13, ty + BAR_ROW // 2, 12, p.colour, player_label(seat))
        cv.text(
            (x0 + 30, ty + 2, x0 + nw - 6, ty + BAR_ROW - 2),
            _(
                "{place} \u00b7 {name}",
                place=_(ORDINAL[k]) if k < len(ORDINAL) else k + 1,
                name=p.name,
            )
            if ranked
            else p.name,
            17,
            bold=k == 0 and ranked,
            align="left",
            wrap=False,
            min_size=16,
            kind="name",
        )
        a, b = sorted((zero, zero + round(v * scale)))
        by0, by1 = ty + 7, ty + BAR_ROW - 7
        fill = PLAYER_FILL.get(p.colour, (200, 200, 200))
        if b - a >= 1:
            cv.d.rectangle((a, by0, b, by1), fill=fill, outline=INK, width=2)
        cv.marks.append(("bar", seat, (a, by0, b, by1)))
        label = total_text(rows[seat])
        if v >= 0:
            lbox, align = (b + 6, ty, b + 56, ty + BAR_ROW), "left"
        else:
            lbox, align = (a - 56, ty, a - 6, ty + BAR_ROW), "right"
        cv.text(lbox, label, 18, bold=True, align=align, wrap=False, fill=BAD if v < 0 else INK)
    # the scale under the bars: where zero is, and which side is below it
    sy = bottom + 6
    cv.text((zero - 30, sy, zero + 30, sy + 22), "0", 17, bold=True, wrap=False)
    # each side's label only where it fits at a legible size (a side may be a sliver)
    below, above = _("\u2190 below 0"), _("above 0 \u2192")
    if lo < 0 and text_width(below, 16, False, False) <= zero - 32 - (x0 + nw):
        cv.text(
            (x0 + nw, sy, zero - 32, sy + 22),
            below,
            16,
            fill=BAD,
            align="right",
            wrap=False,
            min_size=16,
        )
    if hi > 0 and text_width(above, 16, False, False) <= x1 - (zero + 32):
        cv.text((zero + 32, sy, x1, sy + 22), above, 16, align="left", wrap=False, min_size=16)
    note = (
        _("Ties: most gears built, then highest Mill dice total, then seat order.")
        if st.over
        else _("Game not over: the final scoring may change a lot.")
    )
    cv.text((x0, y1 - 24, x1, y1), note, 16, fill=MUTED, align="left", wrap=False)
