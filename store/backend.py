"""What a database backend provides to the store: transactions and every statement by name.

The store's logic (``store/lobby.py``, ``play.py``, ``audit.py``...) is written once against
the two protocols below; each backend implements them with its own SQL, all in one file:
``store/sqlite.py`` (the default, one file, nothing to install) and ``store/postgres.py``
(several bot processes sharing one server).

``Database.read(fn)`` / ``Database.write(fn)`` run ``fn(tx)`` in one transaction and return its
result. In a write, ``tx.game(game_id, lock=True)`` serialises everything that touches that game
across processes (SQLite: the database's write lock; PostgreSQL: ``SELECT ... FOR UPDATE``).
``fn`` is an ``async def`` that awaits only ``tx`` methods: a write holds the write lock while it
runs (SQLite runs the write jobs one after another in one writer task, see ``sqlite.py``), and a
``fn`` must never call ``read``/``write`` itself.

Rows come back as the plain records of ``store.models`` or the internal rows below; times are
aware UTC datetimes, whatever the backend stores.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from .models import ChoiceRecord, GuildSettings, MessageRecord, Reminder, SeatRecord, UserSettings

T = TypeVar("T")

Shards = tuple[int, tuple[int, ...]]
"""Discord's shards one bot process runs: (shard count, this process's shard ids). A guild is
in shard ``(guild_id >> 22) % count``."""

GAME_COLUMNS = frozenset(
    {
        "thread_id",
        "status",
        "broken_reason",
        "broken_from",
        "seed",
        "options",
        "setup",
        "seq",
        "log_digest",
        "to_move",
        "updated_at",
        "started_at",
        "finished_at",
        "seats_digest",
    }
)
"""The games columns ``Tx.update_game`` may set."""


ARCHIVE_DROPS = ("messages", "reminders", "standin_votes", "ai_turns")
"""Tables whose rows of a game pruning deletes (``Tx.archive_game``), besides snapshots."""


@dataclass(frozen=True)
class GameRow:
    """One games row as stored (the store turns it into a ``GameRecord``). ``seq`` is whatever
    the column holds: a damaged row may hold something else than an int."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    status: str
    broken_reason: str | None
    broken_from: str | None
    seed: int | None
    options: str
    setup: str | None
    creator_id: int
    seq: Any
    log_digest: str | None
    """Running digest of the live choices (``choicelog``); None until first verified."""
    to_move: int | None
    """Engine seat of the pending decision (None: not started, over, or not yet recorded)."""
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    seats_digest: str | None = None
    """``verify.seats_digest`` of the seats as the game started (issue 33: a changed user id or
    AI flag is caught); None for games from before migration 12 until first verified."""


@dataclass(frozen=True)
class Shows:
    """What a game's thread shows: its turn message (``message_id``) as last published, at the
    decision ``seq`` (the game's ``log_digest`` then) of engine seat ``player``."""

    message_id: int
    seq: int
    log_digest: str | None
    player: int | None


@dataclass(frozen=True)
class PostedTurn:
    """A turn message posted but not yet recorded: it is written with the game's next write
    (its next move) or with the next batch of shown marks, so a click that passes the turn
    stays one write. A process killed meanwhile finds it in the thread at its start."""

    channel_id: int
    message_id: int
    shows: Shows  # what it shows (``shows.seq``: the decision it is about)


@dataclass(frozen=True)
class ActiveGame:
    """An active game as a restart sees it: where it is, and what its thread shows (None: not
    recorded, e.g. a game from before migration 14)."""

    game_id: int
    guild_id: int
    seq: int
    log_digest: str | None
    updated_at: datetime
    shows: Shows | None
    thread_id: int | None = None

    @property
    def thread_current(self) -> bool:
        """Does the thread show the game as it stands (same decision, same choice log)?"""
        s = self.shows
        return (
            s is not None
            and s.seq == self.seq
            and s.log_digest is not None
            and s.log_digest == self.log_digest
        )


