"""Issue 22: work that exactly one of several bot processes must do. Two Store objects on one
database stand for two processes: reminders and AI turns are each claimed once, a claim that
runs out (its process died) is taken over, and nothing is lost."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest
from store_backends import tamper

from store import StaleMove, Store
from store.testing import pick, started_game

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
LEASE = timedelta(minutes=5)


@pytest.fixture
async def two(db_location):
    a = await Store.open(db_location)
    b = await Store.open(db_location)
    yield a, b
    await a.close()
    await b.close()


async def reminders_due(store: Store, games: int) -> set[int]:
    """``games`` games, each with a reminder for each of its 3 players due at T0."""
    ids = set()
    for g in range(games):
        gid, _ = await started_game(store, seed=g, channel_id=g, first_user=1000 + 10 * g)
        for user in range(3):
            rem = await store.schedule_reminder(gid, 1000 + 10 * g + user, T0, 0, now=T0)
            ids.add(rem.id)
    return ids


async def ai_game(store: Store, seed: int) -> int:
    """A started game whose seats are all AI: every turn is an AI turn."""
    gid = await store.create_game(1, seed, 5, {"players": 2})
    await store.add_seat(gid, name="Ada", is_ai=True, ai_policy="greedy")
    await store.add_seat(gid, name="Babbage", is_ai=True, ai_policy="greedy")
    await store.start_game(gid, seed)
    return gid


class TestReminderClaims:
    async def test_racing_claimers_get_each_reminder_once(self, two):
        a, b = two
        due = await reminders_due(a, 8)
        got_a: list[int] = []
        got_b: list[int] = []
        for _ in range(6):  # small batches, claimed at the same moment, until none is left
            ra, rb = await asyncio.gather(
                a.claim_due_reminders(T0, "A", LEASE, limit=3),
                b.claim_due_reminders(T0, "B", LEASE, limit=3),
            )
            got_a += [r.id for r in ra]
            got_b += [r.id for r in rb]
        assert sorted(got_a + got_b) == sorted(due)  # none lost
        assert not set(got_a) & set(got_b)  # none twice
        assert await a.claim_due_reminders(T0, "A", LEASE) == []
        assert await b.due_reminders(T0) == []  # claimed ones are not "due" for others

    async def test_a_dead_claimers_reminders_are_taken_over_after_the_lease(self, two):
        a, b = two
        due = await reminders_due(a, 2)
        claimed = await a.claim_due_reminders(T0, "A", LEASE)
        assert {r.id for r in claimed} == due
        # A dies without sending. Until its lease runs out, nobody else gets them.
        assert await b.claim_due_reminders(T0 + LEASE - timedelta(seconds=1), "B", LEASE) == []
        taken = await b.claim_due_reminders(T0 + LEASE, "B", LEASE)
        assert {r.id for r in taken} == due
        for r in taken:
            assert await b.mark_reminder_sent(r.id, now=T0 + LEASE, owner="B")
        # A comes back to life: its claim is gone, its "sent" is refused, nothing is due.
        assert not await a.mark_reminder_sent(taken[0].id, now=T0 + LEASE, owner="A")
        assert await a.claim_due_reminders(T0 + timedelta(hours=1), "A", LEASE) == []
        assert {r.status for g in {r.game_id for r in taken} for r in await a.reminders(g)} == {
            "sent"
        }

    async def test_released_reminder_is_due_again_at_once(self, store):
        due = await reminders_due(store, 1)
        first = (await store.claim_due_reminders(T0, "A", LEASE))[0]
        assert not await store.release_reminder(first.id, "B")  # not B's to give back
        assert await store.release_reminder(first.id, "A")
        again = await store.claim_due_reminders(T0, "B", LEASE)
        assert [r.id for r in again] == [first.id] and len(due) == 3

    async def test_claimed_reminders_follow_the_due_rules(self, store):
        gid, state = await started_game(store)
        await store.schedule_reminder(gid, 1000, T0, 0, now=T0)
        await store.schedule_reminder(gid, 1001, T0 + timedelta(hours=1), 0, now=T0)
        await store.set_user_settings(1002, reminders_enabled=False)
        await store.schedule_reminder(gid, 1002, T0, 0, now=T0)
        assert [r.user_id for r in await store.claim_due_reminders(T0, "A", LEASE)] == [1000]
        seat, choice = pick(state, random.Random(1))
        await store.apply_choice(gid, 0, seat, choice)  # the turn moved on: moot
        assert await store.claim_due_reminders(T0 + timedelta(days=1), "A", LEASE) == []

    async def test_a_process_claims_only_its_own_shards_reminders(self, two):
        """Two processes run shards {0, 1} and {2, 3} of 4: each claims only the reminders of its
        own shards' games, so another process's clock, however far ahead, never takes a claim
        that is being sent (the two-process shard test once saw a reminder DM'd twice: the other
        process, its clock ahead, took the claim while it was sent, then gave it back)."""
        a, b = two
        games = {}
        for shard in range(4):  # a guild in each shard: Discord's rule is (guild_id >> 22) % 4
            games[shard], _ = await started_game(
                a, seed=shard, guild_id=(shard << 22) + 5, channel_id=shard, first_user=1000
            )
            await a.schedule_reminder(games[shard], 1000, T0, 0, now=T0)
        mine = await a.claim_due_reminders(T0, "A", LEASE, shards=(4, (0, 1)))
        assert sorted(r.game_id for r in mine) == [games[0], games[1]]
        # B's clock a day ahead: A's claims look run out to B, yet they are not B's to take
        later = T0 + timedelta(days=1)
        theirs = await b.claim_due_reminders(later, "B", LEASE, shards=(4, (2, 3)))
        assert sorted(r.game_id for r in theirs) == [games[2], games[3]]
        for r in mine:
            assert await a.mark_reminder_sent(r.id, now=T0, owner="A")  # A's claims held
        # without shards (one process, or an old caller): every due reminder, as before
        assert await b.claim_due_reminders(later + LEASE, "B", LEASE) != []


class TestAiTurnClaims:
    async def test_racing_claimers_get_each_turn_once(self, two):
        a, b = two
        games = [await ai_game(a, seed) for seed in range(6)]
        results = await asyncio.gather(
            *(s.claim_ai_turn(g, name, now=T0) for g in games for s, name in ((a, "A"), (b, "B")))
        )
        for i, g in enumerate(games):
            won = [r for r in results[2 * i : 2 * i + 2] if r is not None]
            assert won == [0], (g, results)

    async def test_claim_renews_for_its_owner_and_is_void_after_a_move(self, two):
        a, b = two
        gid = await ai_game(a, 1)
        assert await a.claim_ai_turn(gid, "A", now=T0) == 0
        assert await a.claim_ai_turn(gid, "A", now=T0 + timedelta(minutes=1)) == 0  # renewed
        assert await b.claim_ai_turn(gid, "B", now=T0 + timedelta(minutes=2)) is None
        state, seq = await a.load_state(gid)
        seat, choice = pick(state, random.Random(2))
        await a.apply_choice(gid, seq, seat, choice)
        # A new turn: the old claim is void, B may take it.
        assert await b.claim_ai_turn(gid, "B", now=T0 + timedelta(minutes=2)) == 1
        assert await a.release_ai_turn(gid, "A") is False  # not A's any more
        assert await b.release_ai_turn(gid, "B")
        assert await a.claim_ai_turn(gid, "A", now=T0 + timedelta(minutes=2)) == 1

    async def test_a_dead_claimers_turn_is_taken_over_and_played_once(self, two):
        a, b = two
        gid = await ai_game(a, 2)
        lease = timedelta(minutes=2)
        assert await a.claim_ai_turn(gid, "A", lease, now=T0) == 0
        # A dies while thinking. B's sweep finds nothing until A's lease has run out...
        assert await b.claim_waiting_ai_turns("B", lease, now=T0 + timedelta(minutes=1)) == []
        assert await b.claim_waiting_ai_turns("B", lease, now=T0 + lease) == [(gid, 0)]
        state, seq = await b.load_state(gid)
        seat, choice = pick(state, random.Random(3))
        await b.apply_choice(gid, seq, seat, choice)
        # ...and if A wakes up and plays its (old) turn after all, the sequence check refuses it.
        with pytest.raises(StaleMove):
            await a.apply_choice(gid, seq, seat, choice)
        assert len(await a.choices(gid)) == 1

    async def test_only_ai_turns_unless_asked(self, store):
        gid, state = await started_game(store)  # three people
        assert await store.claim_ai_turn(gid, "A", now=T0) is None
        assert await store.claim_waiting_ai_turns("A", now=T0) == []
        assert await store.claim_ai_turn(gid, "A", now=T0, any_seat=True) == 0  # a stand-in
        await store.cancel_game(gid)
        assert await store.claim_ai_turn(gid, "B", now=T0, any_seat=True) is None

    async def test_games_without_a_recorded_turn_are_claimable(self, store, db_location):
        gid = await ai_game(store, 3)
        tamper(db_location, f"UPDATE games SET to_move = NULL WHERE id = {gid}")
        fresh = await Store.open(db_location)
        try:
            assert await fresh.claim_ai_turn(gid, "A", now=T0) == 0
        finally:
            await fresh.close()


class TestMoveWithReminder:
    async def test_apply_choice_schedules_the_next_reminder_in_the_same_commit(self, store):
        gid, state = await started_game(store, players=3)
        await store.set_guild_settings(1, reminder_hours=6)
        await store.set_user_settings(1001, reminder_hours=2)
        rng = random.Random(4)
        seq = 0
        while True:  # play until the turn passes to another person
            seat, choice = pick(state, rng)
            state = await store.apply_choice(gid, seq, seat, choice, now=T0, remind=True)
            seq += 1
            if state.decision.player != seat:
                break
        rec = await store.get_game(gid)
        nxt = rec.seat_at(state.decision.player)
        pending = [r for r in await store.reminders(gid) if r.status == "pending"]
        assert [(r.user_id, r.seq, r.attempt) for r in pending] == [(nxt.user_id, seq, 1)]
        hours = 2 if nxt.user_id == 1001 else 6
        assert pending[0].due_at == T0 + timedelta(hours=hours)

    async def test_no_reminder_for_an_opted_out_player_or_without_asking(self, store):
        gid, state = await started_game(store, players=3)
        for user in (1000, 1001, 1002):
            await store.set_user_settings(user, reminders_enabled=False)
        seat, choice = pick(state, random.Random(1))
        await store.apply_choice(gid, 0, seat, choice, now=T0, remind=True)
        state, _ = await store.load_state(gid)
        seat, choice = pick(state, random.Random(1))
        await store.set_user_settings(1000 + state.decision.player, reminders_enabled=True)
        await store.apply_choice(gid, 1, seat, choice, now=T0)  # old call: no reminder
        assert await store.reminders(gid) == []

    async def test_the_game_option_wins(self, store):
        gid = await store.create_game(1, 2, 1000, {"players": 2, "reminder_hours": 1.5})
        await store.add_seat(gid, name="a", user_id=1000)
        await store.add_seat(gid, name="b", user_id=1001)
        state = await store.start_game(gid, 3)
        seat, choice = pick(state, random.Random(1))
        await store.apply_choice(gid, 0, seat, choice, now=T0, remind=True)
        [rem] = await store.reminders(gid)
        assert rem.due_at == T0 + timedelta(hours=1.5)
