"""Pictures of what the bot remembers (issue 30): the server's leaderboard, and a member's
average of each scorepad category against the server's. Drawn to be read inline (720 px wide,
no text under 16 px), in the language of the current context (``i18n.using``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.scoring import CATEGORIES
from i18n import _, current
from render._common import category
from render._draw import GOOD, HILITE, INK, LINE, MUTED, PANEL_ALT, WHITE, Canvas, shade

W = 720
HEAD_H = 64
ROW_H = 34
SERVER_FILL = (150, 170, 186)
MEMBER_FILL = (214, 172, 60)


@dataclass(frozen=True)
class BoardRow:
    """One line of the leaderboard."""

    rank: int
    name: str
    ordinal: float
    games: int
    provisional: bool


def _head(cv: Canvas, title: str, subtitle: str) -> None:
    cv.d.rectangle((0, 0, W, HEAD_H), fill=LINE)
    cv.text((14, 2, W - 14, 36), title, 24, bold=True, fill=WHITE, align="left", wrap=False)
    cv.text((14, 34, W - 14, HEAD_H - 2), subtitle, 16, fill=HILITE, align="left", wrap=False)


def draw_leaderboard(title: str, rows: Sequence[BoardRow]) -> Canvas:
    """The rated members, best first: place, name, rating (mu - 3 sigma), games rated; a
    provisional rating is marked."""
    cv = Canvas(W, HEAD_H + 8 + ROW_H * (len(rows) + 1) + 16 + 26)
    cv.min_glyph = 16
    _head(cv, title, _("Rating = skill - 3 × uncertainty; * provisional (fewer than 5 games)"))
    x0, x1 = 8, W - 8
    y = HEAD_H + 8
    cv.box((x0, y, x1, cv.height - 8), fill=WHITE, width=2, radius=10)
    cols = (x0 + 10, x0 + 70, x1 - 250, x1 - 120, x1 - 10)
    heads = (_("#"), _("Player"), _("Rating"), _("Games"))
    for k, head in enumerate(heads):
        align = "left" if k < 2 else "right"
        cv.text(
            (cols[k], y + 4, cols[k + 1] - 8, y + ROW_H),
            head,
            16,
            bold=True,
            fill=MUTED,
            align=align,
            wrap=False,
        )
    best = max((r.ordinal for r in rows), default=0.0)
    low = min((r.ordinal for r in rows), default=0.0)
    span = max(1e-9, best - min(0.0, low))
    for k, row in enumerate(rows):
        ry = y + ROW_H * (k + 1) + 4
        fill = PANEL_ALT if k % 2 == 0 else WHITE
        if row.rank == 1:
            fill = shade(HILITE, 1.5)
        cv.d.rectangle((x0 + 4, ry, x1 - 4, ry + ROW_H - 2), fill=fill)
        # a bar behind the rating: how far from the best
        bar = int((cols[3] - 8 - cols[2]) * max(0.0, row.ordinal - min(0.0, low)) / span)
        cv.d.rectangle((cols[2], ry + 8, cols[2] + bar, ry + ROW_H - 10), fill=shade(GOOD, 1.7))
        mark = " *" if row.provisional else ""
        cells = (
            str(row.rank),
            row.name,
            current().num(round(row.ordinal, 1)) + mark,
            str(row.games),
        )
        for c, text in enumerate(cells):
            cv.text(
                (cols[c], ry, cols[c + 1] - 8, ry + ROW_H - 2),
                text,
                18,
                bold=c == 1,
                fill=INK,
                align="left" if c < 2 else "right",
                wrap=False,
                min_size=16,
                kind="name" if c == 1 else "label",
            )
    return cv


def draw_profile(
    title: str, mine: Sequence[float], server: Sequence[float], legend: tuple[str, str]
) -> Canvas:
    """A member's average per game in each of the eleven scorepad categories (upper bar)
    against the server's average (lower bar); negative values go left of the zero line."""
    n = len(CATEGORIES)
    cv = Canvas(W, HEAD_H + 8 + 40 + n * ROW_H * 3 // 2 + 24)
    cv.min_glyph = 16
    _head(cv, title, _("Average Prestige per game, by scorepad category"))
    x0, x1 = 8, W - 8
    y = HEAD_H + 8
    cv.box((x0, y, x1, cv.height - 8), fill=WHITE, width=2, radius=10)
    label_w = 210
    left, right = x0 + label_w, x1 - 70
    values = [*mine, *server]
    lo, hi = min(0.0, *values), max(1.0, *values)
    zero = left + (right - left) * (-lo) / (hi - lo)

    def x_of(v: float) -> float:
        return left + (right - left) * (v - lo) / (hi - lo)

    # the legend
    for k, (text, fill) in enumerate(zip(legend, (MEMBER_FILL, SERVER_FILL), strict=True)):
        lx = left + k * 230
        cv.d.rectangle((lx, y + 12, lx + 22, y + 28), fill=fill, outline=LINE)
        cv.text((lx + 30, y + 6, lx + 225, y + 34), text, 16, align="left", wrap=False, kind="name")
    y += 40
    row_h = ROW_H * 3 // 2
    cv.d.line((zero, y, zero, y + n * row_h), fill=MUTED, width=1)
    for k, cat in enumerate(CATEGORIES):
        ry = y + k * row_h
        if k % 2 == 0:
            cv.d.rectangle((x0 + 4, ry, x1 - 4, ry + row_h - 2), fill=PANEL_ALT)
        cv.text(
            (x0 + 10, ry, left - 8, ry + row_h - 2),
            category(cat),
            17,
            align="left",
            wrap=False,
            min_size=16,
        )
        for j, (v, fill) in enumerate(((mine[k], MEMBER_FILL), (server[k], SERVER_FILL))):
            by = ry + 6 + j * 19
            a, b = sorted((zero, x_of(v)))
            cv.d.rectangle((a, by, max(b, a + 1), by + 15), fill=fill, outline=LINE)
            cv.marks.append((cat, (j, round(v, 1)), (int(a), by, int(b), by + 15)))
        cv.text(
            (right + 4, ry, x1 - 10, ry + row_h - 2),
            current().num(round(mine[k], 1)),
            16,
            bold=True,
            align="right",
            wrap=False,
        )
    return cv
