"""Double applies (tasks, connections, processes) and a process killed mid-game."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime

import pytest
from store_backends import raw

from store import StaleMove, Store
from store.testing import pick, started_game


def child_env() -> dict[str, str]:
    """The child sees exactly the modules the test process sees."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


class TestDoubleApply:
    async def test_two_concurrent_tasks_one_wins(self, db_location):
        store = await Store.open(db_location)
        try:
            gid, state = await started_game(store)
            seat, choice = pick(state, random.Random(1))
            results = await asyncio.gather(
                store.apply_choice(gid, 0, seat, choice),
                store.apply_choice(gid, 0, seat, choice),
                return_exceptions=True,
            )
            assert sum(isinstance(r, StaleMove) for r in results) == 1
            assert sum(not isinstance(r, BaseException) for r in results) == 1
            assert len(await store.choices(gid)) == 1
            assert (await store.load_state(gid))[1] == 1
        finally:
            await store.close()

    async def test_two_connections_race_many_times(self, db_location):
        """Two Store objects = two connections (SQLite: each on its own thread), like two
        processes: for every move both try; exactly one wins each time."""
        a = await Store.open(db_location)
        b = await Store.open(db_location)
        try:
            gid, state = await started_game(a)
            rng = random.Random(2)
            for seq in range(30):
                seat, choice = pick(state, rng)
                results = await asyncio.gather(
                    a.apply_choice(gid, seq, seat, choice),
                    b.apply_choice(gid, seq, seat, choice),
                    return_exceptions=True,
                )
                wins = [r for r in results if not isinstance(r, BaseException)]
                assert len(wins) == 1, results
                assert all(isinstance(r, StaleMove) for r in results if r not in wins)
                state = wins[0]
                if state.is_over:
                    break
            assert [c.seq for c in await b.choices(gid)] == list(range(len(state.history)))
            assert (await b.verify_game(gid)).ok
        finally:
            await a.close()
            await b.close()

    def test_two_processes_race(self, tmp_path, db_location):
        path = db_location

        async def setup() -> tuple[int, int, str]:
            store = await Store.open(path)
            try:
                gid, state = await started_game(store)
                seat, choice = pick(state, random.Random(1))
                return gid, seat, choice
            finally:
                await store.close()

        gid, seat, choice = asyncio.run(setup())
        go = tmp_path / "go"
        script = textwrap.dedent(
            f"""
            import asyncio, os, time
            from store import Store, StaleMove
            async def main():
                store = await Store.open({str(path)!r})
                while not os.path.exists({str(go)!r}):
                    time.sleep(0.001)
                try:
                    await store.apply_choice({gid}, 0, {seat}, {choice!r})
                    print("won")
                except StaleMove:
                    print("stale")
                await store.close()
            asyncio.run(main())
            """
        )
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", script],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=child_env(),
                cwd=tmp_path,
            )
            for _ in range(3)
        ]
        time.sleep(0.5)
        go.touch()
        outs = [p.communicate(timeout=60) for p in procs]
        assert all(p.returncode == 0 for p in procs), outs
        assert sorted(o.strip() for o, _ in outs) == ["stale", "stale", "won"]
        assert raw(path, "SELECT COUNT(*) FROM choices") == [(1,)]


CHILD = """
import asyncio, random, sys
from store import Store

async def main(path, game_ids):
    store = await Store.open(path)
    rng = random.Random()
    while True:
        over = 0
        for gid in game_ids:
            state, seq = await store.load_state(gid)
            if state.is_over:
                over += 1
                continue
            d = state.decision
            await store.apply_choice(gid, seq, d.player, rng.choice(d.choices).id)
            print(gid, seq + 1, flush=True)   # printed only after the commit
        if over == len(game_ids):
            print("all over", flush=True)
            await asyncio.sleep(3600)

asyncio.run(main(sys.argv[1], [int(x) for x in sys.argv[2:]]))
"""


