"""Maintenance and operator commands: ``python bot.py check-db | backup DEST | repair | migrate
[--backed-up] | migrate-to-postgres SQLITE_PATH DATABASE_URL | rebuild-records [--guild ID] |
games | show GAME | cancel GAME | export GAME | prune --older-than AGE [--dry-run]`` (also
``python -m store ...``).

``main(argv)`` takes the arguments after the program name and returns an exit code:
0 all good, 1 problems found, 2 the command could not run. ``--db`` takes a SQLite file or a
``postgresql://`` URL (default: ``DATABASE_URL``, else ``DATABASE_PATH``).

Only ``migrate`` upgrades a database at an older schema version (backing a SQLite file up
first, see ``store.upgrade``); every other command refuses it untouched, saying so. Whatever
goes wrong (a missing game, a database of another version, a locked file, a PostgreSQL that is
down) is one line on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from engine.edition import library_problem

from .backup import backup_database
from .config import database_location, is_postgres, redact
from .copy import CopiedGame, CopyReport, copy_games
from .errors import GameNotFound, StoreError
from .models import STATUSES, GameCheck
from .store import Store
from .upgrade import UpgradeMode

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
    editions: str | None = None
    """Why the bot's editions can't be read (a broken index.toml): then no game is checked."""

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
        return not self.integrity and not self.failures and self.editions is None

    def lines(self) -> list[str]:
        out = [f"Checked {redact(self.path)}: {len(self.games)} game(s)."]
        out += [f"  database: {p}" for p in self.integrity]
        if self.editions is not None:
            out.append(
                "  editions: the bot's editions can't be read, so no game was checked (fix"
                f" this, then run check-db again): {self.editions}"
            )
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


WAIT_MS = 10_000
"""How long a command waits for a SQLite file another process holds locked (``--wait``)."""


async def _open_existing(
    location: Location, *, upgrade: UpgradeMode = "refuse", wait_ms: int | None = None
) -> Store:
    """Open a database that must exist already (a missing SQLite file is not created), never
    upgrading it unless told to."""
    if not is_postgres(str(location)) and not Path(location).is_file():
        raise StoreError(f"No database at {location}")
    wait = WAIT_MS if wait_ms is None else wait_ms
    return await Store.open(location, upgrade=upgrade, busy_timeout_ms=wait)


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
        report.editions = library_problem()
        if report.editions is not None:  # every game would seem to need a missing edition
            return report
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


async def migrate_db(
    path: Location | None = None, *, backed_up: bool = False
) -> tuple[int, int | None, Path | None]:
    """Open (and so migrate) the database: a SQLite file is backed up first unless
    ``backed_up`` (PostgreSQL needs ``backed_up``: back it up with pg_dump). Returns its schema
    version, the version it was upgraded from (None: no upgrade) and the copy taken."""
    store = await Store.open(path, upgrade="apply" if backed_up else "backup")
    try:
        backup = store.upgrade_backup.dest if store.upgrade_backup else None
        return await store.schema_version(), store.upgraded_from, backup
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
    source = await _open_existing(sqlite_path)  # only read: an older file is refused
    try:
        target = await Store.open(url)  # an empty one is migrated; an older one refused
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


# ---------------------------------------------------------------------- operator commands

_AGE_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_age(text: str) -> timedelta:
    """'90m', '12h', '30d', '8w' (a number and a unit) as a timedelta."""
    value, unit = text.strip()[:-1], text.strip()[-1:].lower()
    try:
        seconds = float(value) * _AGE_UNITS[unit]
    except (KeyError, ValueError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an age: a number and m, h, d or w (e.g. 30d)"
        ) from None
    if seconds < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: an age can't be negative")
    return timedelta(seconds=seconds)


def _when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M") if at is not None else "-"


async def list_games_lines(
    where: Location,
    *,
    guild_id: int | None,
    statuses: list[str] | None,
    older_than: timedelta | None,
    limit: int,
) -> list[str]:
    store = await _open_existing(where)
    try:
        games = await store.list_games(
            guild_id=guild_id, statuses=statuses, older_than=older_than, limit=limit
        )
    finally:
        await store.close()
    out = [f"{'game':>6}  {'server':>20}  {'status':<9}  {'moves':>5}  {'changed':<16}  archived"]
    for g in games:
        out.append(
            f"{g.id:>6}  {g.guild_id:>20}  {g.status:<9}  {g.seq:>5}  {_when(g.updated_at):<16}"
            f"  {_when(g.archived_at) if g.archived_at else ''}"
        )
    out.append(f"{len(games)} game(s).")
    return out


async def show_game_lines(where: Location, game_id: int) -> list[str]:
    store = await _open_existing(where)
    try:
        rec = await store.get_game(game_id)
        [listed] = await store.list_games(game_id=game_id)
        reminders = [r for r in await store.reminders(game_id) if r.status == "pending"]
        turn = await store.latest_message(game_id, "turn")
    finally:
        await store.close()
    out = [
        f"game {rec.id}: {rec.status}"
        + (f" ({rec.broken_reason})" if rec.broken_reason else "")
        + (f", archived {_when(listed.archived_at)}" if listed and listed.archived_at else ""),
        f"  server {rec.guild_id}, channel {rec.channel_id}, thread {rec.thread_id or '-'}",
        f"  created {_when(rec.created_at)}, started {_when(rec.started_at)}, "
        f"changed {_when(rec.updated_at)}, ended {_when(rec.finished_at)}",
        f"  {rec.seq} move(s); options {json.dumps(rec.options, sort_keys=True)}",
    ]
    for s in rec.seats_in_turn_order or list(rec.seats):
        who = f"AI ({s.ai_policy or 'default'})" if s.is_ai else f"user {s.user_id}"
        seat = f"seat {s.turn_index}" if s.turn_index is not None else f"joined {s.join_order}"
        out.append(f"  {seat}: {s.name} - {who}")
    for r in reminders:
        out.append(f"  reminder for user {r.user_id} due {_when(r.due_at)} (attempt {r.attempt})")
    if turn is not None:
        out.append(f"  turn message {turn.message_id} in {turn.channel_id} shows move {turn.seq}")
    return out


async def cancel_game(where: Location, game_id: int) -> str:
    store = await _open_existing(where)
    try:
        rec = await store.get_game(game_id)
        if rec.status == "cancelled":
            return f"game {game_id} was already cancelled."
        await store.cancel_game(game_id)
    finally:
        await store.close()
    return (
        f"game {game_id} cancelled (it was {rec.status}); its pending reminders are gone. The bot"
        " does not post in its thread: tell the players."
    )


async def export_game(where: Location, game_id: int) -> dict[str, Any]:
    store = await _open_existing(where)
    try:
        return await store.game_record(game_id, with_users=True)
    finally:
        await store.close()


async def prune_games(where: Location, older_than: timedelta, dry_run: bool) -> list[str]:
    store = await _open_existing(where)
    try:
        report = await store.prune_finished(older_than, dry_run=dry_run)
    finally:
        await store.close()
    ids = ", ".join(str(g) for g in report.games) or "none"
    if dry_run:
        out = [f"dry run: {len(report.games)} finished game(s) would be archived: {ids}."]
    else:
        dropped = ", ".join(f"{n} {table}" for table, n in sorted(report.rows.items()) if n)
        out = [
            f"archived {len(report.games)} finished game(s): {ids}"
            + (f"; dropped {dropped} row(s)" if dropped else "")
            + ". Their records and final scores are kept."
        ]
    out += [f"  game {g}: left as it is - {why}" for g, why in report.skipped]
    return out


# ---------------------------------------------------------------------- the command line


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bot.py", description="Ada's Dream database maintenance")
    parser.add_argument(
        "--db", help="SQLite file or postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)"
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=WAIT_MS / 1000,
        help="seconds to wait for a SQLite file another process holds locked (default 10)",
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
    migrate = sub.add_parser(
        "migrate",
        help="upgrade the database to this bot's schema (a SQLite file is backed up first)",
    )
    migrate.add_argument(
        "--backed-up",
        action="store_true",
        help="upgrade without taking a copy (PostgreSQL: after your pg_dump)",
    )
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
    games = sub.add_parser("games", help="list games, newest first")
    games.add_argument("--server", type=int, metavar="GUILD_ID", help="only this server's")
    games.add_argument(
        "--status", action="append", choices=STATUSES, help="only these statuses (repeatable)"
    )
    games.add_argument(
        "--older-than", type=parse_age, metavar="AGE", help="not changed for AGE (30d, 12h...)"
    )
    games.add_argument("--limit", type=int, default=100, help="at most this many (default 100)")
    show = sub.add_parser("show", help="one game: status, seats, dates, reminders")
    cancel = sub.add_parser("cancel", help="cancel a lobby or a game in play")
    export = sub.add_parser(
        "export", help="a game's record as JSON (replay it: python -m engine replay FILE)"
    )
    export.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    for p in (show, cancel, export):
        p.add_argument("game_id", type=int, metavar="GAME")
    prune = sub.add_parser(
        "prune",
        help="archive finished games: keep their record and final scores, drop the rest",
    )
    prune.add_argument(
        "--older-than", type=parse_age, required=True, metavar="AGE", help="finished AGE ago"
    )
    prune.add_argument("--dry-run", action="store_true", help="say which games; change nothing")
    for p in (check, backup, repair, migrate, rebuild, games, show, cancel, export, prune):
        p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def problem_line(exc: BaseException, where: Location) -> str:
    """One line saying what went wrong, for an operator (no traceback)."""
    if isinstance(exc, GameNotFound):
        return f"no such game in {redact(where)}"
    if isinstance(exc, StoreError):
        return exc.message
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return (
            f"the database file {where} is locked by another process (a bot or command still "
            "writing?); try again, wait longer with --wait SECONDS, or stop that process"
        )
    if isinstance(exc, sqlite3.DatabaseError):
        return f"{where} cannot be read as a database: {exc}"
    if isinstance(exc, OSError) and is_postgres(str(where)):
        return f"cannot reach PostgreSQL at {redact(where)}: {exc.strerror or exc}"
    if type(exc).__module__.startswith("asyncpg") and is_postgres(str(where)):
        return f"PostgreSQL at {redact(where)} refused: {str(exc).splitlines()[0]}"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for ``python bot.py COMMAND ...`` and ``python -m store COMMAND ...``."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    where: Location = "?"
    global WAIT_MS  # the --wait of this run, for every open below
    WAIT_MS = max(0, int(args.wait * 1000))
    try:
        where = args.db if args.db else database_location()
        return _run(args, where)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"error: {problem_line(exc, where)}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace, where: Location) -> int:
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
        version, upgraded_from, copy = asyncio.run(migrate_db(where, backed_up=args.backed_up))
        line = f"{redact(where)}: schema version {version}"
        if upgraded_from is not None:
            line += f" (upgraded from {upgraded_from}"
            line += f"; the copy from before is {copy})" if copy else ")"
        print(line)
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
            + ("every copy verified by replay." if copied.ok else f"{len(copied.failures)} FAILED.")
        )
        return 0 if copied.ok else 1
    if args.command == "games":
        lines = asyncio.run(
            list_games_lines(
                where,
                guild_id=args.server,
                statuses=args.status,
                older_than=args.older_than,
                limit=args.limit,
            )
        )
        print("\n".join(lines))
        return 0
    if args.command == "show":
        print("\n".join(asyncio.run(show_game_lines(where, args.game_id))))
        return 0
    if args.command == "cancel":
        print(asyncio.run(cancel_game(where, args.game_id)))
        return 0
    if args.command == "export":
        text = json.dumps(asyncio.run(export_game(where, args.game_id)), ensure_ascii=False)
        if args.output:
            Path(args.output).write_text(text + "\n", encoding="utf-8")
            print(f"game {args.game_id}'s record written to {args.output}", file=sys.stderr)
        else:
            print(text)
        return 0
    if args.command == "prune":
        print("\n".join(asyncio.run(prune_games(where, args.older_than, args.dry_run))))
        return 0
    return 2  # pragma: no cover - argparse enforces a command


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
