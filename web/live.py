"""Live updates of the board page: which games changed, told to the pages that follow them.

The game service calls ``Live.changed(game_id, seq)`` once a move, an undo or an AI move is
committed (``GameService.watchers``), before the thread is updated; every page following that
game (``Live.follow``) wakes up and reads its own view again. Nothing is polled: a page that
follows a game that does not change costs nothing but a keep-alive line now and then.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class Follower:
    """One page following one game: ``wait`` returns the latest seq once the game changed
    (or None when the server stops)."""

    def __init__(self, live: Live, game_id: int) -> None:
        self.live, self.game_id = live, game_id
        self.event = asyncio.Event()

    async def wait(self, timeout: float) -> int | None:
        """The game's seq after a change, or raises TimeoutError after ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            await self.event.wait()
        self.event.clear()
        return None if self.live.closing else self.live.seq.get(self.game_id)


class Live:
    def __init__(self) -> None:
        self.seq: dict[int, int] = {}  # games followed by a page -> their latest seq
        self.followers: dict[int, set[Follower]] = {}
        self.closing = False

    def changed(self, game_id: int, seq: int) -> None:
        followers = self.followers.get(game_id)
        if not followers:
            self.seq.pop(game_id, None)  # nobody follows it: keep nothing
            return
        self.seq[game_id] = seq
        for f in followers:
            f.event.set()

    @contextlib.contextmanager
    def follow(self, game_id: int) -> Iterator[Follower]:
        follower = Follower(self, game_id)
        self.followers.setdefault(game_id, set()).add(follower)
        try:
            yield follower
        finally:
            left = self.followers.get(game_id, set())
            left.discard(follower)
            if not left:
                self.followers.pop(game_id, None)
                self.seq.pop(game_id, None)

    def close(self) -> None:
        """The server stops: every following page's stream ends (the page reconnects later)."""
        self.closing = True
        for followers in self.followers.values():
            for f in followers:
                f.event.set()

    def following(self) -> int:
        return sum(len(f) for f in self.followers.values())
