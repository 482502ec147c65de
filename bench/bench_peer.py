"""This engine beside its peer: random 4-player games/s of Ada's Dream and of Catanatron, interleaved.

Run: taskset -c 1 .venv/bin/python bench/bench_peer.py [--sets 6] [--games 40] [--peer-games 12]
Needs the optional `bench` extra (`.venv/bin/pip install -e '.[bench]'`: Catanatron 3.2.1, a
Settlers of Catan engine in Python whose random 4-player game is the usual yardstick). Prints
figures; it is not a test.

Each set plays `--games` random games of this engine (bench_engine's `play_random`, rules version
of a new game) and then `--peer-games` games of four Catanatron `RandomPlayer`s, on the CPU time of
this process (the time other processes take the core is left out). The figures are the medians
over the sets, and the ratio is the median of the sets' ratios: both sides feel the same load.

It measures the engine this checkout runs (pure Python, or the build of `scripts/build-engine`):
run it once with and once without a build (`scripts/build-engine --clean`) for both figures.

Instructions per game (valgrind: repeatable on a busy machine) of one side alone:
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/bench_peer.py \
        --only engine --sets 1 --games 20
prints the total; run it again with `--games 0` and divide the difference by 20 (the peer: `--only
peer --peer-games 2`, then 0).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from bench_engine import play_random

from engine import GameSetup, compiled, new_game

PLAYERS = 4


def _peer_game() -> Callable[[int], object]:
    """A function playing one Catanatron game of four random players from a seed."""
    try:
        from catanatron import Color, Game, RandomPlayer
    except ImportError as exc:  # the optional extra is not installed
        raise SystemExit(
            "Catanatron is not installed: .venv/bin/pip install -e '.[bench]'"
        ) from exc
    colours = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)

    def play(seed: int) -> object:
        return Game([RandomPlayer(c) for c in colours], seed=seed).play()

    return play


def _games_per_second(play: Callable[[int], object], first_seed: int, games: int) -> float:
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        play(seed)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", type=int, default=6)
    parser.add_argument("--games", type=int, default=40, help="this engine's games per set")
    parser.add_argument("--peer-games", type=int, default=12, help="Catanatron's games per set")
    parser.add_argument("--only", choices=("engine", "peer"), help="play one side alone")
    args = parser.parse_args()

    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    print(f"engine: {compiled.describe()}")
    if cores is not None and len(cores) > 1:
        print(f"note: this process may run on {len(cores)} cores; pin it: taskset -c 1 ...")

    def ours(seed: int) -> object:
        return play_random(PLAYERS, seed)

    peer = None if args.only == "engine" else _peer_game()
    new_game(GameSetup(players=PLAYERS))  # the edition's one-time load is not a game's cost
    if peer is not None:
        peer(10_000)  # nor Catanatron's first game's imports and caches

    engine_rates: list[float] = []
    peer_rates: list[float] = []
    for s in range(args.sets):
        # each set plays new seeds, the same ones in every run
        if args.only != "peer" and args.games:
            engine_rates.append(_games_per_second(ours, s * args.games, args.games))
        if peer is not None and args.peer_games:
            peer_rates.append(_games_per_second(peer, s * args.peer_games, args.peer_games))
        if engine_rates and peer_rates:
            print(
                f"set {s + 1}: engine {engine_rates[-1]:.1f}, Catanatron {peer_rates[-1]:.2f} "
                f"games/s, {engine_rates[-1] / peer_rates[-1]:.2f}x"
            )

    if engine_rates:
        print(f"this engine: {statistics.median(engine_rates):.1f} games/s (median of {args.sets})")
    if peer_rates:
        print(f"Catanatron:  {statistics.median(peer_rates):.2f} games/s (median of {args.sets})")
    if engine_rates and peer_rates:
        ratios = [e / p for e, p in zip(engine_rates, peer_rates, strict=True)]
        print(
            f"ratio: {statistics.median(ratios):.2f}x (sets: {min(ratios):.2f}-{max(ratios):.2f}x)"
        )


if __name__ == "__main__":
    main()
