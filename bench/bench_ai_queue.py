"""AI thinking under load (cogs/thinking.py): many search-AI turns asked at once.

Run: .venv/bin/python bench/bench_ai_queue.py [--busy-games 5] [--workers 1]
Prints figures; it is not a test. One busy server has ``--busy-games`` search-AI games and a
second server one; every game asks its AI turn at the same moment (the worst case: a restart,
or a sweep after a worker died), on real worker processes. Two runs, side by side:

- "first come, first served": no bound on waiting search turns (as before issue 33);
- "fair queue" (the bot's default): servers and games take turns, and beyond the bound of
  waiting search turns (twice the workers) a turn is thought out by the greedy policy.

For each: when the last turn was ready, when the quiet server's turn was ready, and how many
turns the greedy policy played instead of the search.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from cogs.thinking import Thinking
from engine import GameSetup, new_game


def a_state(seed: int) -> str:
    state = new_game(GameSetup(players=2, seed=seed))
    return state.to_json()


async def run(workers: int, busy: int, bound: int | None, fair: bool) -> dict[str, float]:
    thinking = Thinking(workers, search_bound=bound)
    await thinking.think(0, 0, a_state(99), "random", 0)  # start the workers first
    done: dict[tuple[int, int], float] = {}
    start = time.perf_counter()

    async def turn(guild: int, game: int) -> None:
        await thinking.think(guild, game, a_state(game), "search", game)
        done[(guild, game)] = time.perf_counter() - start

    # first come, first served as before: one line (all jobs under one server, served in
    # the order they came, as the queue serves games it has not served yet)
    quiet = (2 if fair else 1, busy + 1)
    jobs = [(1, g) for g in range(1, busy + 1)] + [quiet]
    try:
        await asyncio.gather(*(turn(guild, game) for guild, game in jobs))
    finally:
        thinking.close()
    return {
        "last": max(done.values()),
        "quiet": done[quiet],
        "cheapened": thinking.cheapened,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--busy-games", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    turns = args.busy_games + 1
    runs = (
        ("first come, first served, no bound", 10**9, False),
        ("fair queue (default)", None, True),
    )
    for label, bound, fair in runs:
        fig = asyncio.run(run(args.workers, args.busy_games, bound, fair))
        print(
            f"{label}: {turns} search turns on {args.workers} worker(s): last ready after "
            f"{fig['last']:.1f} s; the quiet server's turn after {fig['quiet']:.1f} s; "
            f"{fig['cheapened']:.0f} played greedy"
        )


if __name__ == "__main__":
    main()
