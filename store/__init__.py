"""Game store for Ada's Dream: every move persisted, nothing lost, damage caught.

All SQL of the bot lives in this package; cogs call these methods only.

Shape (see ``store/store.py``): ``Store`` gathers the store's concerns (``lobby.py``,
``play.py``, ``messages.py``, ``work.py``, ``settings.py``, ``audit.py``), each written once;
every SQL statement is in one file per backend, ``sqlite.py`` (default) or ``postgres.py``,
behind the ``Tx`` protocol of ``backend.py``.

Quick start (Discord layer)::

    from store import Store, StaleMove, NotYourTurn, IllegalChoice, StoreError

    store = await Store.open()   # DATABASE_URL (postgresql://...) if set, else the SQLite file
                                 # DATABASE_PATH, from env/.env, default ./adas_dream.db
    ...
    await store.close()

Lobby
    ``game_id = await store.create_game(guild_id, channel_id, creator_id, {"players": 3})``
    ``await store.set_thread(game_id, thread_id)``
    ``seat = await store.add_seat(game_id, name="alice", user_id=123)``   -> SeatRecord
    ``seat = await store.add_seat(game_id, name="AI", is_ai=True, ai_policy="greedy")``
    ``await store.remove_seat(game_id, user_id=123)`` / ``remove_seat(game_id, join_order=2)``
    ``await store.seats(game_id)``                                        -> [SeatRecord]
    ``state = await store.start_game(game_id, seed)``   engine draws the turn order; each
        seat gets ``turn_index`` (= ``state.decision.player`` numbering)
    ``await store.cancel_game(game_id)``
    ``await store.get_game(game_id)``  -> GameRecord (status 'lobby'|'active'|'finished'|
        'cancelled'|'broken', options, seats, seq...; ``rec.seat_of(user_id)``,
        ``rec.seat_at(turn_index)``)
    ``games_in_channel(channel_or_thread_id)``, ``games_in_guild(guild_id)``,
    ``games_for_user(user_id)``  (default statuses: lobby + active; pass ``statuses=None`` for
    all; two queries however many games; a member's open games are found from their open
    seats, not their whole history)
    ``await store.game_in_thread(thread_id)``  -> GameRecord | None (one index lookup)
    ``await store.active_games()``  -> [ActiveGame] (for a restart: where each active game is and
        what its thread shows, ``.thread_current``; one statement)

Play
    ``state, seq = await store.load_state(game_id)``   put ``seq`` in the buttons' custom ids
    ``rec, state, seq = await store.game_and_state(game_id)``   a click's one read (state None
        for a lobby or a broken game)
    ``state = await store.apply_choice(game_id, seq, seat, choice_id, remind=True)``   one
        transaction; ``remind=True`` also schedules the next person's first reminder in it.
        Raises StaleMove (double click / old button), NotYourTurn, IllegalChoice,
        GameNotActive, GameBroken. On any error nothing changed.
    ``state = await store.undo(game_id, seq, seat)``   raises CannotUndo / StaleMove
    ``await store.choices(game_id)``  -> [ChoiceRecord] (``include_undone=True`` for all rows)
    States returned are the caller's to change.

Messages
    ``await store.record_message(game_id, "turn", channel_id, message_id, seq)``
    ``await store.latest_message(game_id, "turn")``  -> MessageRecord | None
    What a thread shows: ``record_message(..., shows=Shows(...))`` with a new turn message,
    ``await store.mark_shown({game_id: Shows(message_id, seq, log_digest, player)})`` for edits
    A turn message posted by a click: ``PostedTurn``, written with the game's next move
        (``apply_choice(..., posted=...)``) or the next ``mark_shown(..., posted=[...])``

Reminders (pass aware UTC datetimes, e.g. ``discord.utils.utcnow()``)
    ``await store.schedule_reminder(game_id, user_id, due_at, seq)``  -> Reminder (``attempt``
        counts reminders already sent for that turn, for backoff)
    ``await store.due_reminders(now)``  -> [Reminder]  (active games still at that seq; opted-out
        users skipped)
    Several processes: ``await store.claim_due_reminders(now, owner, lease)`` -> [Reminder]
        claimed by ``owner`` until now + lease; then ``mark_reminder_sent(id, owner=owner)`` or
        ``release_reminder(id, owner)``. A dead owner's claims run out and are taken over.
    ``await store.mark_reminder_sent(reminder_id)``; ``await store.cancel_reminders(game_id)``;
    ``await store.pending_reminders(game_id)`` (an index lookup)
    (apply_choice / undo / cancel_game cancel a game's pending reminders themselves)

AI turns (several processes)
    ``seq = await store.claim_ai_turn(game_id, owner, lease)`` -> the seq to play, or None
        (not an AI's turn, or another owner holds it); ``release_ai_turn(game_id, owner)``;
        ``claim_waiting_ai_turns(owner, lease)`` -> [(game_id, seq)] nobody is playing.

Settings
    ``await store.guild_settings(guild_id)`` / ``set_guild_settings(guild_id, reminder_hours=6,
        ping_mode="dm")``
    ``await store.user_settings(user_id)`` / ``set_user_settings(user_id, reminders_enabled=False,
        ping_mode="dm", reminder_hours=None)``
    ``enabled, mode, hours = await store.reminder_policy(guild_id, user_id)``

Records (issue 30; ``store/records.py``, the numbers from ``store/tally.py``)
    A move that ends a game writes its ``results`` and its people's ``member_stats`` (sums and
    openskill rating) in its own transaction. ``history(guild, user, offset=, limit=)``,
    ``profile(guild, user)``, ``leaderboard(guild)``, ``reliability(guild, users)``,
    ``server_stats(guild, now)``; ``rebuild_records(guild=None)`` recomputes them all from the
    stored games. ``note_standin`` / ``forget_standin`` (a stand-in's turn), ``set_away`` /
    ``away_until``, ``set_hidden`` / ``member_records``, ``set_max_away_days``.

Audit and maintenance
    ``await store.verify_game(game_id)`` -> GameCheck; ``await store.mark_broken(game_id, why)``;
    ``await store.repair_game(game_id)`` (rebuild snapshots from seed + choices, restore status)
    ``await store.backup(dest)`` (SQLite); ``python bot.py check-db`` / ``backup DEST`` /
    ``repair [GAME_ID...]`` / ``migrate [--backed-up]`` / ``migrate-to-postgres SQLITE_PATH
    DATABASE_URL`` / ``games`` / ``show ID`` / ``cancel ID`` / ``export ID`` / ``prune
    --older-than AGE [--dry-run]`` are ``store.cli.main(argv)`` (argv without the program name;
    ``--db PATH_OR_URL``; also ``python -m store ...``).
    ``Store.open(location, upgrade="backup"|"apply"|"refuse")``: an older schema is backed up
    (SQLite) before it is upgraded, or refused (``SchemaUpgradeNeeded``), see ``store.upgrade``.

Operator (``store/operator.py``)
    ``await store.list_games(guild_id=..., statuses=[...], older_than=timedelta(days=30))``
    ``await store.game_record(game_id)`` -> the game's record (``engine.record``), replayable by
        ``python -m engine replay FILE``
    ``await store.prune_finished(timedelta(days=180), dry_run=True)`` -> PruneReport

A game whose saved data is damaged (choice log, seats, a snapshot that is not what its choices
replay to) is marked 'broken' (with ``broken_reason``) the moment it is detected;
``load_state``/``apply_choice`` then raise GameBroken, other games go on. Each process verifies
a game by replay on first load and builds only on what it verified. Methods never block the
event loop; concurrent calls are safe, within a process and across processes.

Every exception is a ``StoreError`` whose ``str()`` is a player-friendly sentence, except
``IllegalChoice`` (the engine's, a ValueError), re-exported here for convenience.
"""

