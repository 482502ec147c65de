"""Engine speed: random 4-player games per second, cost per decision, and state (de)serialisation.

Run: .venv/bin/python bench/bench_engine.py [--games 200]   (pin it to one core: taskset -c 1 ...)
Prints figures; it is not a test. Measure on an otherwise idle machine, or compare old and new
code in alternating runs and take medians.

It measures the engine this checkout runs, and says which: pure Python (the default), or the
modules compiled by scripts/build-engine (engine/compiled.py). To compare the two, alternate
runs with `scripts/build-engine` and `scripts/build-engine --clean` in between.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import GameSetup, GameState, compiled, new_game
from engine.rules import apply, legal_ids


def play_random(players: int, seed: int) -> tuple[GameState, int]:
    rnd = random.Random(seed)
    st = new_game(GameSetup(players=players, seed=seed))
    decisions = 0
    while not st.over:
        # choice() draws as randrange(len(options)) does (the same games), with less Python
        apply(st, rnd.choice(legal_ids(st)))
        decisions += 1
    return st, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    print(f"engine: {compiled.describe()}")
    new_game(GameSetup(players=args.players))  # the edition's one-time load is not a game's cost
    start = time.perf_counter()
    cpu_start = time.process_time()
    decisions = 0
    for seed in range(args.games):
        decisions += play_random(args.players, seed)[1]
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(f"{args.players}-player random games: {args.games / elapsed:.1f} games/s on one core")
    # CPU time leaves out the time other processes had the core (a shared machine)
    print(f"by CPU time: {args.games / cpu:.1f} games/s")
    print(f"decisions per game: {decisions / args.games:.0f}")
    print(f"cost per decision (legal listing + apply): {elapsed / decisions * 1e6:.1f} us")

    # A mid-game state: half-way through a game.
    rnd = random.Random(1)
    st = new_game(GameSetup(players=args.players, seed=1))
    for _ in range(180):
        options = legal_ids(st)
        apply(st, options[rnd.randrange(len(options))])
    text = st.to_json()
    dumps = []
    loads = []
    for _ in range(50):
        t0 = time.perf_counter()
        text = st.to_json()
        t1 = time.perf_counter()
        GameState.from_json(text)
        t2 = time.perf_counter()
        dumps.append(t1 - t0)
        loads.append(t2 - t1)
    print(f"mid-game state JSON: {len(text):,} bytes")
    print(
        f"serialise: {statistics.median(dumps) * 1e3:.2f} ms, deserialise: {statistics.median(loads) * 1e3:.2f} ms"
    )


if __name__ == "__main__":
    main()
