"""Recovery and audit: corrupted rows are detected, reported and set aside; check-db and backup."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from store_backends import drop_rewrite_trigger, raw, tamper

from store import GameBroken, Store
from store.cli import check_db, main, repair_db
from store.testing import play, started_game


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


@pytest.fixture
async def three_games(db_location):
    """A database with three games: finished, mid-game, just started."""
    path = db_location
    store = await Store.open(path, synchronous="OFF")  # fast to build; durability not under test
    ids = []
    for i, moves in enumerate([None, 20, 0]):
        gid, _ = await started_game(store, seed=i, channel_id=i)
        await play(store, gid, random.Random(i), moves)
        ids.append(gid)
    await store.close()
    return path, ids


def latest_snapshot_sql(gid: int) -> str:
    return f"(SELECT seq FROM games WHERE id = {gid})"


class TestVerify:
    async def test_clean_database_verifies(self, three_games):
        path, ids = three_games
        report = await check_db(path)
        assert report.ok and [g.game_id for g in report.games] == ids
        assert report.games[0].moves > 20 and report.games[1].moves == 20

    async def test_unparseable_snapshot_is_reported_and_marked(self, three_games):
        path, (g1, g2, g3) = three_games
        tamper(
            path,
            f"UPDATE snapshots SET state = '{{not json' WHERE game_id = {g2} AND seq = {latest_snapshot_sql(g2)}",
        )
        report = await check_db(path)
        assert not report.ok
        assert [g.game_id for g in report.failures] == [g2]
        assert "unreadable" in report.failures[0].problem
        assert any(f"game {g2}: BROKEN" in line for line in report.lines())
        store = await Store.open(path)
        try:
            rec = await store.get_game(g2)
            assert rec.status == "broken" and "unreadable" in rec.broken_reason
            assert (await store.get_game(g1)).status == "finished"
            assert (await store.get_game(g3)).status == "active"
            with pytest.raises(GameBroken):
                await store.load_state(g2)
            with pytest.raises(GameBroken):
                await store.apply_choice(g2, 20, 0, "x")
            await play(store, g3, random.Random(9), 3)  # the others play on
        finally:
            await store.close()

    async def test_swapped_snapshot_with_valid_digest_is_a_mismatch(self, three_games):
        path, (g1, g2, g3) = three_games
        [(state, digest)] = raw(
            path, f"SELECT state, digest FROM snapshots WHERE game_id = {g3} AND seq = 0"
        )
        # g2 at seq 0: overwrite its checkpoint with another game's (self-consistent) state.
        tamper(
            path,
            f"UPDATE snapshots SET state = ?, digest = ? WHERE game_id = {g2} AND seq = 0",
            params=(state, digest),
        )
        # Issue 33: no move or undo reads an older snapshot, so the game stays playable: the
        # check rebuilds it instead of pausing the game (it was marked broken before).
        report = await check_db(path, mark=False)
        assert report.ok and [g.rebuilt for g in report.games] == [(), (0,), ()]
        assert any("to rebuild (not done: --no-mark)" in line for line in report.lines())
        assert raw(path, f"SELECT digest FROM snapshots WHERE game_id = {g2} AND seq = 0") == [
            (digest,)
        ]  # --no-mark: nothing written
        report = await check_db(path)
        assert report.ok and any("rebuilt from seed + choices" in x for x in report.lines())
        assert (await check_db(path)).games[1].rebuilt == ()  # it is sound now
        store = await Store.open(path)
        try:
            assert (await store.get_game(g2)).status == "active"
            await play(store, g2, random.Random(9), 3)
        finally:
            await store.close()

    async def test_digest_mismatch_detected_on_load(self, three_games):
        path, (_, g2, _) = three_games
        tamper(path, f"UPDATE snapshots SET digest = 'abc' WHERE game_id = {g2}")
        store = await Store.open(path)
        try:
            with pytest.raises(GameBroken):
                await store.load_state(g2)
            rec = await store.get_game(g2)
            assert rec.status == "broken" and "digest" in rec.broken_reason
        finally:
            await store.close()

    async def test_edited_state_content_detected(self, three_games):
        path, (_, g2, _) = three_games
        [(text,)] = raw(path, f"SELECT state FROM snapshots WHERE game_id = {g2} AND seq = 20")
        d = json.loads(text)
        d["history"] = d["history"][:-1]  # valid JSON, wrong game
        tamper(
            path,
            f"UPDATE snapshots SET state = ? WHERE game_id = {g2} AND seq = 20",
            params=(json.dumps(d),),
        )
        report = await check_db(path, mark=False)
        assert [g.game_id for g in report.failures] == [g2]
        # Issue 33: --no-mark said "marked 'broken'" while it marked nothing
        assert any("not marked: --no-mark" in line for line in report.lines())
        assert not any("marked 'broken'" in line for line in report.lines())
        store = await Store.open(path)
        try:
            assert (await store.get_game(g2)).status == "active"  # mark=False: report only
        finally:
            await store.close()

    async def test_rewritten_choice_detected(self, three_games):
        path, (_, g2, _) = three_games
        tamper(
            path,
            drop_rewrite_trigger(path),
            f"UPDATE choices SET choice_id = 'bogus' WHERE game_id = {g2} AND seq = 3",
        )
        report = await check_db(path)
        assert [g.game_id for g in report.failures] == [g2]
        assert "illegal on replay" in report.failures[0].problem

    @pytest.mark.parametrize(
        "sql, words",
        [
            ("UPDATE games SET setup = 'garbage' WHERE id = {g}", "setup is unreadable"),
            ("UPDATE games SET seq = 'abc' WHERE id = {g}", "unreadable seq"),
            ("DELETE FROM snapshots WHERE game_id = {g}", "missing"),
            ("UPDATE games SET seq = seq + 1 WHERE id = {g}", "choices are stored"),
            ("UPDATE games SET status = 'active' WHERE id = {g}", "marked active but"),
        ],
    )
    async def test_unreadable_or_inconsistent_rows(self, three_games, backend, sql, words):
        path, (g1, g2, g3) = three_games
        if "'abc'" in sql and backend != "sqlite":
            pytest.skip("only SQLite lets a column hold a value of another type")
        tamper(path, sql.format(g=g1))
        report = await check_db(path)
        assert [g.game_id for g in report.failures] == [g1]
        assert words in report.failures[0].problem
        assert [g.ok for g in report.games] == [False, True, True]

    async def test_unreadable_options_do_not_break_listing(self, three_games):
        path, (g1, _, _) = three_games
        tamper(path, f"UPDATE games SET options = '{{{{' WHERE id = {g1}")
        store = await Store.open(path)
        try:
            assert (await store.get_game(g1)).options == {}
            assert len(await store.games_in_guild(1, statuses=None)) == 3
        finally:
            await store.close()


class TestRepair:
    async def test_broken_snapshot_rebuilt_from_seed_and_choices(self, three_games):
        path, (g1, g2, g3) = three_games
        store = await Store.open(path)
        try:
            before = {g: (await store.load_state(g))[0].digest() for g in (g1, g2)}
        finally:
            await store.close()
        tamper(path, f"UPDATE snapshots SET state = 'junk' WHERE game_id IN ({g1}, {g2})")
        assert len((await check_db(path)).failures) == 2
        results = await repair_db(path)  # every broken game
        assert [(r.game_id, r.ok) for r in results] == [(g1, True), (g2, True)]
        store = await Store.open(path)
        try:
            for g, status in ((g1, "finished"), (g2, "active")):
                rec = await store.get_game(g)
                assert (rec.status, rec.broken_reason) == (status, None)
                assert (await store.load_state(g))[0].digest() == before[g]
            await play(store, g2, random.Random(1), 5)
        finally:
            await store.close()
        assert (await check_db(path)).ok

    async def test_unreplayable_game_stays_broken(self, three_games):
        path, (_, g2, _) = three_games
        tamper(
            path,
            drop_rewrite_trigger(path),
            f"UPDATE choices SET choice_id = 'bogus' WHERE game_id = {g2} AND seq = 3",
        )
        await check_db(path)
        [result] = await repair_db(path)
        assert not result.ok and "illegal" in result.problem
        store = await Store.open(path)
        try:
            assert (await store.get_game(g2)).status == "broken"
            with pytest.raises(GameBroken):
                await store.load_state(g2)
        finally:
            await store.close()

    async def test_cli_repair(self, three_games, capsys):
        path, (_, g2, _) = three_games
        tamper(path, f"UPDATE snapshots SET digest = 'x' WHERE game_id = {g2}")
        assert await asyncio.to_thread(main, ["--db", str(path), "check-db"]) == 1
        assert await asyncio.to_thread(main, ["--db", str(path), "repair"]) == 0
        assert f"game {g2}: repaired" in capsys.readouterr().out
        assert await asyncio.to_thread(main, ["--db", str(path), "check-db"]) == 0


class TestCli:
    async def test_check_db_exit_codes(self, three_games, capsys):
        path, (_, g2, _) = three_games
        assert await asyncio.to_thread(main, ["--db", str(path), "check-db"]) == 0
        assert "OK" in capsys.readouterr().out
        tamper(path, f"UPDATE snapshots SET state = 'x' WHERE game_id = {g2}")
        assert await asyncio.to_thread(main, ["check-db", "--db", str(path)]) == 1
        out = capsys.readouterr().out
        assert f"game {g2}: BROKEN" in out and "1 game(s) with problems" in out

    def test_check_db_missing_file(self, tmp_path, capsys):
        assert main(["--db", str(tmp_path / "none.db"), "check-db"]) == 2
        assert "No database" in capsys.readouterr().err
        assert not (tmp_path / "none.db").exists()

    def test_not_a_database(self, tmp_path, capsys):
        junk = tmp_path / "junk.db"
        junk.write_bytes(b"this is not sqlite" * 100)
        assert main(["--db", str(junk), "check-db"]) == 2
        assert "not a database" in capsys.readouterr().err
        assert main(["--db", str(tmp_path / "none.db"), "backup", str(tmp_path / "b.db")]) == 2

    def test_check_db_too_new(self, tmp_path, capsys):
        path = tmp_path / "g.db"
        assert main(["--db", str(path), "migrate"]) == 0
        tamper(path, "INSERT INTO schema_version VALUES (999, 'x', 'x', 'x')")
        assert main(["--db", str(path), "check-db"]) == 2
        assert "newer" in capsys.readouterr().err

    def test_default_path_from_env(self, tmp_path, monkeypatch, capsys):
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "env.db"))
        assert main(["migrate"]) == 0
        assert "env.db: schema version" in capsys.readouterr().out


WRITER = """
import asyncio, random, sys
from store import Store
from store.testing import started_game

