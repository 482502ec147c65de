"""Benchmark: the board page's answers along a game, through HTTP against the real bot.

    .venv/bin/python bench/bench_web.py [--moves 40] [--seed 1]

Runs the bot against simcord (in memory) on a temporary database, with the board page served on
a free local port. Two people play ``--moves`` decisions from the page (random legal choices,
sent as the page sends them) while the other person's page follows the game's event stream.
Printed, as medians and maxima in milliseconds: reading the view (JSON), a move (the service's
whole path, the thread's turn message included), how long after the move's answer the other
page heard of it, the board picture as the viewer sees it (drawn for a new state; then again,
from the cache), and the sizes of the view and of the pictures.
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


def line(name: str, values: list[float], unit: str = "ms") -> str:
    if not values:
        return f"{name:<40} -"
    return (
        f"{name:<40} median {statistics.median(values):8.1f} {unit}   "
        f"max {max(values):8.1f} {unit}   (n={len(values)})"
    )


async def bench(args: argparse.Namespace) -> None:
    import aiohttp
    import simcord

    from bot import create_bot
    from offline.driver import Table
    from web.app import start
    from web.context import WebContext
    from web.sessions import Viewer

    figures: dict[str, list[float]] = {}

    def note(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="ada-bench-web-") as scratch:
        bot = create_bot(
            Path(scratch) / "bench.db", images=False, ai_delay=0, seed=args.seed, ai_workers=0
        )
        try:
            async with simcord.run(bot, settle_timeout=60) as env:
                table = Table(env, ("alice", "bob"))
                game = await table.new_game("alice", ("bob",))
                ctx = WebContext.of(bot.ada.games)
                server = await start(ctx, port=0)
                rec = await table.store.get_game(game)
                tokens = {
                    rec.seat_of(m.id): ctx.sessions.issue(
                        Viewer(m.id, game, rec.seat_of(m.id), "local")
                    )
                    for m in table.members.values()
                }
                try:
                    async with aiohttp.ClientSession(server.url) as http:
                        await run_moves(args, http, table, game, tokens, rng, note)
                finally:
                    await server.stop()
        finally:
            await bot.close()
    print(f"board page, {args.moves} decisions of a 2-player game (seed {args.seed})")
    for name in (
        "GET /api/view",
        "POST /api/move",
        "other page hears of it (from the click)",
        "GET /api/board.png (new state)",
        "GET /api/board.png (cached)",
    ):
        print(line(name, figures.get(name, [])))
    for name in ("view JSON", "board.png", "mill.png"):
        print(line(name + " size", figures.get(name, []), "KB"))


async def run_moves(
    args: argparse.Namespace,
    http: Any,
    table: Any,
    game: int,
    tokens: dict[int, str],
    rng: random.Random,
    note: Any,
) -> None:
    def auth(seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {tokens[seat]}"}

    for _ in range(args.moves):
        state, seq = await table.store.load_state(game)
        if state.decision is None:
            break
        mover = state.decision.player
        other = 1 - mover
        t = time.perf_counter()
        async with http.get("/api/view", headers=auth(mover)) as res:
            body = await res.read()
        note("GET /api/view", (time.perf_counter() - t) * 1000)
        note("view JSON", len(body) / 1024)
        for cached in (False, True):
            t = time.perf_counter()
            async with http.get("/api/board.png", headers=auth(mover)) as res:
                png = await res.read()
            name = "cached" if cached else "new state"
            note(f"GET /api/board.png ({name})", (time.perf_counter() - t) * 1000)
        note("board.png", len(png) / 1024)
        async with http.get(f"/api/mill/{mover}.png", headers=auth(mover)) as res:
            note("mill.png", len(await res.read()) / 1024)
        stream = await http.get("/api/events", headers=auth(other))
        await stream.content.readline()  # event: hello
        await stream.content.readline()
        await stream.content.readline()
        choice = rng.choice(state.decision.choices).id
        t = time.perf_counter()
        async with http.post(
            "/api/move", json={"seq": seq, "choice": choice}, headers=auth(mover)
        ) as res:
            assert res.status == 200, await res.text()
        answered = time.perf_counter()
        note("POST /api/move", (answered - t) * 1000)
        while not (await stream.content.readline()).startswith(b"event: changed"):
            pass
        note("other page hears of it (from the click)", (time.perf_counter() - t) * 1000)
        stream.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(bench(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
