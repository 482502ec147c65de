"""AI strength: how often the greedy player beats the random one in two-player games.

Run: .venv/bin/python bench/bench_strength.py [--games 32] [--first-seed 1000]
Prints figures; it is not a test (the test suite keeps four seeded games, tests/test_ai.py).
Seats alternate: in even games the greedy starts. The claim the project makes: the greedy wins
at least 95% of these games (with 32 games, 31 wins or more).
"""

from __future__ import annotations

import argparse
import time

from engine import GameSetup
from engine.ai import GreedyPolicy, Policy, RandomPolicy, selfplay_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--first-seed", type=int, default=1000)
    args = parser.parse_args()
    wins, margins = 0, []
    start = time.perf_counter()
    for n in range(args.games):
        greedy_seat = n % 2
        seats: list[Policy] = [RandomPolicy(), RandomPolicy()]
        seats[greedy_seat] = GreedyPolicy()
        record = selfplay_game(GameSetup(players=2, seed=args.first_seed + n), seats)
        scores = [s["Total"] for s in record.state.final_scores()]
        wins += record.state.winner() == greedy_seat
        margins.append(scores[greedy_seat] - scores[1 - greedy_seat])
    seconds = time.perf_counter() - start
    print(f"greedy against random, {args.games} two-player games (seeds from {args.first_seed})")
    print(f"  greedy wins      {wins}/{args.games} ({100 * wins / args.games:.1f}%; claim: >= 95%)")
    print(f"  mean margin      {sum(margins) / len(margins):+.1f} Prestige")
    print(f"  smallest margin  {min(margins):+d} Prestige")
    print(f"  time             {seconds:.1f} s")


if __name__ == "__main__":
    main()
