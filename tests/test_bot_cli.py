"""bot.py's command line: no token, maintenance subcommands wired to the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import bot


def test_without_a_token_it_says_what_to_do(monkeypatch: Any, capsys: Any) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert bot.main(["run"]) == 1
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and ".env.example" in err
    assert "applications.commands" in err and "offline" in err


def test_check_db_and_backup(tmp_path: Path, capsys: Any) -> None:
    import asyncio

    from store import Store
    from store.testing import started_game

    db = tmp_path / "ada.db"

    async def make() -> None:
        store = await Store.open(db)
        await started_game(store, players=2)
        await store.close()

    asyncio.run(make())
    assert bot.main(["check-db", "--db", str(db)]) == 0
    assert "OK" in capsys.readouterr().out
    assert bot.main(["backup", str(tmp_path / "copy.db"), "--db", str(db)]) == 0
    assert (tmp_path / "copy.db").is_file()
    assert bot.main(["games", "--db", str(db)]) == 0  # the operator's commands too
    assert "1 game(s)." in capsys.readouterr().out


def test_unknown_subcommand_prints_the_usage(capsys: Any) -> None:
    assert bot.main(["frobnicate"]) == 2
    assert "./scripts/run offline" in capsys.readouterr().out


def test_the_no_token_text_names_the_run_script(monkeypatch: Any, capsys: Any) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")
    bot.main(["run"])
    err = capsys.readouterr().err
    assert "./scripts/run" in err and "python bot.py" not in err  # bot.py fails outside .venv


def test_offline_table_seats_two_people_and_cleans_up() -> None:
    from offline.table import _parser, database

    args = _parser().parse_args([])
    assert args.players - args.ai == 2  # someone to switch to in "Viewing as"
    with database(None) as path:
        Path(path).write_text("x")
        assert Path(path).exists()
    assert not Path(path).parent.exists()  # the temporary database went with the table
    with database("keep.db") as path:
        assert path == "keep.db"


def test_no_misleading_log_lines(caplog: Any) -> None:
    import logging

    noise = bot._Noise(offline=True)
    for text, shown in [
        ("PyNaCl is not installed, voice will NOT be supported", False),
        ("Guilds intent seems to be disabled. This may cause state related issues.", False),
        ("game 1 started", True),
    ]:
        record = logging.LogRecord("discord.client", logging.WARNING, "", 0, text, (), None)
        assert noise.filter(record) is shown, text
    online = bot._Noise(offline=False)
    intent = logging.LogRecord(
        "discord.state", logging.WARNING, "", 0, "Guilds intent seems to be disabled.", (), None
    )
    assert online.filter(intent)  # on a real Discord that warning would matter


def test_every_shipped_folder_is_a_package_setuptools_knows() -> None:
    """A data folder inside a package (render/fonts) must be listed, or setuptools warns on
    every install ("Package 'render.fonts' is absent from the `packages` configuration")."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = set(config["packages"])
    for package in list(packages):
        folder = root / package.replace(".", "/")
        for sub in folder.iterdir():
            if sub.is_dir() and sub.name != "__pycache__" and any(sub.iterdir()):
                assert f"{package}.{sub.name}" in packages, sub


def test_a_database_the_bot_cannot_use_stops_it_with_one_line(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    """Written by a newer bot (or older on PostgreSQL, or unreachable): one line, exit code 2,
    before connecting to Discord."""
    import sqlite3

    db = tmp_path / "ada.db"
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT, checksum TEXT,"
        " applied_at TEXT)"
    )
    conn.execute("INSERT INTO schema_version VALUES (999, 'future', 'x', '2030-01-01')")
    conn.commit()
    conn.close()
    ran: list[bool] = []
    monkeypatch.setattr(bot.AdaBot, "run", lambda self, *a, **k: ran.append(True))
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_URL", "")
    monkeypatch.setenv("DATABASE_PATH", str(db))
    assert bot.main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "newer bot" in err
    assert ran == []
