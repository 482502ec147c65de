"""What operating the bot asks of the store (issue 29), on both backends: facts the bot keeps
about itself (the synced commands' hash, migration 0010), games counted by status, and the time
of each transaction reported to the metrics."""

from __future__ import annotations

import random
from typing import Any

from store.testing import play, started_game


async def test_bot_values_are_kept_and_replaced(store: Any) -> None:
    assert await store.bot_value("command_hash:1:global") is None
    await store.set_bot_value("command_hash:1:global", "abc")
    await store.set_bot_value("command_hash:1:42", "guild")
    assert await store.bot_value("command_hash:1:global") == "abc"
    await store.set_bot_value("command_hash:1:global", "def")  # commands changed: replaced
    assert await store.bot_value("command_hash:1:global") == "def"
    assert await store.bot_value("command_hash:1:42") == "guild"


async def test_games_are_counted_by_status(store: Any) -> None:
    assert await store.games_by_status() == {
        "lobby": 0, "active": 0, "finished": 0, "cancelled": 0, "broken": 0
    }  # fmt: skip
    first, _ = await started_game(store, players=2, seed=1)
    second, _ = await started_game(store, players=2, seed=2)
    await started_game(store, players=3, seed=3)
    await store.cancel_game(second)
    await play(store, first, random.Random(5))  # to the end
    counts = await store.games_by_status()
    assert counts["active"] == 1 and counts["cancelled"] == 1 and counts["finished"] == 1
    assert sum(counts.values()) == 3
    elsewhere, _ = await started_game(store, players=2, seed=6, guild_id=2)
    assert (await store.games_by_status(2))["active"] == 1
    assert (await store.games_by_status(1))["active"] == 1
    assert (await store.games_by_status())["active"] == 2
    assert sum((await store.games_by_status(3)).values()) == 0


async def test_transaction_times_are_reported_while_asked(store: Any) -> None:
    times: list[tuple[str, float]] = []
    store.time_transactions(lambda kind, seconds: times.append((kind, seconds)))
    game, _ = await started_game(store, players=2, seed=4)
    before = len(times)
    await play(store, game, random.Random(1), moves=3)
    await store.load_state(game)
    kinds = [k for k, _ in times[before:]]
    assert kinds.count("write") >= 3 and "read" in kinds
    assert all(seconds >= 0 for _, seconds in times)
    store.time_transactions(None)
    counted = len(times)
    await store.load_state(game)
    assert len(times) == counted  # no longer reported
    store.time_transactions(lambda kind, seconds: times.append((kind, seconds)))
    store.time_transactions(lambda kind, seconds: times.append((kind, seconds)))
    await store.get_game(game)
    assert len(times) == counted + 1  # set twice: still reported once
