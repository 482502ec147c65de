"""Issue 19, "damage that goes unnoticed": damaged seats, a damaged choice log, and a saved state
that is not what its choices replay to are all caught, the game set aside at once; and no saved
state or hand reaches the log."""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys
import textwrap

import pytest
from store_backends import drop_rewrite_trigger, raw, tamper

from engine import GameState
from store import GameBroken, IllegalChoice, Store
from store.cli import check_db
from store.testing import pick, play, started_game


async def game_in_play(location: str, moves: int = 12, seed: int = 3) -> tuple[int, int]:
    """A 3-player game ``moves`` moves in, written by a store that is then closed (so the
    next Store is a process that has not seen the game yet)."""
    store = await Store.open(location)
    try:
        gid, _ = await started_game(store, seed=seed)
        state = await play(store, gid, random.Random(seed), moves)
        return gid, len(state.history)
    finally:
        await store.close()


async def status_of(location: str, gid: int) -> str:
    store = await Store.open(location)
    try:
        return (await store.get_game(gid)).status
    finally:
        await store.close()


class TestDamagedSeats:
    @pytest.mark.parametrize(
        "damage, words",
        [
            ("DELETE FROM seats WHERE game_id = {g} AND join_order = 1", "seat rows"),
            (
                "UPDATE seats SET turn_index = NULL WHERE game_id = {g} AND join_order = 0",
                "turn order",
            ),
            (
                "UPDATE seats SET name = 'nobody' WHERE game_id = {g} AND join_order = 2",
                "names another",
            ),
        ],
    )
    async def test_check_db_reports_and_marks_broken(self, db_location, damage, words):
        gid, _ = await game_in_play(db_location)
        other, _ = await game_in_play(db_location, seed=4)
        tamper(db_location, damage.format(g=gid))
        report = await check_db(db_location)
        assert [g.game_id for g in report.failures] == [gid]
        assert words in report.failures[0].problem
        assert await status_of(db_location, gid) == "broken"
        assert await status_of(db_location, other) == "active"

    async def test_first_load_sets_the_game_aside(self, db_location):
        gid, seq = await game_in_play(db_location)
        tamper(db_location, f"DELETE FROM seats WHERE game_id = {gid} AND join_order = 1")
        store = await Store.open(db_location)
        try:
            with pytest.raises(GameBroken):
                await store.load_state(gid)
            assert (await store.get_game(gid)).status == "broken"
        finally:
            await store.close()


