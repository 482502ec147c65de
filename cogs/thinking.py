"""AI thinking shared fairly between servers and games, on worker processes that heal.

Every AI turn (an AI seat's, a stand-in's) is a job in one queue. Jobs are served by the AI
workers (``BotConfig.ai_workers`` processes; by default one per core, one core left to the
bot) in turns: a free worker takes the waiting server it served least recently, and of that
server's games the one it served least recently. A server with forty AI games thus gets the
same share of thinking as a server with one, and its games share theirs.

Search turns are the costly ones (a budget of seconds each). When ``search_bound`` of them are
already waiting, a new one is thought out by the greedy policy instead (a log line says so), so
a busy bot answers in (workers' share) × (greedy time), not in (queued searches) × (search
budget).

A worker process that dies (the OOM killer, a crash, an operator's ``kill``) breaks the whole
``ProcessPoolExecutor``: every job on it fails with ``BrokenProcessPool``. The broken pool is then
replaced by a new one (a log line says so) and the job is thought out again, so the waiting
seats resume without a restart.

Workers use exactly the engine the bot loaded: each job carries the bot's engine fingerprint
(``engine.compiled.fingerprint``), and a worker whose engine differs (the sources or the build
changed on disk since the bot started) refuses it; the jobs are then thought out in a thread of
the bot's own process, with the engine the moves are applied with.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from cogs import ai_worker
from engine import compiled

log = logging.getLogger(__name__)

HEAL_ATTEMPTS = 3  # a job meeting this many broken pools in a row fails (its game retries later)
CHEAPER = {"search": "greedy"}  # the policy a long queue plays instead
REMEMBERED = 4096  # servers and games whose last turn of thinking is remembered


def default_workers() -> int:
    """AI worker processes by default: one per core this process may use, one left to the
    bot's event loop and pictures (at least one)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 2
    return max(1, cores - 1)


@dataclass(eq=False)
class Job:
    guild_id: int
    game_id: int
    state_json: str
    policy: str
    seed: int
    done: asyncio.Future[list[str]] = field(repr=False)


Work = Callable[[str, str | None, int, str | None], list[str]]


