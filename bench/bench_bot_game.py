"""Benchmark: what one whole 4-player game costs through the bot, as its players feel it.

    .venv/bin/python bench/bench_bot_game.py [--games 1] [--players 4] [--seed 1] [--no-images]

Runs the real bot against simcord (in memory, no network) on a temporary database. Four members
play one game to the end through the turn messages only, as people would: each decision is
chosen by the greedy AI (so the game looks like a real one), then reached by clicking through
the components the bot posted (a "Show my choices" button, a group button, a page button, a
select or a choice button: every interaction is a click). Printed per game:

- messages the bot posted, message edits, other REST calls, all REST calls;
- images uploaded and their bytes (every file attached to a message or an edit);
- decisions and clicks per turn (a turn is one player's Workshop or Actions turn);
- click latency: wall time from a click until the bot has finished reacting (median, p95).

Figures are wall-clock on this machine; Discord's own latency comes on top in production.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


class Counter:
    """Counts every REST call the bot makes (bot API and interaction webhooks) and the bytes of
    every file it uploads, by wrapping simcord's request router."""

    def __init__(self) -> None:
        from simcord.http import router

        self.reset()
        real = router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            if method == "POST" and re.fullmatch(r"/channels/\d+/messages", path):
                self.posts += 1
            elif method == "PATCH" and "/messages/" in path:
                self.edits += 1
            else:
                self.other += 1
            for f in kwargs.get("files") or ():
                self.images += 1
                fp = f.fp
                pos = fp.tell()
                self.image_bytes += fp.seek(0, 2)
                fp.seek(pos)
            return real(backend, method, path, **kwargs)

        router.dispatch = dispatch

    def reset(self) -> None:
        self.posts = self.edits = self.other = 0
        self.images = self.image_bytes = 0

    @property
    def calls(self) -> int:
        return self.posts + self.edits + self.other


async def play_game(table: Any, game: int, seed: int) -> dict[str, float]:
    """Play ``game`` to its end through the turn messages; decisions and turns counted."""
    from offline.driver import greedy_pick

    pick = greedy_pick(seed)
    decisions = turns = 0
    last: tuple[int, int] | None = None
    while True:
        state, _seq = await table.store.load_state(game)
        if state.decision is None:
            return {"decisions": decisions, "turns": turns}
        if (state.round, state.decision.player) != last:
            turns, last = turns + 1, (state.round, state.decision.player)
        await table.move(game, pick, whole_state=True)
        decisions += 1


async def main(args: argparse.Namespace) -> None:
    import simcord

    from bot import create_bot
    from offline.driver import Clicker, Table

    db = Path(tempfile.mkdtemp(prefix="ada-bench-")) / "bench.db"
    bot = create_bot(db, images=not args.no_images, ai_delay=0, seed=args.seed)
    print(f"Whole {args.players}-player games through the bot, greedy choices, clicked:\n")
    print(
        "| game | turns | decisions/turn | clicks/turn | messages | edits | other REST | "
        "REST calls | images uploaded | image KB | click median ms | click p95 ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    try:
        async with simcord.run(bot, settle_timeout=60) as env:
            counter = Counter()
            names = tuple(f"p{i}" for i in range(args.players))
            table = Table(env, names, guild="Bench")
            for g in range(args.games):
                game = await table.new_game(names[0], names[1:])
                table.clicker = player = Clicker(env)
                counter.reset()  # count the game itself, not the lobby
                figures = await play_game(table, game, args.seed + g)
                turns = figures["turns"]
                ms = [t * 1000 for t in player.latency]
                print(
                    f"| {g + 1} | {turns} | {figures['decisions'] / turns:.2f} | "
                    f"{player.clicks / turns:.2f} | {counter.posts} | {counter.edits} | "
                    f"{counter.other} | {counter.calls} | {counter.images} | "
                    f"{counter.image_bytes / 1024:.0f} | "
                    f"{statistics.median(ms):.0f} | {pct(ms, 0.95):.0f} |"
                )
    finally:
        await bot.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-images", action="store_true")
    asyncio.run(main(parser.parse_args()))
