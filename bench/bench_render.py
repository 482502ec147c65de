"""Render times and PNG sizes (not a test).

    .venv/bin/python bench/bench_render.py [--repeat N] [--baseline REV] [--core N]

Two workloads, both in one process with warm imports:
- "same state": one late-game 4-player state rendered again and again (what a re-render of an
  unchanged position costs; caches of text and layers warm);
- "along a game": one render of each of 40 states spread over a 4-player game (what a click
  costs: new dice, discs and texts each time).

For each image (board, Mill, compact Mill, focus, scorepad) it prints the median and best wall
time in ms and the PNG size in bytes. With --baseline REV the render package of that git
revision runs the same workloads in a subprocess (same engine), printed beside the current one
(images the old package lacks are left blank). Goals (issue 22): board < 50 ms, Mill < 20 ms.
--core pins the process (and the baseline's) to one CPU.

--png splits the decision pictures (focus) along a game into drawing, choosing the palette and
deflating (best of --repeat runs each, so a loaded machine counts less), prints the PNG step's
share, and the deflate settings tried instead (time and size of the same palette pictures).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def late_game(players: int = 4, seed: int = 3) -> Any:
    """Random play until the game's last round (end triggered), else 90% of the way through."""
    from engine import GameSetup, new_game

    st = new_game(GameSetup(players=players, seed=seed))
    rnd = random.Random(seed)
    trail = [st.copy()]
    while not st.over:
        st.apply(rnd.choice(st.decision.choices).id)
        trail.append(st.copy())
        if st.end_triggered:
            return st
    return trail[int(len(trail) * 0.9)]


