"""Stored games and content editions (issue 21): every game records its edition and replays,
verifies, undoes and renders under it forever; new games take the default edition, or the one
their server keeps; a game naming an edition the bot lacks is reported, not broken."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from store_backends import raw

from engine import GameSetup, replay
from engine.edition import EDITIONS_DIR, FIRST_EDITION, Edition, EditionLibrary, use_library
from render import board_png
from store import CannotUndo, Store, StoreError
from store.cli import check_db
from store.errors import EditionMissing
from store.testing import pick, play, started_game

TEXT = (EDITIONS_DIR / f"{FIRST_EDITION}.toml").read_text(encoding="utf-8")


def write_edition(directory: Path, name: str, *replacements: tuple[str, str]) -> Edition:
    """designed-1 renamed `name`, with text replaced; written to the library directory."""
    text = TEXT.replace(f'name = "{FIRST_EDITION}"', f'name = "{name}"', 1)
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (directory / f"{name}.toml").write_text(text, encoding="utf-8")
    return Edition.from_text(text)


def set_index(directory: Path, default: str, released: dict[str, str]) -> None:
    lines = [f'default = "{default}"', "", "[released]"]
    lines += [f'{name} = "{fingerprint}"' for name, fingerprint in released.items()]
    (directory / "index.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def restart(directory: Path) -> None:
    """What a bot restart does to editions: a fresh library, read from the files again."""
    use_library(EditionLibrary(directory))


@pytest.fixture
def editions(tmp_path: Path):
    """A library of its own: designed-1 (edition A, the default) and test-b (edition B: the
    designed Store slots 4 -> 5 and Innovation start 2 -> 1, values a game meets at once)."""
    directory = tmp_path / "editions"
    directory.mkdir()
    shutil.copy(EDITIONS_DIR / f"{FIRST_EDITION}.toml", directory)
    a = Edition.load(directory / f"{FIRST_EDITION}.toml")
    b = write_edition(
        directory,
        "test-b",
        ("store_slots = { value = 4", "store_slots = { value = 5"),
        ("innovation_start = { value = 2", "innovation_start = { value = 1"),
    )
    set_index(directory, FIRST_EDITION, {FIRST_EDITION: a.fingerprint, "test-b": b.fingerprint})
    before = use_library(EditionLibrary(directory))
    yield directory
    use_library(before)


def setup_row(location: str, gid: int) -> dict:
    return json.loads(raw(location, "SELECT setup FROM games WHERE id = ?", gid)[0][0])


async def finish(store: Store, gid: int, rng: random.Random) -> list[str]:
    state = await play(store, gid, rng)
    assert state.is_over
    return list(state.history)


class TestAGameKeepsItsEdition:
    async def test_a_game_stored_under_a_finishes_under_a_after_b_becomes_the_default(
        self, editions, db_location
    ):
        # The test: store a game mid-way under edition A, switch the default to B (a
        # changed value), restart, finish it under A with identical replay; a new game gets B.
        store = await Store.open(db_location)
        gid, state = await started_game(store, players=3, seed=5)
        assert state.edition.name == FIRST_EDITION
        assert "edition" not in setup_row(db_location, gid)  # as every game before editions
        mid = await play(store, gid, random.Random(1), moves=80)
        await store.close()

        set_index(editions, "test-b", EditionLibrary(editions).released)
        restart(editions)
        store = await Store.open(db_location)
        try:
            loaded, seq = await store.load_state(gid)  # verified by replay, under A
            assert loaded.edition.name == FIRST_EDITION and loaded.digest() == mid.digest()
            assert len(loaded.players[0].store) == 4  # A's Store, not B's 5 slots
            rng = random.Random(2)
            undone = 0
            while undone < 2:  # moves taken back and made again: undo replays under A too
                seat, choice = pick(loaded, rng)
                loaded = await store.apply_choice(gid, seq, seat, choice)
                try:
                    loaded = await store.undo(gid, seq + 1, seat)
                    undone += 1
                except CannotUndo:
                    seq += 1
            history = await finish(store, gid, rng)
            final, _ = await store.load_state(gid)
            # identical replay: the stored choices rebuild the stored game under A
            again = replay(GameSetup.from_dict(setup_row(db_location, gid)), history)
            assert again.digest() == final.digest() and again.edition.name == FIRST_EDITION
            assert (await store.verify_game(gid)).ok
            assert board_png(final)[:8] == b"\x89PNG\r\n\x1a\n"  # drawn from A's content

            new_gid, new_state = await started_game(store, players=2, seed=6, channel_id=7)
            assert new_state.edition.name == "test-b"
            assert setup_row(db_location, new_gid)["edition"] == "test-b"
            assert len(new_state.players[0].store) == 5
            assert {p.innovation for p in new_state.players} == {1}
        finally:
            await store.close()
        report = await check_db(db_location)
        assert report.ok, report.lines()  # a newer default never makes a game broken

    async def test_a_server_keeps_its_edition_for_new_games(self, editions, store, db_location):
        set_index(editions, "test-b", EditionLibrary(editions).released)
        restart(editions)
        await store.set_guild_settings(1, edition=FIRST_EDITION)
        assert (await store.guild_settings(1)).edition == FIRST_EDITION
        kept, state = await started_game(store, guild_id=1)
        assert state.edition.name == FIRST_EDITION
        other, state = await started_game(store, guild_id=2, channel_id=200)
        assert state.edition.name == "test-b"
        # back to the default: new games follow it, the game started before keeps its own
        await store.set_guild_settings(1, edition=None)
        _, state = await started_game(store, guild_id=1, channel_id=300)
        assert state.edition.name == "test-b"
        assert (await store.load_state(kept))[0].edition.name == FIRST_EDITION
        assert await store.editions_in_use(1) == {FIRST_EDITION: 1, "test-b": 1}

    async def test_a_games_own_edition_option_wins(self, editions, store):
        gid = await store.create_game(1, 2, 3, {"players": 2, "edition": "test-b"})
        for i in range(2):
            await store.add_seat(gid, name=f"p{i}", user_id=10 + i)
        await store.set_guild_settings(1, edition=FIRST_EDITION)
        assert (await store.start_game(gid, 1)).edition.name == "test-b"

    async def test_a_server_cannot_choose_an_edition_the_bot_lacks(self, editions, store):
        with pytest.raises(StoreError, match=r"no edition called 'designed-7' \(it has: "):
            await store.set_guild_settings(1, edition="designed-7")
        assert (await store.guild_settings(1)).edition is None  # nothing changed


class TestAnUnknownEdition:
    async def _game_on_c(self, editions: Path, store: Store) -> int:
        write_edition(
            editions, "test-c", ("store_slots = { value = 4", "store_slots = { value = 3")
        )
        gid = await store.create_game(1, 2, 3, {"players": 2, "edition": "test-c"})
        for i in range(2):
            await store.add_seat(gid, name=f"p{i}", user_id=10 + i)
        await store.start_game(gid, 1)
        await play(store, gid, random.Random(3), moves=20)
        return gid

    async def test_is_a_clear_error_that_changes_nothing_and_spares_other_games(
        self, editions, db_location
    ):
        store = await Store.open(db_location)
        gid = await self._game_on_c(editions, store)
        other, _ = await started_game(store, channel_id=50)
        await store.close()
        (editions / "test-c.toml").unlink()  # a bot without test-c (an older one, say)
        restart(editions)
        store = await Store.open(db_location)
        try:
            with pytest.raises(EditionMissing, match="'test-c'.*doesn't have") as caught:
                await store.load_state(gid)
            assert caught.value.edition == "test-c"
            with pytest.raises(EditionMissing):
                await store.apply_choice(gid, 20, 0, "skip")
            assert (await store.get_game(gid)).status == "active"  # not broken, not touched
            check = await store.verify_game(gid)  # check-db: reported, never marked
            assert not check.ok and check.missing_edition == "test-c"
            assert (await store.get_game(gid)).status == "active"
            await play(store, other, random.Random(4), moves=10)  # other games play on
        finally:
            await store.close()
        report = await check_db(db_location)
        assert [g.game_id for g in report.unchecked] == [gid] and not report.broken
        assert any("NOT CHECKED - needs the edition 'test-c'" in line for line in report.lines())

        write_edition(
            editions, "test-c", ("store_slots = { value = 4", "store_slots = { value = 3")
        )
        restart(editions)  # the edition is back: the game plays on where it stopped
        store = await Store.open(db_location)
        try:
            state, seq = await store.load_state(gid)
            assert seq == 20 and state.edition.name == "test-c"
            assert (await store.verify_game(gid)).ok
        finally:
            await store.close()

    async def test_cannot_start_a_game(self, editions, store):
        gid = await store.create_game(1, 2, 3, {"players": 2, "edition": "test-z"})
        for i in range(2):
            await store.add_seat(gid, name=f"p{i}", user_id=10 + i)
        with pytest.raises(StoreError, match=r"can't start: Unknown edition 'test-z'"):
            await store.start_game(gid, 1)
        assert (await store.get_game(gid)).status == "lobby"
