"""Maintenance commands: ``python bot.py check-db | backup DEST | repair | migrate |
migrate-to-postgres SQLITE_PATH DATABASE_URL | rebuild-records [--guild ID]``.

``main(argv)`` takes the arguments after the program name and returns an exit code:
0 all good, 1 problems found, 2 the command could not run. ``--db`` takes a SQLite file or a
``postgresql://`` URL (default: ``DATABASE_URL``, else ``DATABASE_PATH``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .backup import backup_database
from .config import database_location, is_postgres, redact
from .copy import CopiedGame, CopyReport, copy_games
from .errors import StoreError
from .models import GameCheck
from .store import Store

log = logging.getLogger(__name__)

Location = str | os.PathLike[str]


@dataclass
class CheckReport:
    """What ``check_db`` found. ``ok`` only if the database and every game are sound."""

    path: Location
    integrity: list[str] = field(default_factory=list)
    games: list[GameCheck] = field(default_factory=list)
    marked: bool = True
    """Were failing games marked 'broken' (and damaged older snapshots rebuilt)? False with
    ``--no-mark``: the report only says what it found."""

    @property
    def failures(self) -> list[GameCheck]:
        """Games that failed their check (damaged, or needing an edition the bot lacks)."""
        return [g for g in self.games if not g.ok]

    @property
    def broken(self) -> list[GameCheck]:
        return [g for g in self.failures if g.missing_edition is None]

    @property
    def unchecked(self) -> list[GameCheck]:
        """Games whose content edition this bot does not have: not checked, not marked."""
        return [g for g in self.failures if g.missing_edition is not None]

    @property
    def ok(self) -> bool:
        return not self.integrity and not self.failures

    def lines(self) -> list[str]:
        out = [f"Checked {redact(self.path)}: {len(self.games)} game(s)."]
        out += [f"  database: {p}" for p in self.integrity]
        out += [f"  game {g.game_id}: BROKEN - {g.problem}" for g in self.broken]
        out += [f"  game {g.game_id}: NOT CHECKED - {g.problem}" for g in self.unchecked]
        rebuilt = (
            "rebuilt from seed + choices" if self.marked else "to rebuild (not done: --no-mark)"
        )
        out += [
            f"  game {g.game_id}: damaged older snapshot(s) at move {', '.join(map(str, g.rebuilt))}"
            f" {rebuilt}; no move reads them, the game stays playable"
            for g in self.games
            if g.rebuilt
        ]
        if self.ok:
            out.append(
                "  every game replays from seed + choices, under its own rules version and"
                " edition, to its stored choice log, seats and snapshots: OK"
            )
        else:
            if self.broken:
                what = "marked 'broken'" if self.marked else "not marked: --no-mark"
                out.append(f"  {len(self.broken)} game(s) with problems ({what}).")
            if self.unchecked:
                out.append(
                    f"  {len(self.unchecked)} game(s) need an edition this bot does not have:"
                    " left as they are (install that edition, or run the bot that has it)."
                )
        return out


async def _open_existing(location: Location) -> Store:
    """Open a database that must exist already (a missing SQLite file is not created)."""
    if not is_postgres(str(location)) and not Path(location).is_file():
        raise StoreError(f"No database at {location}")
    return await Store.open(location)


async def check_db(
    path: Location | None = None,
    *,
    mark: bool = True,
    progress: Callable[[GameCheck], None] | None = None,
) -> CheckReport:
    """Verify every game: replay seed + choices and compare with everything stored beside
    them (choice log digests, seats, snapshots, status).

    One bad game never stops the others: each mismatch or unreadable row is reported
    (and, with ``mark=True``, the game is marked 'broken'). Also runs the database's own
    checks. Raises StoreError only if the database itself can't be opened (missing, too
    new, not a database).
    """
    where = path if path is not None else database_location()
    store = await _open_existing(where)
    report = CheckReport(where, marked=mark)
    try:
        report.integrity = await store.integrity_check()
        for game_id in await store.game_ids():
            try:
                check = await store.verify_game(game_id, mark=mark)
            except Exception as exc:  # verify_game reports, but never let one game stop us
                check = GameCheck(game_id, False, f"{type(exc).__name__}: {exc}")
            report.games.append(check)
            if progress is not None:
                progress(check)
    finally:
        await store.close()
    return report


async def repair_db(
    path: Location | None = None, game_ids: Sequence[int] | None = None
) -> list[GameCheck]:
    """Rebuild the given games (default: every 'broken' one) from seed + choices; see
    ``Store.repair_game``. Returns the verification of each game after the attempt."""
    store = await _open_existing(path if path is not None else database_location())
    try:
        ids = list(game_ids) if game_ids else await store.game_ids(["broken"])
        results = []
        for game_id in ids:
            try:
                results.append(await store.repair_game(game_id))
            except Exception as exc:
                results.append(GameCheck(game_id, False, f"{type(exc).__name__}: {exc}"))
        return results
    finally:
        await store.close()


async def migrate_db(path: Location | None = None) -> int:
    """Open (and so migrate) the database; returns its schema version."""
    store = await Store.open(path)
    try:
        return await store.schema_version()
    finally:
        await store.close()


async def migrate_to_postgres(
    sqlite_path: Location,
    url: str,
    *,
    progress: Callable[[CopiedGame], None] | None = None,
) -> CopyReport:
    """Copy every game and setting from a SQLite file into an empty PostgreSQL database
    (migrated first) and verify each copied game by replay. The SQLite file is only read."""
    if not is_postgres(url):
        raise StoreError("The target must be a postgresql:// URL.")
    source = await _open_existing(sqlite_path)
    try:
        target = await Store.open(url)
        try:
            return await copy_games(source, target, progress=progress)
        finally:
            await target.close()
    finally:
        await source.close()


async def rebuild_records(where: Location, guild_id: int | None = None) -> int:
    """Recompute the records of finished games (issue 30) from the stored games."""
    store = await _open_existing(where)
    try:
        return await store.rebuild_records(guild_id)
    finally:
        await store.close()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bot.py", description="Ada's Dream database maintenance")
    parser.add_argument(
        "--db", help="SQLite file or postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check-db", help="verify every game against its seed and choices")
    check.add_argument(
        "--no-mark", action="store_true", help="report only; don't mark games broken"
    )
    backup = sub.add_parser("backup", help="consistent copy of the live SQLite database")
    backup.add_argument("dest", help="file to write")
    backup.add_argument("--force", action="store_true", help="overwrite DEST if it exists")
    repair = sub.add_parser(
        "repair", help="rebuild games from seed + choices (default: every broken game)"
    )
    repair.add_argument("game_ids", nargs="*", type=int, metavar="GAME_ID")
    migrate = sub.add_parser("migrate", help="apply pending migrations, print the schema version")
    to_pg = sub.add_parser(
        "migrate-to-postgres",
        help="copy every game from a SQLite file to an empty PostgreSQL database, verified",
    )
    to_pg.add_argument("sqlite_path", metavar="SQLITE_PATH")
    to_pg.add_argument("url", metavar="DATABASE_URL")
    rebuild = sub.add_parser(
        "rebuild-records",
        help="recompute every result, member's stats and rating from the stored games",
    )
    rebuild.add_argument("--guild", type=int, help="only this server (default: all)")
    for p in (check, backup, repair, migrate, rebuild):
        p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for ``python bot.py check-db | backup DEST | repair | migrate |
    migrate-to-postgres``."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        where: Location = args.db if args.db else database_location()
        if args.command == "check-db":
            report = asyncio.run(check_db(where, mark=not args.no_mark))
            print("\n".join(report.lines()))
            return 0 if report.ok else 1
        if args.command == "backup":
            if is_postgres(str(where)):
                raise StoreError("Back up a PostgreSQL database with pg_dump.")
            result = backup_database(where, args.dest, overwrite=args.force)
            print(
                f"Backed up {where} to {result.dest}: {result.bytes} bytes, "
                f"{result.games} game(s), schema version {result.schema_version}."
            )
            return 0
        if args.command == "repair":
            results = asyncio.run(repair_db(where, args.game_ids))
            for r in results:
                verdict = "repaired, verifies OK" if r.ok else f"NOT repaired - {r.problem}"
                print(f"game {r.game_id}: {verdict}")
            print(f"{sum(r.ok for r in results)} of {len(results)} game(s) repaired.")
            return 0 if all(r.ok for r in results) else 1
        if args.command == "migrate":
            print(f"{redact(where)}: schema version {asyncio.run(migrate_db(where))}")
            return 0
        if args.command == "rebuild-records":
            games = asyncio.run(rebuild_records(where, args.guild))
            print(f"{redact(where)}: records rebuilt from {games} finished game(s).")
            return 0
        if args.command == "migrate-to-postgres":
            copied = asyncio.run(migrate_to_postgres(args.sqlite_path, args.url))
            for g in copied.games:
                verdict = "OK" if g.ok and not g.problem else (g.problem or "")
                print(f"game {g.game_id}: {g.moves} move(s) copied, replays {verdict}")
            print(
                f"Copied {len(copied.games)} game(s), {copied.guild_settings} server and "
                f"{copied.user_settings} user setting(s) to {redact(args.url)}: "
                + (
                    "every copy verified by replay."
                    if copied.ok
                    else f"{len(copied.failures)} FAILED."
                )
            )
            return 0 if copied.ok else 1
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # e.g. "file is not a database"
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    return 2  # pragma: no cover - argparse enforces a command


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
