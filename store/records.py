"""The bot remembers (issue 30): results of finished games, members' sums and ratings, stand-in
turns, time away and privacy.

What a finished game leaves behind is computed by ``store.tally`` (pure) and written by the game
end's own transaction (``PlayMixin.apply_choice`` calls ``_record_game_end`` when a move ends the
game), so the history, profiles and the leaderboard read small tables, never replays.
``rebuild_records`` recomputes every one of them from the stored games (setup + choices) and
gives the same numbers. The SQL of this concern is here, written once for both backends through
``_Sql`` (placeholders and times are the only differences it needs).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from engine import GameState

from .backend import Tx
from .base import StoreBase
from .common import found
from .errors import StoreError
from .tally import GameResult, MemberStats, Move, Rating, add_game, game_result, median_wait
from .timeutil import from_db, to_db

log = logging.getLogger("store")

DEFAULT_MAX_AWAY_DAYS = 30
"""The longest absence a member may announce where the server set none (/ada-admin)."""

_STATS_COLS = (
    "games, wins, expected_wins, score_sum, best_score, categories, turns, late_turns,"
    " standin_turns, standin_games, rated_games, mu, sigma"
)


class _Sql:
    """This concern's statements on either backend: write SQL with ``?`` placeholders; times
    go in as aware datetimes and come out as aware datetimes."""

    def __init__(self, tx: Tx, dialect: str) -> None:
        self.tx: Any = tx
        self.pg = dialect == "postgres"
        self.lock = " FOR UPDATE" if self.pg else ""

    def _sql(self, sql: str) -> str:
        if not self.pg:
            return sql
        parts = sql.split("?")
        return parts[0] + "".join(f"${i}{p}" for i, p in enumerate(parts[1:], start=1))

    def _arg(self, value: Any) -> Any:
        if isinstance(value, datetime) and not self.pg:
            return to_db(value)
        return value

    def time(self, value: Any) -> datetime | None:
        return value if self.pg or value is None else from_db(value)

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        values = [self._arg(a) for a in args]
        if self.pg:
            return list(await self.tx._c.fetch(self._sql(sql), *values))
        return list(await self.tx._all(sql, values))

    async def run(self, sql: str, *args: Any) -> None:
        values = [self._arg(a) for a in args]
        if self.pg:
            await self.tx._c.execute(self._sql(sql), *values)
        else:
            await self.tx._all(sql, values, writes=True)

    async def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        values = [[self._arg(a) for a in r] for r in rows]
        if self.pg:
            await self.tx._c.executemany(self._sql(sql), values)
        else:
            await self.tx._run_many(sql, values)


# ---------------------------------------------------------------------- records read back


@dataclass(frozen=True)
class HistoryEntry:
    """One finished game in a member's history: their seat and the table."""

    game_id: int
    finished_at: datetime
    place: int
    score: int
    won: bool
    players: tuple[tuple[str, int | None, int, int], ...]
    """(name, user id or None for an AI, place, score) of every seat, by place."""
    thread_id: int | None
    channel_id: int


@dataclass(frozen=True)
class Profile:
    stats: MemberStats
    median_wait: float | None
    games_left: int
    server_categories: tuple[float, ...]
    """The server's average of each scorepad category over every person's finished games."""


@dataclass(frozen=True)
class Reliability:
    turns: int
    late_turns: int
    standin_turns: int
    games_left: int

    @property
    def on_time(self) -> float | None:
        played = self.turns - self.standin_turns
        return None if played <= 0 else (played - self.late_turns) / played


@dataclass(frozen=True)
class ServerStats:
    games: int
    weeks: tuple[tuple[datetime, int], ...]
    """(Monday of the week, games finished) for the last weeks."""
    average_hours: float | None
    average_moves: float | None
    seat_wins: dict[int, tuple[int, tuple[int, ...]]]
    """By number of players: (games, wins of each seat in turn order)."""


