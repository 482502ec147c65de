"""Issue 34 through the bot: a click reads the game once and writes once, a restart edits only
the threads that are behind, and per-game memory is let go when a game ends."""

from __future__ import annotations

import random
import re
import sqlite3
from typing import Any

import pytest

from offline.driver import Clicker, custom_ids, flat_components
from store import Store
from store.testing import StoreCalls


class CountingClicker(Clicker):
    """Records the store calls of each choice click (not of the clicks on the way to it)."""

    def __init__(self, env: Any, calls: StoreCalls) -> None:
        super().__init__(env)
        self.calls = calls
        self.per_click: list[list[str]] = []

    async def act(self, actor: Any, verb: str, target: Any, *args: Any, **kwargs: Any) -> Any:
        mark = len(self.calls.names)
        res = await super().act(actor, verb, target, *args, **kwargs)
        if kwargs.get("custom_id", "").startswith(("ada:c:", "ada:s:")):
            self.per_click.append(self.calls.since(mark))
        return res


async def two_games(table: Any, moves: int, seed: int) -> tuple[int, int]:
    """Two games (alice and bob, carol and dave), ``moves`` decisions made in each."""
    games = (await table.new_game("alice", ("bob",)), await table.new_game("carol", ("dave",)))
    rng = random.Random(seed)
    for game in games:
        for _ in range(moves):
            await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
    return games


async def moved_while_down(db_path: Any, *games: int) -> list[tuple[Any, int, Any]]:
    """While the bot is down, each game's first choice is saved (by another process, or just
    before a crash): its thread is then behind the database. Returns (state, seq, new state)
    per game, in order."""
    done = []
    store = await Store.open(db_path)
    try:
        for game in games:
            state, seq = await store.load_state(game)
            dec = state.decision
            done.append(
                (state, seq, await store.apply_choice(game, seq, dec.player, dec.choices[0].id))
            )
    finally:
        await store.close()
    return done


def posts(env: Any) -> int:
    """Messages the bot posted in channels (turn messages among them)."""
    return sum(
        1
        for r in env.http_requests
        if r.method == "POST" and re.search(r"/channels/\d+/messages$", r.path)
    )


def edits(env: Any) -> int:
    return sum(
        1 for r in env.http_requests if r.method == "PATCH" and re.search(r"/messages/\d+$", r.path)
    )


async def test_a_click_reads_the_game_once_and_writes_once(table: Any) -> None:
    """Issue 34: a choice click is one read (the game with its state) and one write (the
    move), also when it passes the turn (the new turn message is written with the next move);
    a game without an AI seat makes no AI claim."""
    game = await table.new_game("alice", ("bob",))
    calls = StoreCalls(table.store)
    table.clicker = clicker = CountingClicker(table.env, calls)
    rng = random.Random(3)
    posted_before = posts(table.env)
    for _ in range(30):
        await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
    assert len(clicker.per_click) == 30
    assert posts(table.env) - posted_before >= 3  # turns passed: new turn messages posted
    # a member's language and time away (``/ada away``) are kept a while in memory
    kept = {"user_settings", "member_record", "member_records"}
    for made in clicker.per_click:
        made = [c for c in made if c not in kept]
        assert made == ["game_and_state", "apply_choice"], made
    # the newest turn message is written with the next move, or with the shown marks
    games = table.env.bot.ada.games
    written = len(await table.store.messages(game, "turn"))
    await games.flush_shown()
    latest = await table.store.latest_message(game, "turn")
    assert latest is not None and latest.message_id == games.shown[game].message_id
    assert len(await table.store.messages(game, "turn")) - written in (0, 1)
    assert "claim_ai_turn" not in calls.names
    for name in ("user_settings", "member_record"):
        reads = [c for made in clicker.per_click for c in made if c == name]
        assert len(reads) <= 2, name  # once per member, then kept in memory
    moves = sum(1 for made in clicker.per_click if "apply_choice" in made)
    assert sum(len(m) for m in clicker.per_click) <= 2 * moves + 2 + moves // 2


async def test_a_restart_edits_only_threads_that_are_behind(
    table: Any, make_bot: Any, db_path: Any
) -> None:
    """Issue 34: what each thread shows is recorded, so a restart leaves a current thread
    alone (no edit, no replay) and brings a behind one up to date with one edit."""
    env = table.env
    current, behind = await two_games(table, 6, 5)
    await env.bot.close()
    [(_state, seq, _new)] = await moved_while_down(db_path, behind)
    before = edits(env)
    await env.restart_bot(make_bot())
    await env.settle()
    assert edits(env) - before == 1  # the behind thread's turn message, nothing else
    shown = {c.get("custom_id", "") for c in flat_components(await table.turn_message(behind))}
    assert any(f":{behind}:{seq + 1}" in cid for cid in shown), shown  # its new decision
    assert not any(f":{current}:" in r.path for r in env.http_requests[-50:] if r.method == "PATCH")


