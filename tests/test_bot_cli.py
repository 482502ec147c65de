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


def test_unknown_subcommand_prints_the_usage(capsys: Any) -> None:
    assert bot.main(["frobnicate"]) == 2
    assert "python bot.py offline" in capsys.readouterr().out