class TestCrash:
    @pytest.mark.parametrize("kill_after", [7, 23, 61])
    def test_sigkill_mid_game_loses_no_committed_move(self, tmp_path, db_location, kill_after):
        path = db_location

        async def setup() -> list[int]:
            store = await Store.open(path)
            try:
                return [(await started_game(store, seed=s, channel_id=s))[0] for s in range(3)]
            finally:
                await store.close()

        games = asyncio.run(setup())
        script = tmp_path / "child.py"
        script.write_text(CHILD)
        committed: dict[int, int] = {g: 0 for g in games}
        for round_ in range(3):  # killed three times, resumed each time
            proc = subprocess.Popen(
                [sys.executable, str(script), str(path), *map(str, games)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=child_env(),
                cwd=tmp_path,
            )
            assert proc.stdout is not None
            seen = 0
            while seen < kill_after + round_:
                line = proc.stdout.readline()
                assert line, proc.stderr.read() if proc.stderr else "child died"
                if line.strip() == "all over":
                    break
                gid, seq = map(int, line.split())
                committed[gid] = max(committed[gid], seq)
                seen += 1
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
            assert proc.returncode == -signal.SIGKILL
            proc.stdout.close()
            proc.stderr.close()

            if not path.startswith("postgresql:"):
                assert raw(path, "PRAGMA integrity_check") == [("ok",)]

            async def verify() -> None:
                store = await Store.open(path)
                try:
                    assert await store.integrity_check() == []
                    for gid in games:
                        _, seq = await store.load_state(gid)
                        assert seq >= committed[gid]  # every reported commit is there
                        assert len(await store.choices(gid)) == seq
                        check = await store.verify_game(gid)
                        assert check.ok, check.problem
                finally:
                    await store.close()

            asyncio.run(verify())


HANG_IN_APPLY = """
import asyncio, sys, time
from store import Store
from store.postgres import PostgresTx
from store.sqlite import SQLiteTx

def hanging(record):
    async def hang(self, *args):
        await record(self, *args)  # inside apply_choice's transaction, rows written
        print("inside", flush=True)
        time.sleep(600)
    return hang

async def main(path, gid):
    store = await Store.open(path)
    state, seq = await store.load_state(gid)
    # a move is written by one or the other (record_move_at: computed before its transaction)
    for tx in (SQLiteTx, PostgresTx):
        tx.record_move = hanging(tx.record_move)
        tx.record_move_at = hanging(tx.record_move_at)
    await store.apply_choice(gid, seq, state.decision.player, state.decision.choices[0].id)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


class TestKilledInsideTransaction:
    def test_half_applied_move_vanishes(self, tmp_path, db_location):
        path = db_location

        async def setup() -> tuple[int, str]:
            store = await Store.open(path)
            try:
                gid, state = await started_game(store)
                for _ in range(5):
                    seat, choice = pick(state, random.Random(len(state.history)))
                    state = await store.apply_choice(gid, len(state.history), seat, choice)
                return gid, state.digest()
            finally:
                await store.close()

        gid, digest = asyncio.run(setup())
        script = tmp_path / "hang.py"
        script.write_text(HANG_IN_APPLY)
        proc = subprocess.Popen(
            [sys.executable, str(script), str(path), str(gid)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(),
            cwd=tmp_path,
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "inside"
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)

        async def verify() -> None:
            store = await Store.open(path)  # the killed writer's lock is gone
            try:
                state, seq = await store.load_state(gid)
                assert seq == 5 and state.digest() == digest
                assert len(await store.choices(gid, include_undone=True)) == 5
                assert (await store.verify_game(gid)).ok
                # and the game goes on
                seat, choice = pick(state, random.Random(0))
                await store.apply_choice(gid, 5, seat, choice)
            finally:
                await store.close()

        asyncio.run(verify())


class TestCancellation:
    async def test_cancelled_apply_is_all_or_nothing_and_store_keeps_working(self, db_location):
        store = await Store.open(db_location)
        try:
            gid, state = await started_game(store)
            rng = random.Random(4)
            for yields in range(0, 40):
                state, seq = await store.load_state(gid)
                seat, choice = pick(state, rng)
                task = asyncio.create_task(store.apply_choice(gid, seq, seat, choice))
                for _ in range(yields):
                    await asyncio.sleep(0)
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
                _, after = await store.load_state(gid)
                assert after in (seq, seq + 1)
                assert len(await store.choices(gid)) == after
            assert (await store.verify_game(gid)).ok
        finally:
            await store.close()


class TestWriteJobs:
    """Writes queued together (SQLite: one transaction, one SAVEPOINT each) and reads beside
    them (SQLite: their own connections)."""

    async def test_a_read_sees_only_committed_rows_and_does_not_wait_for_a_write(self, store):
        gid, _ = await started_game(store)
        inside, release = asyncio.Event(), asyncio.Event()

        async def slow(tx):
            await tx.insert_message(gid, "turn", 100, 1, 0, datetime.now(UTC))
            inside.set()
            await release.wait()  # a test only: holds the write transaction open

        write = asyncio.create_task(store._db.write(slow))
        await inside.wait()
        assert await asyncio.wait_for(store.messages(gid), 10) == []
        release.set()
        await write
        assert [m.message_id for m in await store.messages(gid)] == [1]

    @pytest.mark.parametrize("failing", [1, 0], ids=["later-jobs-fail", "first-job-fails"])
    async def test_a_job_failing_after_its_writes_rolls_back_alone(self, store, backend, failing):
        games = [(await started_game(store, seed=i, channel_id=i))[0] for i in range(6)]

        class Boom(Exception):
            pass

        def job(gid: int, fail: bool):
            async def fn(tx):
                await tx.insert_message(gid, "turn", 100, gid, 0, datetime.now(UTC))
                if fail:
                    raise Boom()
                return gid

            return fn

        commits = getattr(store._db, "commits", 0)
        results = await asyncio.gather(
            *(store._db.write(job(g, i % 2 == failing)) for i, g in enumerate(games)),
            return_exceptions=True,
        )
        for i, (gid, result) in enumerate(zip(games, results, strict=True)):
            if i % 2 == failing:
                assert isinstance(result, Boom)
                assert await store.messages(gid) == []
            else:
                assert result == gid
                assert [m.message_id for m in await store.messages(gid)] == [gid]
        if backend == "sqlite":  # queued together: one commit for the three that succeed
            assert store._db.commits - commits == 1


class TestCloseAfterCancel:
    async def test_close_finishes_when_the_writer_task_was_cancelled(self, tmp_path):
        """Shutting down cancels whatever tasks are left (asyncio.run on Ctrl+C, a test
        harness): the SQLite writer task among them. Closing the store afterwards must still
        answer the waiting moves and close every connection; an open aiosqlite connection keeps
        a thread that holds the process alive after the event loop has stopped."""
        store = await Store.open(tmp_path / "games.db")
        gid, state = await started_game(store)
        seat, choice = pick(state, random.Random(3))
        move = asyncio.create_task(store.apply_choice(gid, 0, seat, choice))
        await asyncio.sleep(0)  # the move is queued and the writer task started
        writer = store._db._writer_task
        assert writer is not None
        writer.cancel()
        await asyncio.wait_for(store.close(), timeout=10)
        result = (await asyncio.gather(move, return_exceptions=True))[0]
        assert isinstance(result, BaseException) or result is not None  # answered, not hanging
        assert all(not conn._running for conn in store._db._connections)
        # nothing half-written: the game reopens at a whole number of moves
        again = await Store.open(tmp_path / "games.db")
        try:
            _, seq = await again.load_state(gid)
            assert seq in (0, 1)
        finally:
            await again.close()
