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


# Issues 33 and 34: a choice row changed anywhere in the log is caught at the next move, at a
# constant cost per move: migration 15's triggers mark the game (its log digest), instead of
# every move comparing the whole log.
DAMAGE = {
    "choice": "UPDATE choices SET choice_id = 'ws:0:Y1:0' WHERE game_id = {gid} AND seq = 1",
    "seat": "UPDATE choices SET seat = (seat + 1) % 3 WHERE game_id = {gid} AND seq = 1",
    "digest": "UPDATE choices SET digest = 'beef' WHERE game_id = {gid} AND seq = 1",
    "deleted": "DELETE FROM choices WHERE game_id = {gid} AND seq = 1",
    "undone": "UPDATE choices SET undone_at = applied_at WHERE game_id = {gid} AND seq = 1",
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
async def test_a_choice_row_changed_mid_log_is_caught_at_the_next_move(
    db_location: str, damage: str
) -> None:
    store = await Store.open(db_location)
    try:
        gid, _ = await started_game(store, seed=6)
        state = await play(store, gid, random.Random(6), 8)
        seq = len(state.history)
        rows = len(raw(db_location, f"SELECT id FROM choices WHERE game_id = {gid}"))
        trigger = "choices_no_delete" if damage == "deleted" else "choices_no_rewrite"
        tamper(
            db_location,
            drop_rewrite_trigger(db_location, trigger),
            DAMAGE[damage].format(gid=gid),
        )
        # the store still holds the game as verified: the move is written ahead, and refused
        seat, choice = pick(state, random.Random(1))
        with pytest.raises(GameBroken):
            await store.apply_choice(gid, seq, seat, choice)
        rec = await store.get_game(gid)
        assert rec.status == "broken" and rec.seq == seq
        after = raw(db_location, f"SELECT COUNT(*) FROM choices WHERE game_id = {gid}")
        assert after[0][0] == rows - (damage == "deleted")  # nothing appended
    finally:
        await store.close()


async def test_a_choice_changed_back_is_still_caught(db_location: str) -> None:
    """A row rewritten and then put back leaves a chain that replays: only the guard saw it,
    and the game is set aside with the guard's reason."""
    store = await Store.open(db_location)
    try:
        gid, _ = await started_game(store, seed=6)
        state = await play(store, gid, random.Random(6), 8)
        original = state.history[2]
        rewrite = f"UPDATE choices SET choice_id = ? WHERE game_id = {gid} AND seq = 2"
        tamper(db_location, drop_rewrite_trigger(db_location), rewrite, params=("x",))
        tamper(db_location, rewrite, params=(original,))
        assert raw(db_location, f"SELECT log_digest FROM games WHERE id = {gid}") == [
            ("changed at choice 2",)
        ]
        with pytest.raises(GameBroken):
            await store.load_state(gid)
        rec = await store.get_game(gid)
        assert rec.status == "broken"
        assert rec.broken_reason == "the choice log was changed at choice 2 after it was written"
    finally:
        await store.close()


async def test_undo_and_a_missing_digest_filled_in_do_not_mark_the_game(
    db_location: str,
) -> None:
    """The two changes the store makes to choice rows (undo sets undone_at on the last live
    choice; a verify fills in a digest missing from before migration 6) are not damage."""
    store = await Store.open(db_location)
    try:
        rng = random.Random(3)
        gid, state = await started_game(store, seed=3)
        seat = None
        while (
            seat is None or state.current_player != seat or state.undo_floor >= len(state.history)
        ):
            seat, choice = pick(state, rng)
            state = await store.apply_choice(gid, len(state.history), seat, choice)
        n = len(state.history)
        previous = await store.undo(gid, n, seat)
        digest = raw(db_location, f"SELECT log_digest FROM games WHERE id = {gid}")[0][0]
        assert len(digest) == 64  # a digest, not the guard's mark
        assert len(previous.history) == n - 1
        await play(store, gid, rng, 3)  # written ahead, accepted
        rec = await store.get_game(gid)
        assert rec.status == "active" and rec.seq == n + 2
        # an old game's digests, filled in by the verify of a fresh process
        tamper(
            db_location,
            drop_rewrite_trigger(db_location),
            f"UPDATE choices SET digest = NULL WHERE game_id = {gid} AND seq >= 1",
        )
        raw(db_location, f"UPDATE games SET log_digest = NULL WHERE id = {gid}")
        fresh = await Store.open(db_location)
        try:
            _, seq = await fresh.load_state(gid)
            assert seq == n + 2 and (await fresh.verify_game(gid)).ok
            assert raw(db_location, "SELECT COUNT(*) FROM choices WHERE digest IS NULL") == [(0,)]
        finally:
            await fresh.close()
    finally:
        await store.close()


async def test_pruned_games_still_verify(store: Store) -> None:
    """Pruning deletes snapshots, messages and reminders, never choice rows: the guard leaves
    an archived game alone and it still replays."""
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    gid, _ = await started_game(store, seed=2, now=t0)
    state = await play(store, gid, random.Random(2))
    report = await store.prune_finished(timedelta(days=1), now=datetime.now(UTC) + timedelta(2))
    assert report.games == [gid]
    assert (await store.verify_game(gid)).ok
    assert len(await store.choices(gid)) == len(state.history)
    assert (await store.get_game(gid)).status == "finished"