async def main(path):
    store = await Store.open(path)
    rng = random.Random(0)
    gids = [(await started_game(store, seed=s, channel_id=s))[0] for s in range(5)]
    print("ready", flush=True)
    while True:
        for gid in gids:
            state, seq = await store.load_state(gid)
            if state.is_over:
                gids.remove(gid)
                gids.append((await started_game(store, seed=rng.randrange(10**6)))[0])
                continue
            d = state.decision
            await store.apply_choice(gid, seq, d.player, rng.choice(d.choices).id)

asyncio.run(main(sys.argv[1]))
"""


class TestBackup:
    async def test_backup_while_another_process_writes(self, tmp_path):
        live = tmp_path / "live.db"
        script = tmp_path / "writer.py"
        script.write_text(WRITER)
        proc = subprocess.Popen(
            [sys.executable, str(script), str(live)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(),
            cwd=tmp_path,
        )
        try:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
            for i in range(3):
                await asyncio.sleep(0.3)
                dest = tmp_path / f"copy{i}.db"
                code = await asyncio.to_thread(main, ["--db", str(live), "backup", str(dest)])
                assert code == 0
                assert not (tmp_path / f"copy{i}.db.partial").exists()
                report = await check_db(dest, mark=False)
                assert report.ok, report.lines()
                assert len(report.games) >= 5 and sum(g.moves for g in report.games) > 0
        finally:
            proc.kill()
            proc.communicate(timeout=30)

    async def test_backup_refuses_to_overwrite_and_store_method(self, three_games, capsys, backend):
        if backend != "sqlite":
            pytest.skip("backup copies a SQLite file (PostgreSQL: pg_dump)")
        path, ids = three_games
        path = Path(path)
        dest = path.with_name("b.db")
        assert await asyncio.to_thread(main, ["--db", str(path), "backup", str(dest)]) == 0
        assert "3 game(s)" in capsys.readouterr().out
        assert await asyncio.to_thread(main, ["--db", str(path), "backup", str(dest)]) == 2
        assert "already exists" in capsys.readouterr().err
        assert (
            await asyncio.to_thread(main, ["--db", str(path), "backup", str(dest), "--force"]) == 0
        )
        store = await Store.open(path)
        try:
            result = await store.backup(path.with_name("c.db"))
            assert result.games == 3 and result.schema_version >= 1
            copy = await Store.open(path.with_name("c.db"))
            try:
                a, seq_a = await store.load_state(ids[1])
                b, seq_b = await copy.load_state(ids[1])
                assert (seq_a, a.digest()) == (seq_b, b.digest())
            finally:
                await copy.close()
        finally:
            await store.close()