def along_a_game(n: int = 40, players: int = 4, seed: int = 5) -> list[Any]:
    from engine import GameSetup, new_game

    st = new_game(GameSetup(players=players, seed=seed))
    rnd = random.Random(seed)
    trail = []
    while not st.over:
        trail.append(st.copy())
        st.apply(rnd.choice(st.decision.choices).id)
    step = max(1, len(trail) // n)
    return trail[::step][:n]


def images() -> dict[str, Any]:
    """The images the render package in use offers, as fn(state) -> bytes."""
    import inspect

    import render

    out: dict[str, Any] = {
        "board": lambda st: render.board_png(st, st.current),
        "mill": lambda st: render.mill_png(st, st.current, st.current),
    }
    if "compact" in inspect.signature(render.mill_png).parameters:
        out["compact Mill"] = lambda st: render.mill_png(st, st.current, st.current, compact=True)
    if hasattr(render, "focus_png"):
        out["focus"] = lambda st: render.focus_png(st, st.current)
    out["scorepad"] = lambda st: render.scorepad_png(st)
    return out


def measure(repeat: int) -> dict[str, dict[str, float]]:
    fns = images()
    one = late_game()
    game = along_a_game()
    for fn in fns.values():  # imports, font files, cached layers
        fn(one)
    out: dict[str, dict[str, float]] = {}
    for name, fn in fns.items():
        times, size = [], 0
        for _ in range(repeat):
            t = time.perf_counter()
            data = fn(one)
            times.append((time.perf_counter() - t) * 1000)
            size = len(data)
        game_times, game_bytes = [], []
        for st in game:
            t = time.perf_counter()
            data = fn(st)
            game_times.append((time.perf_counter() - t) * 1000)
            game_bytes.append(len(data))
        out[name] = {
            "same_median": statistics.median(times),
            "same_min": min(times),
            "same_bytes": size,
            "game_median": statistics.median(game_times),
            "game_p90": sorted(game_times)[int(len(game_times) * 0.9)],
            "game_bytes": statistics.median(game_bytes),
        }
    return out


def baseline(rev: str, repeat: int, core: int | None) -> dict[str, dict[str, float]]:
    """The same measurements with the render package of git revision `rev`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "render"], check=True, capture_output=True
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        tarfile.open(fileobj=BytesIO(archive)).extractall(tmp, filter="data")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([tmp, str(ROOT)]))
        cmd = [sys.executable, __file__, "--json", "--repeat", str(repeat)]
        if core is not None:
            cmd += ["--core", str(core)]
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def png_split(repeat: int) -> None:
    """Where a decision picture's time goes: drawing, palette, deflate; and deflate settings."""
    import zlib

    from render._draw import deflate, palette_image
    from render.focus import draw_focus

    game = [st for st in along_a_game() if st.decision is not None]
    draw_focus(game[0], game[0].current)  # imports, fonts, cached layers

    def best(fn: Any, items: list[Any]) -> tuple[list[float], list[Any]]:
        times, out = [float("inf")] * len(items), [None] * len(items)
        for _ in range(repeat):
            for i, item in enumerate(items):
                t = time.perf_counter()
                out[i] = fn(item)
                times[i] = min(times[i], (time.perf_counter() - t) * 1000)
        return times, out

    draw_ms, canvases = best(lambda st: draw_focus(st, st.current), game)
    palette_ms, pictures = best(lambda cv: palette_image(cv.im), canvases)
    settings = {
        "level 5 (in use)": {"compress_level": 5},
        "level 4": {"compress_level": 4},
        "level 6": {"compress_level": 6},
        "level 5, filtered": {"compress_level": 5, "compress_type": zlib.Z_FILTERED},
        "level 1, RLE": {"compress_level": 1, "compress_type": zlib.Z_RLE},
        "level 9, optimize": {"compress_level": 9, "optimize": True},
    }
    rows = {}
    for name, options in settings.items():
        ms, data = best(lambda q, o=options: deflate(q, **o), pictures)
        rows[name] = (statistics.median(ms), statistics.median(len(d) for d in data) / 1024)
    draw, palette = statistics.median(draw_ms), statistics.median(palette_ms)
    deflate_ms = rows["level 5 (in use)"][0]
    whole = draw + palette + deflate_ms
    print(f"decision pictures (focus), {len(game)} states, median of each step's best ms:")
    print(f"  draw {draw:.2f}  palette {palette:.2f}  deflate {deflate_ms:.2f}  = {whole:.2f} ms;")
    print(f"  the PNG step (palette + deflate) is {(palette + deflate_ms) / whole:.0%} of it")
    for name, (ms, kib) in rows.items():
        print(f"  deflate {name:20} {ms:6.2f} ms {kib:6.1f} KiB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--baseline", help="git revision whose render package to compare with")
    ap.add_argument("--core", type=int, help="pin to this CPU")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--png", action="store_true", help="split the decision pictures' time")
    args = ap.parse_args()
    if args.core is not None:
        os.sched_setaffinity(0, {args.core})
    if args.json:
        sys.path.remove(str(ROOT))  # PYTHONPATH puts the baseline's render first
        print(json.dumps(measure(args.repeat)))
        return
    if args.png:
        png_split(args.repeat)
        return
    st = late_game()
    print(
        f"same state: {len(st.players)} players, round {st.round}, "
        f"{sum(1 for p in st.players for g in p.gears if g)} gears built; "
        f"along a game: 40 states of a 4-player game"
    )
    now = measure(args.repeat)
    old = baseline(args.baseline, args.repeat, args.core) if args.baseline else {}
    head = f"{'image':14}{'':10}{'same state ms (min)':>22}{'PNG bytes':>11}"
    head += f"{'a game: median ms (p90)':>26}{'median bytes':>14}"
    print(head)
    for name in now:
        for label, row in (("before", old.get(name)), ("now", now[name])):
            if label == "before" and not args.baseline:
                continue
            if row is None:
                print(f"{name:14}{label:10}{'-':>22}")
                continue
            same = f"{row['same_median']:.1f} ({row['same_min']:.1f})"
            game = f"{row['game_median']:.1f} ({row['game_p90']:.1f})"
            print(
                f"{name:14}{label:10}{same:>22}{row['same_bytes']:>11,.0f}"
                f"{game:>26}{row['game_bytes']:>14,.0f}"
            )


if __name__ == "__main__":
    main()