async def test_per_game_memory_is_let_go(table: Any) -> None:
    """Issue 34: the service keeps no lock, task or shown message of a game nobody is using,
    and a cancelled game's state is let go."""
    service = table.env.bot.ada.games
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(7)
    for _ in range(4):
        await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
    assert len(service.locks) == 0  # nobody holds or awaits one
    assert game not in service.ai_tasks
    assert game in service.shown
    res = await table.alice.slash(table.thread(game), "ada cancel")
    assert res.acknowledged
    assert game not in service.shown
    assert table.store.position(game) is None


async def test_a_game_from_before_thread_shows_is_brought_up_to_date(
    table: Any, make_bot: Any, db_path: Any
) -> None:
    """A game whose thread's state was never recorded (played before migration 14) and that
    is behind: the turn message is edited if the same player still decides, else the turn is
    posted anew; who decided is read from the choice log (no second replay)."""
    env = table.env
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(11)
    for _ in range(5):
        await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
    thread = table.thread(game)
    await env.bot.close()
    sqlite3.connect(db_path).execute("DELETE FROM thread_shows").connection.commit()
    [(state, _seq, new)] = await moved_while_down(db_path, game)
    passed = new.decision.player != state.decision.player
    before = len(env.http_requests)
    await env.restart_bot(make_bot())
    await env.settle()
    made = env.http_requests[before:]
    posts = [r for r in made if r.method == "POST" and r.path == f"/channels/{thread.id}/messages"]
    assert len(posts) == (1 if passed else 0)
    if not passed:
        assert sum(1 for r in made if r.method == "PATCH" and "/messages/" in r.path) == 1


async def test_threads_beyond_the_first_are_brought_up_to_date_on_their_next_event(
    table: Any, make_bot: Any, db_path: Any, monkeypatch: Any
) -> None:
    """Issue 34: at start only the most recently played behind threads are edited; another
    behind thread is edited on its game's next event (here a click), and the click counts."""
    import cogs.service

    monkeypatch.setattr(cogs.service, "RESUME_AT_START", 1)
    env = table.env
    first, second = await two_games(table, 3, 13)
    await env.bot.close()
    await moved_while_down(db_path, second, first)  # ``first`` moved last: the most recent
    await env.restart_bot(make_bot())
    await env.settle()
    service = env.bot.ada.games
    assert set(service.behind) == {second}  # left for later
    assert first not in service.behind and first not in service.stale
    state, seq = await table.store.load_state(second)
    rec = await table.store.get_game(second)
    old = await table.turn_message(second)  # still the decision before the saved move
    stale = next(i for i in custom_ids(old) if i.startswith(f"ada:c:{second}:{seq - 1}:"))
    player = table.by_id[rec.seat_at(state.decision.player).user_id]
    res = await player.click(old, custom_id=stale)  # the game's next event
    assert res.acknowledged
    assert second not in service.behind
    shown = custom_ids(await table.turn_message(second))
    assert any(i.startswith(f"ada:c:{second}:{seq}:") or f":{second}:{seq}" in i for i in shown)
    await table.move(second, lambda dec: 0)  # and the game plays on from the thread
    assert (await table.store.load_state(second))[1] == seq + 1


@pytest.mark.parametrize("said", [0, 30])
async def test_a_turn_message_the_database_missed_is_found_at_restart(
    table: Any, make_bot: Any, said: int
) -> None:
    """Issue 34: a click that passes the turn writes the new turn message with the game's next
    move. A process killed before that: the restart finds the message in the thread (also when
    people said more since than the latest messages it reads) and edits it (one edit), posts
    no second turn message, and the game plays on from it."""
    env = table.env
    game = await table.new_game("alice", ("bob",))
    service = env.bot.ada.games
    rng = random.Random(5)
    await table.move(game, lambda dec: 0)  # writes the first turn message
    while game not in service._unrecorded:  # until a click passes the turn
        await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
    missed = service.shown[game].message_id
    assert (await table.store.latest_message(game, "turn")).message_id != missed
    thread = table.thread(game)
    for n in range(said):
        await table.bob.send(thread, f"message {n}")
    service._unrecorded.clear()  # killed: nothing written at close
    service._unsaved.clear()
    await env.bot.close()
    before = len(env.http_requests)
    await env.restart_bot(make_bot())
    await env.settle()
    made = env.http_requests[before:]
    assert not [r for r in made if r.method == "POST" and r.path.endswith(f"{thread.id}/messages")]
    assert [r.path for r in made if r.method == "PATCH"] == [
        f"/channels/{thread.id}/messages/{missed}"
    ]
    assert (await table.store.latest_message(game, "turn")).message_id == missed
    _state, seq = await table.store.load_state(game)
    controls = re.compile(rf"^ada:[a-z]+:{game}:{seq}:")
    live = [m for m in thread.history() if any(controls.match(i) for i in custom_ids(m))]
    assert [m.id for m in live] == [missed]  # one turn message with controls, not two
    await table.move(game, lambda dec: 0)
    assert (await table.store.load_state(game))[1] == seq + 1
