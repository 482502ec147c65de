"""AI thinking (cogs/thinking.py): a fair queue across servers and games, a bound on waiting
search turns, and worker processes that heal when one dies (issue 33)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from typing import Any

import pytest

from cogs import ai_worker
from cogs.thinking import Thinking, default_workers
from engine import GameSetup, compiled, new_game


class Recorder:
    """A stand-in for the AI's work: records which (game, policy) ran, in order; the first job
    waits for ``release`` so that the others queue up behind it."""

    def __init__(self) -> None:
        self.ran: list[tuple[int, str | None]] = []
        self.release = threading.Event()
        self.started = threading.Event()

    def __call__(
        self, state_json: str, policy: str | None, seed: int, engine: str | None
    ) -> list[str]:
        if not self.ran:
            self.started.set()
            self.release.wait(30)
        self.ran.append((seed, policy))
        return [f"c{seed}"]


async def queue_up(thinking: Thinking, recorder: Recorder, jobs: list[tuple[int, int]]) -> Any:
    """Start the jobs (server, game) in order, the first one blocking the only slot; their seed
    is the job's index."""
    tasks = [
        asyncio.create_task(thinking.think(guild, game, "{}", "greedy", i))
        for i, (guild, game) in enumerate(jobs)
    ]
    await asyncio.to_thread(recorder.started.wait, 30)
    for _ in range(len(jobs)):
        await asyncio.sleep(0)  # every think() has queued its job
    return tasks


class TestFairQueue:
    async def test_servers_then_games_take_turns(self) -> None:
        recorder = Recorder()
        thinking = Thinking(0, work=recorder)
        # server 1 has three games with two turns each queued, server 2 one game: first come
        # first served would play all of server 1's before server 2's
        jobs = [(1, 10), (1, 10), (1, 11), (1, 11), (1, 12), (1, 12), (2, 20), (2, 20)]
        tasks = await queue_up(thinking, recorder, jobs)
        assert thinking.queued() == len(jobs) - 1 and thinking.running == 1
        recorder.release.set()
        results = await asyncio.gather(*tasks)
        assert results == [[f"c{i}"] for i in range(len(jobs))]  # each its own answer
        served = [jobs[seed] for seed, _ in recorder.ran]
        assert served == [
            (1, 10),  # (already running)
            (2, 20),  # the other server next
            (1, 11),  # then server 1's next game
            (2, 20),
            (1, 12),
            (1, 10),
            (1, 11),
            (1, 12),
        ]
        assert thinking.served == served and thinking.queued() == 0 and thinking.running == 0

    async def test_long_queues_play_search_turns_greedy(self, caplog: Any) -> None:
        recorder = Recorder()
        thinking = Thinking(0, search_bound=2, work=recorder)
        caplog.set_level(logging.INFO, "cogs.thinking")
        tasks = [asyncio.create_task(thinking.think(1, 1, "{}", "search", 0))]
        await asyncio.to_thread(recorder.started.wait, 30)
        for i in range(1, 6):
            tasks.append(asyncio.create_task(thinking.think(1, 1 + i, "{}", "search", i)))
            await asyncio.sleep(0)
        assert thinking.waiting_searches() == 2 and thinking.queued() == 5
        assert thinking.cheapened == 3
        recorder.release.set()
        await asyncio.gather(*tasks)
        policies = dict(recorder.ran)
        assert [policies[i] for i in range(6)] == ["search"] * 3 + ["greedy"] * 3
        assert sum("search turns are waiting" in r.getMessage() for r in caplog.records) == 3

    async def test_a_stopped_game_leaves_the_queue(self) -> None:
        recorder = Recorder()
        thinking = Thinking(0, work=recorder)
        tasks = await queue_up(thinking, recorder, [(1, 1), (1, 2), (1, 3)])
        tasks[1].cancel()  # game 2's AI was stopped while its turn waited
        recorder.release.set()
        await asyncio.gather(tasks[0], tasks[2])
        assert [seed for seed, _ in recorder.ran] == [0, 2]

    def test_workers_by_cores(self) -> None:
        cores = len(os.sched_getaffinity(0))
        assert default_workers() == max(1, cores - 1)


def a_state_json() -> str:
    return new_game(GameSetup(players=2, seed=3)).to_json()


class TestWorkers:
    async def test_a_dead_worker_is_replaced_and_thinking_resumes(self, caplog: Any) -> None:
        thinking = Thinking(1)
        caplog.set_level(logging.ERROR, "cogs.thinking")
        try:
            state = a_state_json()
            first = await thinking.think(1, 1, state, "random", 5)
            assert first
            (pid,) = thinking.worker_pids()
            os.kill(pid, signal.SIGKILL)  # the OOM killer, a crash, an operator
            again = await thinking.think(1, 1, state, "random", 5)
            assert again == first  # the same turn, thought out by a new worker
            assert thinking.heals == 1 and thinking.worker_pids() != [pid]
            assert any("AI worker process died" in r.getMessage() for r in caplog.records)
            assert await thinking.think(1, 2, state, "random", 6)  # and it goes on
            assert thinking.heals == 1
        finally:
            thinking.close()

    async def test_a_worker_on_another_engine_is_not_used(self, caplog: Any) -> None:
        caplog.set_level(logging.ERROR, "cogs.thinking")
        state = a_state_json()
        with pytest.raises(ai_worker.OtherEngine):
            ai_worker.turn_choices(state, "random", 5, "compiled:another-build")
        thinking = Thinking(1)
        thinking.engine = "python:other-sources"  # as if the sources changed on disk meanwhile
        try:
            ids = await thinking.think(1, 1, state, "random", 5)
            assert ids == ai_worker.turn_choices(state, "random", 5, compiled.fingerprint())
            assert thinking.in_process  # thought out in the bot's own process from now on
            assert any("another engine" in r.getMessage() for r in caplog.records)
        finally:
            thinking.close()


@pytest.mark.parametrize("bot_options", [{"ai_workers": 1}])
async def test_ai_seats_play_on_after_their_worker_dies(
    table: Any, bot_options: dict[str, Any], caplog: Any
) -> None:
    """Issue 33: a killed AI worker stopped every AI seat until a restart."""
    import random

    caplog.set_level(logging.ERROR, "cogs.thinking")
    game = await table.new_game("alice", (), ai=1, ai_policy="random")
    thinking = table.env.bot.ada.games.thinking
    rng = random.Random(4)

    async def ai_moves() -> int:
        rec = await table.store.get_game(game)
        return sum(rec.seat_at(c.seat).is_ai for c in await table.store.choices(game))

    while not thinking.worker_pids():  # until the AI seat has thought once
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    before = await ai_moves()
    for pid in thinking.worker_pids():
        os.kill(pid, signal.SIGKILL)
    while await ai_moves() == before and (await table.store.get_game(game)).status == "active":
        # whenever the bot is idle it is alice's turn again: the AI seat has played
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    assert await ai_moves() > before
    assert thinking.heals == 1
    assert any("AI worker process died" in r.getMessage() for r in caplog.records)
