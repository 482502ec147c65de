"""One bot process for tests/test_bot_shards.py: a simcord world running some of Discord's shards
against a shared PostgreSQL database, started as a real subprocess so that the test can kill it
with SIGKILL, as an operator's machine would lose it.

    python tests/shard_process.py DATABASE_URL LABEL SHARDS SEED [--hours N] [--wait] [--pace S]

LABEL names the world's guilds and members; SHARDS is a comma list (e.g. ``0,1``) of 4; the
world's clock starts ``--hours`` ahead (simcord derives Discord ids from its clock, so each world,
and each restart, gets ids of its own: a world's clock moves 2 h, so 3 h apart is enough). The
process creates two games per shard (two people; a person and an AI seat), plays, and prints one
line per event on stdout for the test:

    GAME <id>          a game it created
    MOVE <game> <seq>  a move it made (flushed at once)
    READY              its threads' shown state is in the database: kill me now if you like

then keeps playing until its games end or it is killed, resting ``--pace`` seconds of real time
between rounds (with ``--wait``: waits to be killed, its games in progress and its threads as
the database says they are). Logs go to stderr, one line each, with the level first.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simcord_settle import HOUR, advance, poll_quickly  # noqa: E402 - tests/ is the script's folder

SHARDS = 4


def say(*words: Any) -> None:
    """An event for the test that runs this process (printed only when run as a script)."""
    if __name__ == "__main__":
        print(*words, flush=True)


def make_bot(location: str, shards: list[int], seed: int) -> Any:
    from bot import create_bot

    return create_bot(
        location,
        images=False,
        ai_delay=0,
        seed=seed,
        ai_workers=0,
        shard_count=SHARDS,
        shard_ids=shards,
        reminder_interval=3600,
        force_sync=True,  # each start is a new simulated Discord: sync its commands every time
    )


class Games:
    """A world's games on its shards: one guild per shard, with two members who play one game
    together and one with an AI seat; ``move`` makes each human turn's decision by clicking."""

    def __init__(self, env: Any, label: str, shards: list[int], seed: int) -> None:
        from offline.driver import Clicker

        self.env, self.label, self.shards = env, label, shards
        self.rng = random.Random(seed)
        self.clicker = Clicker(env)
        self.games: list[int] = []
        self.people: dict[int, Any] = {}
        self.threads: dict[int, Any] = {}

    async def create(self) -> None:
        store = self.env.bot.ada.store
        for k, shard in enumerate(self.shards):
            guild = self.env.create_guild(f"{self.label}{shard}", shard_id=shard)
            channel = guild.create_text_channel("games")
            a = guild.add_member(self.env.create_user(f"{self.label}a{k}"))
            b = guild.add_member(self.env.create_user(f"{self.label}b{k}"))
            self.people.update({a.id: a, b.id: b})
            for ai in (0, 1):
                await a.slash(channel, "ada new", players=2, ai=ai)
                game = max(g.id for g in await store.games_in_guild(guild.id))
                thread = next(t for t in channel.threads if t.name == f"Ada's Dream #{game}")
                lobby = await store.latest_message(game, "lobby")
                msg = next(m for m in thread.history() if m.id == lobby.message_id)
                if not ai:
                    await b.click(msg, custom_id=f"ada:l:join:{game}")
                await a.click(msg, custom_id=f"ada:l:start:{game}")
                self.games.append(game)
                self.threads[game] = thread
                say("GAME", game)

    async def move(self) -> int:
        """One decision in each game where a person is to decide; returns how many."""
        store = self.env.bot.ada.store
        moves = 0
        for game in self.games:
            state, seq = await store.load_state(game)
            dec = state.decision
            if dec is None:
                continue
            seat = (await store.get_game(game)).seat_at(dec.player)
            if seat.is_ai:
                continue  # it plays by itself (or another process's sweep took it)
            shown = self.env.bot.ada.games.shown.get(game)  # (maybe not written yet)
            if shown is None:
                shown = await store.latest_message(game, "turn")
            thread = self.threads[game]
            message = next(m for m in thread.history() if m.id == shown.message_id)
            idx = self.rng.randrange(len(dec.choices))
            await self.clicker.choose(
                self.people[seat.user_id], thread, message, state, game, seq, idx
            )
            say("MOVE", game, seq + 1)
            moves += 1
        return moves


async def world(
    location: str,
    label: str,
    shards: list[int],
    seed: int,
    hours: float,
    wait: bool,
    pace: float = 0.0,
) -> None:
    import simcord

    poll_quickly()  # as in tests/conftest.py
    async with simcord.run(
        make_bot(location, shards, seed), check_errors=False, settle_timeout=60
    ) as env:
        await advance(env, hours * HOUR)  # ids of this world's own
        games = Games(env, label, shards, seed)
        await games.create()
        for step in range(10_000):
            moved = await games.move()
            if step == 5:
                await advance(env, 2 * HOUR)  # a reminder round writes what threads show
                say("READY")
                if wait:
                    await asyncio.Event().wait()  # until killed
            if not moved:
                break
            if step > 5 and pace:
                # real time, outside the simulated Discord: a process that plays on while the
                # test starts or kills another need not take a whole core meanwhile
                await asyncio.to_thread(time.sleep, pace)
        await env.bot.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("location")
    parser.add_argument("label")
    parser.add_argument("shards")
    parser.add_argument("seed", type=int)
    parser.add_argument("--hours", type=float, default=0)
    parser.add_argument("--wait", action="store_true")
    parser.add_argument(
        "--pace", type=float, default=0.0, help="seconds between rounds after READY"
    )
    args = parser.parse_args()
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    shards = [int(s) for s in args.shards.split(",")]
    asyncio.run(
        world(args.location, args.label, shards, args.seed, args.hours, args.wait, args.pace)
    )


if __name__ == "__main__":
    main()
