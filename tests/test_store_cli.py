"""The operator's command line (issue 29): list, show, cancel, export and prune games; upgrades
only by ``migrate``, with a backup; every failure one line and a non-zero exit code. On both
backends."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from store_backends import _in_thread, raw

import engine.__main__ as engine_cli
from store import Store
from store.cli import main
from store.migrate import load_migrations
from store.sqlite import migrate_sqlite
from store.testing import play, started_game

LATEST = load_migrations("sqlite")[-1].version
LONG_AGO = datetime(2025, 1, 1, tzinfo=UTC)


def make_games(location: str) -> dict[str, int]:
    """A game finished long ago, a game in play and a lobby, with a message and reminders."""

    async def make() -> dict[str, int]:
        store = await Store.open(location)
        try:
            done, _ = await started_game(store, players=2, seed=7, guild_id=11, now=LONG_AGO)
            await store.record_message(done, "turn", 5, 55, 0, now=LONG_AGO)
            await store.schedule_reminder(done, 1000, LONG_AGO, 0, now=LONG_AGO)
            r = await store.schedule_reminder(done, 1000, LONG_AGO, 0, now=LONG_AGO)
            await store.mark_reminder_sent(r.id, now=LONG_AGO)
            state, seq = await store.load_state(done)
            rng = random.Random(1)
            while not state.is_over:
                d = state.decision
                assert d is not None
                state = await store.apply_choice(
                    done, seq, d.player, rng.choice(d.choices).id, now=LONG_AGO
                )
                seq += 1
            active, _ = await started_game(store, players=3, seed=8, guild_id=22)
            await play(store, active, random.Random(2), moves=10)
            lobby = await store.create_game(22, 100, 1000, {"players": 2})
            return {"done": done, "active": active, "lobby": lobby}
        finally:
            await store.close()

    return _in_thread(make())  # type: ignore[no-any-return]


def run(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err  # one line, no traceback
    assert "Traceback" not in err
    return err


class TestOperatorCommands:
    def test_games_filters_by_server_status_and_age(self, db_location: str, capsys: Any):
        ids = make_games(db_location)
        code, out, err = run(capsys, "--db", db_location, "games")
        assert code == 0 and out.strip().endswith("3 game(s)."), err
        code, out, _ = run(capsys, "--db", db_location, "games", "--server", "22")
        assert "2 game(s)." in out and f"\n{ids['done']:>6} " not in out
        code, out, _ = run(
            capsys, "--db", db_location, "games", "--status", "finished", "--status", "lobby"
        )
        assert "2 game(s)." in out and "active" not in out.split("\n", 1)[1]
        code, out, _ = run(capsys, "--db", db_location, "games", "--older-than", "30d")
        assert out.strip().endswith("1 game(s).") and "finished" in out

    def test_show_and_cancel(self, db_location: str, capsys: Any):
        ids = make_games(db_location)
        code, out, _ = run(capsys, "--db", db_location, "show", str(ids["active"]))
        assert code == 0 and f"game {ids['active']}: active" in out
        assert "seat 0:" in out and "user 10" in out and "10 move(s)" in out
        code, out, _ = run(capsys, "--db", db_location, "cancel", str(ids["active"]))
        assert code == 0 and "cancelled (it was active)" in out
        assert raw(db_location, "SELECT status FROM games WHERE id = ?", ids["active"]) == [
            ("cancelled",)
        ]
        err = one_line_error(*run(capsys, "--db", db_location, "cancel", str(ids["done"])))
        assert "already over" in err

    def test_export_replays_to_the_final_scores(
        self, db_location: str, capsys: Any, tmp_path: Path
    ):
        ids = make_games(db_location)
        out_file = tmp_path / "game.json"
        code, _, _ = run(
            capsys, "--db", db_location, "export", str(ids["done"]), "-o", str(out_file)
        )
        assert code == 0
        record = json.loads(out_file.read_text())
        assert record["game"] == ids["done"] and record["status"] == "finished"
        assert record["setup"]["seed"] == 7 and record["edition"] and record["rules_version"]

        async def final() -> Any:
            store = await Store.open(db_location)
            try:
                return (await store.load_state(ids["done"]))[0].final_scores()
            finally:
                await store.close()

        scores = _in_thread(final())
        assert record["final_scores"] == scores
        printed = io.StringIO()
        assert engine_cli.main(["replay", str(out_file), "--json"], out=printed) == 0
        assert json.loads(printed.getvalue())["final_scores"] == scores
        # a record that was tampered with does not replay to its stated scores
        record["final_scores"][0]["Total"] += 1
        out_file.write_text(json.dumps(record))
        printed = io.StringIO()
        assert engine_cli.main(["replay", str(out_file)], out=printed) == 1
        assert "final scores" in printed.getvalue()

    def test_export_of_a_game_in_play_has_no_final_scores(self, db_location: str, capsys: Any):
        ids = make_games(db_location)
        code, out, _ = run(capsys, "--db", db_location, "export", str(ids["active"]))
        record = json.loads(out)
        assert code == 0 and "final_scores" not in record and len(record["choices"]) == 10
        printed = io.StringIO()
        file = Path(db_location + ".json") if not db_location.startswith("postgresql") else None
        if file is not None:
            file.write_text(out)
            assert engine_cli.main(["replay", str(file)], out=printed) == 0
            assert "not over" in printed.getvalue()

    def test_prune_archives_old_finished_games(self, db_location: str, capsys: Any):
        ids = make_games(db_location)
        done = ids["done"]

        def rows(table: str) -> int:
            return int(
                raw(db_location, f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", done)[0][0]
            )

        before = {t: rows(t) for t in ("snapshots", "messages", "reminders", "choices")}
        assert before["snapshots"] == 2 and before["messages"] == 1 and before["reminders"] == 1
        code, out, _ = run(capsys, "--db", db_location, "prune", "--older-than", "30d", "--dry-run")
        assert code == 0 and f"would be archived: {done}." in out
        assert {t: rows(t) for t in before} == before  # a dry run changes nothing
        code, out, _ = run(capsys, "--db", db_location, "prune", "--older-than", "30d")
        assert code == 0 and f"archived 1 finished game(s): {done}" in out
        after = {t: rows(t) for t in before}
        assert after == {**before, "snapshots": 1, "messages": 0, "reminders": 0}
        # the record and final scores are kept: it still verifies, exports and replays
        code, out, _ = run(capsys, "--db", db_location, "check-db", "--no-mark")
        assert code == 0, out
        code, out, _ = run(capsys, "--db", db_location, "export", str(done))
        assert code == 0 and "final_scores" in json.loads(out)
        code, out, _ = run(capsys, "--db", db_location, "show", str(done))
        assert "archived" in out
        code, out, _ = run(capsys, "--db", db_location, "prune", "--older-than", "30d")
        assert "archived 0 finished game(s)" in out  # once is enough


class TestOneClearLine:
    @pytest.mark.parametrize("command", ["show", "cancel", "export"])
    def test_a_missing_game(self, db_location: str, capsys: Any, command: str):
        make_games(db_location)
        err = one_line_error(*run(capsys, "--db", db_location, command, "999"))
        assert "no such game" in err

    def test_a_lobby_has_no_record_to_export(self, db_location: str, capsys: Any):
        ids = make_games(db_location)
        err = one_line_error(*run(capsys, "--db", db_location, "export", str(ids["lobby"])))
        assert "hasn't started" in err

    def test_a_missing_file(self, tmp_path: Path, capsys: Any):
        missing = tmp_path / "nothing.db"
        err = one_line_error(*run(capsys, "--db", str(missing), "games"))
        assert "No database" in err and not missing.exists()

    def test_a_database_of_an_older_version_is_not_upgraded(self, tmp_path: Path, capsys: Any):
        db = tmp_path / "old.db"

        async def old() -> None:
            async with aiosqlite.connect(db, isolation_level=None) as conn:
                await migrate_sqlite(conn, load_migrations("sqlite"), target=LATEST - 1)

        _in_thread(old())
        raw(
            str(db),
            "INSERT INTO games (guild_id, channel_id, creator_id, created_at, updated_at)"
            " VALUES (1, 2, 3, '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')",
        )
        before = db.read_bytes()
        for command in (
            ["check-db"],
            ["repair"],
            ["games"],
            ["show", "1"],
            ["prune", "--older-than", "1d"],
            ["migrate-to-postgres", str(db), "postgresql://bot@127.0.0.1:9/never_reached"],
        ):
            err = one_line_error(*run(capsys, "--db", str(db), *command))
            assert "migrate" in err and f"version {LATEST - 1}" in err
        assert db.read_bytes() == before  # read-only commands never migrate
        code, out, _ = run(capsys, "--db", str(db), "migrate")
        assert code == 0 and f"upgraded from {LATEST - 1}" in out and ".bak" in out
        copy = Path(out.split("the copy from before is ", 1)[1].rstrip(")\n"))
        conn = sqlite3.connect(copy)
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (LATEST - 1,)
        conn.close()
        assert run(capsys, "--db", str(db), "games")[0] == 0

    def test_a_database_of_a_newer_version(self, tmp_path: Path, capsys: Any):
        db = tmp_path / "new.db"
        make_games(str(db))
        raw(
            str(db),
            "INSERT INTO schema_version (version, name, checksum, applied_at)"
            " VALUES (?, 'future', 'x', '2030-01-01T00:00:00.000000Z')",
            LATEST + 1,
        )
        for command in (["games"], ["migrate"], ["check-db"]):
            err = one_line_error(*run(capsys, "--db", str(db), *command))
            assert "newer bot" in err

    def test_a_locked_file(self, tmp_path: Path, capsys: Any):
        db = tmp_path / "locked.db"
        make_games(str(db))
        holder = sqlite3.connect(db)
        try:
            holder.execute("PRAGMA locking_mode = EXCLUSIVE")
            holder.execute("BEGIN EXCLUSIVE")
            for command in (
                ["games"],
                ["show", "2"],
                ["cancel", "2"],
                ["export", "1"],
                ["prune", "--older-than", "1d"],
            ):
                err = one_line_error(*run(capsys, "--db", str(db), "--wait", "0.05", *command))
                assert "locked by another process" in err
        finally:
            holder.rollback()
            holder.close()

    def test_a_file_that_is_not_a_database(self, tmp_path: Path, capsys: Any):
        db = tmp_path / "notes.db"
        db.write_text("not a database at all " * 100)
        err = one_line_error(*run(capsys, "--db", str(db), "games"))
        assert "cannot be read as a database" in err

    def test_a_postgresql_that_is_down(self, capsys: Any):
        url = "postgresql://bot@127.0.0.1:9/adas_dream"  # nothing listens on port 9
        for command in (
            ["games"],
            ["show", "1"],
            ["cancel", "1"],
            ["export", "1"],
            ["prune", "--older-than", "1d"],
            ["check-db"],
            ["migrate"],
        ):
            err = one_line_error(*run(capsys, "--db", url, *command))
            assert "cannot reach PostgreSQL at postgresql://bot@127.0.0.1:9/adas_dream" in err


def test_python_dash_m_store_runs_the_same_commands(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "store", "--db", str(tmp_path / "none.db"), "games"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.startswith("error: No database at")
