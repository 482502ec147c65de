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

--png splits each picture along a game (--states of them) into drawing, choosing the palette
and writing the PNG (best of --repeat runs each, so a loaded machine counts less), and prints the
PNG step before (Pillow's writer at the level each image used) and now (render._draw.write_png,
zlib-ng) side by side on the same palette pictures, with the bytes, and the zlib-ng levels tried.
--png-step-only STEP --kind KIND counts the PNG step's instructions under valgrind (see
png_step_only).
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


# The PNG step before issue 34's change: Pillow's writer at the level each image used.
PILLOW_LEVEL = {"board": 5, "mill": 5, "compact Mill": 6, "focus": 5, "scorepad": 6}


def old_palette(im: Any) -> Any:
    """The palette picture as chosen before issue 34's change: the palette from one pixel in
    3x3 (now 4x4)."""
    from PIL import Image

    sample = im.resize((max(1, im.width // 3), max(1, im.height // 3)), Image.Resampling.NEAREST)
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return im.quantize(palette=palette, dither=Image.Dither.NONE)


def pillow_png(q: Any, level: int) -> bytes:
    """A palette picture written as before issue 34's change: by Pillow, at `level`."""
    buf = BytesIO()
    q.save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def png_split(repeat: int, states: int) -> None:
    """Where each picture's time goes, along a game: drawing, choosing the palette, writing the
    PNG; the PNG step before (Pillow's writer) and now (render._draw.write_png, zlib-ng) side by
    side on the same palette pictures, and the zlib-ng levels tried."""
    from render._draw import PNG_LEVEL, palette_image, write_png
    from render.board import draw_board
    from render.focus import draw_focus
    from render.mill import draw_mill
    from render.mill_compact import draw_mill_compact
    from render.scorepad import draw_scorepad

    game = [st for st in along_a_game() if st.decision is not None]
    game = game[:: max(1, len(game) // states)][:states]
    drawers = {
        "board": lambda st: draw_board(st, st.current),
        "mill": lambda st: draw_mill(st, st.current, st.current),
        "compact Mill": lambda st: draw_mill_compact(st, st.current, st.current),
        "focus": lambda st: draw_focus(st, st.current),
        "scorepad": lambda st: draw_scorepad(st),
    }

    def best(fn: Any, items: list[Any]) -> tuple[float, list[Any]]:
        """The median over items of each item's best CPU time (ms: this thread's, so that other
        work on a loaded machine counts less), and the results."""
        times, out = [float("inf")] * len(items), [None] * len(items)
        for _ in range(repeat):
            for i, item in enumerate(items):
                t = time.thread_time()
                out[i] = fn(item)
                times[i] = min(times[i], (time.thread_time() - t) * 1000)
        return statistics.median(times), out

    def kib(data: list[bytes]) -> float:
        return statistics.median(len(d) for d in data) / 1024

    print(f"{len(game)} states along a 4-player game; median of each step's best of {repeat}, in")
    print("CPU ms; before: Pillow's writer after a palette from 1 pixel in 3x3, now: write_png")
    cols = ("draw", "palette", "", "write", "", "PNG step", "", "", "KiB", "")
    print(f"{'':14}" + "".join(f"{c:>9}" for c in cols))
    subs = ("", *("before", "now") * 3, "faster", "before", "now")
    print(f"{'image':14}" + "".join(f"{c:>9}" for c in subs))
    tried: dict[str, dict[int, tuple[float, float]]] = {}
    for name, draw in drawers.items():
        draw_ms, canvases = best(draw, game)
        old_palette_ms, old_pictures = best(lambda cv: old_palette(cv.im), canvases)
        palette_ms, pictures = best(lambda cv: palette_image(cv.im), canvases)
        old_ms, old = best(lambda q, n=name: pillow_png(q, PILLOW_LEVEL[n]), old_pictures)
        new_ms, new = best(write_png, pictures)
        before, now = old_palette_ms + old_ms, palette_ms + new_ms
        cells = (draw_ms, old_palette_ms, palette_ms, old_ms, new_ms, before, now)
        print(
            f"{name:14}"
            + "".join(f"{c:9.2f}" for c in cells)
            + f"{before / now:8.1f}x{kib(old):9.1f}{kib(new):9.1f}"
        )
        tried[name] = {}
        for level in (1, 2, 3, 4, 5):
            ms, data = best(lambda q, lv=level: write_png(q, lv), pictures)
            tried[name][level] = (ms, kib(data))
    print(f"zlib-ng levels tried (in use: {PNG_LEVEL}), write ms / KiB:")
    print(f"{'image':14}" + "".join(f"{f'level {lv}':>16}" for lv in (1, 2, 3, 4, 5)))
    for name, levels in tried.items():
        cells = "".join(f"{f'{ms:.2f} / {size:.1f}':>16}" for ms, size in levels.values())
        print(f"{name:14}{cells}")


def png_step_only(step: str, kind: str, states: int) -> None:
    """Draw `states` pictures of `kind` along a game, then run only the PNG step of `step`
    ("before", "now" or "none") on them: run under valgrind's cachegrind, once per step, the
    differences from "none" are the step's instructions, which the machine's load does not move:

        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
            .venv/bin/python bench/bench_render.py --png-step-only now --kind focus
    """
    from render._draw import palette_image, write_png
    from render.board import draw_board
    from render.focus import draw_focus
    from render.mill import draw_mill

    draw = {
        "board": lambda st: draw_board(st, st.current),
        "mill": lambda st: draw_mill(st, st.current, st.current),
        "focus": lambda st: draw_focus(st, st.current),
    }[kind]
    game = [st for st in along_a_game() if st.decision is not None]
    pictures = [draw(st).im for st in game[:: max(1, len(game) // states)][:states]]
    total = 0
    for im in pictures:
        if step == "before":
            total += len(pillow_png(old_palette(im), PILLOW_LEVEL[kind]))
        elif step == "now":
            total += len(write_png(palette_image(im)))
    print(f"{step}: {len(pictures)} {kind} pictures, {total:,} bytes")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--baseline", help="git revision whose render package to compare with")
    ap.add_argument("--core", type=int, help="pin to this CPU")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--png", action="store_true", help="split each picture's time, PNG step")
    ap.add_argument("--states", type=int, default=12, help="states along a game for --png")
    ap.add_argument(
        "--png-step-only", choices=("before", "now", "none"), help="for valgrind: only this step"
    )
    ap.add_argument("--kind", default="focus", choices=("board", "mill", "focus"))
    args = ap.parse_args()
    if args.png_step_only:
        png_step_only(args.png_step_only, args.kind, args.states)
        return
    if args.core is not None:
        os.sched_setaffinity(0, {args.core})
    if args.json:
        sys.path.remove(str(ROOT))  # PYTHONPATH puts the baseline's render first
        print(json.dumps(measure(args.repeat)))
        return
    if args.png:
        png_split(args.repeat, args.states)
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
