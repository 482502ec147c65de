"""Issue 33 on both backends: what the store does against a flood of games and damaged rows
found by the second review."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from store import Store


async def test_games_created_counts_every_game_a_member_set_up(store: Store) -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    started = await store.create_game(1, 10, 100, {"players": 2}, now=t0)
    await store.add_seat(started, name="alice", user_id=100, now=t0)
    await store.add_seat(started, name="Babbage", is_ai=True, ai_policy="random", now=t0)
    await store.start_game(started, seed=1, now=t0)
    cancelled = await store.create_game(1, 10, 100, now=t0 + timedelta(hours=1))
    await store.cancel_game(cancelled, now=t0 + timedelta(hours=1))
    await store.create_game(1, 10, 100, now=t0 + timedelta(hours=2))  # a lobby
    await store.create_game(2, 20, 100, now=t0 + timedelta(hours=2))  # another server
    await store.create_game(1, 10, 200, now=t0 + timedelta(hours=2))  # another member
    assert await store.games_created(1, 100, t0) == 3
    assert await store.games_created(1, 100, t0 + timedelta(minutes=30)) == 2
    assert await store.games_created(1, 100, t0 + timedelta(hours=3)) == 0
    assert await store.games_created(2, 100, t0) == 1
