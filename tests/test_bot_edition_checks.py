"""An edition that can't be used (issue 29): flagged at start-up, new games refused with a clear
answer, no file path of the host shown to players (the log keeps it), and check-db naming a
broken index.toml instead of blaming every game."""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.edition import EDITIONS_DIR, FIRST_EDITION, EditionLibrary, use_library
from offline.driver import texts

PATH = re.compile(r"(?<![\w:/<])/(?:[\w.-]+/)+[\w.-]+")


def private_text(res: Any) -> str:
    parts = [res.response] if res.response else []
    parts += list(res.followups)
    return "\n".join(texts(m) for m in parts if m is not None)


@pytest.fixture
def editions(tmp_path: Path) -> Any:
    directory = tmp_path / "editions"
    directory.mkdir()
    shutil.copy(EDITIONS_DIR / "index.toml", directory)
    shutil.copy(EDITIONS_DIR / f"{FIRST_EDITION}.toml", directory)
    before = use_library(EditionLibrary(directory))
    yield directory
    use_library(before)


def spoil(directory: Path) -> Path:
    """Make the default edition's file unusable, as a bad upgrade or a disk error would, and
    restart the library (what a restarted bot reads)."""
    file = directory / f"{FIRST_EDITION}.toml"
    file.write_text("this is [not an edition", encoding="utf-8")
    use_library(EditionLibrary(directory))
    return file


class TestSpoiledAfterStart:
    async def test_a_start_that_fails_names_no_path_and_the_log_has_it(
        self, editions: Path, table: Any, caplog: Any
    ) -> None:
        game = await table.new_game("alice", ("bob",), start=False)
        file = spoil(editions)
        lobby = await table.lobby_message(game)
        with caplog.at_level(logging.INFO):
            res = await table.alice.click(lobby, custom_id=f"ada:l:start:{game}")
        said = private_text(res)
        assert "edition" in said and "log" in said, said
        assert str(file) not in said and not PATH.search(said), said
        assert any(str(file) in r.getMessage() for r in caplog.records)
        assert (await table.store.get_game(game)).status == "lobby"  # nothing changed


class TestSpoiledAtStart:
    @pytest.fixture
    def bot_options(self, editions: Path) -> dict[str, Any]:
        spoil(editions)
        return {}

    async def test_flagged_at_start_and_new_games_refused(
        self, editions: Path, table: Any, caplog: Any
    ) -> None:
        # the bot logged it at start (while the fixtures set the bot up)
        problem = [
            r
            for r in caplog.get_records("setup")
            if r.levelno >= logging.ERROR and "edition" in r.getMessage()
        ]
        assert problem and str(editions / f"{FIRST_EDITION}.toml") in problem[0].getMessage()
        res = await table.alice.slash(table.channel, "ada new", players=2)
        said = private_text(res)
        assert res.ephemeral and "can't" in said and "edition" in said, said
        assert not PATH.search(said), said
        assert await table.store.games_in_channel(table.channel.id) == []
        # fixed (and the bot restarted its editions): new games again
        shutil.copy(EDITIONS_DIR / f"{FIRST_EDITION}.toml", editions)
        use_library(EditionLibrary(editions))
        res = await table.alice.slash(table.channel, "ada new", players=2)
        assert len(await table.store.games_in_channel(table.channel.id)) == 1


def test_check_db_names_a_broken_index(
    editions: Path, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    import asyncio

    import engine.edition as edition_module
    from store import Store
    from store.cli import main
    from store.testing import started_game

    db = tmp_path / "ada.db"

    async def make() -> None:
        store = await Store.open(db)
        for seed in (1, 2):
            await started_game(store, players=2, seed=seed)
        await store.close()

    asyncio.run(make())
    index = editions / "index.toml"
    index.write_text("default = [broken", encoding="utf-8")
    # the check reads the editions afresh, from the directory with the broken index
    monkeypatch.setattr(edition_module, "_library", None)
    monkeypatch.setattr(
        edition_module, "EditionLibrary", lambda directory=editions: EditionLibrary(directory)
    )
    code = main(["--db", str(db), "check-db", "--no-mark"])
    out = capsys.readouterr().out
    assert code == 1
    assert str(index) in out and "NOT CHECKED" not in out, out
    assert "need an edition" not in out


def test_players_are_never_shown_the_hosts_paths() -> None:
    from cogs.base import friendly_text
    from cogs.text import hide_paths
    from store import LobbyError

    exc = LobbyError("The game can't start: {why}", why="/srv/ada/engine/editions/x.toml: bad")
    said = friendly_text(exc)
    assert said == "The game can't start: …: bad"
    kept = (
        "See https://discord.com/channels/1/2/3, run `/ada cancel` or `/ada-admin settings`,"
        " a 2/3 majority, <#123>."
    )
    assert hide_paths(kept) == kept
    assert hide_paths("C: /home/bot/.env and /tmp/x/y") == "C: … and …"
