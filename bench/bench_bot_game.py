"""Benchmark: what one whole 4-player game costs through the bot, as its players feel it.

    .venv/bin/python bench/bench_bot_game.py [--games 1] [--players 4] [--seed 1] [--no-images]

Runs the real bot against simcord (in memory, no network) on a temporary database. Four members
play one game to the end through the turn messages only, as people would: each decision is
chosen by the greedy AI (so the game looks like a real one), then reached by clicking through
the components the bot posted (a "Show my choices" button, a group button, a page button, a
select or a choice button: every interaction is a click). Printed per game:

- messages the bot posted, message edits, other REST calls, all REST calls;
- image bytes uploaded (every file attached to a message or an edit);
- decisions and clicks per turn (a turn is one player's Workshop or Actions turn);
- click latency: wall time from a click until the bot has finished reacting (median, p95).

Figures are wall-clock on this machine; Discord's own latency comes on top in production.
"""

from __future__ import annotations

import argparse
import asyncio
import random
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
                fp = f.fp
                pos = fp.tell()
                self.image_bytes += fp.seek(0, 2)
                fp.seek(pos)
            return real(backend, method, path, **kwargs)

        router.dispatch = dispatch

    def reset(self) -> None:
        self.posts = self.edits = self.other = 0
        self.image_bytes = 0

    @property
    def calls(self) -> int:
        return self.posts + self.edits + self.other


class Table:
    def __init__(self, env: Any, players: int) -> None:
        self.env = env
        guild = env.create_guild("Bench")
        self.channel = guild.create_text_channel("games")
        self.members = [guild.add_member(env.create_user(f"p{i}")) for i in range(players)]
        self.by_id = {m.id: m for m in self.members}

    @property
    def store(self) -> Any:
        return self.env.bot.ada.store

    def thread(self, game: int) -> Any:
        return next(t for t in self.channel.threads if t.name == f"Ada's Dream #{game}")

    def message(self, channel: Any, message_id: int) -> Any:
        return next(m for m in reversed(channel.history()) if m.id == message_id)

    async def fresh(self, message: Any) -> Any:
        return self.message(self.env.bot.get_channel(message.channel.id), message.id)

    async def new_game(self, players: int) -> int:
        first, *others = self.members[:players]
        await first.slash(self.channel, "ada new", players=players)
        game = max(g.id for g in await self.store.games_in_channel(self.channel.id))
        lobby = await self.store.latest_message(game, "lobby")
        msg = self.message(self.thread(game), lobby.message_id)
        for m in others:
            await m.click(msg, custom_id=f"ada:l:join:{game}")
        await first.click(msg, custom_id=f"ada:l:start:{game}")
        return game


async def play_game(table: Table, player: Any, game: int, seed: int) -> dict[str, float]:
    from engine.ai import get_policy

    greedy = get_policy("greedy")
    rng = random.Random(seed)
    decisions = 0
    turns = 0
    last_turn_of: tuple[int, int] | None = None
    while True:
        state, seq = await table.store.load_state(game)
        dec = state.decision
        if dec is None:
            break
        rec = await table.store.get_game(game)
        key = (state.round, dec.player)
        if key != last_turn_of:
            turns += 1
            last_turn_of = key
        choice = greedy.choose(state.copy(), rng)
        idx = next(i for i, c in enumerate(dec.choices) if c.id == choice)
        actor = table.by_id[rec.seat_at(dec.player).user_id]
        shown = await table.store.latest_message(game, "turn")
        thread = table.thread(game)
        target = table.message(thread, shown.message_id)
        await player.choose(actor, thread, target, state, game, seq, idx)
        _, new_seq = await table.store.load_state(game)
        assert new_seq == seq + 1, "the click did not play the move"
        decisions += 1
    return {"decisions": decisions, "turns": turns}


async def main(args: argparse.Namespace) -> None:
    import simcord

    from bot import create_bot
    from offline.driver import Clicker

    db = Path(tempfile.mkdtemp(prefix="ada-bench-")) / "bench.db"
    bot = create_bot(db, images=not args.no_images, ai_delay=0, seed=args.seed)
    print(f"Whole {args.players}-player games through the bot, greedy choices, clicked:\n")
    print(
        "| game | turns | decisions/turn | clicks/turn | messages | edits | other REST | "
        "REST calls | image KB | click median ms | click p95 ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    try:
        async with simcord.run(bot, settle_timeout=60) as env:
            counter = Counter()
            table = Table(env, args.players)
            for g in range(args.games):
                player = Clicker(env)
                game = await table.new_game(args.players)
                counter.reset()  # count the game itself, not the lobby
                figures = await play_game(table, player, game, args.seed + g)
                turns = figures["turns"]
                ms = [t * 1000 for t in player.latency]
                print(
                    f"| {g + 1} | {turns} | {figures['decisions'] / turns:.2f} | "
                    f"{player.clicks / turns:.2f} | {counter.posts} | {counter.edits} | "
                    f"{counter.other} | {counter.calls} | {counter.image_bytes / 1024:.0f} | "
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
