"""Benchmark: time from a click to the updated turn message.

    .venv/bin/python bench/bench_bot.py [--games 50] [--rounds 3] [--no-images] [--seed 1]

Runs the real bot against simcord (in memory, no network) on a temporary database and reports:

1. one whole 2-player game played by clicks and selects (the player to move picks a random legal
   choice): per click, the wall time from the click until the bot has answered and the turn
   message in the thread shows the new decision (simcord returns from ``click`` only once the
   bot has finished reacting), with images (the decision's picture, drawn when it changed)
   unless ``--no-images``;
2. the same with ``--games`` games in progress at once in the one bot process: every game gets
   ``--rounds`` clicks, interleaved game after game;
3. a burst: one move in each of the ``--games`` games submitted at the same moment (the game
   service's move path called concurrently, as simultaneous clicks arrive), the time until each game's
   turn message is updated, and until all are.

Figures are wall-clock on this machine; Discord's own latency (~50-150 ms a REST call, more for
uploads) comes on top of them in production.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"| {name} | {len(ms)} | {statistics.median(ms):.0f} | {pct(ms, 0.95):.0f} | {max(ms):.0f} |"


async def click(table: Any, game: int, rng: random.Random) -> float | None:
    """One move of the player to move, through the turn message; returns the seconds from the
    last click to the bot's finished reaction (the new decision shown), or None at the end."""
    from offline.driver import decision_shown

    state, seq = await table.store.load_state(game)
    if state.decision is None:
        return None
    before = len(table.clicker.latency)
    await table.move(game, lambda d: rng.randrange(len(d.choices)))
    new_state, new_seq = await table.store.load_state(game)
    assert new_seq == seq + 1
    assert new_state.is_over or decision_shown(await table.turn_message(game), game) == new_seq
    return table.clicker.latency[-1] if len(table.clicker.latency) > before else None


async def burst(table: Any, games: list[int], rng: random.Random) -> tuple[list[float], float]:
    """One move in each game at the same moment (the game service's move path, called
    concurrently, as simultaneous clicks arrive): time until each game's thread is updated."""
    service = table.env.bot.ada.games

    async def one(game: int) -> float:
        state, seq = await table.store.load_state(game)
        rec = await table.store.get_game(game)
        dec = state.decision
        user = rec.seat_at(dec.player).user_id
        t0 = time.perf_counter()
        await service.play(user, rec, seq, idx=rng.randrange(len(dec.choices)))
        return time.perf_counter() - t0

    open_games = [g for g in games if (await table.store.get_game(g)).status == "active"]
    t0 = time.perf_counter()
    times = await asyncio.gather(*(one(g) for g in open_games))
    return list(times), time.perf_counter() - t0


async def main(args: argparse.Namespace) -> None:
    import simcord

    from bot import create_bot
    from offline.driver import Table

    db = Path(tempfile.mkdtemp(prefix="ada-bench-")) / "bench.db"
    bot = create_bot(db, images=not args.no_images, ai_delay=0, seed=args.seed)
    rng = random.Random(args.seed)
    rows = []
    try:
        async with simcord.run(bot, settle_timeout=60) as env:
            table = Table(env, ("p0", "p1"), guild="Bench")
            # 1. a whole game
            game = await table.new_game("p0", ("p1",))
            single: list[float] = []
            while (await table.store.load_state(game))[0].decision is not None:
                t = await click(table, game, rng)
                if t is not None:
                    single.append(t)
            rows.append(line("whole 2-player game, one game open", single))
            # 2. many games in progress
            games = [await table.new_game("p0", ("p1",)) for _ in range(args.games)]
            many: list[float] = []
            for _ in range(args.rounds):
                for g in games:
                    t = await click(table, g, rng)
                    if t is not None:
                        many.append(t)
            rows.append(line(f"{args.games} games in progress, interleaved clicks", many))
            # 3. simultaneous moves in every game
            times, total = await burst(table, games, rng)
            rows.append(line(f"{len(times)} simultaneous moves (one per game)", times))
    finally:
        await bot.close()
    images = (
        "without images" if args.no_images else "with images (the decision's picture per update)"
    )
    print(f"\nClick to updated turn message, {images}; wall-clock ms on this machine:\n")
    print("| scenario | clicks | median | p95 | max |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\nAll {len(times)} simultaneous moves done in {total * 1000:.0f} ms.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-images", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main(parser.parse_args()))
