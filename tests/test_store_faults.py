"""Issue 33 on both backends: what the store does against a flood of games and damaged rows
found by the second review."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from store_backends import drop_rewrite_trigger, raw, tamper

from store import GameBroken, Store
from store.testing import pick, play, started_game


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


async def test_a_choice_rewritten_mid_log_is_caught_at_the_next_move(db_location: str) -> None:
    """Issue 33: with the bot running, a rewritten choice at seq 1 let three more moves be
    appended; the damage was seen only at the next restart, and then could not be repaired."""
    store = await Store.open(db_location)
    try:
        gid, _ = await started_game(store, seed=6)
        state = await play(store, gid, random.Random(6), 8)
        seq = len(state.history)
        tamper(
            db_location,
            drop_rewrite_trigger(db_location),
            f"UPDATE choices SET choice_id = ? WHERE game_id = {gid} AND seq = 1",
            params=("ws:0:Y1:0",),
        )
        seat, choice = pick(state, random.Random(1))
        with pytest.raises(GameBroken):
            await store.apply_choice(gid, seq, seat, choice)
        rec = await store.get_game(gid)
        assert rec.status == "broken" and "choice 1" in (rec.broken_reason or "")
        assert len(raw(db_location, f"SELECT id FROM choices WHERE game_id = {gid}")) == seq
    finally:
        await store.close()


class TestDamagedSeats:
    @pytest.mark.parametrize(
        "damage",
        [
            "UPDATE seats SET user_id = 4242 WHERE game_id = {g} AND join_order = 1",
            "UPDATE seats SET is_ai = {true}, ai_policy = 'greedy'"
            " WHERE game_id = {g} AND join_order = 0",
        ],
    )
    async def test_a_changed_seat_is_caught_by_the_running_store_and_check_db(
        self, db_location: str, damage: str
    ) -> None:
        """Issue 33: a changed user id let a non-player read that seat's hand and play its
        turns; a flipped AI flag let an AI play a person's seat; verify_game said OK."""
        true = "true" if "postgres" in db_location else "1"
        store = await Store.open(db_location)
        try:
            gid, _ = await started_game(store, seed=6)
            await play(store, gid, random.Random(6), 4)
            assert (await store.verify_game(gid, mark=False)).ok
            tamper(db_location, damage.format(g=gid, true=true))
            check = await store.verify_game(gid, mark=False)
            assert not check.ok and "seat rows" in check.problem
            assert (await store.get_game(gid)).status == "broken"  # the next click's read
            rows = raw(db_location, f"SELECT status FROM games WHERE id = {gid}")
            assert rows == [("broken",)]
            with pytest.raises(GameBroken):
                await store.load_state(gid)
        finally:
            await store.close()
        other = await Store.open(db_location)  # a restart: still set aside, with the reason
        try:
            rec = await other.get_game(gid)
            assert rec.status == "broken" and "seat rows" in (rec.broken_reason or "")
        finally:
            await other.close()

    async def test_games_from_before_the_seat_digest_get_one_when_verified(
        self, db_location: str
    ) -> None:
        store = await Store.open(db_location)
        try:
            gid, _ = await started_game(store, seed=6)
            await play(store, gid, random.Random(6), 3)
        finally:
            await store.close()
        tamper(db_location, f"UPDATE games SET seats_digest = NULL WHERE id = {gid}")
        store = await Store.open(db_location)
        try:
            await store.load_state(gid)  # first verified by this process
            assert raw(db_location, f"SELECT seats_digest FROM games WHERE id = {gid}")[0][0]
            await play(store, gid, random.Random(7), 2)
        finally:
            await store.close()