@dataclass(frozen=True)
class MemberRecord:
    user_id: int
    hidden: bool = False
    away_until: datetime | None = None


def _stats_of(guild_id: int, user_id: int, r: Any) -> MemberStats:
    (
        games,
        wins,
        expected,
        score_sum,
        best,
        cats,
        turns,
        late,
        standin,
        sgames,
        rated,
        mu,
        sigma,
    ) = tuple(r)
    return MemberStats(
        guild_id,
        user_id,
        games=int(games),
        wins=int(wins),
        expected_wins=float(expected),
        score_sum=int(score_sum),
        best_score=None if best is None else int(best),
        categories=tuple(json.loads(cats)) or MemberStats(0, 0).categories,
        turns=int(turns),
        late_turns=int(late),
        standin_turns=int(standin),
        standin_games=int(sgames),
        rated_games=int(rated),
        rating=None if mu is None else Rating(float(mu), float(sigma)),
    )


def _stats_values(s: MemberStats) -> tuple[Any, ...]:
    r = s.rating
    return (
        s.games,
        s.wins,
        s.expected_wins,
        s.score_sum,
        s.best_score,
        json.dumps(list(s.categories)),
        s.turns,
        s.late_turns,
        s.standin_turns,
        s.standin_games,
        s.rated_games,
        None if r is None else r.mu,
        None if r is None else r.sigma,
        None if r is None else r.ordinal,
    )


