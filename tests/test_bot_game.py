"""Whole games played only through Discord: slash commands, button clicks and selects by
simulated members, with the bot restarted (a fresh bot object on the same database) on the way."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from cogs import media, ui
from engine import replay
from offline.driver import custom_ids, decision_shown, texts


async def restart(env: Any, make_bot: Any, **options: Any) -> None:
    await env.bot.close()
    await env.restart_bot(make_bot(**options))


async def play_to_the_end(
    table: Any,
    env: Any,
    make_bot: Any,
    game: int,
    *,
    seed: int,
    restarts: set[int],
    bot_options: dict[str, Any],
) -> int:
    rng = random.Random(seed)
    moves = 0
    while (await table.store.get_game(game)).status == "active":
        moves += 1
        res = await table.move(game, lambda d: rng.randrange(len(d.choices)), slash=moves % 17 == 0)
        assert res.acknowledged
        assert not any("wrong" in f.content.lower() for f in res.followups)
        if moves in restarts:
            await restart(env, make_bot, **bot_options)
        assert moves < 1500, "the game does not end"
    return moves


async def check_final(table: Any, game: int, players: int, images: bool) -> None:
    rec = await table.store.get_game(game)
    assert rec.status == "finished"
    final = await table.store.latest_message(game, "final")
    assert final is not None
    msg = table.message(table.thread(game), final.message_id)
    assert "wins" in msg.embeds[0].title
    for cat in ("Objectives", "Leftovers", "Total"):
        assert cat in msg.embeds[0].description
    if images:
        assert msg.attachments and msg.attachments[0].filename == "scorepad.png"
        assert (await msg.attachments[0].read()).startswith(b"\x89PNG")
    # the final state equals a replay of the stored choices
    state, seq = await table.store.load_state(game)
    setup = await table.store.load_setup(game)
    choices = [c.choice_id for c in await table.store.choices(game)]
    assert len(choices) == seq
    assert replay(setup, choices) == state
    assert (await table.store.verify_game(game)).ok
    assert len(state.players) == players
    # the old turn messages are one-line records with no controls; nothing is clickable after
    # the end but the lobby's (empty) message
    records = [m for m in table.thread(game).history() if texts(m).startswith("-# Round ")]
    assert len(records) >= players * 3
    for m in table.thread(game).history():
        assert not custom_ids(m), texts(m)[:80]
    for m in records:  # a whole turn, never cut (issue 28)
        assert not m.attachments and len(texts(m)) <= ui.RECORD_MAX and "…" not in texts(m)


@pytest.mark.parametrize("bot_options", [{"images": True}])
async def test_two_player_game_with_images_and_two_restarts(
    simcord_env: Any, table: Any, make_bot: Any, bot_options: dict[str, Any], monkeypatch: Any
) -> None:
    threads: set[str] = set()
    real_focus = media.focus_png

    def focus(*args: Any, **kwargs: Any) -> bytes:
        threads.add(threading.current_thread().name)
        return real_focus(*args, **kwargs)

    monkeypatch.setattr(media, "focus_png", focus)
    game = await table.new_game("alice", ("bob",))
    turn = await table.turn_message(game)
    assert [a.filename for a in turn.attachments] == ["focus.png"]
    moves = await play_to_the_end(
        table, simcord_env, make_bot, game, seed=3, restarts={40, 110}, bot_options=bot_options
    )
    assert moves > 100
    assert table.clicks and table.slashes
    await check_final(table, game, 2, images=True)
    # rendering ran in worker threads, never on the event loop's thread
    assert threads and threading.main_thread().name not in threads


async def test_three_player_game_with_restarts(simcord_env: Any, table: Any, make_bot: Any) -> None:
    game = await table.new_game("alice", ("bob", "carol"))
    moves = await play_to_the_end(
        table, simcord_env, make_bot, game, seed=5, restarts={50, 150, 230}, bot_options={}
    )
    assert moves > 150
    assert table.clicks and table.slashes
    await check_final(table, game, 3, images=False)
    # anyone can see the final scorepad afterwards
    res = await table.carol.slash(table.thread(game), "ada final")
    assert res.ephemeral and "wins" in res.response.embeds[0].title


@pytest.mark.parametrize("bot_options", [{"ai_workers": 1}])
async def test_ai_seats_play_by_themselves(table: Any, bot_options: dict[str, Any]) -> None:
    """AI seats think in a worker process (the search holds the interpreter lock)."""
    res = await table.alice.slash(table.channel, "ada new", players=3, ai=2, ai_policy="random")
    assert res.acknowledged
    game = max(g.id for g in await table.store.games_in_channel(table.channel.id))
    lobby = await table.lobby_message(game)
    await table.alice.click(lobby, custom_id=f"ada:l:start:{game}")
    rng = random.Random(2)
    moves = 0
    while (await table.store.get_game(game)).status == "active":
        state, _ = await table.store.load_state(game)
        rec = await table.store.get_game(game)
        # whenever the bot is idle, it is a human's decision: the AI seats have played
        assert not rec.seat_at(state.decision.player).is_ai
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
        moves += 1
    await check_final(table, game, 3, images=False)
    ai_moves = [c for c in await table.store.choices(game) if rec.seat_at(c.seat).is_ai]
    assert ai_moves and moves > 0
    assert table.env.bot.ada.games.thinking.pool is not None  # thought out in a process


# (no time to answer a click with the message itself: acknowledged first, rendered after)
@pytest.mark.parametrize("bot_options", [{"images": True, "click_budget": 0.0}])
async def test_slow_rendering_is_deferred_and_off_the_loop(
    table: Any, bot_options: dict[str, Any], monkeypatch: Any
) -> None:
    import asyncio
    import time

    real_focus = media.focus_png
    ticks: list[float] = []

    def slow_focus(*args: Any, **kwargs: Any) -> bytes:
        time.sleep(1.5)  # a slow renderer, blocking its worker thread only
        return real_focus(*args, **kwargs)

    game = await table.new_game("alice", ("bob",))
    monkeypatch.setattr(media, "focus_png", slow_focus)

    async def heartbeat() -> None:  # runs on the event loop while the bot renders
        for _ in range(10):
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.1)

    beat = asyncio.create_task(heartbeat())
    res = await table.move(game, lambda d: 0)
    await beat
    assert res.acknowledged and res.deferred
    assert len(ticks) == 10 and max(b - a for a, b in zip(ticks, ticks[1:], strict=False)) < 0.5
    _, seq = await table.store.load_state(game)
    assert decision_shown(await table.turn_message(game), game) == seq