class Thinking:
    """The AI's queue and workers (one per bot). ``workers`` 0: think in a thread of this
    process (tests); ``search_bound``: waiting search turns before new ones play greedy
    (default: twice the workers)."""

    def __init__(
        self, workers: int, *, search_bound: int | None = None, work: Work | None = None
    ) -> None:
        self.workers = workers
        self.slots = max(1, workers)
        self.search_bound = search_bound if search_bound is not None else 2 * self.slots
        self.work: Work = work or ai_worker.turn_choices
        self.engine = compiled.fingerprint()
        self.pool: ProcessPoolExecutor | None = None
        self.in_process = workers <= 0  # also set when the workers' engine is not the bot's
        # server -> game -> its waiting jobs (in order of arrival)
        self.waiting: dict[int, dict[int, deque[Job]]] = {}
        self.last_served: dict[tuple[str, int], int] = {}  # ("guild"/"game", id) -> tick
        self.ticks = 0
        self.running = 0
        self.heals = 0  # pools replaced since start
        self.cheapened = 0  # search turns played by a cheaper policy since start
        self.served: list[tuple[int, int]] = []  # (server, game) of the last jobs started
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the queue

    def waiting_searches(self) -> int:
        return sum(
            1
            for games in self.waiting.values()
            for jobs in games.values()
            for job in jobs
            if job.policy == "search"
        )

    def queued(self) -> int:
        return sum(len(jobs) for games in self.waiting.values() for jobs in games.values())

    async def think(
        self, guild_id: int, game_id: int, state_json: str, policy: str | None, seed: int
    ) -> list[str]:
        """A whole AI turn's choice ids, when the queue comes to it."""
        chosen = policy or "greedy"
        if chosen in CHEAPER and self.waiting_searches() >= self.search_bound:
            log.info(
                "game %s: %d search turns are waiting; this turn is thought out by %s",
                game_id,
                self.waiting_searches(),
                CHEAPER[chosen],
            )
            chosen = CHEAPER[chosen]
            self.cheapened += 1
        job = Job(
            guild_id, game_id, state_json, chosen, seed, asyncio.get_running_loop().create_future()
        )
        games = self.waiting.setdefault(guild_id, {})
        games.setdefault(game_id, deque()).append(job)
        self._dispatch()
        return await job.done

    def _next(self) -> Job | None:
        """The next job in fair order: of the servers with a waiting job, the one served least
        recently (never: first); of its games, the one served least recently; that game's
        oldest job."""
        while self.waiting:
            guild_id = min(self.waiting, key=lambda g: self.last_served.get(("guild", g), -1))
            games = self.waiting[guild_id]
            game_id = min(games, key=lambda g: self.last_served.get(("game", g), -1))
            jobs = games[game_id]
            job = jobs.popleft()
            if not jobs:
                del games[game_id]
            if not games:
                del self.waiting[guild_id]
            if not job.done.done():  # (a cancelled waiter: its game stopped)
                self._served(guild_id, game_id)
                return job
        return None

    def _served(self, guild_id: int, game_id: int) -> None:
        self.ticks += 1
        self.last_served[("guild", guild_id)] = self.ticks
        self.last_served[("game", game_id)] = self.ticks
        if len(self.last_served) > REMEMBERED:  # forget the longest unserved (bounded memory)
            for key in sorted(self.last_served, key=self.last_served.__getitem__)[
                : REMEMBERED // 2
            ]:
                del self.last_served[key]

    def _dispatch(self) -> None:
        while self.running < self.slots:
            job = self._next()
            if job is None:
                return
            self.running += 1
            self.served = [*self.served[-99:], (job.guild_id, job.game_id)]
            task = asyncio.get_running_loop().create_task(self._serve(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _serve(self, job: Job) -> None:
        try:
            ids = await self._execute(job)
        except asyncio.CancelledError:
            if not job.done.done():
                job.done.cancel()
            raise
        except Exception as exc:
            if not job.done.done():
                job.done.set_exception(exc)
        else:
            if not job.done.done():
                job.done.set_result(ids)
        finally:
            self.running -= 1
            self._dispatch()

    # ------------------------------------------------------------------ the workers

    async def _execute(self, job: Job) -> list[str]:
        args = (job.state_json, job.policy, job.seed)
        for attempt in range(1, HEAL_ATTEMPTS + 1):
            pool = None if self.in_process else self._pool()
            try:
                if pool is None:  # this process: its engine is the bot's
                    return await asyncio.to_thread(self.work, *args, None)
                return await asyncio.get_running_loop().run_in_executor(
                    pool, self.work, *args, self.engine
                )
            except BrokenProcessPool:
                self._heal(pool, job.game_id, attempt)
                if attempt == HEAL_ATTEMPTS:
                    raise
            except ai_worker.OtherEngine as exc:
                log.error(
                    "AI workers run another engine than the bot (%s): AI turns are thought "
                    "out in the bot's process until it restarts",
                    exc,
                )
                self.in_process = True
        raise AssertionError("unreachable")

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self.pool

    def _heal(self, broken: ProcessPoolExecutor | None, game_id: int, attempt: int) -> None:
        """Replace a pool that a dead worker broke (once, however many jobs saw it break)."""
        if broken is None or broken is not self.pool:
            return  # already replaced by another job
        self.pool = None
        self.heals += 1
        broken.shutdown(wait=False, cancel_futures=True)
        log.error(
            "an AI worker process died (game %s, attempt %d): starting new AI workers "
            "(%d replaced since start)",
            game_id,
            attempt,
            self.heals,
        )

    def worker_pids(self) -> list[int]:
        """The worker processes' ids (for tests and the operator)."""
        processes = getattr(self.pool, "_processes", None) or {}
        return list(processes)

    def close(self) -> None:
        for games in self.waiting.values():
            for jobs in games.values():
                for job in jobs:
                    job.done.cancel()
        self.waiting.clear()
        for task in self._tasks:
            task.cancel()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
