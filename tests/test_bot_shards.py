"""Two bot processes, each running a range of Discord's shards, on one PostgreSQL database
(issue 22): they play games in their own guilds at once, one is killed in the middle of its
games and started again, and afterwards nothing is lost, nothing is doubled, and every reminder
went out once.

Each process is a simcord world on its own thread and event loop (simcord allows one world per
loop). The worlds share only the database, as two machines would. World B's clock runs a day
ahead so that its Discord ids never equal world A's (simcord derives ids from its clock)."""

from __future__ import annotations

import asyncio
import importlib
import os
import re
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from shard_process import Games, make_bot
from simcord_settle import HOUR, advance

from cogs import EXTENSIONS
from engine import replay
from store import Store


async def _world(
    location: str,
    label: str,
    shards: list[int],
    seed: int,
    out: dict[str, Any],
    *,
    kill: bool,
) -> None:
    import simcord

    bot = make_bot(location, shards, seed)
    async with simcord.run(bot, check_errors=False, settle_timeout=60) as env:
        if label == "B":
            await advance(env, 24 * HOUR)  # other ids than world A's
        world = Games(env, label, shards, seed)
        await world.create()
        moves = 0
        for step in range(36):
            moves += await world.move()
            if step == 10:
                await advance(env, 13 * HOUR)  # everyone waits: reminders are due
            if kill and step == 22:
                await env.bot.close()  # this process goes away in the middle of its games
                await advance(env, 15 * 60)  # its claims run out meanwhile
                await env.restart_bot(make_bot(location, shards, seed))
        await advance(env, 13 * HOUR)
        games, people = world.games, world.people
        out[label] = {
            "games": games,
            "moves": moves,
            "dms": {
                uid: sum(reminded(m.content) for m in p.user.dm_channel.history())
                if p.user.dm_channel
                else 0
                for uid, p in people.items()
            },
        }
        await env.bot.close()


def reminded(dm: str) -> int:
    """Reminders one DM carries: several games due at once come as one message listing them
    (issue 30), a line "#id: link" each."""
    if "are waiting for you" in dm:
        return sum(1 for line in dm.splitlines() if line.startswith("#"))
    return 1


def _run(coro: Any, errors: list[BaseException]) -> None:
    try:
        asyncio.run(coro)
    except BaseException as exc:  # reported by the test
        errors.append(exc)


async def test_two_processes_share_one_postgres(pg_server: Any) -> None:
    # The cogs are imported here first: two threads importing them at once for the first time
    # can trip Python 3.11's import deadlock detection, which then hands one of them a module
    # still being run ("cannot import name 'lobby_reliability' from 'cogs.records'"). Two real
    # processes each import on their own.
    for ext in EXTENSIONS:
        importlib.import_module(ext)
    location = pg_server.create_database("shards", template="ada_template")
    out: dict[str, Any] = {}
    errors: list[BaseException] = []
    worlds = [
        threading.Thread(
            target=_run, args=(_world(location, "A", [0, 1], 1, out, kill=False), errors)
        ),
        threading.Thread(
            target=_run, args=(_world(location, "B", [2, 3], 2, out, kill=True), errors)
        ),
    ]
    for w in worlds:
        w.start()
    while any(w.is_alive() for w in worlds):
        await asyncio.sleep(0.2)
    assert not errors, errors
    store = await Store.open(location)
    try:
        all_games = out["A"]["games"] + out["B"]["games"]
        assert len(set(all_games)) == 8
        for game in all_games:
            state, seq = await store.load_state(game)
            live = await store.choices(game)
            assert [c.seq for c in live] == list(range(seq))  # nothing lost, nothing doubled
            assert replay(await store.load_setup(game), [c.choice_id for c in live]) == state
            assert (await store.verify_game(game)).ok
            rec = await store.get_game(game)
            if any(s.is_ai for s in rec.seats):  # the AI seats played their turns
                assert any(rec.seat_at(c.seat).is_ai for c in live)
        for label in ("A", "B"):
            for uid, received in out[label]["dms"].items():
                sent = [
                    r
                    for game in out[label]["games"]
                    for r in await store.reminders(game)
                    if r.user_id == uid and r.status == "sent"
                ]
                assert received == len(sent), (label, uid)  # each reminder went out once
        assert sum(sum(out[label]["dms"].values()) for label in ("A", "B")) > 0
    finally:
        await store.close()


# ---------------------------------------------------------------------------- killed processes