from engine import IllegalChoice

from .backup import BackupResult, backup_database
from .config import database_location, database_path
from .errors import (
    CannotUndo,
    EditionMissing,
    GameBroken,
    GameNotActive,
    GameNotFound,
    LobbyError,
    MigrationError,
    NotYourTurn,
    SchemaTooNew,
    SchemaUpgradeNeeded,
    StaleMove,
    StoreError,
)
from .logs import quiet_database_libraries
from .models import (
    OPEN_STATUSES,
    ChoiceRecord,
    GameCheck,
    GameRecord,
    GuildSettings,
    MessageRecord,
    Reminder,
    SeatRecord,
    UserSettings,
)
from .store import CHECKPOINT_EVERY, Store

quiet_database_libraries()

__all__ = [
    "CHECKPOINT_EVERY",
    "OPEN_STATUSES",
    "BackupResult",
    "CannotUndo",
    "ChoiceRecord",
    "EditionMissing",
    "GameBroken",
    "GameCheck",
    "GameNotActive",
    "GameNotFound",
    "GameRecord",
    "GuildSettings",
    "IllegalChoice",
    "LobbyError",
    "MessageRecord",
    "MigrationError",
    "NotYourTurn",
    "Reminder",
    "SchemaTooNew",
    "SchemaUpgradeNeeded",
    "SeatRecord",
    "StaleMove",
    "Store",
    "StoreError",
    "UserSettings",
    "backup_database",
    "database_location",
    "database_path",
]