class RecordsMixin(StoreBase):
    def _q(self, tx: Tx) -> _Sql:
        return _Sql(tx, self._db.name)

    # ------------------------------------------------------------------ the game end

    async def _record_game_end(self, tx: Tx, game_id: int, state: GameState, at: datetime) -> None:
        """In the transaction of the move that ended the game: its results, and the people's
        sums and ratings. A result that can't be computed is logged and left to
        ``rebuild_records`` (the move itself must not fail for it)."""
        q = self._q(tx)
        try:
            result = await self._result_in(tx, q, game_id, state, at)
        except Exception:
            log.exception("game %s: its records could not be computed (rebuild-records)", game_id)
            return
        await self._write_results(q, [result])
        # in one order: two game ends of a server lock the same rows one after the other
        users = sorted(s.user_id for s in result.people if s.user_id is not None)
        if not users:
            return
        marks = ", ".join("?" for _ in users)
        await q.many(
            "INSERT INTO member_stats (guild_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [(result.guild_id, u) for u in users],
        )
        rows = await q.rows(
            f"SELECT user_id, {_STATS_COLS} FROM member_stats WHERE guild_id = ?"
            f" AND user_id IN ({marks}) ORDER BY user_id{q.lock}",
            result.guild_id,
            *users,
        )
        before = {int(r[0]): _stats_of(result.guild_id, int(r[0]), r[1:]) for r in rows}
        await _put_stats(q, add_game(before, result).values())

    async def _result_in(
        self, tx: Tx, q: _Sql, game_id: int, state: GameState, at: datetime
    ) -> GameResult:
        game = found(await tx.game(game_id))
        seats = await tx.seats(game_id)
        choices = await tx.choice_records(game_id, False)
        reminders = await tx.reminders(game_id)
        standins = await q.rows("SELECT seq FROM standin_turns WHERE game_id = ?", game_id)
        return game_result(
            game_id,
            game.guild_id,
            state,
            seats,
            [Move(c.seq, c.seat, c.applied_at) for c in choices],
            game.started_at or game.created_at,
            at,
            {(r.user_id, r.seq) for r in reminders if r.status == "sent"},
            {int(r[0]) for r in standins},
        )

    async def _write_results(self, q: _Sql, results: Iterable[GameResult]) -> None:
        await q.many(
            "INSERT INTO results (game_id, turn_index, guild_id, user_id, name, players, place,"
            " won, score, categories, turns, late_turns, standin_turns, waits, rated,"
            " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    g.game_id,
                    s.turn_index,
                    g.guild_id,
                    s.user_id,
                    s.name,
                    g.players,
                    s.place,
                    int(s.won),
                    s.score,
                    json.dumps(list(s.categories)),
                    s.turns,
                    s.late_turns,
                    s.standin_turns,
                    json.dumps(list(s.waits)),
                    int(g.rated),
                    g.finished_at,
                )
                for g in results
                for s in g.seats
            ],
        )

    # ------------------------------------------------------------------ rebuilding

    async def rebuild_records(self, guild_id: int | None = None) -> int:
        """Recompute every result, sum and rating from the stored games (of one server, or
        all), replacing what the tables hold; returns the number of finished games. The
        games are taken in the order they finished (time, then number), as the game ends
        updated them."""

        async def finished(tx: Tx) -> list[tuple[int, int]]:
            q = self._q(tx)
            where = "" if guild_id is None else " AND guild_id = ?"
            rows = await q.rows(
                f"SELECT id, guild_id FROM games WHERE status = 'finished'{where}"
                " ORDER BY finished_at, id",
                *([] if guild_id is None else [guild_id]),
            )
            return [(int(r[0]), int(r[1])) for r in rows]

        games = await self._db.read(finished)
        results = []
        for game_id, _guild in games:
            try:
                state, _seq = await self.load_state(game_id)  # type: ignore[attr-defined]
            except StoreError as exc:  # a broken game, an edition this bot lacks: left out
                log.warning("game %s left out of the records: %s", game_id, exc)
                continue

            async def read(tx: Tx, game_id: int = game_id, state: GameState = state) -> GameResult:
                q = self._q(tx)
                game = found(await tx.game(game_id))
                return await self._result_in(
                    tx, q, game_id, state, game.finished_at or game.updated_at
                )

            results.append(await self._db.read(read))
        stats: dict[tuple[int, int], MemberStats] = {}
        for result in results:
            mine = {
                s.user_id: stats[(result.guild_id, s.user_id)]
                for s in result.people
                if s.user_id is not None and (result.guild_id, s.user_id) in stats
            }
            for user, after in add_game(mine, result).items():
                stats[(result.guild_id, user)] = after

        async def replace(tx: Tx) -> None:
            q = self._q(tx)
            where = "" if guild_id is None else " WHERE guild_id = ?"
            args = [] if guild_id is None else [guild_id]
            await q.run(f"DELETE FROM results{where}", *args)
            await q.run(f"DELETE FROM member_stats{where}", *args)
            await self._write_results(q, results)
            await _put_stats(q, stats.values(), insert=True)

        await self._db.write(replace)
        return len(results)

    async def copy_records_from(self, source: RecordsMixin) -> None:
        """After the games were copied from ``source`` (``store.copy``): its stand-in turns,
        time away, privacy and away limits, then every result rebuilt from the games."""

        async def dump(tx: Tx) -> dict[str, list[Any]]:
            q = source._q(tx)
            return {
                "standin_turns": [
                    (r[0], r[1], r[2], q.time(r[3]))
                    for r in await q.rows("SELECT game_id, seq, seat, at FROM standin_turns")
                ],
                "member_records": [
                    (r[0], r[1], q.time(r[2]), q.time(r[3]))
                    for r in await q.rows(
                        "SELECT user_id, hidden, away_until, updated_at FROM member_records"
                    )
                ],
                "guild_records": [
                    (r[0], r[1], q.time(r[2]))
                    for r in await q.rows(
                        "SELECT guild_id, max_away_days, updated_at FROM guild_records"
                    )
                ],
            }

        rows = await source._db.read(dump)

        async def load(tx: Tx) -> None:
            q = self._q(tx)
            await q.many(
                "INSERT INTO standin_turns (game_id, seq, seat, at) VALUES (?, ?, ?, ?)",
                rows["standin_turns"],
            )
            await q.many(
                "INSERT INTO member_records (user_id, hidden, away_until, updated_at)"
                " VALUES (?, ?, ?, ?)",
                rows["member_records"],
            )
            await q.many(
                "INSERT INTO guild_records (guild_id, max_away_days, updated_at) VALUES (?, ?, ?)",
                rows["guild_records"],
            )

        await self._db.write(load)
        await self.rebuild_records()

    # ------------------------------------------------------------------ reading

    async def history(
        self, guild_id: int, user_id: int, *, offset: int = 0, limit: int = 10
    ) -> tuple[list[HistoryEntry], int]:
        """A member's finished games in a server, newest first (a page), and how many there
        are in all."""

        async def read(tx: Tx) -> tuple[list[HistoryEntry], int]:
            q = self._q(tx)
            count = await q.rows(
                "SELECT COUNT(*) FROM results WHERE guild_id = ? AND user_id = ?", guild_id, user_id
            )
            mine = await q.rows(
                "SELECT r.game_id, r.finished_at, r.place, r.score, r.won, g.thread_id,"
                " g.channel_id FROM results r JOIN games g ON g.id = r.game_id"
                " WHERE r.guild_id = ? AND r.user_id = ?"
                " ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ? OFFSET ?",
                guild_id,
                user_id,
                limit,
                offset,
            )
            ids = [int(r[0]) for r in mine]
            tables: dict[int, list[tuple[str, int | None, int, int]]] = {i: [] for i in ids}
            if ids:
                marks = ", ".join("?" for _ in ids)
                for r in await q.rows(
                    "SELECT game_id, name, user_id, place, score FROM results"
                    f" WHERE game_id IN ({marks}) ORDER BY game_id, place, turn_index",
                    *ids,
                ):
                    tables[int(r[0])].append((r[1], r[2], int(r[3]), int(r[4])))
            entries = [
                HistoryEntry(
                    game_id=int(r[0]),
                    finished_at=q.time(r[1]) or datetime.min,
                    place=int(r[2]),
                    score=int(r[3]),
                    won=bool(r[4]),
                    players=tuple(tables[int(r[0])]),
                    thread_id=r[5],
                    channel_id=int(r[6]),
                )
                for r in mine
            ]
            return entries, int(count[0][0])

        return await self._db.read(read)

    async def member_stats(self, guild_id: int, user_id: int) -> MemberStats | None:
        """A member's sums and rating in a server (None: no finished game there)."""

        async def read(tx: Tx) -> MemberStats | None:
            rows = await self._q(tx).rows(
                f"SELECT {_STATS_COLS} FROM member_stats WHERE guild_id = ? AND user_id = ?",
                guild_id,
                user_id,
            )
            return _stats_of(guild_id, user_id, rows[0]) if rows else None

        return await self._db.read(read)

    async def all_member_stats(self, guild_id: int) -> list[MemberStats]:
        """Every member's sums in a server, by user id (for tests and the rebuild check)."""

        async def read(tx: Tx) -> list[MemberStats]:
            rows = await self._q(tx).rows(
                f"SELECT user_id, {_STATS_COLS} FROM member_stats WHERE guild_id = ?"
                " ORDER BY user_id",
                guild_id,
            )
            return [_stats_of(guild_id, int(r[0]), r[1:]) for r in rows]

        return await self._db.read(read)

    async def profile(self, guild_id: int, user_id: int) -> Profile | None:
        """What ``/ada profile`` shows (None: no finished game in this server)."""

        async def read(tx: Tx) -> Profile | None:
            q = self._q(tx)
            rows = await q.rows(
                f"SELECT {_STATS_COLS} FROM member_stats WHERE guild_id = ? AND user_id = ?",
                guild_id,
                user_id,
            )
            if not rows:
                return None
            stats = _stats_of(guild_id, user_id, rows[0])
            waits: list[int] = []
            for r in await q.rows(
                "SELECT waits FROM results WHERE guild_id = ? AND user_id = ?", guild_id, user_id
            ):
                waits.extend(json.loads(r[0]))
            server = await q.rows(
                "SELECT games, categories FROM member_stats WHERE guild_id = ?", guild_id
            )
            games = sum(int(r[0]) for r in server)
            sums = [0.0] * len(stats.categories)
            for r in server:
                for i, v in enumerate(json.loads(r[1])):
                    sums[i] += v
            left = await _games_left(q, guild_id, [user_id])
            return Profile(
                stats=stats,
                median_wait=median_wait(waits),
                games_left=left.get(user_id, 0),
                server_categories=tuple(v / games for v in sums) if games else tuple(sums),
            )

        return await self._db.read(read)

    async def leaderboard(self, guild_id: int, *, limit: int = 20) -> list[MemberStats]:
        """The server's rated members by ordinal (mu - 3 sigma), best first; members who hid
        their profile are left out."""

        async def read(tx: Tx) -> list[MemberStats]:
            rows = await self._q(tx).rows(
                f"SELECT m.user_id, {', '.join('m.' + c.strip() for c in _STATS_COLS.split(','))}"
                " FROM member_stats m LEFT JOIN member_records h ON h.user_id = m.user_id"
                " WHERE m.guild_id = ? AND m.ordinal IS NOT NULL AND (h.hidden IS NULL OR h.hidden = 0)"
                " ORDER BY m.ordinal DESC, m.user_id LIMIT ?",
                guild_id,
                limit,
            )
            return [_stats_of(guild_id, int(r[0]), r[1:]) for r in rows]

        return await self._db.read(read)

    async def reliability(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, Reliability]:
        """Turns played, late and by a stand-in, and games left, of some members in a server
        (members who hid their profile are left out)."""
        users = sorted(set(user_ids))
        if not users:
            return {}

        async def read(tx: Tx) -> dict[int, Reliability]:
            q = self._q(tx)
            marks = ", ".join("?" for _ in users)
            rows = await q.rows(
                "SELECT m.user_id, m.turns, m.late_turns, m.standin_turns FROM member_stats m"
                " LEFT JOIN member_records h ON h.user_id = m.user_id"
                f" WHERE m.guild_id = ? AND m.user_id IN ({marks})"
                " AND (h.hidden IS NULL OR h.hidden = 0)",
                guild_id,
                *users,
            )
            left = await _games_left(q, guild_id, users)
            return {
                int(r[0]): Reliability(int(r[1]), int(r[2]), int(r[3]), left.get(int(r[0]), 0))
                for r in rows
            }

        return await self._db.read(read)

    async def server_stats(self, guild_id: int, now: datetime, weeks: int = 8) -> ServerStats:
        """Games per week, the average length, and how often each seat won, over the server's
        finished games."""
        since = now - timedelta(weeks=weeks)

        async def read(tx: Tx) -> ServerStats:
            q = self._q(tx)
            times = await q.rows(
                "SELECT finished_at FROM results WHERE guild_id = ? AND turn_index = 0"
                " AND finished_at >= ?",
                guild_id,
                since,
            )
            monday = (now - timedelta(days=now.weekday())).replace(
                hour=0, minute=0, second=0, microsecond=0
            )
            counts = [0] * weeks
            for r in times:
                at = q.time(r[0])
                assert at is not None
                back = (monday - at).days // 7 + (1 if at < monday else 0)
                if 0 <= back < weeks:
                    counts[back] += 1
            lengths = await q.rows(
                "SELECT COUNT(*), SUM(g.seq) FROM games g WHERE g.guild_id = ?"
                " AND g.status = 'finished'",
                guild_id,
            )
            spans = await q.rows(
                "SELECT started_at, finished_at FROM games WHERE guild_id = ?"
                " AND status = 'finished' AND started_at IS NOT NULL",
                guild_id,
            )
            hours = [
                ((q.time(b) or datetime.min) - (q.time(a) or datetime.min)).total_seconds() / 3600
                for a, b in spans
            ]
            seat_rows = await q.rows(
                "SELECT players, turn_index, COUNT(*), SUM(won) FROM results WHERE guild_id = ?"
                " GROUP BY players, turn_index ORDER BY players, turn_index",
                guild_id,
            )
            games_of: dict[int, int] = {}
            wins_of: dict[int, list[int]] = {}
            for players, index, n, won in seat_rows:
                games_of.setdefault(int(players), int(n))
                wins_of.setdefault(int(players), [0] * int(players))[int(index)] = int(won)
            total_games, moves = int(lengths[0][0]), lengths[0][1]
            return ServerStats(
                games=total_games,
                weeks=tuple((monday - timedelta(weeks=k), counts[k]) for k in range(weeks)),
                average_hours=sum(hours) / len(hours) if hours else None,
                average_moves=int(moves) / total_games if total_games else None,
                seat_wins={p: (games_of[p], tuple(w)) for p, w in wins_of.items()},
            )

        return await self._db.read(read)

    async def last_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The seat name each member last finished a game under in this server."""
        users = sorted(set(user_ids))
        if not users:
            return {}

        async def read(tx: Tx) -> dict[int, str]:
            marks = ", ".join("?" for _ in users)
            rows = await self._q(tx).rows(
                "SELECT user_id, name FROM results WHERE guild_id = ?"
                f" AND user_id IN ({marks}) ORDER BY finished_at, game_id",
                guild_id,
                *users,
            )
            return {int(r[0]): r[1] for r in rows}

        return await self._db.read(read)

    async def to_move_of(self, game_ids: Iterable[int]) -> dict[int, int]:
        """The engine seat whose decision each active game waits for (games with none left
        out)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}

        async def read(tx: Tx) -> dict[int, int]:
            marks = ", ".join("?" for _ in ids)
            rows = await self._q(tx).rows(
                f"SELECT id, to_move FROM games WHERE id IN ({marks}) AND status = 'active'"
                " AND to_move IS NOT NULL",
                *ids,
            )
            return {int(r[0]): int(r[1]) for r in rows}

        return await self._db.read(read)

    # ------------------------------------------------------------------ stand-ins

    async def note_standin(
        self, game_id: int, seat: int, seq: int, *, now: datetime | None = None
    ) -> None:
        """A stand-in is about to play ``seat``'s decision ``seq``: the turn it starts counts
        as the stand-in's (written before the moves, so the game end that one of them may be
        finds it). ``forget_standin`` if the stand-in did not play after all."""
        at = self._at(now)

        async def write(tx: Tx) -> None:
            await self._q(tx).run(
                "INSERT INTO standin_turns (game_id, seq, seat, at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                game_id,
                seq,
                seat,
                at,
            )

        await self._db.write(write)

    async def forget_standin(self, game_id: int, seq: int) -> None:
        async def write(tx: Tx) -> None:
            await self._q(tx).run(
                "DELETE FROM standin_turns WHERE game_id = ? AND seq = ?", game_id, seq
            )

        await self._db.write(write)

    # ------------------------------------------------------------------ time away, privacy

    async def member_record(self, user_id: int) -> MemberRecord:
        return (await self.member_records([user_id]))[user_id]

    async def member_records(self, user_ids: Iterable[int]) -> dict[int, MemberRecord]:
        """Time away and privacy of some members (defaults for those with no row)."""
        users = sorted(set(user_ids))

        async def read(tx: Tx) -> dict[int, MemberRecord]:
            q = self._q(tx)
            out = {u: MemberRecord(u) for u in users}
            if users:
                marks = ", ".join("?" for _ in users)
                for r in await q.rows(
                    "SELECT user_id, hidden, away_until FROM member_records"
                    f" WHERE user_id IN ({marks})",
                    *users,
                ):
                    out[int(r[0])] = MemberRecord(int(r[0]), bool(r[1]), q.time(r[2]))
            return out

        return await self._db.read(read)

    async def away_until(self, user_id: int, now: datetime) -> datetime | None:
        """Until when the member is away (None: not away now)."""
        until = (await self.member_record(user_id)).away_until
        return until if until is not None and until > now else None

    async def set_away(
        self, user_id: int, until: datetime | None, *, now: datetime | None = None
    ) -> None:
        """Mark the member away until ``until`` (None: back). The caller checks the server's
        longest allowed absence (``max_away_days``)."""
        at = self._at(now)
        if until is not None:
            until = self._at(until)
            if until <= at:
                raise StoreError("That date is already past.")
        await self._put_member(user_id, at, away_until=until)

    async def set_hidden(self, user_id: int, hidden: bool, *, now: datetime | None = None) -> None:
        """Hide the member's profile, history and place on the leaderboards (or show them)."""
        await self._put_member(user_id, self._at(now), hidden=hidden)

    async def _put_member(self, user_id: int, at: datetime, **values: Any) -> None:
        async def write(tx: Tx) -> None:
            q = self._q(tx)
            await q.run(
                "INSERT INTO member_records (user_id, updated_at) VALUES (?, ?)"
                " ON CONFLICT DO NOTHING",
                user_id,
                at,
            )
            cols = ", ".join(f"{k} = ?" for k in values)
            args = [int(v) if isinstance(v, bool) else v for v in values.values()]
            await q.run(
                f"UPDATE member_records SET {cols}, updated_at = ? WHERE user_id = ?",
                *args,
                at,
                user_id,
            )

        await self._db.write(write)

    async def max_away_days(self, guild_id: int) -> int:
        """The longest absence a member of this server may announce, in days."""

        async def read(tx: Tx) -> int:
            rows = await self._q(tx).rows(
                "SELECT max_away_days FROM guild_records WHERE guild_id = ?", guild_id
            )
            return int(rows[0][0]) if rows else DEFAULT_MAX_AWAY_DAYS

        return await self._db.read(read)

    async def set_max_away_days(
        self, guild_id: int, days: int, *, now: datetime | None = None
    ) -> None:
        if not isinstance(days, int) or days < 1:
            raise StoreError("A limit must be a whole number of at least 1.")
        at = self._at(now)

        async def write(tx: Tx) -> None:
            await self._q(tx).run(
                "INSERT INTO guild_records (guild_id, max_away_days, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET max_away_days = excluded.max_away_days,"
                " updated_at = excluded.updated_at",
                guild_id,
                days,
                at,
            )

        await self._db.write(write)


