"""How often simcord looks again while the bot settles, for every simulated Discord in the tests.

simcord settles the bot after each act (a click, a command, each step of ``advance_time``) by
waiting until every bot task is parked. While a task works, simcord waits for a task to *finish*,
for up to ``idle`` seconds (0.05 by default), and then looks again. A task that never finishes
(a ``discord.ext.tasks`` loop: the reminder round, the stand-in sweep) but parks again after a
store call makes every wake-up of it cost the whole 0.05 s of real time: 40 virtual hours of
10-minute reminder rounds were 13 s of waiting in one test, with the processor idle.

Looking again after 2 ms changes nothing of what settles or when (the settle deadline stays a
hang guard and time stays virtual); it only stops the tests from sleeping. simcord is pinned
(pyproject.toml), and its settle loop takes ``idle`` as a keyword with that default: the default
is what changes here, so an explicit ``env.settle(idle=...)`` keeps its own.
"""

from __future__ import annotations

from simcord import Env

SETTLE_POLL = 0.002  # seconds; simcord's own default is 0.05


def poll_quickly() -> None:
    """Make every simcord world of this process look again after ``SETTLE_POLL``."""
    defaults = Env._settle_internal.__kwdefaults__  # the keyword-only defaults of the settle loop
    assert defaults is not None and "idle" in defaults, "simcord's settle loop changed: see above"
    defaults["idle"] = SETTLE_POLL
