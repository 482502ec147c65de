"""Small pieces the store's concerns share: status checks, options, records from rows."""

from __future__ import annotations

import dataclasses
import json
import logging
from datetime import UTC, datetime
from typing import Any

from engine import GameSetup

from .backend import ActiveGame, GameRow, ReminderFacts, Shards, Shows
from .errors import GameBroken, GameNotActive, GameNotFound, LobbyError
from .models import GameRecord, GuildSettings, SeatRecord, UserSettings

log = logging.getLogger("store")

CHECKPOINT_EVERY = 50
"""Besides the latest snapshot, keep the snapshot of every N-th move (audit checkpoints)
while a game runs; a finished game keeps only its first and final snapshots."""

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class Corrupt(Exception):
    """Stored data of one game can't be trusted (choices, snapshot, setup, seats...). The
    message says what, in words for an admin, and never quotes game content."""


def aware(when: datetime) -> datetime:
    """Refuse naive datetimes (a naive time would be stored as if it were UTC)."""
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("pass a timezone-aware datetime (e.g. discord.utils.utcnow())")
    return when.astimezone(UTC)


def found(row: GameRow | None) -> GameRow:
    if row is None:
        raise GameNotFound()
    return row


def require_lobby(row: GameRow) -> None:
    if row.status == "active":
        raise LobbyError("This game has already started.")
    if row.status != "lobby":
        raise LobbyError("This game is no longer open.")


def require_playable(row: GameRow) -> None:
    if row.status == "active":
        return
    if row.status == "broken":
        raise GameBroken()
    raise GameNotActive(
        {
            "lobby": "This game hasn't started yet.",
            "finished": "This game is over.",
            "cancelled": "This game was cancelled.",
        }.get(row.status, "This game isn't being played right now.")
    )


def options(row: GameRow) -> dict[str, Any]:
    return options_of(row.id, row.options)