@dataclass(frozen=True)
class ChoiceRow:
    id: int
    seq: int
    seat: int
    choice_id: str
    digest: str | None
    """``choicelog.next_digest(previous row's digest, this row)``; None on rows written before
    migration 6, until the game is first verified."""


@dataclass(frozen=True)
class SnapshotRow:
    seq: int
    state: Any
    """``state.to_json()`` (any value if damaged)."""
    digest: str


@dataclass(frozen=True)
class AiClaim:
    game_id: int
    seq: int
    owner: str
    until: datetime


@dataclass(frozen=True)
class MoveWrite:
    """Everything one applied choice writes (``Tx.record_move``), so that a backend can send it
    in as few statements as it likes."""

    game_id: int
    seq: int
    """The choice's position (the game's seq before the move)."""
    seat: int
    choice_id: str
    digest: str
    """The choice row's running digest, also the game's new ``log_digest``."""
    state: str
    state_digest: str
    over: bool
    to_move: int | None
    at: datetime
    drop_previous: bool
    """Delete the snapshot at ``seq`` (it is not a checkpoint)."""
    reminder: tuple[int, datetime] | None = None
    """(user id, due) of the first reminder for the person who decides next, scheduled with
    the move (after the game's pending reminders are cancelled)."""


@dataclass(frozen=True)
class ReminderFacts:
    """What decides the first reminder for the seat at ``turn_index`` (``Tx.reminder_facts``):
    the game's guild and options, the seat, and the settings rows (None where there is none)."""

    guild_id: int
    options: str
    user_id: int | None
    is_ai: bool
    user: UserSettings | None
    guild: GuildSettings | None


@dataclass(frozen=True)
class LogEnd:
    """Where a game's choice log ends, as this process verified it: after ``seq`` live choices
    whose running digest is ``digest``, the last of them (none when ``seq`` is 0) made by
    ``last_seat`` with ``last_choice``."""

    seq: int
    digest: str | None
    last_seat: int | None
    last_choice: str | None


@dataclass(frozen=True)
class UndoWrite:
    game_id: int
    choice_row_id: int
    seq: int
    """The game's seq after the undo."""
    log_digest: str
    state: str
    state_digest: str
    over: bool
    to_move: int | None
    at: datetime


@dataclass
class GameDump:
    """Every row of one game, backend-neutral (for copying SQLite -> PostgreSQL)."""

    game: GameRow
    seats: list[SeatRecord]
    choices: list[tuple[ChoiceRecord, str | None]]
    snapshots: list[tuple[SnapshotRow, datetime]]
    messages: list[MessageRecord]
    reminders: list[tuple[Reminder, datetime]]
    """(reminder, created_at)"""
    votes: list[tuple[int, int, datetime]]
    """(seq, voter_id, voted_at)"""
    archived_at: datetime | None = None
    """When ``prune`` archived the game (None: not archived)."""


@dataclass
class SettingsDump:
    guilds: list[tuple[GuildSettings, datetime]] = field(default_factory=list)
    users: list[tuple[UserSettings, datetime]] = field(default_factory=list)