PROCESS = Path(__file__).resolve().parent / "shard_process.py"
# A process plays on, after it said READY, while the test kills and starts the others: it rests
# this long between rounds (real time), so that it still plays meanwhile without taking a whole
# core (unpaced, the two playing processes made ~170 moves nobody waited for: 40% of the test)
PACE = 0.2
ROUTINE = re.compile(r"^(WARNING|ERROR|CRITICAL) ")


class Process:
    """A bot process (tests/shard_process.py) whose stdout the test follows line by line."""

    def __init__(
        self,
        location: str,
        label: str,
        shards: str,
        seed: int,
        hours: float,
        log: Path,
        *,
        wait: bool = False,
    ):
        self.label, self.log = label, log
        self.games: list[int] = []
        self.args = [sys.executable, str(PROCESS), location, label, shards, str(seed)]
        self.args += ["--hours", str(hours), "--pace", str(PACE)] + (["--wait"] if wait else [])

    async def start(self) -> Process:
        self.proc = await asyncio.create_subprocess_exec(
            *self.args, stdout=asyncio.subprocess.PIPE, stderr=self.log.open("wb")
        )
        return self

    async def until(self, word: str, timeout: float = 600) -> None:
        """Read its events until ``word`` (GAME lines are kept)."""
        assert self.proc.stdout is not None
        while True:
            line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
            assert line, f"process {self.label} ended early:\n{self.log.read_text()[-3000:]}"
            said = line.decode().split()
            if said[0] == "GAME":
                self.games.append(int(said[1]))
            if said[0] == word:
                return

    async def kill(self) -> None:
        """SIGKILL, as a machine loses a process: no clean close, nothing flushed."""
        os.kill(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        assert self.proc.returncode == -signal.SIGKILL

    def problems(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if ROUTINE.match(line)]


def _about(lines: list[str], games: list[int]) -> list[str]:
    return [line for line in lines if any(re.search(rf"\bgame {g}\b", line) for g in games)]


async def test_killed_shard_processes_resume_only_their_own_games(
    pg_server: Any, tmp_path: Path
) -> None:
    """Issue 29: two shard processes on PostgreSQL, each killed with SIGKILL mid-game and
    started again, bring up to date only their own shards' games: neither logs a warning
    about the other's games (the other keeps playing them meanwhile), and the threads their
    own games showed are not edited again (issue 34: what a thread shows is recorded)."""
    location = pg_server.create_database("shards_killed", template="ada_template")
    # each process's clock 3 h after the last one's (ids of its own); whole days ahead only made
    # the restarted processes retry their old threads for days, half of this test's work
    a = await Process(location, "A", "0,1", 1, 0, tmp_path / "a.log", wait=True).start()
    b = await Process(location, "B", "2,3", 2, 3, tmp_path / "b.log").start()
    restarted: list[Process] = []
    try:
        await asyncio.gather(a.until("READY"), b.until("READY"))
        await a.kill()  # while B goes on playing
        a2 = await Process(location, "A", "0,1", 3, 6, tmp_path / "a2.log").start()
        restarted.append(a2)
        await a2.until("READY")
        await b.until("MOVE")
        await b.kill()  # mid-game: A's restarted process plays meanwhile
        b2 = await Process(location, "B", "2,3", 4, 9, tmp_path / "b2.log").start()
        restarted.append(b2)
        await asyncio.gather(b2.until("READY"), a2.until("MOVE"))
    finally:
        for p in (a, b, *restarted):
            if p.proc.returncode is None:
                await p.kill()
    a_games, b_games = a.games + a2.games, b.games + b2.games
    assert len(a.games) == len(b.games) == 4
    for p, others in ((a2, b_games), (b2, a_games)):
        text = p.log.read_text()
        assert not _about(p.problems(), others), p.problems()
        assert not _about(text.splitlines(), others)  # not even looked at
        resumed = re.search(r"resuming (\d+) active game\(s\): (\d+) thread\(s\) behind", text)
        assert resumed, text[-2000:]
        assert int(resumed[1]) <= 4  # its own shards' games only (the other has 4 or more)
    # A was killed waiting, having recorded what its threads show: none is edited again
    assert "resuming 4 active game(s): 0 thread(s) behind" in a2.log.read_text()
    store = await Store.open(location)
    try:
        for game in a_games + b_games:
            assert (await store.verify_game(game)).ok
    finally:
        await store.close()