def options_of(game_id: int, text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
        return value if isinstance(value, dict) else {}
    except (TypeError, ValueError):
        log.warning("game %s has unreadable options", game_id)
        return {}


def engine_options(row: GameRow) -> dict[str, Any]:
    """Game options that are also GameSetup fields (other than players/seed/names)."""
    names = {f.name for f in dataclasses.fields(GameSetup)} - {"players", "seed", "names"}
    return {k: v for k, v in options(row).items() if k in names}


def setup_of(row: GameRow) -> GameSetup:
    return setup_of_text(row.setup)


def setup_of_text(text: str | None) -> GameSetup:
    try:
        return GameSetup.from_dict(json.loads(text or ""))
    except Exception as exc:
        raise Corrupt(f"the game setup is unreadable ({type(exc).__name__})") from exc


def game_record(row: GameRow, seats: list[SeatRecord]) -> GameRecord:
    return GameRecord(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        thread_id=row.thread_id,
        status=row.status,
        broken_reason=row.broken_reason,
        seed=row.seed,
        options=options(row),
        creator_id=row.creator_id,
        seq=row.seq if isinstance(row.seq, int) else 0,
        created_at=row.created_at,
        updated_at=row.updated_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        seats=tuple(seats),
    )


# -- settings rows (the same columns on both backends) ------------------------------------

_GUILD_SETTINGS = (
    "reminder_hours, ping_mode, edition, max_open_lobbies, max_games, language, max_new_games"
)
_USER_SETTINGS = "reminders_enabled, ping_mode, reminder_hours, language"


def _set_excluded(columns: str) -> str:
    """``a = excluded.a, b = excluded.b`` for an upsert of these columns."""
    return ", ".join(f"{c} = excluded.{c}" for c in columns.split(", "))


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _guild_settings(guild_id: int, r: Any) -> GuildSettings:
    hours, mode, edition, lobbies, games, language, new_games = r
    return GuildSettings(
        guild_id,
        reminder_hours=float(hours),
        ping_mode=mode,
        edition=edition,
        max_open_lobbies=_optional_int(lobbies),
        max_games=_optional_int(games),
        language=language,
        max_new_games=_optional_int(new_games),
    )


def _guild_values(s: GuildSettings) -> tuple[Any, ...]:
    return (
        s.reminder_hours,
        s.ping_mode,
        s.edition,
        s.max_open_lobbies,
        s.max_games,
        s.language,
        s.max_new_games,
    )


def _user_settings(user_id: int, r: Any) -> UserSettings:
    enabled, mode, hours, language = r
    return UserSettings(
        user_id,
        reminders_enabled=bool(enabled),
        ping_mode=mode,
        reminder_hours=None if hours is None else float(hours),
        language=language,
    )


def _user_values(s: UserSettings) -> tuple[Any, ...]:
    return (int(s.reminders_enabled), s.ping_mode, s.reminder_hours, s.language)


# -- what decides a reminder (one statement: ``Tx.reminder_facts``) ------------------------

_REMINDER_FACTS_COLUMNS = ", ".join(
    ["g.guild_id", "g.options", "s.user_id", "s.is_ai", "u.user_id"]
    + ["u." + c for c in _USER_SETTINGS.split(", ")]
    + ["gs.guild_id"]
    + ["gs." + c for c in _GUILD_SETTINGS.split(", ")]
)


def in_shards_sql(shards: Shards | None) -> str:
    """`` AND`` a condition true for the games (``g``) of ``shards`` (nothing: every game).
    Written with the numbers themselves, checked to be ints: both dialects read it alike."""
    if shards is None:
        return ""
    count, ids = shards
    listed = ", ".join(str(int(i)) for i in ids) or "NULL"
    return f" AND (g.guild_id >> 22) % {int(count)} IN ({listed})"


def reminder_facts_sql(turn_index: str, game_id: str) -> str:
    """The query of ``Tx.reminder_facts`` with each backend's placeholders."""
    return (
        f"SELECT {_REMINDER_FACTS_COLUMNS} FROM games g"
        f" JOIN seats s ON s.game_id = g.id AND s.turn_index = {turn_index}"
        " LEFT JOIN user_settings u ON u.user_id = s.user_id"
        " LEFT JOIN guild_settings gs ON gs.guild_id = g.guild_id"
        f" WHERE g.id = {game_id}"
    )


def _reminder_facts(r: Any) -> ReminderFacts:
    values = tuple(r)
    guild_id, options_text, user_id, is_ai, settings_user = values[:5]
    users = len(_USER_SETTINGS.split(", "))
    user_values, settings_guild = values[5 : 5 + users], values[5 + users]
    guild_values = values[6 + users :]
    return ReminderFacts(
        guild_id=guild_id,
        options=options_text,
        user_id=user_id,
        is_ai=bool(is_ai),
        user=None if settings_user is None else _user_settings(settings_user, user_values),
        guild=None if settings_guild is None else _guild_settings(settings_guild, guild_values),
    )


def open_only(statuses: list[str] | None) -> bool:
    """Does a statuses filter ask for open games only (lobby, active)?"""
    return statuses is not None and set(statuses) <= {"lobby", "active"}


ACTIVE_GAMES = (
    "SELECT g.id, g.guild_id, g.thread_id, g.seq, g.log_digest, g.updated_at, t.message_id,"
    " t.seq AS t_seq, t.log_digest AS t_log, t.player FROM games g"
    " LEFT JOIN thread_shows t ON t.game_id = g.id WHERE g.status = 'active' ORDER BY g.id"
)
"""Every active game with what its thread shows (``Tx.active_games``; the same on both)."""


def active_game(r: Any, updated_at: datetime) -> ActiveGame:
    """A row of ``ACTIVE_GAMES`` (sqlite3.Row or asyncpg.Record) as an ActiveGame."""
    shows = None
    if r["message_id"] is not None:
        shows = Shows(r["message_id"], r["t_seq"], r["t_log"], r["player"])
    return ActiveGame(
        r["id"], r["guild_id"], r["seq"], r["log_digest"], updated_at, shows, r["thread_id"]
    )
