"""Game store: lobby, play, undo, messages, reminders, settings."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_backends import raw

from engine import GameSetup, IllegalChoice, new_game, replay
from engine.versions import LATEST_RULES
from store import (
    CannotUndo,
    GameNotActive,
    GameNotFound,
    LobbyError,
    NotYourTurn,
    StaleMove,
    Store,
    StoreError,
)
from store.testing import pick, play, started_game

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def snapshot_seqs(location, gid):
    return sorted(r[0] for r in raw(location, "SELECT seq FROM snapshots WHERE game_id = ?", gid))


class TestOpen:
    async def test_wal_and_foreign_keys(self, store, backend):
        if backend != "sqlite":
            pytest.skip("SQLite settings")

        async def pragma(name: str) -> object:
            rows = await store._db.call(lambda c: c.execute_fetchall(f"PRAGMA {name}"))
            return list(rows)[0][0]

        assert await pragma("journal_mode") == "wal"
        assert await pragma("foreign_keys") == 1
        assert await pragma("synchronous") == 2  # FULL: an acknowledged move is on disk
        assert store.backend == "sqlite" and store.path is not None

    async def test_default_path_from_env(self, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "sub" / "x.db"))
        s = await Store.open()
        await s.close()
        assert (tmp_path / "sub" / "x.db").is_file()

    async def test_default_path_from_dotenv_file(self, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        monkeypatch.delenv("DATABASE_PATH", raising=False)
        (tmp_path / ".env").write_text("DATABASE_PATH=from_dotenv.db\n")
        s = await Store.open()
        await s.close()
        assert (tmp_path / "from_dotenv.db").is_file()
        monkeypatch.delenv("DATABASE_PATH", raising=False)

    async def test_naive_datetime_refused(self, store):
        with pytest.raises(ValueError):
            await store.create_game(1, 2, 3, now=datetime(2026, 1, 1))


class TestLobby:
    async def test_create_and_get(self, store):
        gid = await store.create_game(1, 2, 3, {"players": 3, "reminder_hours": 6}, now=T0)
        rec = await store.get_game(gid)
        assert (rec.guild_id, rec.channel_id, rec.creator_id) == (1, 2, 3)
        assert rec.status == "lobby" and rec.options == {"players": 3, "reminder_hours": 6}
        assert rec.created_at == T0 and rec.seats == () and rec.seq == 0

    async def test_missing_game(self, store):
        with pytest.raises(GameNotFound):
            await store.get_game(999)

    async def test_seats_and_thread(self, store):
        gid = await store.create_game(1, 2, 3, {"players": 3})
        await store.set_thread(gid, 77)
        a = await store.add_seat(gid, name="alice", user_id=10)
        b = await store.add_seat(gid, name="alice", user_id=11)  # name clash gets a suffix
        ai = await store.add_seat(gid, name="AI", is_ai=True, ai_policy="greedy")
        assert (a.name, b.name) == ("alice", "alice 2")
        assert ai.is_ai and ai.user_id is None and ai.ai_policy == "greedy"
        assert [s.join_order for s in await store.seats(gid)] == [0, 1, 2]
        rec = await store.get_game(gid)
        assert rec.thread_id == 77
        assert [g.id for g in await store.games_in_channel(77)] == [gid]
        assert [g.id for g in await store.games_in_channel(2)] == [gid]

    async def test_seat_rules(self, store):
        gid = await store.create_game(1, 2, 3, {"players": 2})
        await store.add_seat(gid, name="alice", user_id=10)
        with pytest.raises(LobbyError, match="already in"):
            await store.add_seat(gid, name="alice again", user_id=10)
        await store.add_seat(gid, name="bob", user_id=11)
        with pytest.raises(LobbyError, match="full"):
            await store.add_seat(gid, name="carol", user_id=12)
        assert await store.remove_seat(gid, user_id=11)
        assert not await store.remove_seat(gid, user_id=11)
        ai = await store.add_seat(gid, name="AI", is_ai=True)
        assert await store.remove_seat(gid, join_order=ai.join_order)
        with pytest.raises(ValueError):
            await store.add_seat(gid, name="nobody")

    async def test_start_maps_turn_order(self, store):
        gid = await store.create_game(1, 2, 3, {"players": 3})
        for i, name in enumerate(["alice", "bob", "carol"]):
            await store.add_seat(gid, name=name, user_id=10 + i)
        state = await store.start_game(gid, 42)
        expected = new_game(GameSetup(players=3, seed=42, names=["alice", "bob", "carol"]))
        assert state.digest() == expected.digest()
        rec = await store.get_game(gid)
        assert rec.status == "active" and rec.seed == 42 and rec.started_at is not None
        for seat in rec.seats:
            assert state.seat_names[seat.turn_index] == seat.name
            assert seat.colour == getattr(state.players[seat.turn_index], "colour", None)
        assert rec.seat_at(0).name == state.seat_names[0]
        assert rec.seat_of(10) == state.seat_names.index("alice")
        assert [s.name for s in rec.seats_in_turn_order] == state.seat_names
        assert (await store.load_setup(gid)).seed == 42
        with pytest.raises(LobbyError):
            await store.add_seat(gid, name="late", user_id=99)
        with pytest.raises(LobbyError):
            await store.start_game(gid, 1)

    async def test_start_with_too_few_players_is_refused(self, store):
        gid = await store.create_game(1, 2, 3, {"players": 3})
        await store.add_seat(gid, name="alone", user_id=10)
        with pytest.raises(LobbyError, match="can't start"):
            await store.start_game(gid, 1)
        rec = await store.get_game(gid)
        assert rec.status == "lobby" and rec.seats[0].turn_index is None

    async def test_cancel(self, store):
        gid, _ = await started_game(store)
        await store.schedule_reminder(gid, 1000, T0, 0)
        await store.cancel_game(gid)
        await store.cancel_game(gid)  # idempotent
        assert (await store.get_game(gid)).status == "cancelled"
        assert await store.reminders(gid) == []  # moot rows are deleted (issue 29)
        with pytest.raises(GameNotActive):
            await store.apply_choice(gid, 0, 0, "x")

    async def test_listing_filters(self, store):
        g1, _ = await started_game(store, guild_id=5, channel_id=50, first_user=1)
        g2 = await store.create_game(5, 51, 2)
        await store.add_seat(g2, name="u1", user_id=1)
        g3 = await store.create_game(6, 60, 9)
        await store.cancel_game(g3)
        assert [g.id for g in await store.games_in_guild(5)] == [g1, g2]
        assert [g.id for g in await store.games_in_guild(6)] == []
        assert [g.id for g in await store.games_in_guild(6, statuses=None)] == [g3]
        assert [g.id for g in await store.games_for_user(1)] == [g1, g2]
        assert [g.id for g in await store.games_for_user(1, statuses=["lobby"])] == [g2]
        assert await store.game_ids() == [g1, g2, g3]
        with pytest.raises(ValueError):
            await store.games_in_guild(5, statuses=["nonsense"])


class TestPlay:
    async def test_round_trip_of_a_whole_game(self, store, db_location):
        gid, state = await started_game(store, seed=7)
        rng = random.Random(3)
        applied: list[str] = []
        seq = 0
        while not state.is_over:
            seat, choice = pick(state, rng)
            state = await store.apply_choice(gid, seq, seat, choice)
            applied.append(choice)
            seq += 1
        assert seq > 10
        await store.close()
        # Reopen from disk: the state, choices and status all come back.
        again = await Store.open(db_location)
        try:
            loaded, loaded_seq = await again.load_state(gid)
            assert loaded_seq == seq and loaded.digest() == state.digest()
            assert [c.choice_id for c in await again.choices(gid)] == applied
            assert [c.seq for c in await again.choices(gid)] == list(range(seq))
            setup = await again.load_setup(gid)
            assert replay(setup, applied).digest() == state.digest()
            rec = await again.get_game(gid)
            assert rec.status == "finished" and rec.finished_at is not None and rec.seq == seq
            check = await again.verify_game(gid)
            assert check.ok, check.problem
            assert snapshot_seqs(db_location, gid) == [0, seq]  # finished: first and final only
            with pytest.raises(GameNotActive, match="over"):
                await again.apply_choice(gid, seq, 0, "x")
        finally:
            await again.close()

    async def test_stale_seq_rejected_and_nothing_changes(self, store):
        gid, state = await started_game(store)
        seat, choice = pick(state, random.Random(1))
        await store.apply_choice(gid, 0, seat, choice)
        before = await store.choices(gid)
        with pytest.raises(StaleMove, match="earlier turn"):
            await store.apply_choice(gid, 0, seat, choice)
        with pytest.raises(StaleMove):
            await store.apply_choice(gid, 5, seat, choice)
        assert await store.choices(gid) == before
        assert (await store.load_state(gid))[1] == 1

    async def test_not_your_turn(self, store):
        gid, state = await started_game(store)
        seat, choice = pick(state, random.Random(1))
        with pytest.raises(NotYourTurn):
            await store.apply_choice(gid, 0, (seat + 1) % 3, choice)
        assert await store.choices(gid) == []

    async def test_illegal_choice_passes_through_and_changes_nothing(self, store):
        gid, state = await started_game(store)
        with pytest.raises(IllegalChoice):
            await store.apply_choice(gid, 0, state.decision.player, "no-such-choice")
        loaded, seq = await store.load_state(gid)
        assert seq == 0 and loaded.digest() == state.digest()
        assert await store.choices(gid) == []

    async def test_lobby_game_cannot_be_played(self, store):
        gid = await store.create_game(1, 2, 3)
        with pytest.raises(GameNotActive, match="hasn't started"):
            await store.load_state(gid)
        with pytest.raises(GameNotActive):
            await store.apply_choice(gid, 0, 0, "x")

    async def test_snapshots_keep_latest_and_checkpoints(self, store, db_location):
        from store import CHECKPOINT_EVERY

        gid, _ = await started_game(store)
        state = await play(store, gid, random.Random(5), moves=CHECKPOINT_EVERY + 3)
        n = len(state.history)
        assert snapshot_seqs(db_location, gid) == sorted(
            {0, CHECKPOINT_EVERY, n} & set(range(n + 1))
        )

    async def test_errors_have_friendly_messages(self):
        assert "earlier turn" in str(StaleMove())
        assert str(NotYourTurn()) == "It isn't your turn."
        assert isinstance(StaleMove(), StoreError)


class TestRulesVersions:
    """A game keeps the rules version it began with (engine.versions)."""

    @staticmethod
    def _setup_row(location, gid):
        return json.loads(raw(location, "SELECT setup FROM games WHERE id = ?", gid)[0][0])

    async def test_a_new_game_starts_under_the_latest_rules(self, store, db_location):
        gid, state = await started_game(store)
        assert state.setup.rules_version == LATEST_RULES
        assert self._setup_row(db_location, gid)["rules_version"] == LATEST_RULES
        assert (await store.load_setup(gid)).rules_version == LATEST_RULES

    async def test_a_game_stored_before_versions_plays_on_under_version_1(self, store, db_location):
        # A setup row without rules_version, as every game stored before versions existed.
        gid = await store.create_game(1, 2, 3, {"players": 2, "rules_version": 1})
        for i in range(2):
            await store.add_seat(gid, name=f"p{i}", user_id=10 + i)
        await store.start_game(gid, 9)
        assert "rules_version" not in self._setup_row(db_location, gid)
        state = await play(store, gid, random.Random(2), moves=60)
        assert state.setup.rules_version == 1
        loaded, _ = await store.load_state(gid)
        assert loaded.setup.rules_version == 1 and loaded.digest() == state.digest()
        check = await store.verify_game(gid)
        assert check.ok, check.problem


class TestUndo:
    async def _game_with_undoable_move(self, store):
        """Find a seed/moves where the last move can be undone (engine allows it)."""
        rng = random.Random(11)
        for seed in range(40):
            gid, state = await started_game(store, seed=seed, channel_id=seed)
            for _ in range(30):
                seat, choice = pick(state, rng)
                state = await store.apply_choice(gid, len(state.history), seat, choice)
                if state.is_over:
                    break
                n = len(state.history)
                if n - 1 >= state.undo_floor and state.current_player == seat:
                    return gid, state, seat
        pytest.skip("no undoable move found")

    async def test_undo_replays_without_last_choice_and_keeps_the_row(self, store):
        gid, state, seat = await self._game_with_undoable_move(store)
        n = len(state.history)
        previous = await store.undo(gid, n, seat)
        setup = await store.load_setup(gid)
        assert previous.digest() == replay(setup, state.history[:-1]).digest()
        loaded, seq = await store.load_state(gid)
        assert seq == n - 1 and loaded.digest() == previous.digest()
        rows = await store.choices(gid, include_undone=True)
        assert len(rows) == n and rows[-1].undone_at is not None
        assert len(await store.choices(gid)) == n - 1
        # A double click on "undo" is stale, not a second undo.
        with pytest.raises(StaleMove):
            await store.undo(gid, n, seat)
        # Play on from there: a new live row with the same seq, and the audit still holds.
        s2, c2 = pick(previous, random.Random(99))
        await store.apply_choice(gid, n - 1, s2, c2)
        assert [c.seq for c in await store.choices(gid)] == list(range(n))
        assert (await store.verify_game(gid)).ok

    async def test_undo_by_other_player_or_at_start_refused(self, store):
        gid, state = await started_game(store)
        with pytest.raises(CannotUndo, match="nothing"):
            await store.undo(gid, 0, state.decision.player)
        seat, choice = pick(state, random.Random(1))
        await store.apply_choice(gid, 0, seat, choice)
        with pytest.raises(CannotUndo, match="Only the player"):
            await store.undo(gid, 1, (seat + 1) % 3)

    async def test_choice_rows_are_append_only(self, store, db_location):
        gid, state = await started_game(store)
        seat, choice = pick(state, random.Random(1))
        await store.apply_choice(gid, 0, seat, choice)
        for sql in (
            "DELETE FROM choices",
            "UPDATE choices SET choice_id = 'x'",
            "UPDATE choices SET digest = 'x'",  # a digest, once set, stays
        ):
            with pytest.raises(Exception, match="append-only"):
                raw(db_location, sql)
        assert len(await store.choices(gid)) == 1


class TestMessages:
    async def test_record_and_latest(self, store):
        gid = await store.create_game(1, 2, 3)
        assert await store.latest_message(gid, "board") is None
        await store.record_message(gid, "board", 2, 501, 0, now=T0)
        await store.record_message(gid, "lobby", 2, 502)
        await store.record_message(gid, "board", 2, 503, 1)
        latest = await store.latest_message(gid, "board")
        assert (latest.message_id, latest.seq, latest.channel_id) == (503, 1, 2)
        assert [m.message_id for m in await store.messages(gid)] == [501, 502, 503]
        assert [m.message_id for m in await store.messages(gid, "board")] == [501, 503]
        assert (await store.messages(gid))[0].created_at == T0
        with pytest.raises(GameNotFound):
            await store.record_message(999, "board", 2, 1)


class TestReminders:
    async def test_schedule_due_sent_and_attempts(self, store):
        gid, state = await started_game(store)
        user = 1000
        r1 = await store.schedule_reminder(gid, user, T0 + timedelta(hours=12), 0, now=T0)
        assert r1.attempt == 1 and r1.status == "pending"
        assert await store.due_reminders(T0) == []
        due = await store.due_reminders(T0 + timedelta(hours=12))
        assert [r.id for r in due] == [r1.id] and due[0].due_at == T0 + timedelta(hours=12)
        await store.mark_reminder_sent(r1.id, now=T0 + timedelta(hours=12))
        assert await store.due_reminders(T0 + timedelta(days=1)) == []
        r2 = await store.schedule_reminder(gid, user, T0 + timedelta(hours=36), 0)
        assert r2.attempt == 2  # backoff count for the same turn
        r3 = await store.schedule_reminder(gid, user, T0 + timedelta(hours=40), 0)
        assert r3.attempt == 2  # replacing a pending one doesn't count
        statuses = [r.status for r in await store.reminders(gid)]
        assert statuses == ["sent", "pending"]  # the replaced one is deleted (issue 29)
        assert (await store.reminders(gid))[0].sent_at == T0 + timedelta(hours=12)

    async def test_a_move_cancels_pending_reminders(self, store):
        gid, state = await started_game(store)
        await store.schedule_reminder(gid, 1000, T0, 0)
        seat, choice = pick(state, random.Random(1))
        await store.apply_choice(gid, 0, seat, choice)
        assert await store.due_reminders(T0 + timedelta(days=1)) == []
        assert await store.reminders(gid) == []  # moot rows are deleted (issue 29)

    async def test_stale_seq_reminders_are_not_due(self, store):
        gid, _ = await started_game(store)
        await store.schedule_reminder(gid, 1000, T0, 5)  # seq the game isn't at
        assert await store.due_reminders(T0) == []

    async def test_opted_out_users_are_not_reminded(self, store):
        gid, _ = await started_game(store)
        await store.schedule_reminder(gid, 1000, T0, 0)
        await store.schedule_reminder(gid, 1001, T0, 0)
        await store.set_user_settings(1000, reminders_enabled=False)
        assert [r.user_id for r in await store.due_reminders(T0)] == [1001]

    async def test_cancel_for_one_user(self, store):
        gid, _ = await started_game(store)
        await store.schedule_reminder(gid, 1000, T0, 0)
        await store.schedule_reminder(gid, 1001, T0, 0)
        assert await store.cancel_reminders(gid, 1000) == 1
        assert [r.user_id for r in await store.due_reminders(T0)] == [1001]
        assert await store.cancel_reminders(gid) == 1


class TestSettings:
    async def test_guild_defaults_and_update(self, store):
        g = await store.guild_settings(5)
        # issue 5: remind by DM where allowed (default), 12 hours by default.
        assert (g.reminder_hours, g.ping_mode) == (12.0, "dm")
        await store.set_guild_settings(5, reminder_hours=6)
        await store.set_guild_settings(5, ping_mode="channel")
        g = await store.guild_settings(5)
        assert (g.reminder_hours, g.ping_mode) == (6.0, "channel")
        with pytest.raises(StoreError):
            await store.set_guild_settings(5, reminder_hours=0)
        with pytest.raises(StoreError):
            await store.set_guild_settings(5, ping_mode="carrier pigeon")

    async def test_user_settings_and_effective_policy(self, store):
        u = await store.user_settings(7)
        assert u.reminders_enabled and u.ping_mode is None and u.reminder_hours is None
        await store.set_guild_settings(5, reminder_hours=8)
        assert await store.reminder_policy(5, 7) == (True, "dm", 8.0)
        await store.set_user_settings(7, ping_mode="channel", reminder_hours=2)
        await store.set_user_settings(7, reminders_enabled=False)
        u = await store.user_settings(7)
        assert (u.reminders_enabled, u.ping_mode, u.reminder_hours) == (False, "channel", 2.0)
        assert await store.reminder_policy(5, 7) == (False, "channel", 2.0)
        await store.set_user_settings(7, ping_mode=None)  # back to following the guild
        assert (await store.user_settings(7)).ping_mode is None

    async def test_limits_and_languages_are_kept_and_independent(self, store):
        """Issue 19: a server's limits on lobbies and games; issue 23: languages."""
        g = await store.guild_settings(5)
        assert (g.max_open_lobbies, g.max_games, g.language) == (None, None, None)
        await store.set_guild_settings(5, max_open_lobbies=2, max_games=10, language="es")
        await store.set_guild_settings(5, reminder_hours=3)  # the others are kept
        g = await store.guild_settings(5)
        assert (g.max_open_lobbies, g.max_games, g.language, g.reminder_hours) == (2, 10, "es", 3.0)
        await store.set_guild_settings(5, max_games=None)  # back to the bot's default
        assert (await store.guild_settings(5)).max_games is None
        for bad in (0, -1, 2.5):
            with pytest.raises(StoreError):
                await store.set_guild_settings(5, max_open_lobbies=bad)
        await store.set_user_settings(7, language="ja")
        await store.set_user_settings(7, reminders_enabled=False)
        assert (await store.user_settings(7)).language == "ja"

    async def test_the_flood_limit_is_a_server_setting(self, store):
        """Issue 33: how many games one member may set up in a server in a day (1-100)."""
        assert (await store.guild_settings(5)).max_new_games is None  # the bot's default
        await store.set_guild_settings(5, max_new_games=4)
        await store.set_guild_settings(5, max_games=20)  # kept beside the other limits
        g = await store.guild_settings(5)
        assert (g.max_new_games, g.max_games) == (4, 20)
        for bad in (0, 101, 2.5, -3):
            with pytest.raises(StoreError):
                await store.set_guild_settings(5, max_new_games=bad)
        assert (await store.guild_settings(5)).max_new_games == 4  # nothing changed
        await store.set_guild_settings(5, max_new_games=None)
        assert (await store.guild_settings(5)).max_new_games is None