class TestDamagedChoiceLog:
    async def test_a_rewritten_choice_stops_play_at_once(self, db_location):
        gid, seq = await game_in_play(db_location)
        # Rewrite move 3 to another choice that was legal there: the game still replays, only
        # to another state. Play must not go on building on it.
        store = await Store.open(db_location)
        try:
            setup = await store.load_setup(gid)
            choices = [c.choice_id for c in await store.choices(gid)]
        finally:
            await store.close()
        from engine import replay

        before = replay(setup, choices[:3])
        other = next(c.id for c in before.decision.choices if c.id != choices[3])
        tamper(
            db_location,
            drop_rewrite_trigger(db_location),
            f"UPDATE choices SET choice_id = ? WHERE game_id = {gid} AND seq = 3",
            params=(other,),
        )
        store = await Store.open(db_location)
        try:
            with pytest.raises(GameBroken):
                await store.load_state(gid)
            rec = await store.get_game(gid)
            assert (
                rec.status == "broken" and "choice log is damaged at choice 3" in rec.broken_reason
            )
            with pytest.raises(GameBroken):
                await store.apply_choice(gid, seq, 0, "x")
        finally:
            await store.close()
        assert len(raw(db_location, f"SELECT id FROM choices WHERE game_id = {gid}")) == seq

    async def test_a_removed_last_choice_is_seen_by_a_running_store(self, db_location):
        store = await Store.open(db_location)
        try:
            gid, _ = await started_game(store, seed=5)
            state = await play(store, gid, random.Random(5), 8)
            seq = len(state.history)
            # Another hand removes the last choice and winds the game back behind our back.
            tamper(
                db_location,
                "DROP TRIGGER choices_no_delete"
                + (" ON choices" if "postgres" in db_location else ""),
                f"DELETE FROM choices WHERE game_id = {gid} AND seq = {seq - 1}",
            )
            seat, choice = pick(state, random.Random(1))
            with pytest.raises(GameBroken):
                await store.apply_choice(gid, seq, seat, choice)
            assert (await store.get_game(gid)).status == "broken"
        finally:
            await store.close()

    @pytest.mark.parametrize("column", ["choice_id", "seat"])
    async def test_a_rewritten_last_choice_is_seen_by_a_running_store(self, db_location, column):
        """The running store writes its next move without reading the game first, only if the
        last choice row is exactly the one it verified (its digest alone is not enough)."""
        store = await Store.open(db_location)
        try:
            gid, _ = await started_game(store, seed=6)
            state = await play(store, gid, random.Random(6), 8)
            seq = len(state.history)
            last = raw(
                db_location,
                f"SELECT seat, choice_id FROM choices WHERE game_id = {gid} AND seq = {seq - 1}",
            )[0]
            value = (last[0] + 1) % 3 if column == "seat" else "ws:0:Y1:0"
            tamper(
                db_location,
                drop_rewrite_trigger(db_location),
                f"UPDATE choices SET {column} = ? WHERE game_id = {gid} AND seq = {seq - 1}",
                params=(value,),
            )
            seat, choice = pick(state, random.Random(1))
            with pytest.raises(GameBroken):
                await store.apply_choice(gid, seq, seat, choice)
            assert (await store.get_game(gid)).status == "broken"
            assert len(raw(db_location, f"SELECT id FROM choices WHERE game_id = {gid}")) == seq
        finally:
            await store.close()

    async def test_games_from_before_the_digests_keep_working(self, db_location):
        gid, seq = await game_in_play(db_location)
        # As a game written before migration 6: no digests anywhere.
        tamper(
            db_location,
            drop_rewrite_trigger(db_location),
            f"UPDATE choices SET digest = NULL WHERE game_id = {gid}",
            f"UPDATE games SET log_digest = NULL, to_move = NULL WHERE id = {gid}",
        )
        store = await Store.open(db_location)
        try:
            state, loaded_seq = await store.load_state(gid)
            assert loaded_seq == seq
            await play(store, gid, random.Random(8), 3)
        finally:
            await store.close()
        digests = raw(db_location, f"SELECT digest FROM choices WHERE game_id = {gid}")
        assert len(digests) == seq + 3 and all(d for (d,) in digests)  # filled in on the way
        assert (await check_db(db_location)).ok


class TestStateNotWhatItsChoicesReplayTo:
    async def wrong_but_valid_snapshot(self, location: str, gid: int, seq: int) -> None:
        """Replace the latest snapshot by a state that parses and hashes right but is not what
        the choices give (as an engine bug would write it)."""
        [(text,)] = raw(
            location, f"SELECT state FROM snapshots WHERE game_id = {gid} AND seq = {seq}"
        )
        state = GameState.from_json(text)
        state.players[0].money += 5
        tamper(
            location,
            f"UPDATE snapshots SET state = ?, digest = ? WHERE game_id = {gid} AND seq = {seq}",
            params=(state.to_json(), state.digest()),
        )

    async def test_check_db_compares_with_the_replay(self, db_location):
        gid, seq = await game_in_play(db_location)
        await self.wrong_but_valid_snapshot(db_location, gid, seq)
        report = await check_db(db_location)
        assert [g.game_id for g in report.failures] == [gid]
        assert "differs from the state rebuilt" in report.failures[0].problem

    async def test_a_new_process_never_builds_on_it(self, db_location):
        gid, seq = await game_in_play(db_location)
        await self.wrong_but_valid_snapshot(db_location, gid, seq)
        store = await Store.open(db_location)
        try:
            with pytest.raises(GameBroken):
                await store.load_state(gid)
            with pytest.raises(GameBroken):
                await store.apply_choice(gid, seq, 0, "x")
        finally:
            await store.close()
        assert len(raw(db_location, f"SELECT id FROM choices WHERE game_id = {gid}")) == seq

    async def test_each_game_is_replayed_once_per_process(self, db_location, monkeypatch):
        from store import verify

        replays: list[int] = []
        real = verify.replay_rows

        def counting(game, *args, **kwargs):
            replays.append(game.id)
            return real(game, *args, **kwargs)

        monkeypatch.setattr("store.play.replay_rows", counting)
        gid, seq = await game_in_play(db_location)
        store = await Store.open(db_location)
        try:
            state, _ = await store.load_state(gid)
            assert replays == [gid]
            for _ in range(5):
                state, seq = await store.load_state(gid)
                seat, choice = pick(state, random.Random(seq))
                await store.apply_choice(gid, seq, seat, choice)
            assert replays == [gid]  # moves extend what was verified
            # Another process moves the game on: this one checks the new choices only.
            other = await Store.open(db_location)
            try:
                state, seq = await other.load_state(gid)
                await other.apply_choice(gid, seq, *pick(state, random.Random(1)))
            finally:
                await other.close()
            replays.clear()
            state, seq2 = await store.load_state(gid)
            assert seq2 == seq + 1 and replays == [gid]
        finally:
            await store.close()


