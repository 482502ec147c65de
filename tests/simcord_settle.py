"""How often simcord looks again while the bot settles, for every simulated Discord in the tests.

simcord settles the bot after each act (a click, a command, each step of ``advance_time``) by
waiting until every bot task is parked. While a task works, simcord waits for a task to *finish*,
for up to ``idle`` seconds (0.05 by default), and then looks again. A task that never finishes
(a ``discord.ext.tasks`` loop: the reminder round, the stand-in sweep) but parks again after a
store call makes every wake-up of it cost the whole 0.05 s of real time: 40 virtual hours of
10-minute reminder rounds were 13 s of waiting in one test, with the processor idle.

Looking again after 10 ms changes nothing of what settles or when (the settle deadline stays a
hang guard and time stays virtual); it only stops the tests from sleeping. Shorter is not better:
at 2 ms the looking itself cost ~10% more CPU in tests where a thread works (an image, an AI
turn) and saved no more wall time. simcord is pinned (pyproject.toml), and its settle loop takes
``idle`` as a keyword with that default: the default is what changes here, so an explicit
``env.settle(idle=...)`` keeps its own.
"""

from __future__ import annotations

from simcord import Env

SETTLE_POLL = 0.01  # seconds; simcord's own default is 0.05


def poll_quickly() -> None:
    """Make every simcord world of this process look again after ``SETTLE_POLL``."""
    defaults = Env._settle_internal.__kwdefaults__  # the keyword-only defaults of the settle loop
    assert defaults is not None and "idle" in defaults, "simcord's settle loop changed: see above"
    defaults["idle"] = SETTLE_POLL


HOUR = 3600.0


async def advance(env: Env, seconds: float, step: float = 2 * HOUR) -> None:
    """Advance virtual time in steps of at most ``step``: simcord's settle limit (a hang guard,
    tests/conftest.py) runs from the start of each ``advance_time``, so one long advance holds
    every reminder round and retry of the bot within one limit, which a busy machine can exceed
    (a shard process's three days ahead did)."""
    while seconds > 0:
        now = min(seconds, step)
        await env.advance_time(now)
        seconds -= now
