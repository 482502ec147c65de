"""Copy every game from one database to another (SQLite -> PostgreSQL), verified by replay."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .backend import GameDump, SettingsDump, Tx
from .errors import StoreError
from .models import GameCheck
from .store import Store


@dataclass
class CopiedGame:
    game_id: int
    moves: int
    """Live choices copied."""
    ok: bool
    """The copy replays exactly as the original does (both sound, or both with the same
    damage: a game broken in the source is copied as it is)."""
    problem: str | None = None


@dataclass
class CopyReport:
    games: list[CopiedGame] = field(default_factory=list)
    guild_settings: int = 0
    user_settings: int = 0

    @property
    def failures(self) -> list[CopiedGame]:
        return [g for g in self.games if not g.ok]

    @property
    def ok(self) -> bool:
        return not self.failures


async def copy_games(
    source: Store, target: Store, *, progress: Callable[[CopiedGame], None] | None = None
) -> CopyReport:
    """Copy settings and every game (all its rows, ids kept) from ``source`` into the empty
    ``target``, one transaction per game, then verify each copy by replaying it from its seed
    and choices and comparing with the source's own verification. Raises StoreError if the
    target already holds games (nothing is copied then)."""
    if await target.game_ids():
        raise StoreError("The target database already has games: copy into an empty database.")
    report = CopyReport()

    async def read_settings(tx: Tx) -> SettingsDump:
        return await tx.dump_settings()

    settings = await source._db.read(read_settings)

    async def write_settings(tx: Tx) -> None:
        await tx.load_settings(settings)

    await target._db.write(write_settings)
    report.guild_settings, report.user_settings = len(settings.guilds), len(settings.users)
    ids = await source.game_ids()
    for game_id in ids:

        async def dump(tx: Tx, game_id: int = game_id) -> GameDump:
            return await tx.dump_game(game_id)

        rows = await source._db.read(dump)

        async def load(tx: Tx, rows: GameDump = rows) -> None:
            await tx.load_game(rows)

        await target._db.write(load)

    async def reset(tx: Tx) -> None:
        await tx.reset_ids()

    await target._db.write(reset)
    await target.copy_records_from(source)  # time away, privacy; results rebuilt (issue 30)
    await _copy_bot_memory(source, target)
    for game_id in ids:
        copied = _compare(
            game_id,
            await source.verify_game(game_id, mark=False),
            await target.verify_game(game_id, mark=False),
        )
        rows = await target.choices(game_id, include_undone=True)
        copied.moves = sum(r.undone_at is None for r in rows)
        if copied.ok and len(await source.choices(game_id, include_undone=True)) != len(rows):
            copied = CopiedGame(game_id, copied.moves, False, "the choice rows differ in number")
        report.games.append(copied)
        if progress is not None:
            progress(copied)
    return report


_BOT_MEMORY = {
    "bot_state": ("name", "value", "updated_at"),
    "thread_shows": ("game_id", "message_id", "seq", "log_digest", "player", "updated_at"),
}
"""What the bot remembers between starts, by table: the synced commands' hash (else the first
start on the copy syncs the commands again) and what each thread shows (else it edits every
active thread). Both are caches, copied as they are; ``updated_at`` is the only time."""


async def _copy_bot_memory(source: Store, target: Store) -> None:
    async def dump(tx: Tx) -> dict[str, list[list[Any]]]:
        q = source._q(tx)
        return {
            table: [
                [*r[:-1], q.time(r[-1])]
                for r in await q.rows(f"SELECT {', '.join(cols)} FROM {table}")
            ]
            for table, cols in _BOT_MEMORY.items()
        }

    rows = await source._db.read(dump)

    async def load(tx: Tx) -> None:
        q = target._q(tx)
        for table, cols in _BOT_MEMORY.items():
            marks = ", ".join("?" * len(cols))
            await q.many(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", rows[table])

    await target._db.write(load)


def _compare(game_id: int, original: GameCheck, copy: GameCheck) -> CopiedGame:
    if copy.ok and original.ok and copy.moves == original.moves:
        return CopiedGame(game_id, copy.moves, True)
    if not copy.ok and not original.ok and copy.problem == original.problem:
        return CopiedGame(game_id, copy.moves, True, f"copied as it was: {original.problem}")
    return CopiedGame(
        game_id,
        copy.moves,
        False,
        f"the copy does not replay like the original: {copy.problem or 'ok'} vs "
        f"{original.problem or 'ok'}",
    )
