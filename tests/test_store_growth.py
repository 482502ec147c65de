"""Issue 34 in the store: the lookups of commands, autocomplete, the reminder round and a restart
are indexed and bounded (they do not grow with finished games or past moves), on both backends;
what each thread shows is recorded."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import timedelta
from typing import Any

import pytest
from store_backends import raw

from store import StaleMove
from store.backend import PostedTurn, Shows
from store.testing import play, started_game
from store.timeutil import utcnow

USER = 1000  # started_game's first seat


async def test_a_members_open_games_follow_their_status(store: Any) -> None:
    """Lobby and active games are a member's open games; once finished or cancelled they are
    not (the seat's open mark follows the game's status)."""
    finished, _ = await started_game(store, players=2, seed=1)
    await play(store, finished, random.Random(1))
    cancelled, _ = await started_game(store, players=2, seed=2)
    await store.cancel_game(cancelled)
    active, _ = await started_game(store, players=2, seed=3)
    lobby = await store.create_game(1, 100, USER, {"players": 2})
    await store.add_seat(lobby, name="me", user_id=USER)
    assert [g.id for g in await store.games_for_user(USER)] == [active, lobby]
    assert [g.id for g in await store.games_for_user(USER, ("active",))] == [active]
    assert [g.id for g in await store.games_for_user(USER, None)] == [
        finished,
        cancelled,
        active,
        lobby,
    ]
    await store.cancel_game(lobby)
    assert [g.id for g in await store.games_for_user(USER)] == [active]


async def test_the_game_of_a_thread(store: Any) -> None:
    first, _ = await started_game(store, players=2, seed=1)
    second, _ = await started_game(store, players=2, seed=2)
    await store.set_thread(first, 555)
    assert await store.game_in_thread(555) is not None
    assert (await store.game_in_thread(555)).id == first
    assert [s.user_id for s in (await store.game_in_thread(555)).seats] == [USER, USER + 1]
    assert await store.game_in_thread(100) is None  # the channel is no game's thread
    await store.set_thread(second, 555)  # (a thread reused: the newest game)
    assert (await store.game_in_thread(555)).id == second


async def test_pending_reminders_only(store: Any) -> None:
    game, _ = await started_game(store, players=2, seed=1)
    now = utcnow()
    first = await store.schedule_reminder(game, USER, now - timedelta(hours=1), 0, now=now)
    assert await store.mark_reminder_sent(first.id, now=now)
    second = await store.schedule_reminder(game, USER, now + timedelta(hours=1), 0, now=now)
    assert [r.id for r in await store.pending_reminders(game)] == [second.id]
    assert [r.id for r in await store.turn_reminders(game, USER, 0)] == [first.id, second.id]
    assert await store.turn_reminders(game, USER, 1) == []
    assert await store.turn_reminders(game, USER + 1, 0) == []
    assert len(await store.reminders(game)) == 2


async def test_what_threads_show_is_recorded(store: Any) -> None:
    """A restart's one statement says which active games' threads show them as they stand."""
    shown, _ = await started_game(store, players=2, seed=1)
    moved, _ = await started_game(store, players=2, seed=2)
    unknown, _ = await started_game(store, players=2, seed=3)
    finished, _ = await started_game(store, players=2, seed=4)
    await play(store, finished, random.Random(4))
    for game in (shown, moved):
        seq, digest = store.position(game)
        await store.record_message(
            game, "turn", 9, 90 + game, seq, shows=Shows(90 + game, seq, digest, 0)
        )
    await play(store, moved, random.Random(2), 1)  # its thread is now behind
    games = {g.game_id: g for g in await store.active_games()}
    assert set(games) == {shown, moved, unknown}
    assert games[shown].thread_current
    assert games[shown].shows == Shows(90 + shown, 0, store.position(shown)[1], 0)
    assert not games[moved].thread_current
    assert games[unknown].shows is None and not games[unknown].thread_current
    # an edit within a turn is recorded later, with other games' in one write
    seq, digest = store.position(moved)
    await store.mark_shown({moved: Shows(90 + moved, seq, digest, 1), 999_999: Shows(1, 0, "x", 0)})
    games = {g.game_id: g for g in await store.active_games()}
    assert games[moved].thread_current and games[moved].shows.player == 1


async def test_same_seq_but_another_log_is_not_current(store: Any) -> None:
    """After an undo and another move a game is back at the same seq with another choice log:
    the thread shows the game only if the log digest is the same too."""
    game, _ = await started_game(store, players=2, seed=5)
    await play(store, game, random.Random(5), 3)
    seq, digest = store.position(game)
    await store.mark_shown({game: Shows(1, seq, "the digest of another log", 0)})
    [g] = [g for g in await store.active_games() if g.game_id == game]
    assert g.seq == seq and not g.thread_current
    await store.mark_shown({game: Shows(1, seq, digest, 0)})
    [g] = [g for g in await store.active_games() if g.game_id == game]
    assert g.thread_current


async def test_a_posted_turn_message_is_written_with_the_next_move(store: Any) -> None:
    """A click that passed the turn posted a message; the game's next move writes it in its
    own transaction (a click stays one write), and a refused move writes nothing."""
    game, _ = await started_game(store, players=2, seed=6)
    state, seq = await store.load_state(game)
    digest = store.position(game)[1]
    posted = PostedTurn(9, 700, Shows(700, seq, digest, state.decision.player))
    dec = state.decision
    with pytest.raises(StaleMove):
        await store.apply_choice(
            game, seq + 1, dec.player, dec.choices[0].id, posted=posted
        )  # an old button
    assert await store.latest_message(game, "turn") is None
    await store.apply_choice(game, seq, dec.player, dec.choices[0].id, posted=posted)
    turn = await store.latest_message(game, "turn")
    assert (turn.channel_id, turn.message_id, turn.seq) == (9, 700, seq)
    [g] = [g for g in await store.active_games() if g.game_id == game]
    assert g.shows == posted.shows and not g.thread_current  # it shows the move before
    # without a move to carry it: with the shown marks
    later = PostedTurn(9, 701, Shows(701, seq + 1, store.position(game)[1], 0))
    await store.mark_shown({}, posted={game: later, 999_999: later})
    turn = await store.latest_message(game, "turn")
    assert (turn.message_id, turn.seq) == (701, seq + 1)
    [g] = [g for g in await store.active_games() if g.game_id == game]
    assert g.thread_current


def plan(path: str, sql: str, *params: Any) -> str:
    conn = sqlite3.connect(path)
    try:
        return " | ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + sql, params))
    finally:
        conn.close()


async def test_sqlite_lookups_use_their_indexes(tmp_path: Any) -> None:
    """Structure, not time: each lookup is an index search, not a scan of the games' history
    (SQLite; PostgreSQL chooses its plans from its statistics)."""
    from store import Store
    from store.sqlite import SQLiteTx

    path = str(tmp_path / "plans.db")
    async with await Store.open(path) as store:
        await started_game(store, players=2)
    due = plan(path, f"SELECT r.id{SQLiteTx._DUE} ORDER BY r.due_at, r.id LIMIT 100", "x", "x")
    assert due.startswith("SEARCH r USING INDEX reminders_due"), due
    cancel = plan(
        path,
        "UPDATE reminders SET status = 'cancelled' WHERE game_id = ? AND status = 'pending'",
        1,
    )
    assert "reminders_pending" in cancel, cancel
    mine = plan(
        path,
        "SELECT id FROM games WHERE id IN (SELECT game_id FROM seats INDEXED BY seats_open"
        " WHERE user_id = ? AND open = 1)",
        USER,
    )
    assert "seats_open" in mine, mine
    thread = plan(path, "SELECT id FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1", 5)
    assert "games_thread" in thread, thread
    assert raw(path, "SELECT COUNT(*) FROM seats WHERE open = 1") == [(2,)]


async def test_moves_carrying_turn_messages_commit_together(store: Any) -> None:
    """Moves of several games committed in one transaction (group commit), each with the turn
    message its game's last click posted: all are written, each with its message."""
    games = [(await started_game(store, players=2, seed=10 + i))[0] for i in range(6)]
    posted = {}
    moves = []
    for game in games:
        state, seq = await store.load_state(game)
        dec = state.decision
        posted[game] = PostedTurn(9, 800 + game, Shows(800 + game, seq, None, dec.player))
        moves.append(
            store.apply_choice(game, seq, dec.player, dec.choices[0].id, posted=posted[game])
        )
    await asyncio.gather(*moves)
    for game in games:
        turn = await store.latest_message(game, "turn")
        assert turn is not None and turn.message_id == 800 + game
        assert (await store.load_state(game))[1] == 1
