"""Retrying what failed, per game, with a growing pause and one warning per stretch of trouble.

During a Discord outage every REST call fails. A game whose thread could not be updated (or
whose reminder could not be sent) is tried again after 1 minute, then 2, 4, 8... up to 30
minutes between attempts: not at the fixed pace of the loop that notices it. The first failure
of a stretch is one warning; later attempts are INFO lines ("still failing"); when it works
again, one INFO line says after how many attempts and how long.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

FIRST_PAUSE = timedelta(minutes=1)
LONGEST_PAUSE = timedelta(minutes=30)


@dataclass
class Trouble:
    failures: int
    since: datetime
    next_try: datetime


class Backoff:
    """Per-game backoff for one kind of work (``what``, e.g. "updating the thread")."""

    def __init__(
        self,
        what: str,
        log: logging.Logger,
        *,
        first: timedelta = FIRST_PAUSE,
        longest: timedelta = LONGEST_PAUSE,
    ) -> None:
        self.what = what
        self.log = log
        self.first = first
        self.longest = longest
        self.troubles: dict[int, Trouble] = {}

    def due(self, game_id: int, now: datetime) -> bool:
        """May this game's work be tried now? (Always, unless it failed and its pause runs.)"""
        trouble = self.troubles.get(game_id)
        return trouble is None or now >= trouble.next_try

    def pause(self, failures: int) -> timedelta:
        """The pause after ``failures`` failures in a row: doubling from ``first``, capped."""
        return min(self.first * (2 ** min(failures - 1, 30)), self.longest)

    def failed(self, game_id: int, now: datetime, error: BaseException) -> None:
        trouble = self.troubles.get(game_id)
        if trouble is None:
            trouble = self.troubles[game_id] = Trouble(0, now, now)
        trouble.failures += 1
        pause = self.pause(trouble.failures)
        trouble.next_try = now + pause
        why = _short(error)
        if trouble.failures == 1:
            self.log.warning(
                "game %s: %s failed (%s); trying again with growing pauses (up to %d min),"
                " one line when it works again",
                game_id,
                self.what,
                why,
                self.longest // timedelta(minutes=1),
            )
        else:
            self.log.info(
                "game %s: %s still failing after %d attempts (%s); next try in %s",
                game_id,
                self.what,
                trouble.failures,
                why,
                pause,
            )

    def succeeded(self, game_id: int, now: datetime) -> None:
        trouble = self.troubles.pop(game_id, None)
        if trouble is not None:
            self.log.info(
                "game %s: %s works again after %d failed attempt(s) over %s",
                game_id,
                self.what,
                trouble.failures,
                now - trouble.since,
            )

    def forget(self, game_id: int) -> None:
        self.troubles.pop(game_id, None)


def _short(error: BaseException) -> str:
    cause = error.__cause__ or error
    text = str(cause).splitlines()[0] if str(cause) else ""
    return f"{type(cause).__name__}: {text}"[:200]
