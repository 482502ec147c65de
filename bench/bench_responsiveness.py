"""Benchmark: does the bot stay responsive while AI seats think and images render?

    .venv/bin/python bench/bench_responsiveness.py [--ai-games 16] [--games 50] [--seconds 20]
                                                   [--ai-workers 1] [--policy search]

Runs the real bot on simcord (in memory) with ``--ai-games`` games of two search-AI seats playing
on their own (16 AI turns in flight all the time) and ``--games`` two-player games of people.
Then, for ``--seconds``: every 0.5 s one click on "My hand" in some game, and every 5 s a burst of
one move in each people's game at once (50 clicks, 50 turn messages to render). Printed:

- the event loop's lag: how late a 10 ms heartbeat wakes up (max and p99);
- acknowledgement: time from a click reaching the bot until its first answer to Discord
  (a deferral), max and p95; Discord allows 3 s;
- how many AI decisions were played meanwhile.

The clicks are sent without waiting for the bot to settle (simcord's actors wait for all the
bot's work, which never ends while AI games play), straight into simcord's gateway.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return (
        ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]
        if ordered
        else float("nan")
    )


class RawClicks:
    """Clicks emitted into simcord's gateway; ``acks`` collects each click's time to its answer."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.pending: list[tuple[float, Any]] = []
        self.acks: list[float] = []

    def click(self, member: Any, message: Any, custom_id: str) -> None:
        from simcord import interactions as _interactions
        from simcord.backend import serializers

        backend = self.env.backend
        stored = backend.get_message(message.channel.id, message.id)
        record, payload = _interactions.base_payload(
            backend,
            type=3,
            channel_id=message.channel.id,
            guild_id=member.guild.id,
            user_id=member.id,
            data={"custom_id": custom_id, "component_type": 2},
        )
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        self.pending.append((time.perf_counter(), record))
        backend.emit("INTERACTION_CREATE", payload)

    async def watch(self) -> None:
        while True:
            now = time.perf_counter()
            still = []
            for t0, record in self.pending:
                if record.responded:
                    self.acks.append(now - t0)
                else:
                    still.append((t0, record))
            self.pending = still
            await asyncio.sleep(0.002)


async def heartbeat(lags: list[float]) -> None:
    while True:
        t0 = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - t0 - 0.01)


async def main(args: argparse.Namespace) -> None:
    import simcord

    from bot import create_bot
    from cogs import ui

    db = Path(tempfile.mkdtemp(prefix="ada-bench-")) / "bench.db"
    bot = create_bot(db, images=True, ai_delay=0, seed=1, ai_workers=args.ai_workers)
    rng = random.Random(1)
    async with simcord.run(bot, settle_timeout=120) as env:
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("games")
        people = [guild.add_member(env.create_user(f"p{i}")) for i in range(2)]
        by_id = {m.id: m for m in people}
        store = bot.ada.store

        def thread_of(game: int) -> Any:
            return next(t for t in channel.threads if t.name == f"Ada's Dream #{game}")

        async def lobby_of(game: int) -> Any:
            rec = await store.latest_message(game, "lobby")
            return next(m for m in thread_of(game).history() if m.id == rec.message_id)

        async def turn_message(game: int) -> Any:
            """What the bot shows (a message posted by a click is written with the next move)."""
            return bot.ada.games.shown.get(game) or await store.latest_message(game, "turn")

        human_games = []
        for _ in range(args.games):
            await people[0].slash(channel, "ada new", players=2)
            game = max(g.id for g in await store.games_in_channel(channel.id))
            await people[1].click(await lobby_of(game), custom_id=f"ada:l:join:{game}")
            await people[0].click(await lobby_of(game), custom_id=f"ada:l:start:{game}")
            human_games.append(game)
        ai_games = []
        for _ in range(args.ai_games):
            await people[0].slash(
                channel, "ada new", players=2, ai=2, ai_policy=args.policy, join=False
            )
            ai_games.append(max(g.id for g in await store.games_in_channel(channel.id)))
        clicks = RawClicks(env)
        lags: list[float] = []
        tasks = [asyncio.create_task(heartbeat(lags)), asyncio.create_task(clicks.watch())]
        before = sum([(await store.get_game(g)).seq for g in ai_games])
        for game in ai_games:  # start them all: from now on AI turns are always in flight
            clicks.click(people[0], await lobby_of(game), f"ada:l:start:{game}")
        await asyncio.sleep(1.0)
        lags.clear()
        clicks.acks.clear()
        t_end = time.perf_counter() + args.seconds
        tick = 0
        while time.perf_counter() < t_end:
            if tick % 10 == 0:  # a burst: one move in every people's game
                for game in human_games:
                    state, seq = await store.load_state(game)
                    dec = state.decision
                    if dec is None:
                        continue
                    rec = await store.get_game(game)
                    actor = by_id[rec.seat_at(dec.player).user_id]
                    msg = await turn_message(game)
                    message = next(m for m in thread_of(game).history() if m.id == msg.message_id)
                    ids = [
                        i
                        for i in ui_ids(message)
                        if i.startswith((f"ada:c:{game}:{seq}:", f"ada:g:{game}:{seq}:"))
                    ]
                    if ids:
                        clicks.click(actor, message, rng.choice(ids))
            game = rng.choice(human_games)
            msg = await turn_message(game)
            message = next(m for m in thread_of(game).history() if m.id == msg.message_id)
            clicks.click(people[tick % 2], message, ui.cid_hand(game))
            tick += 1
            await asyncio.sleep(0.5)
        after = sum([(await store.get_game(g)).seq for g in ai_games])
        for t in tasks:
            t.cancel()
        for game in ai_games:
            bot.ada.games.stop_ai(game)
    await bot.close()
    ms = [x * 1000 for x in lags]
    acks = [x * 1000 for x in clicks.acks]
    print(
        f"\n{args.ai_games} AI games ({args.policy}, {args.ai_workers} AI worker process(es)) "
        f"and {args.games} people's games, {args.seconds:g} s:\n"
    )
    print("| figure | value |")
    print("|---|---|")
    print(f"| event loop lag, max | {max(ms):.0f} ms |")
    print(f"| event loop lag, p99 | {pct(ms, 0.99):.0f} ms |")
    print(f"| acknowledgement, max | {max(acks):.0f} ms ({len(acks)} clicks) |")
    print(f"| acknowledgement, p95 | {pct(acks, 0.95):.0f} ms |")
    print(f"| AI decisions played meanwhile | {after - before} |")


def ui_ids(message: Any) -> list[str]:
    from offline.driver import custom_ids

    return custom_ids(message)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ai-games", type=int, default=16)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--ai-workers", type=int, default=1)
    parser.add_argument("--policy", default="search")
    asyncio.run(main(parser.parse_args()))