class Tx(Protocol):
    """One transaction. Every SQL statement of a backend is one of these methods."""

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the transaction has committed (not if it rolls back)."""

    # -- games and seats (lobby) ----------------------------------------------------------
    async def game(self, game_id: int, *, lock: bool = False) -> GameRow | None: ...
    async def insert_game(
        self, guild_id: int, channel_id: int, creator_id: int, options: str, at: datetime
    ) -> int: ...
    async def update_game(self, game_id: int, **values: Any) -> None:
        """Set some of ``GAME_COLUMNS``."""

    async def find_games(
        self, by: str, key: int, statuses: list[str] | None
    ) -> list[tuple[GameRow, list[SeatRecord]]]:
        """Games by 'channel' (channel or thread), 'guild' or 'user' (seated), oldest first,
        with their seats: a fixed number of queries whatever the number of games."""

    async def game_in_thread(self, thread_id: int) -> GameRow | None:
        """The newest game played in this thread (an index lookup)."""

    async def active_games(self) -> list[ActiveGame]:
        """Every active game with what its thread shows, in one statement."""

    async def game_ids(self, statuses: list[str] | None) -> list[int]: ...
    async def games_created(self, guild_id: int, creator_id: int, since: datetime) -> int:
        """How many games (any status) the member created in the guild since ``since``."""

    async def seats(self, game_id: int) -> list[SeatRecord]: ...
    async def insert_seat(self, game_id: int, seat: SeatRecord) -> None: ...
    async def delete_seat(
        self, game_id: int, *, user_id: int | None, join_order: int | None
    ) -> bool: ...
    async def set_seat_turn(
        self, game_id: int, join_order: int, turn_index: int, colour: str | None
    ) -> None: ...

    # -- choices and snapshots (play) ------------------------------------------------------
    async def live_choices(self, game_id: int, from_seq: int = 0) -> list[ChoiceRow]:
        """Live (not undone) choices with ``seq >= from_seq``, by seq."""

    async def last_live_choice(self, game_id: int) -> ChoiceRow | None: ...
    async def choice_records(self, game_id: int, include_undone: bool) -> list[ChoiceRecord]: ...
    async def fill_choice_digests(self, game_id: int, digests: list[tuple[int, str]]) -> None:
        """Set ``digest`` on rows (by id) that have none yet."""

    async def snapshot(self, game_id: int, seq: int) -> SnapshotRow | None: ...
    async def snapshots(self, game_id: int) -> list[SnapshotRow]: ...
    async def replace_snapshots(
        self, game_id: int, snapshots: list[tuple[int, str, str]], at: datetime
    ) -> None:
        """Delete every snapshot of the game, then insert (seq, state, digest) rows."""

    async def record_move(self, move: MoveWrite) -> None:
        """Append the choice, store the new snapshot (dropping the previous one unless it is a
        checkpoint, and all but the first and final ones once over), advance the game, cancel
        its pending reminders."""

    async def reminder_facts(self, game_id: int, turn_index: int) -> ReminderFacts | None:
        """The facts of the seat at ``turn_index`` and its reminder settings, in one statement;
        None if the game or the seat is missing."""

    async def record_move_at(self, move: MoveWrite, end: LogEnd) -> bool:
        """``record_move``, only if the game is still active and its choice log still ends
        exactly at ``end`` (the game's seq and log digest, and its last live choice row); else
        False, with nothing written. A move computed before its transaction (from the state
        this process verified) is written with this and nothing else: one statement on both
        backends (on SQLite it needs no savepoint: a statement is undone by itself if it
        fails)."""

    async def record_undo(self, undo: UndoWrite) -> None:
        """Mark the choice undone, replace the snapshots from ``seq`` on by the given one, move
        the game back, cancel its pending reminders."""

    # -- messages --------------------------------------------------------------------------
    async def insert_message(
        self,
        game_id: int,
        kind: str,
        channel_id: int,
        message_id: int,
        seq: int | None,
        at: datetime,
    ) -> int: ...
    async def latest_message(self, game_id: int, kind: str) -> MessageRecord | None: ...
    async def messages(self, game_id: int, kind: str | None) -> list[MessageRecord]: ...
    async def put_shows(self, game_id: int, shows: Shows, at: datetime) -> None:
        """Record what the game's thread shows (replacing what it showed)."""

    async def pending_reminders(self, game_id: int) -> list[Reminder]:
        """The game's pending reminders (an index lookup, not every reminder of the game)."""

    async def turn_reminders(self, game_id: int, user_id: int, seq: int) -> list[Reminder]:
        """The reminders of one member about one decision (an index lookup)."""

    # -- reminders and AI turns (work claimed by one process) ------------------------------
    async def cancel_reminders(self, game_id: int, user_id: int | None) -> int: ...
    async def insert_reminder(
        self, game_id: int, user_id: int, due_at: datetime, seq: int, at: datetime
    ) -> Reminder:
        """``attempt`` = reminders already sent for (game, user, seq) + 1."""

    async def due_reminders(self, now: datetime, limit: int) -> list[Reminder]: ...
    async def claim_reminders(
        self, now: datetime, owner: str, until: datetime, limit: int, shards: Shards | None
    ) -> list[Reminder]:
        """Claim due reminders nobody holds (or whose lease ran out), of the games in
        ``shards`` (all if None), skipping rows another transaction is claiming."""

    async def release_reminder(self, reminder_id: int, owner: str) -> bool: ...
    async def mark_reminder_sent(
        self, reminder_id: int, at: datetime, owner: str | None
    ) -> bool: ...
    async def reminders(self, game_id: int) -> list[Reminder]: ...
    async def ai_claim(self, game_id: int) -> AiClaim | None: ...
    async def put_ai_claim(self, claim: AiClaim) -> None: ...
    async def delete_ai_claim(self, game_id: int, owner: str | None) -> bool: ...
    async def waiting_ai_games(self, now: datetime, limit: int) -> list[int]:
        """Active games whose pending decision is an AI seat's and not claimed by anyone."""

    # -- votes and settings ----------------------------------------------------------------
    async def add_vote(self, game_id: int, seq: int, voter_id: int, at: datetime) -> None: ...
    async def votes(self, game_id: int, seq: int) -> list[int]: ...
    async def guild_settings(self, guild_id: int) -> GuildSettings | None: ...
    async def put_guild_settings(self, settings: GuildSettings, at: datetime) -> None: ...
    async def user_settings(self, user_id: int) -> UserSettings | None: ...
    async def put_user_settings(self, settings: UserSettings, at: datetime) -> None: ...

    # -- the bot's own facts and counts (operations) -----------------------------------------
    async def bot_value(self, name: str) -> str | None:
        """A fact the bot keeps about itself (``bot_state``), e.g. the synced commands' hash."""

    async def put_bot_value(self, name: str, value: str, at: datetime) -> None: ...
    async def status_counts(self, guild_id: int | None) -> dict[str, int]:
        """How many games (of a guild, or all) are in each status (those with none left out)."""

    # -- the operator's commands -----------------------------------------------------------
    async def list_games(
        self,
        game_id: int | None,
        guild_id: int | None,
        statuses: list[str] | None,
        updated_before: datetime | None,
        limit: int,
    ) -> list[tuple[GameRow, datetime | None]]:
        """Games (newest first) with when each was archived (None: not archived)."""

    async def archivable(self, finished_before: datetime, limit: int) -> list[int]:
        """Finished games, not archived yet, that finished before the given time (oldest
        first)."""

    async def archive_game(self, game_id: int, keep_seq: int, at: datetime) -> dict[str, int]:
        """Drop the game's snapshots (but the one at ``keep_seq``) and its rows in
        ``ARCHIVE_DROPS``, and mark it archived: how many rows of each table went."""

    # -- audit and copying -----------------------------------------------------------------
    async def integrity_problems(self) -> list[str]: ...
    async def dump_game(self, game_id: int) -> GameDump: ...
    async def load_game(self, dump: GameDump) -> None:
        """Insert every row of a game dumped from another database (ids kept)."""

    async def dump_settings(self) -> SettingsDump: ...
    async def load_settings(self, dump: SettingsDump) -> None: ...
    async def reset_ids(self) -> None:
        """After ``load_game``: new rows get ids after the highest ones loaded."""


class Database(Protocol):
    """A backend's connection(s). ``name`` is 'sqlite' or 'postgres'."""

    name: str
    location: str

    async def read(self, fn: Callable[[Tx], Awaitable[T]]) -> T: ...
    async def write(self, fn: Callable[[Tx], Awaitable[T]]) -> T: ...
    async def schema_version(self) -> int: ...
    async def close(self) -> None: ...


def statuses_list(statuses: Iterable[str] | None) -> list[str] | None:
    """Validate a statuses filter (None = all)."""
    from .models import STATUSES

    if statuses is None:
        return None
    st = list(statuses)
    bad = [s for s in st if s not in STATUSES]
    if bad or not st:
        raise ValueError(f"unknown statuses {bad or st!r}")
    return st