class TestNoSecretsInTheLog:
    async def test_debug_log_of_a_game_holds_no_hand_and_no_state(self, db_location, caplog):
        caplog.set_level(logging.DEBUG)
        for name in ("aiosqlite", "asyncpg", "store", "store.sqlite", "store.postgres"):
            logging.getLogger(name).setLevel(logging.DEBUG)
        store = await Store.open(db_location)
        hands: set[str] = set()
        try:
            gid, state = await started_game(store, seed=11)
            rng = random.Random(11)
            for _ in range(25):
                hands.update(card for p in state.players for card in p.hand)
                seat, choice = pick(state, rng)
                state = await store.apply_choice(gid, len(state.history), seat, choice)
                await store.record_message(gid, "turn", 100, 1000 + len(state.history))
            hands.update(card for p in state.players for card in p.hand)
            await store.load_state(gid)
            with pytest.raises(IllegalChoice):
                await store.apply_choice(gid, len(state.history), state.decision.player, "nope")
            await store.mark_broken(gid, "test")
        finally:
            await store.close()
        text = "\n".join(
            r.getMessage() + (f" {r.exc_text}" if r.exc_text else "") for r in caplog.records
        )
        assert hands and len(caplog.records) > 0
        leaked = sorted(card for card in hands if card in text)
        assert leaked == [], f"hand cards in the log: {leaked}"
        assert '"hand"' not in text and json.dumps("players") not in text

    def test_the_store_on_its_own_keeps_aiosqlite_quiet(self, tmp_path):
        """A program using the store without the bot (no ``cogs.logsafe``), every logger at
        DEBUG: aiosqlite, which logs each statement with its parameters at DEBUG, says
        nothing."""
        script = tmp_path / "alone.py"
        script.write_text(
            textwrap.dedent(
                """
                import asyncio, json, logging, random, sys
                logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
                from store import Store
                from store.testing import pick, started_game

                async def main():
                    store = await Store.open(sys.argv[1])
                    gid, state = await started_game(store, seed=5)
                    hands = set()
                    for _ in range(8):
                        hands.update(c for p in state.players for c in p.hand)
                        seat, choice = pick(state, random.Random(len(state.history)))
                        state = await store.apply_choice(gid, len(state.history), seat, choice)
                    await store.load_state(gid)
                    await store.close()
                    print(json.dumps(sorted(hands)))

                asyncio.run(main())
                """
            )
        )
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        out = subprocess.run(
            [sys.executable, str(script), str(tmp_path / "alone.db")],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        hands = json.loads(out.stdout)
        assert hands and "DEBUG:asyncio" in out.stderr  # the program's DEBUG log is on
        assert "aiosqlite" not in out.stderr
        assert [card for card in hands if card in out.stderr] == []

    def test_database_libraries_debug_records_are_dropped(self, caplog):
        import store  # noqa: F401 - installs the filter

        caplog.set_level(logging.DEBUG)
        logging.getLogger("aiosqlite").setLevel(logging.DEBUG)
        logging.getLogger("aiosqlite").debug("executing %s", '{"hand": ["francis_baily"]}')
        logging.getLogger("asyncpg").debug("query %s", "secret")
        logging.getLogger("asyncpg").warning("a pool warning stays")
        assert [r.getMessage() for r in caplog.records] == ["a pool warning stays"]
