"""What the bot remembers (issue 30), at scale: /ada records history, profile and leaderboard
of a server with 10,000 finished games. Prints figures; it is not a test.

Run: .venv/bin/python bench/bench_records.py [--games 10000] [--members 300] [--db URL]

The server's records are written as the game ends would have written them (the results of
each game and every member's sums and rating, through ``store.tally``), from made-up finished
games (random places, scores and turn times among ``--members`` members, 2 to 4 seats, some
AI), without playing 10,000 games: what is measured is reading them back. Each figure is the
median and the slowest of 30 calls of the store method the command uses (the command adds
Discord's own round trip and, for profile and leaderboard, drawing the picture: also timed).
``--db``: a PostgreSQL URL, or ``--postgres``: a throwaway one (default: a temporary SQLite
file).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engine.scoring import CATEGORIES
from store import Store
from store.tally import GameResult, SeatResult, add_game

START = datetime(2025, 1, 1, tzinfo=UTC)
GUILD = 1


def made_up_games(games: int, members: int, seed: int) -> list[GameResult]:
    rng = random.Random(seed)
    out = []
    for g in range(1, games + 1):
        players = rng.randint(2, 4)
        users: list[int | None] = list(rng.sample(range(1, members + 1), players))
        if rng.random() < 0.2:
            users[-1] = None  # an AI seat
        scores = [rng.randint(40, 140) for _ in users]
        seats = []
        for i, (user, score) in enumerate(zip(users, scores, strict=True)):
            turns = rng.randint(20, 40)
            seats.append(
                SeatResult(
                    turn_index=i,
                    user_id=user,
                    name=f"member {user}" if user else "AI",
                    place=1 + sum(1 for s in scores if s > score),
                    won=score == max(scores) and scores.index(score) == i,
                    score=score,
                    categories=tuple(rng.randint(-10, 25) for _ in CATEGORIES),
                    turns=turns,
                    late_turns=rng.randint(0, 3),
                    standin_turns=rng.randint(0, 1),
                    waits=tuple(rng.randint(30, 86_400) for _ in range(turns)),
                )
            )
        out.append(GameResult(g, GUILD, START + timedelta(hours=g), tuple(seats)))
    return out


async def fill(store: Store, results: list[GameResult]) -> float:
    """Write the games, their results and the sums; returns the seconds it took."""
    t0 = time.perf_counter()
    stats: dict[int, object] = {}
    for result in results:
        before = {s.user_id: stats[s.user_id] for s in result.people if s.user_id in stats}
        stats.update(add_game(before, result))  # type: ignore[arg-type]

    async def write(tx: object) -> None:
        q = store._q(tx)  # type: ignore[arg-type]
        await q.many(
            "INSERT INTO games (id, guild_id, channel_id, thread_id, status, creator_id, seq,"
            " created_at, updated_at, started_at, finished_at)"
            " VALUES (?, ?, ?, ?, 'finished', ?, ?, ?, ?, ?, ?)",
            [
                (
                    r.game_id,
                    GUILD,
                    10,
                    100_000 + r.game_id,
                    r.seats[0].user_id or 1,
                    300,
                    r.finished_at - timedelta(days=3),
                    r.finished_at,
                    r.finished_at - timedelta(days=3),
                    r.finished_at,
                )
                for r in results
            ],
        )
        await store._write_results(q, results)
        from store.records import _put_stats

        await _put_stats(q, stats.values(), insert=True)  # type: ignore[arg-type]

    await store._db.write(write)
    return time.perf_counter() - t0


async def timed(label: str, call: object, n: int = 30) -> None:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        await call()  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1000)
    print(f"  {label:<34} median {statistics.median(times):7.2f} ms   slowest {max(times):7.2f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--members", type=int, default=300)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite)")
    parser.add_argument(
        "--postgres", action="store_true", help="on a throwaway PostgreSQL (store.pgtemp)"
    )
    args = parser.parse_args()
    server = None
    if args.postgres:
        from store.pgtemp import TempPostgres

        server = TempPostgres.start()
        args.db = server.create_database("bench_records")
    try:
        await run(args)
    finally:
        if server is not None:
            server.stop()


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        where = args.db or str(Path(tmp) / "records.db")
        store = await Store.open(where)
        try:
            results = made_up_games(args.games, args.members, seed=1)
            took = await fill(store, results)
            rows = sum(len(r.seats) for r in results)
            print(
                f"{store.backend}: {args.games} finished games, {rows} result rows, "
                f"{args.members} members (written in {took:.1f} s)"
            )
            busiest = max(await store.all_member_stats(GUILD), key=lambda s: s.games)
            user = busiest.user_id
            print(f"  member {user}: {busiest.games} finished games")
            await timed("history, first page", lambda: store.history(GUILD, user))
            await timed(
                "history, last page",
                lambda: store.history(GUILD, user, offset=max(0, busiest.games - 8)),
            )
            await timed("profile", lambda: store.profile(GUILD, user))
            await timed("leaderboard (top 15)", lambda: store.leaderboard(GUILD, limit=15))
            await timed(
                "reliability of 4 (a lobby)", lambda: store.reliability(GUILD, [1, 2, 3, 4])
            )
            await timed(
                "server stats (admins)",
                lambda: store.server_stats(GUILD, START + timedelta(hours=args.games)),
                n=5,
            )
            import i18n
            from cogs.records import _png
            from render.records import BoardRow, draw_leaderboard, draw_profile

            profile = await store.profile(GUILD, user)
            assert profile is not None
            mine = [v / busiest.games for v in busiest.categories]
            tr = i18n.get("en")

            async def profile_picture() -> None:
                await asyncio.to_thread(
                    _png, tr, draw_profile, "x", mine, list(profile.server_categories), ("a", "b")
                )

            board = [BoardRow(k + 1, f"member {k}", 20.0 - k, 30, k > 10) for k in range(15)]

            async def board_picture() -> None:
                await asyncio.to_thread(_png, tr, draw_leaderboard, "Leaderboard", board)

            await timed("profile picture (drawn)", profile_picture, n=10)
            await timed("leaderboard picture (drawn)", board_picture, n=10)
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
