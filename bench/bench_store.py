"""Game store figures (SQLite): one move applied and committed; moves/s across many live games;
what a click costs in transactions and commits; a move along one long game; listing a guild's
games; size per game.

Run: .venv/bin/python bench/bench_store.py [--games 1000] [--moves 10] [--long-game 2000]
[--list-games 1111]
Prints figures; it is not a test. Measure on an otherwise idle machine (nice -n 10 when not).
Uses a temporary directory (or --dir) on the same disk as the default database. The same
script runs against an older store (it falls back to the calls that store had), which is how
the "before" figures of the README were taken.

What each figure measures:
- one move: ``apply_choice`` from call to return (the engine applies the choice, the choice,
  snapshot and game rows are written, the commit returns), one game at a time, synchronous
  FULL (an acknowledged move survives power loss) and NORMAL (it survives a killed process).
- live games: one task per game, each applying moves as fast as the store answers, all through
  one Store (as in the bot): total moves / wall time. A "click" here is what the bot does for a
  human's move: the move with the next player's reminder (``remind=True``; before: a separate
  ``schedule_reminder``) and the record of the new turn message (``record_message``).
  Commits per click counts COMMITs of write transactions (each an fsync at FULL); statements
  per move/click count every statement sent to SQLite, BEGIN and COMMIT included (each is one
  hand-off to an aiosqlite thread and back; not printed by stores that do not count them).
- long game: ``apply_choice`` along one game of that many moves, the median of its first and of
  its last tenth (a move's checks must not grow with the game's length: issue 33's choice guard).
  Games end by the rules after a few hundred moves; the move's write statement alone is also
  timed on a made-up log of each ``--log-lengths`` length.
- listing: ``games_in_guild`` of a guild with that many open games, median of 20 calls.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from store import Store
from store.testing import pick, play, started_game

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def has_remind(store: Store) -> bool:
    return "remind" in inspect.signature(store.apply_choice).parameters


def commits(store: Store) -> int | None:
    return getattr(getattr(store, "_db", None), "commits", None)


def statements(store: Store) -> int | None:
    """Statements sent so far (each one hand-off to an aiosqlite thread); None if the store
    does not count them."""
    return getattr(getattr(store, "_db", None), "statements", None)


def per(count: tuple[int | None, int | None], n: int) -> float | None:
    before, after = count
    return None if before is None or after is None else (after - before) / n


async def click(store: Store, gid: int, seq: int, seat: int, choice: str, new_remind: bool):
    """What the bot writes for one human move."""
    if new_remind:
        state = await store.apply_choice(gid, seq, seat, choice, remind=True)
    else:
        state = await store.apply_choice(gid, seq, seat, choice)
        if state.decision is not None:
            await store.schedule_reminder(gid, 1000, NOW + timedelta(hours=12), seq + 1)
    await store.record_message(gid, "turn", 100, 10_000 + seq, seq + 1)
    return state


async def single_move_latency(path: Path, synchronous: str, moves: int) -> list[float]:
    """Seconds per apply_choice, one game at a time."""
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


async def live_games(
    path: Path, synchronous: str, games: int, moves: int, clicks: bool
) -> tuple[int, float, float | None, float | None, list[float]]:
    """``games`` tasks, one per game, each applying ``moves`` moves (or clicks) as fast as it
    can through one Store. Returns (moves, seconds, commits per move, statements per move,
    latencies)."""
    store = await Store.open(path, synchronous=synchronous)
    try:
        ids = [(await started_game(store, seed=i, channel_id=i))[0] for i in range(games)]
        new_remind = has_remind(store)
        latencies: list[float] = []

        async def player(gid: int) -> int:
            rng = random.Random(gid)
            state, seq = await store.load_state(gid)
            done = 0
            while done < moves and not state.is_over:
                seat, choice = pick(state, rng)
                t = time.perf_counter()
                if clicks:
                    state = await click(store, gid, seq, seat, choice, new_remind)
                else:
                    state = await store.apply_choice(gid, seq, seat, choice)
                latencies.append(time.perf_counter() - t)
                seq += 1
                done += 1
            return done

        before = commits(store), statements(store)
        t = time.perf_counter()
        n = sum(await asyncio.gather(*(player(g) for g in ids)))
        secs = time.perf_counter() - t
        after = commits(store), statements(store)
        return (
            n,
            secs,
            per((before[0], after[0]), n),
            per((before[1], after[1]), n),
            latencies,
        )
    finally:
        await store.close()


async def long_game(path: Path, moves: int) -> tuple[list[float], int]:
    """Seconds per ``apply_choice`` along one long game (4 players, rounds raised so it lasts
    ``moves`` moves), one move at a time: the cost of a move must not grow with the moves
    before it. Returns (times, moves played)."""
    store = await Store.open(path, synchronous="NORMAL")
    try:
        gid = await store.create_game(1, 1, 1000, {"players": 4, "max_rounds": 1 + moves // 10})
        for i in range(4):
            await store.add_seat(gid, name=f"player{i}", user_id=1000 + i)
        state = await store.start_game(gid, 7)
        rng = random.Random(7)
        times: list[float] = []
        while not state.is_over and len(times) < moves:
            seat, choice = pick(state, rng)
            t = time.perf_counter()
            state = await store.apply_choice(gid, len(times), seat, choice)
            times.append(time.perf_counter() - t)
        return times, len(times)
    finally:
        await store.close()


async def move_statement(path: Path, lengths: list[int], reps: int) -> list[tuple[int, float]]:
    """The move's one write statement (``record_move_at``: its checks and writes) on a game
    whose live log holds each of ``lengths`` choices, median seconds over ``reps`` runs, each
    rolled back. Games end by the rules after a few hundred moves, so the rows are made up
    (their digests chain, nothing replays them): this isolates what the checks cost."""
    from store import sqlite as backend
    from store.choicelog import next_digest
    from store.timeutil import to_db

    store = await Store.open(path, synchronous="OFF")
    try:
        gid, _ = await started_game(store, seed=1)
    finally:
        await store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    for sql in backend.MOVE_WRITES:
        conn.execute(sql)
    cols = backend._MOVE_COLS.split(", ")
    start = conn.execute("SELECT log_digest FROM games WHERE id = ?", (gid,)).fetchone()[0]
    digests, choice = [start], "ws:0:Y1:0"
    at = to_db(NOW)
    out = []
    for n in lengths:
        conn.execute("BEGIN")
        for seq in range(len(digests) - 1, n):
            digests.append(next_digest(digests[-1], seq, 0, choice))
            conn.execute(
                "INSERT INTO choices (game_id, seq, seat, choice_id, applied_at, digest)"
                " VALUES (?, ?, 0, ?, ?, ?)",
                (gid, seq, choice, at, digests[-1]),
            )
        conn.execute("UPDATE games SET seq = ?, log_digest = ? WHERE id = ?", (n, digests[n], gid))
        conn.execute("COMMIT")
        values = {
            "game_id": gid, "seq": n, "seat": 0, "choice_id": choice, "digest": "d",
            "state": "{}", "state_digest": "s", "over": 0, "to_move": 0, "at": at,
            "drop_previous": 1, "end_digest": digests[n], "end_seat": 0, "end_choice": choice,
            "end_choices": "\n".join([choice] * n),  # the statement before issue 34's guard
        }  # fmt: skip
        sql = f"INSERT INTO move_writes ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
        args = [values.get(c) for c in cols]
        times = []
        for _ in range(reps):
            conn.execute("BEGIN")
            t = time.perf_counter()
            conn.execute(sql, args)
            times.append(time.perf_counter() - t)
            conn.execute("ROLLBACK")
        out.append((n, statistics.median(times)))
    conn.close()
    return out


async def listing(path: Path, games: int) -> float:
    store = await Store.open(path, synchronous="OFF")
    try:
        for i in range(games):
            gid = await store.create_game(7, i, 1)
            for u in range(3):
                await store.add_seat(gid, name=f"p{u}", user_id=1000 + u)
        times = []
        for _ in range(20):
            t = time.perf_counter()
            assert len(await store.games_in_guild(7)) == games
            times.append(time.perf_counter() - t)
        return statistics.median(times)
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
    return {
        "bytes_per_game": path.stat().st_size / games,
        "moves_per_game": moves / games,
        "snapshots_per_game": snaps / games,
        "snapshot_text_bytes_per_game": snap_bytes / games,
    }


def counts(commits: float | None, statements: float | None, what: str) -> str:
    out = "" if commits is None else f", {commits:.2f} commits per {what}"
    return out + ("" if statements is None else f", {statements:.2f} statements per {what}")


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


async def run(args: argparse.Namespace) -> None:
    base = Path(args.dir or tempfile.mkdtemp(prefix="bench_store_"))
    print(f"database files under {base}")
    for sync in ("FULL", "NORMAL"):
        ms = [
            t * 1000
            for t in await single_move_latency(base / f"one_{sync}.db", sync, args.latency_moves)
        ]
        print(
            f"one move, apply + commit (synchronous={sync}): median {statistics.median(ms):.2f} ms,"
            f" p95 {pct(ms, 0.95):.2f} ms over {len(ms)} moves"
        )
    for sync in ("FULL", "NORMAL"):
        n, secs, c, st, lat = await live_games(
            base / f"live_{sync}.db", sync, args.games, args.moves, False
        )
        print(
            f"{args.games} live games in one file (synchronous={sync}): {n} moves in {secs:.1f} s"
            f" = {n / secs:.0f} moves/s{counts(c, st, 'move')},"
            f" p95 {pct(lat, 0.95) * 1000:.0f} ms a move"
        )
    n, secs, c, st, lat = await live_games(base / "clicks.db", "FULL", args.games, args.moves, True)
    calls = 2 if "remind" in inspect.signature(Store.apply_choice).parameters else 3
    print(
        f"{args.games} live games, clicks (move + reminder + turn message, {calls} store calls,"
        f" synchronous=FULL): {n / secs:.0f} clicks/s{counts(c, st, 'click')},"
        f" p95 {pct(lat, 0.95) * 1000:.0f} ms"
    )
    if args.long_game:
        times, played = await long_game(base / "long.db", args.long_game)
        tenth = max(1, played // 10)
        first, last = times[:tenth], times[-tenth:]
        print(
            f"one long game, {played} moves (synchronous=NORMAL): median"
            f" {statistics.median(first) * 1000:.2f} ms a move over its first {tenth} moves,"
            f" {statistics.median(last) * 1000:.2f} ms over its last {tenth}"
        )
    if args.log_lengths:
        lengths = [int(n) for n in args.log_lengths.split(",")]
        figures = await move_statement(base / "statement.db", lengths, 200)
        print(
            "a move's write statement, by the game's live choices: "
            + ", ".join(f"{n}: {secs * 1e6:.0f} µs" for n, secs in figures)
            + " (median of 200)"
        )
    secs = await listing(base / "listing.db", args.list_games)
    print(f"listing a guild's {args.list_games} open games: {secs * 1000:.1f} ms (median of 20)")
    size = await size_per_finished_game(base / "size.db", args.finished)
    print(
        f"database size per finished game: {size['bytes_per_game'] / 1024:.1f} KiB"
        f" ({size['moves_per_game']:.0f} moves, {size['snapshots_per_game']:.1f} snapshots"
        f" holding {size['snapshot_text_bytes_per_game'] / 1024:.1f} KiB of state JSON)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="live games")
    parser.add_argument("--moves", type=int, default=10, help="moves per live game")
    parser.add_argument("--latency-moves", type=int, default=300)
    parser.add_argument(
        "--list-games", type=int, default=1111, help="open games in the guild listed"
    )
    parser.add_argument("--finished", type=int, default=5, help="games played out for the size")
    parser.add_argument(
        "--long-game", type=int, default=2000, help="moves of one long game (0: skip)"
    )
    parser.add_argument(
        "--log-lengths",
        default="10,100,400,2000,10000",
        help="live choices of a game for the move statement's figure (comma-separated; '' skips)",
    )
    parser.add_argument("--dir", help="directory for the database files (default: a temp dir)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
