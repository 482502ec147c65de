"""Load run: 1,000 live games played by two bot processes on one PostgreSQL, beside SQLite.

Run: .venv/bin/python bench/bench_store_pg.py [--games 1000] [--moves 10] [--processes 2]
     [--url postgresql://...]   (default: a throwaway server on 127.0.0.1, fsync on, deleted after)

Each process plays its share of the games (game i goes to process i mod N, as a guild goes to
the process of its shard): one task per game, applying moves as fast as the store answers, all
processes starting together. Printed per backend and number of processes: moves/s (all moves /
wall time of the slowest process) and the p50/p95 latency of one move (``apply_choice`` call to
return, queueing included). Bounded: ``--moves`` per game, loopback only. It is not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from store import Store
from store.pgtemp import TempPostgres
from store.testing import started_game

WORKER = """
import asyncio, json, os, random, sys, time
from store import Store
from store.testing import pick

async def main(location, go, moves, ids):
    store = await Store.open(location, pool_size=20)
    try:
        for gid in ids:                      # first load: each game verified once, untimed
            await store.load_state(gid)
        print("ready", flush=True)
        while not os.path.exists(go):
            await asyncio.sleep(0.001)
        latencies = []

        async def player(gid):
            rng = random.Random(gid)
            state, seq = await store.load_state(gid)
            for _ in range(moves):
                if state.is_over:
                    break
                seat, choice = pick(state, rng)
                t = time.perf_counter()
                state = await store.apply_choice(gid, seq, seat, choice)
                latencies.append(time.perf_counter() - t)
                seq += 1

        t = time.perf_counter()
        await asyncio.gather(*(player(g) for g in ids))
        print(json.dumps({"seconds": time.perf_counter() - t, "latencies": latencies}), flush=True)
    finally:
        await store.close()

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), [int(x) for x in sys.argv[4:]]))
"""


async def make_games(location: str, games: int) -> list[int]:
    store = await Store.open(location, synchronous="OFF")
    try:
        return [(await started_game(store, seed=i, channel_id=i))[0] for i in range(games)]
    finally:
        await store.close()


def run_processes(location: str, ids: list[int], processes: int, moves: int) -> dict[str, float]:
    go = Path(tempfile.mkdtemp()) / "go"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER,
                location,
                str(go),
                str(moves),
                *map(str, ids[i::processes]),
            ],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for i in range(processes)
    ]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    go.touch()
    results = []
    for p in procs:
        out, _ = p.communicate(timeout=600)
        assert p.returncode == 0, out
        results.append(json.loads(out.strip().splitlines()[-1]))
    latencies = sorted(x for r in results for x in r["latencies"])
    seconds = max(r["seconds"] for r in results)
    return {
        "moves": len(latencies),
        "moves_per_s": len(latencies) / seconds,
        "p50_ms": latencies[len(latencies) // 2] * 1000,
        "p95_ms": latencies[int(len(latencies) * 0.95)] * 1000,
    }


def report(name: str, r: dict[str, float]) -> None:
    print(
        f"{name}: {r['moves']:.0f} moves, {r['moves_per_s']:.0f} moves/s,"
        f" one move p50 {r['p50_ms']:.0f} ms, p95 {r['p95_ms']:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=10, help="moves per game")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--url", help="an empty PostgreSQL database (default: a throwaway server)")
    args = parser.parse_args()
    server = None
    try:
        if not args.url:
            server = TempPostgres.start(durable=True)  # fsync on, as in production
        print(
            f"{args.games} games, {args.moves} moves each;"
            " PostgreSQL with fsync on, SQLite with synchronous=FULL"
        )
        counts = sorted({1, args.processes})
        for n in counts:
            if server is not None:
                location = server.create_database(f"bench{n}")
            elif n == args.processes:
                location = args.url  # a given database is used once, for the N-process run
            else:
                continue
            ids = asyncio.run(make_games(location, args.games))
            report(f"postgres, {n} process(es)", run_processes(location, ids, n, args.moves))
        for n in counts:
            location = str(Path(tempfile.mkdtemp()) / "bench.db")
            ids = asyncio.run(make_games(location, args.games))
            report(f"sqlite, {n} process(es)", run_processes(location, ids, n, args.moves))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    random.seed(0)
    t = time.perf_counter()
    main()
    print(f"(run took {time.perf_counter() - t:.0f} s)")