class TestProperties:
    """Whatever sequence of moves, stale clicks, illegal choices and undos the players make,
    the stored game is exactly replay(setup, live choices), before and after a reopen."""

    @settings(
        max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(
        ops=st.lists(
            st.tuples(
                st.sampled_from(["apply", "stale", "illegal", "wrong_seat", "undo"]),
                st.integers(0, 10**6),
            ),
            max_size=40,
        ),
        seed=st.integers(0, 10**6),
    )
    def test_store_matches_replay_of_live_choices(self, db_location, ops, seed):
        asyncio.run(self._run(db_location, ops, seed))

    async def _run(self, path, ops, seed):
        store = await Store.open(path, synchronous="OFF")
        try:
            gid, state = await started_game(store, seed=seed)
            setup = await store.load_setup(gid)
            live: list[str] = []
            for op, n in ops:
                state, seq = await store.load_state(gid)
                if state.is_over:
                    break
                d_ = state.decision
                choice = d_.choices[n % len(d_.choices)].id
                if op == "apply":
                    await store.apply_choice(gid, seq, d_.player, choice)
                    live.append(choice)
                elif op == "stale":
                    with pytest.raises(StaleMove):
                        await store.apply_choice(gid, seq + 1 + n % 3, d_.player, choice)
                elif op == "illegal":
                    with pytest.raises(IllegalChoice):
                        await store.apply_choice(gid, seq, d_.player, f"nope-{n}")
                elif op == "wrong_seat":
                    with pytest.raises(NotYourTurn):
                        await store.apply_choice(gid, seq, (d_.player + 1) % 3, choice)
                else:
                    last = (await store.choices(gid))[-1:] or None
                    try:
                        await store.undo(gid, seq, last[0].seat if last else 0)
                        live.pop()
                    except CannotUndo:
                        pass
                state, seq = await store.load_state(gid)
                assert seq == len(live)
                assert state.digest() == replay(setup, live).digest()
                assert [c.choice_id for c in await store.choices(gid)] == live
        finally:
            await store.close()
        again = await Store.open(path)
        try:
            check = await again.verify_game(gid)
            assert check.ok, check.problem
        finally:
            await again.close()


class TestListing:
    async def test_listing_a_guild_costs_the_same_queries_for_3_or_30_games(self, store, backend):
        if backend != "sqlite":
            pytest.skip("counts statements with SQLite's trace hook (the SQL has the same shape)")
        statements: list[str] = []

        async def count_listing(n: int) -> int:
            for i in range(n):
                await started_game(store, guild_id=n, channel_id=i, seed=i)
            await store._db.trace_statements(statements.append)
            try:
                statements.clear()
                games = await store.games_in_guild(n)
            finally:
                await store._db.trace_statements(None)
            assert len(games) == n and all(len(g.seats) == 3 for g in games)
            return len(statements)

        assert await count_listing(3) == await count_listing(30)


class TestGroupCommit:
    async def test_moves_arriving_together_share_commits_and_fail_alone(self, store, backend):
        games = [await started_game(store, seed=i, channel_id=i) for i in range(40)]
        commits_before = getattr(store._db, "commits", 0)
        calls = []
        for i, (gid, state) in enumerate(games):
            seat, choice = pick(state, random.Random(i))
            seq = 0 if i % 4 else 7  # every fourth one is stale
            calls.append(store.apply_choice(gid, seq, seat, choice))
        results = await asyncio.gather(*calls, return_exceptions=True)
        for i, (result, (gid, _)) in enumerate(zip(results, games, strict=True)):
            if i % 4:
                assert not isinstance(result, BaseException), result
                assert (await store.load_state(gid))[1] == 1
            else:
                assert isinstance(result, StaleMove)
                assert (await store.load_state(gid))[1] == 0
        if backend == "sqlite":  # 30 moves acknowledged after far fewer commits
            assert 1 <= store._db.commits - commits_before <= 10


class TestLocation:
    async def test_database_url_chooses_postgresql(self, pg_server, monkeypatch, tmp_path):
        monkeypatch.chdir(tmp_path)
        url = pg_server.create_database("from_env", template="ada_template")
        monkeypatch.setenv("DATABASE_URL", url)
        s = await Store.open()
        try:
            assert s.backend == "postgres" and s.path is None
            await started_game(s)
        finally:
            await s.close()
        assert not list(tmp_path.glob("*.db"))

    def test_a_database_url_must_be_postgresql(self, monkeypatch):
        from store import database_location

        monkeypatch.setenv("DATABASE_URL", "mysql://x")
        with pytest.raises(ValueError, match="postgresql://"):
            database_location(None)
        monkeypatch.setenv("DATABASE_URL", "postgresql://u:secret@h/db")
        from store.config import redact

        assert redact(database_location(None)) == "postgresql://u@h/db"


def test_to_move_is_the_decisions_player_along_whole_games():
    """The store reads whose move it is without building the decision's choices."""
    from engine import GameSetup, new_game
    from store.verify import to_move

    for seed, players in ((1, 2), (2, 3), (3, 4)):
        state = new_game(GameSetup(players=players, seed=seed))
        rng = random.Random(seed)
        while True:
            decision = state.decision
            assert to_move(state) == (None if decision is None else decision.player)
            if decision is None:
                break
            state.apply(rng.choice(decision.choices).id)


class TestMoveWrittenAhead:
    """A move of a game this process verified is computed before its transaction and written
    only if the game is still exactly where the process left it (``Tx.record_move_at``); any
    change made elsewhere sends it the full way, which says what happened."""

    async def test_a_move_of_a_verified_game_is_one_statement(self, store, backend):
        if backend != "sqlite":
            pytest.skip("counts the SQLite store's statements (each a hand-off to its thread)")
        gid, state = await started_game(store)
        rng = random.Random(2)
        for _ in range(3):
            seat, choice = pick(state, rng)
            before = store._db.statements
            state = await store.apply_choice(gid, len(state.history), seat, choice)
            # BEGIN IMMEDIATE, the move's INSERT, COMMIT (it was 4: the game was read first)
            assert store._db.statements - before == 3
        assert (await store.verify_game(gid)).ok

    async def test_a_click_is_four_statements_and_schedules_the_same_reminder(
        self, store, backend, monkeypatch
    ):
        """A click (``remind=True``): BEGIN, the reminder's facts, the move's INSERT, COMMIT;
        its reminders are those of the full way, move for move."""
        await store.set_guild_settings(1, reminder_hours=6)
        await store.set_user_settings(1001, reminder_hours=2)
        await store.set_user_settings(1002, reminders_enabled=False)

        async def clicks(prepared: bool) -> list[tuple[int, int, int, datetime, str]]:
            gid, state = await started_game(store, seed=8, channel_id=int(prepared))
            rng = random.Random(8)
            for seq in range(12):
                seat, choice = pick(state, rng)
                before = getattr(store._db, "statements", 0)
                state = await store.apply_choice(
                    gid, seq, seat, choice, now=T0 + timedelta(minutes=seq), remind=True
                )
                if backend == "sqlite" and prepared and seq > 0:
                    assert store._db.statements - before == 4
            return [
                (r.user_id, r.seq, r.attempt, r.due_at, r.status)
                for r in await store.reminders(gid)
            ]

        ahead = await clicks(True)
        monkeypatch.setattr(type(store), "_prepared", lambda *args: None)  # the full way only
        assert await clicks(False) == ahead
        assert any(status == "pending" for *_, status in ahead)

    async def test_after_an_undo_the_next_move_is_written_ahead_too(self, store, backend):
        if backend != "sqlite":
            pytest.skip("counts the SQLite store's statements")
        gid, state = await started_game(store)
        rng = random.Random(5)
        while True:  # a move its player may take back
            seat, choice = pick(state, rng)
            state = await store.apply_choice(gid, len(state.history), seat, choice)
            if len(state.history) > 1 and state.can_undo() and state.decision.player == seat:
                break
        state = await store.undo(gid, len(state.history), seat)
        seat, choice = pick(state, rng)
        before = store._db.statements
        state = await store.apply_choice(gid, len(state.history), seat, choice)
        assert store._db.statements - before == 3
        assert (await store.verify_game(gid)).ok

    async def test_a_move_made_by_another_process_is_seen(self, db_location):
        one, two = await Store.open(db_location), await Store.open(db_location)
        try:
            gid, _ = await started_game(one)
            state = await play(one, gid, random.Random(1), 4)
            elsewhere, seq = await two.load_state(gid)
            assert seq == 4
            seat, choice = pick(elsewhere, random.Random(2))
            elsewhere = await two.apply_choice(gid, 4, seat, choice)
            seat, choice = pick(state, random.Random(3))
            with pytest.raises(StaleMove):  # `one` still had the game at move 4
                await one.apply_choice(gid, 4, seat, choice)
            state, seq = await one.load_state(gid)
            assert seq == 5 and state.digest() == elsewhere.digest()
            seat, choice = pick(state, random.Random(4))
            await one.apply_choice(gid, 5, seat, choice)
            assert [c.seq for c in await two.choices(gid)] == list(range(6))
            assert (await two.verify_game(gid)).ok
        finally:
            await one.close()
            await two.close()

    async def test_a_game_cancelled_by_another_process_takes_no_move(self, db_location):
        one, two = await Store.open(db_location), await Store.open(db_location)
        try:
            gid, _ = await started_game(one)
            state = await play(one, gid, random.Random(1), 3)
            await two.cancel_game(gid)
            seat, choice = pick(state, random.Random(2))
            with pytest.raises(GameNotActive):
                await one.apply_choice(gid, 3, seat, choice)
            assert len(await one.choices(gid)) == 3
        finally:
            await one.close()
            await two.close()

    async def test_wrong_seat_and_illegal_choice_say_so(self, store):
        gid, state = await started_game(store)
        state = await play(store, gid, random.Random(1), 2)
        player = state.decision.player
        with pytest.raises(NotYourTurn):
            await store.apply_choice(gid, 2, (player + 1) % 3, state.decision.choices[0].id)
        with pytest.raises(IllegalChoice):
            await store.apply_choice(gid, 2, player, "no such choice")
        assert (await store.load_state(gid))[1] == 2
