"""Game store figures: one move applied and committed, moves/s across many concurrent games,
database size per finished game.

Run: .venv/bin/python bench/bench_store.py [--games 1000] [--moves 20] [--finished 20]
Prints figures; it is not a test. Measure on an otherwise idle machine. Uses a temporary
directory (or --dir) on the same disk as the default database.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from store import Store
from store.testing import pick, play, started_game


async def single_move_latency(path: Path, synchronous: str, moves: int) -> list[float]:
    """Seconds per apply_choice (load + engine apply + append + snapshot + commit)."""
    store = await Store.open(path, synchronous=synchronous)
    try:
        rng = random.Random(1)
        times: list[float] = []
        while len(times) < moves:
            gid, state = await started_game(store, seed=len(times), channel_id=len(times))
            seq = 0
            while not state.is_over and len(times) < moves:
                seat, choice = pick(state, rng)
                t = time.perf_counter()
                state = await store.apply_choice(gid, seq, seat, choice)
                times.append(time.perf_counter() - t)
                seq += 1
        return times
    finally:
        await store.close()


async def concurrent_games(
    path: Path, synchronous: str, games: int, moves: int
) -> tuple[int, float]:
    """``games`` tasks, one per game, each applying ``moves`` moves as fast as it can,
    all through one Store (one connection, as in the bot). Returns (moves, seconds)."""
    store = await Store.open(path, synchronous=synchronous)
    try:
        ids = [(await started_game(store, seed=i, channel_id=i))[0] for i in range(games)]

        async def player(gid: int) -> int:
            rng = random.Random(gid)
            state, seq = await store.load_state(gid)
            done = 0
            while done < moves and not state.is_over:
                seat, choice = pick(state, rng)
                state = await store.apply_choice(gid, seq, seat, choice)
                seq += 1
                done += 1
            return done

        t = time.perf_counter()
        done = await asyncio.gather(*(player(g) for g in ids))
        return sum(done), time.perf_counter() - t
    finally:
        await store.close()


async def size_per_finished_game(path: Path, games: int) -> dict[str, float]:
    store = await Store.open(path, synchronous="OFF")
    moves = 0
    try:
        for i in range(games):
            gid, _ = await started_game(store, seed=1000 + i, channel_id=i)
            state = await play(store, gid, random.Random(i))
            moves += len(state.history)
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    snap_bytes, snaps = conn.execute(
        "SELECT SUM(LENGTH(state)), COUNT(*) FROM snapshots"
    ).fetchone()
    conn.close()
    size = path.stat().st_size
    return {
        "bytes_per_game": size / games,
        "moves_per_game": moves / games,
        "snapshots_per_game": snaps / games,
        "snapshot_text_bytes_per_game": snap_bytes / games,
    }


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


async def run(args: argparse.Namespace) -> None:
    base = Path(args.dir or tempfile.mkdtemp(prefix="bench_store_"))
    print(f"database files under {base}")
    for sync in ("FULL", "NORMAL"):
        times = await single_move_latency(base / f"latency_{sync}.db", sync, args.latency_moves)
        ms = [t * 1000 for t in times]
        print(
            f"one move, apply + commit (synchronous={sync}): median {statistics.median(ms):.2f} ms,"
            f" p95 {pct(ms, 0.95):.2f} ms, max {max(ms):.2f} ms over {len(ms)} moves"
        )
    for sync in ("FULL", "NORMAL"):
        n, secs = await concurrent_games(
            base / f"concurrent_{sync}.db", sync, args.games, args.moves
        )
        print(
            f"{args.games} concurrent games in one file (synchronous={sync}): {n} moves in"
            f" {secs:.1f} s = {n / secs:.0f} moves/s sustained"
        )
    size = await size_per_finished_game(base / "size.db", args.finished)
    print(
        f"database size per finished game: {size['bytes_per_game'] / 1024:.1f} KiB"
        f" ({size['moves_per_game']:.0f} moves, {size['snapshots_per_game']:.1f} snapshots"
        f" holding {size['snapshot_text_bytes_per_game'] / 1024:.1f} KiB of state JSON)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="concurrent games")
    parser.add_argument("--moves", type=int, default=20, help="moves per concurrent game")
    parser.add_argument("--latency-moves", type=int, default=500)
    parser.add_argument("--finished", type=int, default=20, help="games played out for the size")
    parser.add_argument("--dir", help="directory for the database files (default: a temp dir)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
