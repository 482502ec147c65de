"""What a server's operator does to the stored games from the command line (``store.cli``):
list them, export one's record, and prune finished games.

An export is the game's record (``engine.record``: setup, edition, rules version, choices),
replayable by ``python -m engine replay FILE``. Pruning archives finished games: their record
(setup, seats, choices) and their final snapshot (the final scores) stay, so they still replay,
verify and show their scorepad; their other snapshots, messages, reminders and votes go.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.record import make_record

from .backend import GameRow, Tx, statuses_list
from .base import StoreBase
from .common import found, setup_of
from .errors import GameNotActive

LISTED_AT_MOST = 1000


@dataclass(frozen=True)
class ListedGame:
    """One line of the operator's list of games."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    status: str
    seq: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    archived_at: datetime | None


@dataclass
class PruneReport:
    """What ``prune_finished`` archived (or, in a dry run, would archive)."""

    games: list[int] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    """Rows dropped per table (empty in a dry run)."""
    skipped: list[tuple[int, str]] = field(default_factory=list)
    """(game, why) left as they are."""


class OperatorMixin(StoreBase):
    async def list_games(
        self,
        *,
        game_id: int | None = None,
        guild_id: int | None = None,
        statuses: list[str] | None = None,
        older_than: timedelta | None = None,
        now: datetime | None = None,
        limit: int = LISTED_AT_MOST,
    ) -> list[ListedGame]:
        """Games, newest first: one, or those of one server, of some statuses, not changed
        for ``older_than``."""
        st = statuses_list(statuses)
        before = self._at(now) - older_than if older_than is not None else None

        async def read(tx: Tx) -> list[tuple[GameRow, datetime | None]]:
            return await tx.list_games(game_id, guild_id, st, before, limit)

        return [_listed(g, archived) for g, archived in await self._db.read(read)]

    async def game_record(self, game_id: int, *, with_users: bool = False) -> dict[str, Any]:
        """The game's record (``engine.record``) with its seats, dates and, once over, final
        scores. Raises GameNotFound, GameNotActive (never started), GameBroken."""

        async def read(tx: Tx) -> tuple[GameRow, Any, Any]:
            game = found(await tx.game(game_id))
            return game, await tx.seats(game_id), await tx.choice_records(game_id, False)

        game, seats, choices = await self._db.read(read)
        if game.setup is None:
            raise GameNotActive("This game hasn't started yet.")
        state, _seq = await self.load_state(game_id)  # type: ignore[attr-defined]  # verified
        about: dict[str, Any] = {
            "game": game.id,
            "status": game.status,
            "created_at": _iso(game.created_at),
            "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
            "seats": [
                {"seat": s.turn_index, "name": s.name, "ai": s.is_ai}
                | ({"user_id": s.user_id} if with_users and s.user_id else {})
                for s in sorted(seats, key=lambda s: s.turn_index or 0)
            ],
        }
        if with_users:
            about["guild_id"] = game.guild_id
        if state.is_over:
            about["final_scores"] = state.final_scores()
            about["winner"] = state.winner()
        return make_record(setup_of(game), [(c.seat, c.choice_id) for c in choices], **about)

    async def prune_finished(
        self, older_than: timedelta, *, now: datetime | None = None, dry_run: bool = False
    ) -> PruneReport:
        """Archive the games that finished more than ``older_than`` ago (see the module doc).
        ``dry_run``: say which, change nothing."""
        at = self._at(now)
        report = PruneReport()

        async def find(tx: Tx) -> list[int]:
            return await tx.archivable(at - older_than, LISTED_AT_MOST * 100)

        for game_id in await self._db.read(find):
            if dry_run:
                report.games.append(game_id)
                continue

            async def archive(tx: Tx, game_id: int = game_id) -> dict[str, int] | str:
                game = found(await tx.game(game_id, lock=True))
                if game.status != "finished" or not isinstance(game.seq, int):
                    return "no longer finished"
                if await tx.snapshot(game_id, game.seq) is None:
                    return "its final snapshot is missing (run check-db)"
                return await tx.archive_game(game_id, game.seq, at)

            done = await self._db.write(archive)
            if isinstance(done, str):
                report.skipped.append((game_id, done))
                continue
            report.games.append(game_id)
            for table, n in done.items():
                report.rows[table] = report.rows.get(table, 0) + n
        return report


def _listed(g: GameRow, archived: datetime | None) -> ListedGame:
    return ListedGame(
        g.id,
        g.guild_id,
        g.channel_id,
        g.thread_id,
        g.status,
        g.seq if isinstance(g.seq, int) else -1,
        g.created_at,
        g.updated_at,
        g.finished_at,
        archived,
    )


def _iso(when: datetime | None) -> str | None:
    return when.isoformat().replace("+00:00", "Z") if when is not None else None
