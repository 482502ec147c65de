"""A Discord outage (issue 29): while every REST call to channels fails, the moves players made
are kept, the bot retries each game's thread with a growing pause (not at a fixed pace) and logs
one warning per game, not one per attempt; when Discord is back, play recovers."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from simcord_settle import HOUR, advance

from offline.driver import decision_shown

ROUND = 600.0  # the tests' reminder round (tests/conftest.py): time advances one round at a time


def warnings(caplog: Any) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("cogs")]


# The click acknowledged first and the turn message edited after (no time left for the one-call
# answer), so the outage hits the edit; the one-call answer's own fallback to an edit is tested
# in tests/test_bot_clicks.py.
@pytest.mark.parametrize("bot_options", [{"click_budget": 0.0}])
async def test_an_outage_logs_a_bounded_number_of_warnings_and_play_recovers(
    table: Any, caplog: Any, bot_options: dict[str, Any]
) -> None:
    games = [await table.new_game("alice", ("bob",)) for _ in range(2)]
    table.env.inject_error("*", "/channels/*", status=503, times=None)
    table.env.inject_error("*", "/guilds/*", status=503, times=None)
    table.env.inject_error("*", "/users/*", status=503, times=None)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        for game in games:  # a move each: kept, but the thread can't show it
            await table.move(game, lambda d: 0)
        moved = [(await table.store.load_state(g))[1] for g in games]
        await advance(table.env, 14 * HOUR, ROUND)  # past the first reminders, many repair rounds
        during = warnings(caplog)
        per_game = {g: [r for r in during if f"game {g}" in r.getMessage()] for g in games}
        # one warning per trouble (the thread, the reminder), not one per attempt
        assert all(len(found) <= 2 for found in per_game.values()), [r.getMessage() for r in during]
        assert len(during) <= 2 * len(games), [r.getMessage() for r in during]
        for game in games:  # retried with pauses growing to 30 min: at most 2 an hour
            attempts = [
                r
                for r in caplog.records
                if r.getMessage().startswith(f"game {game}: updating the thread still failing")
            ]
            assert 5 <= len(attempts) <= 14 * 2 + 2

        table.env.backend.faults.clear()
        await advance(table.env, 1 * HOUR, ROUND)
    for game, seq in zip(games, moved, strict=True):
        assert (await table.store.load_state(game))[1] == seq  # nothing lost
        assert decision_shown(await table.turn_message(game), game) == seq  # shown again
    assert any("works again" in r.getMessage() for r in caplog.records)
    await table.move(games[0], lambda d: 0)  # and play goes on
    assert decision_shown(await table.turn_message(games[0]), games[0]) == moved[0] + 1
    table.env.errors  # noqa: B018 - the failures were injected and handled
