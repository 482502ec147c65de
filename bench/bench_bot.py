"""Benchmark: time from a click to the updated turn message.

    .venv/bin/python bench/bench_bot.py [--games 50] [--rounds 3] [--no-images] [--seed 1]

Runs the real bot against simcord (in memory, no network) on a temporary database and reports:

1. one whole 2-player game played by clicks and selects (the player to move picks a random legal
   choice): per click, the wall time from the click until the bot has answered and the turn
   message in the thread shows the new decision (simcord returns from ``click`` only once the
   bot has finished reacting), with images (board + Mill rendered per update) unless
   ``--no-images``;
2. the same with ``--games`` games in progress at once in the one bot process: every game gets
   ``--rounds`` clicks, interleaved game after game;
3. a burst: one move in each of the ``--games`` games submitted at the same moment (the cog's
   move path called concurrently, as simultaneous clicks arrive), the time until each game's
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


class Driver:
    def __init__(self, env: Any, store: Any) -> None:
        self.env = env
        guild = env.create_guild("Bench")
        self.channel = guild.create_text_channel("games")
        self.members = [guild.add_member(env.create_user(f"p{i}")) for i in range(2)]
        self.by_id = {m.id: m for m in self.members}

    @property
    def store(self) -> Any:
        return self.env.bot.ada.store

    def thread(self, game: int) -> Any:
        return next(t for t in self.channel.threads if t.name == f"Ada's Dream #{game}")

    def message(self, channel: Any, message_id: int) -> Any:
        return next(m for m in reversed(channel.history()) if m.id == message_id)

    async def new_game(self) -> int:
        a, b = self.members
        await a.slash(self.channel, "ada new", players=2)
        game = max(g.id for g in await self.store.games_in_channel(self.channel.id))
        lobby = await self.store.latest_message(game, "lobby")
        msg = self.message(self.thread(game), lobby.message_id)
        await b.click(msg, custom_id=f"ada:l:join:{game}")
        await a.click(msg, custom_id=f"ada:l:start:{game}")
        return game

    async def click(self, game: int, rng: random.Random) -> float | None:
        """One move of the player to move; returns the seconds from click to updated message."""
        from cogs import ui

        state, seq = await self.store.load_state(game)
        dec = state.decision
        if dec is None:
            return None
        rec = await self.store.get_game(game)
        actor = self.by_id[rec.seat_at(dec.player).user_id]
        turn = await self.store.latest_message(game, "turn")
        target = self.message(self.thread(game), turn.message_id)
        idx = rng.randrange(len(dec.choices))
        if ui.is_private(state):
            res = await actor.click(target, custom_id=ui.cid_private(game, seq))
            target = res.response
        t0 = time.perf_counter()
        if len(dec.choices) <= ui.BUTTON_MAX:
            await actor.click(target, custom_id=ui.cid_choice(game, seq, idx))
        else:
            offset = idx // ui.PER_SELECT * ui.PER_SELECT
            await actor.select(target, [str(idx)], custom_id=ui.cid_select(game, seq, offset))
        elapsed = time.perf_counter() - t0
        from offline.driver import decision_shown

        shown = await self.store.latest_message(game, "turn")
        message = self.message(self.thread(game), shown.message_id)
        new_state, new_seq = await self.store.load_state(game)
        assert new_seq == seq + 1 and (
            new_state.is_over or decision_shown(message, game) == new_seq
        )
        return elapsed


async def burst(driver: Driver, games: list[int], rng: random.Random) -> tuple[list[float], float]:
    cog = driver.env.bot.get_cog("Game")

    class Click:  # what cog.play reads of an interaction
        def __init__(self, user_id: int) -> None:
            self.user = type("U", (), {"id": user_id})()
            self.id = 0

    async def one(game: int) -> float:
        state, seq = await driver.store.load_state(game)
        rec = await driver.store.get_game(game)
        dec = state.decision
        user = rec.seat_at(dec.player).user_id
        t0 = time.perf_counter()
        await cog.play(Click(user), rec, seq, idx=rng.randrange(len(dec.choices)))
        return time.perf_counter() - t0

    open_games = [g for g in games if (await driver.store.get_game(g)).status == "active"]
    t0 = time.perf_counter()
    times = await asyncio.gather(*(one(g) for g in open_games))
    return list(times), time.perf_counter() - t0


async def main(args: argparse.Namespace) -> None:
    import simcord

    from bot import create_bot

    db = Path(tempfile.mkdtemp(prefix="ada-bench-")) / "bench.db"
    bot = create_bot(db, images=not args.no_images, ai_delay=0, seed=args.seed)
    rng = random.Random(args.seed)
    rows = []
    try:
        async with simcord.run(bot, settle_timeout=60) as env:
            driver = Driver(env, bot.ada.store)
            # 1. a whole game
            game = await driver.new_game()
            single: list[float] = []
            while True:
                t = await driver.click(game, rng)
                if t is None:
                    break
                single.append(t)
            rows.append(line("whole 2-player game, one game open", single))
            # 2. many games in progress
            games = [await driver.new_game() for _ in range(args.games)]
            many: list[float] = []
            for _ in range(args.rounds):
                for g in games:
                    t = await driver.click(g, rng)
                    if t is not None:
                        many.append(t)
            rows.append(line(f"{args.games} games in progress, interleaved clicks", many))
            # 3. simultaneous moves in every game
            times, total = await burst(driver, games, rng)
            rows.append(line(f"{len(times)} simultaneous moves (one per game)", times))
    finally:
        await bot.close()
    images = "without images" if args.no_images else "with images (board + Mill per update)"
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
