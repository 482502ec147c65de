"""Helpers for tests and benchmarks (no SQL here): start a game, play random moves."""

from __future__ import annotations

import inspect
import random
from datetime import datetime
from typing import Any

from engine import GameState

from .store import Store


async def started_game(
    store: Store,
    *,
    players: int = 3,
    seed: int = 42,
    guild_id: int = 1,
    channel_id: int = 100,
    first_user: int = 1000,
    now: datetime | None = None,
) -> tuple[int, GameState]:
    """Create a lobby with ``players`` human seats (users first_user, first_user+1...),
    start it and return (game_id, initial state)."""
    game_id = await store.create_game(
        guild_id, channel_id, first_user, {"players": players}, now=now
    )
    for i in range(players):
        await store.add_seat(game_id, name=f"player{i}", user_id=first_user + i, now=now)
    state = await store.start_game(game_id, seed, now=now)
    return game_id, state


def pick(state: GameState, rng: random.Random) -> tuple[int, str]:
    """(seat, choice_id) of a random legal choice."""
    decision = state.decision
    assert decision is not None, "the game is over"
    return decision.player, rng.choice(decision.choices).id


async def play(
    store: Store, game_id: int, rng: random.Random, moves: int | None = None
) -> GameState:
    """Apply random legal choices through the store (``moves`` of them, or to the end)."""
    state, seq = await store.load_state(game_id)
    done = 0
    while not state.is_over and (moves is None or done < moves):
        seat, choice = pick(state, rng)
        state = await store.apply_choice(game_id, seq, seat, choice)
        seq += 1
        done += 1
    return state


class StoreCalls:
    """Counts the calls of a store's public coroutine methods (what the bot asks the database:
    each is one transaction), by name, from when it is made on. Structure, not time."""

    def __init__(self, store: Store) -> None:
        self.names: list[str] = []
        for name in dir(type(store)):
            if not name.startswith("_") and inspect.iscoroutinefunction(getattr(Store, name)):
                setattr(store, name, self._counted(name, getattr(store, name)))

    def _counted(self, name: str, method: Any) -> Any:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.names.append(name)
            return await method(*args, **kwargs)

        return counted

    def since(self, mark: int) -> list[str]:
        """The calls made after ``len(self.names)`` was ``mark``."""
        return self.names[mark:]
