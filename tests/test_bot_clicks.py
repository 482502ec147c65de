"""One REST call per click (issue 28): a click on the turn message is answered with the updated
message itself when it is ready in time, and acknowledged first (then edited) when it is not.

The calls are counted in simcord's request log, never timed: the budget is forced to "plenty"
(simcord's clock stands still while the bot works, as a fast bot's would) or to nothing."""

from __future__ import annotations

import asyncio
import importlib.util
import random
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.clicks import ClickAnswer
from offline.driver import Clicker, custom_ids, decision_shown, texts
from tests.engine_helpers import choose
from tests.test_bot_errors import consistent, private_text

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_calls", ROOT / "bench" / "bench_calls.py")
assert _spec is not None and _spec.loader is not None
bench_calls = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_calls)

EDITED = "response: message edited"
ACKNOWLEDGED = "response: acknowledge (click)"
PRIVATE = "response: private answer or message"


def calls_since(env: Any, before: int) -> list[str]:
    """The kinds of the REST calls the bot made since the ``before``-th (as bench_calls says)."""
    return [bench_calls.kind_of(r.method, r.path, r.json) for r in env.http_requests[before:]]


class CountingClicker(Clicker):
    """A Clicker that notes the REST calls each click cost, by kind (as bench_calls counts)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.costs: list[tuple[str, bool, list[str]]] = []  # (custom id, on a private msg, kinds)

    async def act(self, actor: Any, verb: str, target: Any, *args: Any, **kwargs: Any) -> Any:
        before = len(self.env.http_requests)
        res = await super().act(actor, verb, target, *args, **kwargs)
        kinds = calls_since(self.env, before)
        self.costs.append((kwargs.get("custom_id", ""), bool(target.flags.ephemeral), kinds))
        return res


async def play_counted(table: Any, game: int, moves: int, seed: int = 5) -> CountingClicker:
    table.clicker = clicker = CountingClicker(table.env)
    rng = random.Random(seed)
    for _ in range(moves):
        state, _ = await table.store.load_state(game)
        if state.decision is None:
            break
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    return clicker


async def test_a_click_costs_one_call_and_a_decision_at_most_two(table: Any) -> None:
    game = await table.new_game("alice", ("bob", "carol"))
    clicker = await play_counted(table, game, 80)
    plain = 0
    for cid, on_private, kinds in clicker.costs:
        assert 1 <= len(kinds) <= 3, (cid, kinds)
        assert ACKNOWLEDGED not in kinds, (cid, kinds)  # always in time here: never acknowledged
        if not on_private and len(kinds) == 1:
            plain += 1
            assert kinds in ([EDITED], [PRIVATE]), (cid, kinds)
        if len(kinds) == 3:  # a private step ending the turn: private note, record, new turn
            assert on_private and kinds[0] == "message edited", (cid, kinds)
    assert plain > len(clicker.costs) // 2
    # a decision (its clicks together) costs at most two calls, but for a private step that
    # ends the turn (three: the private message, the old turn's record, the new turn message)
    decisions = len({cid.split(":")[3] for cid, _, _ in clicker.costs if cid.count(":") >= 3})
    total = sum(len(kinds) for _, _, kinds in clicker.costs)
    assert total <= 2 * decisions + sum(len(k) == 3 for _, _, k in clicker.costs)
    await consistent(table, game)


async def test_the_answer_is_the_updated_turn_message(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    msg = await table.turn_message(game)
    state, seq = await table.store.load_state(game)
    table.clicker = clicker = CountingClicker(table.env)
    res = await table.move(game, lambda d: 0)
    new_state, new_seq = await table.store.load_state(game)
    assert new_seq == seq + 1
    turn_passed = new_state.decision.player != state.decision.player
    last = clicker.costs[-1][2]
    if turn_passed:  # the clicked message became the record, the new turn was posted
        assert last == [EDITED, "message posted"]
        assert decision_shown(table.message(table.thread(game), msg.id), game) is None
    else:
        assert last[0] == EDITED
        assert res.response is not None and res.response.id == msg.id
        assert decision_shown(await table.turn_message(game), game) == new_seq


@pytest.mark.parametrize("bot_options", [{"click_budget": 0.0}])
async def test_no_time_left_acknowledges_first_then_edits(
    table: Any, bot_options: dict[str, Any]
) -> None:
    game = await table.new_game("alice", ("bob", "carol"))
    clicker = await play_counted(table, game, 30)
    for cid, _on_private, kinds in clicker.costs:
        first = kinds[0]
        assert first in (ACKNOWLEDGED, "response: acknowledge (thinking)"), (cid, kinds)
        assert EDITED not in kinds and PRIVATE not in kinds
    _, seq = await table.store.load_state(game)
    assert decision_shown(await table.turn_message(game), game) == seq
    await consistent(table, game)


async def test_a_failed_answer_falls_back_to_a_message_edit(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(2)
    for _ in range(40):  # a position where the next click keeps the same player, in public
        state, seq = await table.store.load_state(game)
        msg = await table.turn_message(game)
        if not state.decision.private and any(c.startswith("ada:c:") for c in custom_ids(msg)):
            idx = next(int(c.split(":")[4]) for c in custom_ids(msg) if c.startswith("ada:c:"))
            after = state.copy()
            choose(after, state.decision.choices[idx].id)
            dec = after.decision
            if dec and dec.player == state.decision.player and not dec.private:
                break
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    else:
        raise AssertionError("no such position")
    table.env.inject_error("POST", "/interactions/*/*/callback", status=500, times=1)
    mover = table.by_id[(await table.store.get_game(game)).seat_at(state.decision.player).user_id]
    before = len(table.env.http_requests)
    res = await mover.click(msg, custom_id=f"ada:c:{game}:{seq}:{idx}")
    kinds = calls_since(table.env, before)
    assert res.acknowledged
    assert kinds == [EDITED, "message edited", ACKNOWLEDGED]  # failed, edited, acknowledged
    assert decision_shown(await table.turn_message(game), game) == seq + 1
    table.env.errors  # noqa: B018 - the injected failure was met
    await consistent(table, game)


async def test_a_refused_click_is_one_private_answer(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    state, seq = await table.store.load_state(game)
    rec = await table.store.get_game(game)
    mover = rec.seat_at(state.decision.player).user_id
    waiting = table.by_id[next(s.user_id for s in rec.seats if s.user_id != mover)]
    msg = await table.turn_message(game)
    cid = next(c for c in custom_ids(msg) if c.startswith(("ada:c:", "ada:g:", "ada:p:")))
    before = len(table.env.http_requests)
    res = await waiting.click(msg, custom_id=cid)
    kinds = calls_since(table.env, before)
    assert kinds == [PRIVATE]
    assert "not your turn" in private_text(res)
    assert (await table.store.load_state(game))[1] == seq


async def test_my_hand_and_the_board_are_one_private_answer(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    msg = await table.turn_message(game)
    for cid in (f"ada:h:{game}", f"ada:v:{game}", f"ada:m:{game}"):
        before = len(table.env.http_requests)
        res = await table.alice.click(msg, custom_id=cid)
        assert calls_since(table.env, before) == [PRIVATE]
        assert res.ephemeral and (texts(res.response) or private_text(res))


class FakeResponse:
    def __init__(self, acknowledged: asyncio.Event) -> None:
        self.calls: list[str] = []
        self.acknowledged = acknowledged

    def is_done(self) -> bool:
        return bool(self.calls)

    async def defer(self, **kwargs: Any) -> None:
        self.calls.append("defer")
        self.acknowledged.set()

    async def edit_message(self, **fields: Any) -> None:
        self.calls.append("edit")


async def test_the_budget_runs_from_the_interaction_s_creation() -> None:
    """On a plain event loop (real time): a click created longer ago than the budget is
    acknowledged at once; a fresh one once its budget has run out, after which the updated
    message goes the ordinary way. Nothing here waits on a duration: only on the events."""
    acknowledged = asyncio.Event()
    old = SimpleNamespace(
        id=1,
        created_at=discord.utils.utcnow() - timedelta(seconds=5),
        message=SimpleNamespace(id=10),
        response=FakeResponse(acknowledged),
    )
    answer = ClickAnswer(old, 2.0)  # type: ignore[arg-type]
    await acknowledged.wait()
    assert await answer.edit_message(10, view=None) is None
    await answer.finish()
    assert old.response.calls == ["defer"]

    acknowledged = asyncio.Event()
    fresh = SimpleNamespace(
        id=2,
        created_at=discord.utils.utcnow(),
        message=SimpleNamespace(id=11),
        response=FakeResponse(acknowledged),
    )
    answer = ClickAnswer(fresh, 0.05)  # type: ignore[arg-type]
    await acknowledged.wait()  # the timer acknowledged the click
    assert await answer.edit_message(11, view=None) is None
    await answer.finish()
    assert fresh.response.calls == ["defer"]

    in_time = SimpleNamespace(
        id=3,
        created_at=discord.utils.utcnow(),
        message=SimpleNamespace(id=12, channel=None),
        response=FakeResponse(asyncio.Event()),
    )
    answer = ClickAnswer(in_time, 3600.0)  # type: ignore[arg-type]
    edited = await answer.edit_message(12, view=None)
    assert edited is not None and edited.id == 12 and edited.attachments == []
    assert await answer.edit_message(12, view=None) is None  # answered once only
    await answer.finish()
    assert in_time.response.calls == ["edit"]


async def test_a_lobby_click_is_answered_with_the_lobby_itself(table: Any) -> None:
    game = await table.new_game("alice", (), start=False, players=3)
    lobby = await table.lobby_message(game)
    before = len(table.env.http_requests)
    res = await table.bob.click(lobby, custom_id=f"ada:l:join:{game}")
    kinds = calls_since(table.env, before)
    assert kinds == [EDITED, "follow-up"]  # the lobby with bob seated; "You joined" privately
    assert "bob" in (await table.lobby_message(game)).embeds[0].description
    assert "joined" in private_text(res)


async def test_undo_is_one_call(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(4)
    for _ in range(60):  # until the turn message offers Undo
        msg = await table.turn_message(game)
        undo = [c for c in custom_ids(msg) if c.startswith("ada:u:")]
        if undo:
            break
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    else:
        raise AssertionError("no Undo offered")
    state, seq = await table.store.load_state(game)
    mover = table.by_id[(await table.store.get_game(game)).seat_at(state.decision.player).user_id]
    before = len(table.env.http_requests)
    res = await mover.click(msg, custom_id=undo[0])
    kinds = calls_since(table.env, before)
    assert res.acknowledged and kinds[0] == EDITED and len(kinds) <= 2, kinds
    assert (await table.store.load_state(game))[1] == seq - 1
    await consistent(table, game)


async def test_a_typed_move_is_one_private_answer(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    state, seq = await table.store.load_state(game)
    before = len(table.env.http_requests)
    res = await table.move(game, lambda d: 0, slash=True)
    kinds = calls_since(table.env, before)
    assert kinds[-1] == PRIVATE and ACKNOWLEDGED not in kinds, kinds
    assert "response: acknowledge (thinking)" not in kinds
    assert "✅" in private_text(res)
    assert (await table.store.load_state(game))[1] == seq + 1
    res = await table.alice.slash(table.thread(game), "ada undo")  # not alice's move, or none
    assert calls_since(table.env, before)[-1] == PRIVATE
    await consistent(table, game)
