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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--baseline", help="git revision whose render package to compare with")
    ap.add_argument("--core", type=int, help="pin to this CPU")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.core is not None:
        os.sched_setaffinity(0, {args.core})
    if args.json:
        sys.path.remove(str(ROOT))  # PYTHONPATH puts the baseline's render first
        print(json.dumps(measure(args.repeat)))
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