async def _put_stats(q: _Sql, stats: Iterable[MemberStats], *, insert: bool = False) -> None:
    """Write members' sums: over their rows (made first), or as new rows (``insert``)."""
    rows = [(s.guild_id, s.user_id, *_stats_values(s)) for s in stats]
    cols = [c.strip() for c in _STATS_COLS.split(",")] + ["ordinal"]
    if insert:
        marks = ", ".join("?" for _ in range(len(cols) + 2))
        await q.many(
            f"INSERT INTO member_stats (guild_id, user_id, {', '.join(cols)}) VALUES ({marks})",
            rows,
        )
        return
    sets = ", ".join(f"{c} = ?" for c in cols)
    await q.many(
        f"UPDATE member_stats SET {sets} WHERE guild_id = ? AND user_id = ?",
        [(*r[2:], r[0], r[1]) for r in rows],
    )


async def _games_left(q: _Sql, guild_id: int, users: list[int]) -> dict[int, int]:
    """Started games that were cancelled while they waited on the member's move."""
    marks = ", ".join("?" for _ in users)
    rows = await q.rows(
        "SELECT s.user_id, COUNT(*) FROM games g JOIN seats s ON s.game_id = g.id"
        " AND s.turn_index = g.to_move"
        f" WHERE g.guild_id = ? AND g.status = 'cancelled' AND s.user_id IN ({marks})"
        " AND g.started_at IS NOT NULL GROUP BY s.user_id",
        guild_id,
        *users,
    )
    return {int(r[0]): int(r[1]) for r in rows}
