"""No secret reaches the log at any level (issue 19): a game played through Discord with every
logger at DEBUG leaves no interaction token, no saved state and no private hand in the log."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from cogs.logsafe import redact
from engine import compiled


def test_tokens_are_cut_out_of_urls_and_payloads() -> None:
    url = (
        "POST https://discord.com/api/v10/webhooks/123/aW50ZXJhY3Rpb24.abc-DEF_9/messages/@original"
    )
    assert redact(url) == "POST https://discord.com/api/v10/webhooks/123/<token>/messages/@original"
    assert "secret" not in redact("/interactions/55/secret/callback")
    assert "secret" not in redact("{'id': '1', 'token': 'secret', 'type': 3}")


async def test_a_game_at_debug_level_logs_no_secret(table: Any, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(8)
    private_seen = False
    for _ in range(120):
        state, _ = await table.store.load_state(game)
        private_seen |= bool(state.decision.private)
        res = await table.move(game, lambda d: rng.randrange(len(d.choices)))
        if private_seen and state.round >= 2:
            break
    assert private_seen
    await table.alice.slash(table.thread(game), "ada hand")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert logged, "nothing was logged at all"
    assert "simcord_interaction_" not in logged  # interaction tokens
    assert "Your hand (" not in logged  # the text of private answers
    assert '"hand"' not in logged and '"rng"' not in logged  # saved states
    assert res.acknowledged


@pytest.fixture
def info_log(caplog: Any) -> Any:
    caplog.set_level(logging.INFO, logger="adas_dream.bot")  # before the bot starts
    return caplog


async def test_the_start_up_log_says_which_engine_runs(info_log: Any, table: Any) -> None:
    started = [r.getMessage() for r in info_log.get_records("setup")]
    assert f"rules engine: {compiled.describe()}" in started
    assert compiled.describe().startswith(("pure Python", "compiled with mypyc"))
