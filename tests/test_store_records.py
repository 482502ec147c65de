"""The bot remembers (issue 30), in the store: results, sums and ratings written by the game end's
own transaction, equal to a rebuild from scratch; AI seats unrated; ties; stand-in turns; time
away and privacy. On SQLite and PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from store import Store, StoreError
from store.tally import MODEL, Rating, rate
from store.testing import pick

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


async def finished_game(
    store: Store,
    rng: random.Random,
    *,
    users: list[int | None],
    guild_id: int = 1,
    at: datetime = T0,
    seed: int = 1,
    standin: int | None = None,
) -> int:
    """A game of these seats (None: an AI seat) played to its end with random choices, a
    minute a move from ``at``; ``standin``: a seat whose every turn a stand-in plays."""
    game = await store.create_game(guild_id, 10, users[0] or 1, {"players": len(users)}, now=at)
    for i, user in enumerate(users):
        if user is None:
            await store.add_seat(game, name=f"AI {i}", is_ai=True, ai_policy="random", now=at)
        else:
            await store.add_seat(game, name=f"member {user}", user_id=user, now=at)
    state = await store.start_game(game, seed, now=at)
    rec = await store.get_game(game)
    seq = 0
    while not state.is_over:
        at += timedelta(minutes=1)
        seat, choice = pick(state, rng)
        if standin is not None and rec.seat_at(seat).join_order == standin:
            await store.note_standin(game, seat, seq, now=at)
        state = await store.apply_choice(game, seq, seat, choice, now=at)
        seq += 1
    return game
