"""Plain, immutable records returned by the store (no SQL rows leak out)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

GameStatus = Literal["lobby", "active", "finished", "cancelled", "broken"]
STATUSES: tuple[str, ...] = ("lobby", "active", "finished", "cancelled", "broken")
OPEN_STATUSES: tuple[str, ...] = ("lobby", "active")
PingMode = Literal["dm", "channel"]


@dataclass(frozen=True)
class SeatRecord:
    """One seat. ``join_order`` is the lobby order; ``turn_index`` is the engine's seat
    index (``state.decision.player``), set when the game starts (None in the lobby)."""

    join_order: int
    user_id: int | None
    is_ai: bool
    ai_policy: str | None
    name: str
    colour: str | None
    turn_index: int | None


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    status: str
    broken_reason: str | None
    seed: int | None
    options: dict[str, Any]
    creator_id: int
    seq: int
    """Number of live (not undone) choices applied = ``len(state.history)``."""
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    seats: tuple[SeatRecord, ...] = field(default_factory=tuple)

    @property
    def seats_in_turn_order(self) -> list[SeatRecord]:
        """Seats sorted by engine seat index (only meaningful once started)."""
        return sorted(
            (s for s in self.seats if s.turn_index is not None), key=lambda s: s.turn_index or 0
        )

    def seat_of(self, user_id: int) -> int | None:
        """Engine seat index of a Discord user, or None (not seated / not started)."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.turn_index
        return None

    def seat_at(self, turn_index: int) -> SeatRecord | None:
        """The seat with this engine seat index."""
        for s in self.seats:
            if s.turn_index == turn_index:
                return s
        return None


@dataclass(frozen=True)
class ChoiceRecord:
    """One applied choice. Rows are never deleted: an undone choice keeps its row
    with ``undone_at`` set, and the replacement choice gets a new row with the same ``seq``."""

    id: int
    game_id: int
    seq: int
    seat: int
    choice_id: str
    applied_at: datetime
    undone_at: datetime | None


@dataclass(frozen=True)
class MessageRecord:
    id: int
    game_id: int
    kind: str
    channel_id: int
    message_id: int
    seq: int | None
    created_at: datetime


@dataclass(frozen=True)
class Reminder:
    """A scheduled reminder. ``attempt`` is 1 for the first reminder about this turn
    (same game, user and seq), 2 for the next... use it for backoff."""

    id: int
    game_id: int
    user_id: int
    due_at: datetime
    seq: int
    attempt: int
    status: str  # 'pending' | 'sent' | 'cancelled'
    sent_at: datetime | None


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    reminder_hours: float = 12.0
    ping_mode: PingMode = "dm"
    edition: str | None = None
    """The content edition the server's new games take (engine.edition); None: the bot's
    default. A started game keeps the edition it began with, whatever this says later."""
    max_open_lobbies: int | None = None
    """Lobbies one member may keep waiting for players; None: the bot's default."""
    max_games: int | None = None
    """Games (lobbies and games being played) the server may hold; None: the bot's default."""
    max_new_games: int | None = None
    """Games one member may set up in the server in a day, whatever became of them (the flood
    limit); None: the bot's default."""
    language: str | None = None
    """The language of the server's new games; None: the server's Discord locale."""


@dataclass(frozen=True)
class UserSettings:
    user_id: int
    reminders_enabled: bool = True
    ping_mode: PingMode | None = None
    """None = follow the guild's setting."""
    reminder_hours: float | None = None
    """None = follow the guild's setting."""
    language: str | None = None
    """The language of this member's private answers and DMs; None: their Discord locale."""


@dataclass(frozen=True)
class GameCheck:
    """Result of verifying one game (see ``Store.verify_game`` / ``check_db``)."""

    game_id: int
    ok: bool
    problem: str | None = None
    moves: int = 0
    missing_edition: str | None = None
    """The game needs a content edition this bot does not have: it could not be checked (and
    is not marked broken; it plays again once the bot has that edition)."""
    rebuilt: tuple[int, ...] = ()
    """Older snapshots (by seq) that were damaged: no move reads them, so the game stays
    playable; they are rebuilt from seed + choices (unless the check only reports)."""
