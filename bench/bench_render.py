"""Render times and PNG sizes for a late-game 4-player state (not a test).

    .venv/bin/python bench/bench_render.py [--repeat N]

Prints the median (and min) wall time of board_png, mill_png (every seat) and scorepad_png,
split into drawing and PNG encoding, and the size of each PNG. Targets: board < 150 ms,
Mill < 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameSetup, GameState, new_game  # noqa: E402
from render import board_png, mill_png, scorepad_png  # noqa: E402
from render.board import draw_board  # noqa: E402
from render.mill import draw_mill  # noqa: E402
from render.scorepad import draw_scorepad  # noqa: E402


def late_game(players: int = 4, seed: int = 3) -> GameState:
    """Random play until the game's last round (end triggered), else 90% of the way through."""
    st = new_game(GameSetup(players=players, seed=seed))
    rnd = random.Random(seed)
    trail = [st.copy()]
    while not st.over:
        st.apply(rnd.choice(st.decision.choices).id)
        trail.append(st.copy())
        if st.end_triggered:
            return st
    return trail[int(len(trail) * 0.9)]


def timed(fn, repeat: int) -> tuple[float, float, object]:
    times = []
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    st = late_game()
    print(
        f"state: {len(st.players)} players, round {st.round}, "
        f"{sum(1 for p in st.players for g in p.gears if g)} gears built, "
        f"{sum(len(v) for v in st.university_discs.values())} University discs"
    )
    board_png(st)  # warm up imports and font files
    rows = [
        ("board (draw only)", lambda: draw_board(st, 0)),
        ("board_png", lambda: board_png(st, 0)),
    ]
    for seat in range(len(st.players)):
        rows.append((f"mill seat {seat} (draw only)", lambda s=seat: draw_mill(st, s, s)))
        rows.append((f"mill_png seat {seat}", lambda s=seat: mill_png(st, s, s)))
    rows.append(("scorepad (draw only)", lambda: draw_scorepad(st)))
    rows.append(("scorepad_png", lambda: scorepad_png(st)))
    print(f"{'image':28} {'median ms':>10} {'min ms':>8} {'PNG bytes':>10}")
    for name, fn in rows:
        med, low, out = timed(fn, args.repeat)
        size = f"{len(out):,}" if isinstance(out, bytes) else ""
        print(f"{name:28} {med:10.1f} {low:8.1f} {size:>10}")


if __name__ == "__main__":
    main()
