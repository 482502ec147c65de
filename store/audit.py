"""Audit and repair: replay every game against its rows (``check-db``), rebuild broken ones."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from engine import IllegalChoice

from . import choicelog, codec
from .backend import ChoiceRow, GameRow, SnapshotRow, Tx
from .base import StoreBase
from .common import CHECKPOINT_EVERY, Corrupt, found, setup_of
from .errors import EditionMissing
from .models import GameCheck, SeatRecord
from .play import Evidence
from .verify import Verified, replay_rows, seat_problem, start_state, to_move

log = logging.getLogger("store")


class AuditMixin(StoreBase):
    async def verify_game(self, game_id: int, *, mark: bool = True) -> GameCheck:
        """Rebuild the game from setup + live choices (in a worker thread) and compare with
        everything stored beside them: the choice log's digests, the seats, every snapshot,
        the status. Any mismatch or unreadable row is reported in the result, never raised;
        with ``mark=True`` a failing game is marked 'broken'. A game whose content edition this
        bot lacks cannot be checked: it is reported (``missing_edition``), never marked."""
        rows: list[tuple[int, str, str]] = []
        try:
            check, rows = await self._verify(game_id)
        except Exception as exc:  # an unreadable row of any kind: report, don't raise
            # The type only: an engine error's text may quote a card.
            check = GameCheck(game_id, False, f"unreadable: {type(exc).__name__}")
        if check.rebuilt and mark:
            await self._rewrite_snapshots(game_id, check.moves, rows)
        if not check.ok and mark and check.missing_edition is None:
            try:

                async def status(tx: Tx) -> str | None:
                    game = await tx.game(game_id)
                    return None if game is None else game.status

                if await self._db.read(status) not in (None, "broken"):
                    await self.mark_broken(game_id, check.problem or "failed verification")  # type: ignore[attr-defined]
            except Exception:  # pragma: no cover - reporting must go on
                log.exception("could not mark game %s broken", game_id)
        return check

    async def _verify(self, game_id: int) -> tuple[GameCheck, list[tuple[int, str, str]]]:
        async def read(tx: Tx) -> tuple[Evidence, list[SnapshotRow]]:
            game = found(await tx.game(game_id))
            snaps = await tx.snapshots(game_id)
            ev = Evidence(
                game,
                await tx.seats(game_id),
                await tx.live_choices(game_id),
                {s.seq: s for s in snaps},
                None,
            )
            return ev, snaps

        ev, snaps = await self._db.read(read)
        rebuilt: list[tuple[int, str, str]] = []
        return await asyncio.to_thread(_check, ev, snaps, rebuilt), rebuilt

    async def _rewrite_snapshots(
        self, game_id: int, seq: int, rows: list[tuple[int, str, str]]
    ) -> None:
        """Put rebuilt older snapshots in place of damaged ones (if the game has not moved)."""
        fixed = {r[0]: r for r in rows}

        async def rewrite(tx: Tx) -> None:
            game = await tx.game(game_id, lock=True)
            if game is None or game.seq != seq:
                return
            keep = [
                fixed.get(s.seq, (s.seq, s.state, s.digest)) for s in await tx.snapshots(game_id)
            ]
            await tx.replace_snapshots(game_id, keep, self._at(None))

        await self._db.write(rewrite)
        log.warning("game %s: damaged older snapshots %s rebuilt", game_id, sorted(fixed))

    async def repair_game(self, game_id: int, *, now: datetime | None = None) -> GameCheck:
        """Rebuild a game's snapshots from seed + live choices (the source of truth) and put
        it back: status restored to what it was before it broke ('finished' if the rebuilt
        game is over). Only if every choice replays cleanly, the choice log's digests hold
        and the seats fit the setup; otherwise the game is left as it is and the failing
        GameCheck says why. Returns the verification after the repair."""
        at = self._at(now)
        self._verified.forget(game_id)

        async def rebuild(tx: Tx) -> GameCheck | None:
            game = found(await tx.game(game_id, lock=True))
            if game.setup is None:
                return GameCheck(game_id, False, "never started: nothing to rebuild")
            rows = await tx.live_choices(game_id)
            try:
                keep, verified, fill, over = _rebuild(game, rows, await tx.seats(game_id))
            except Corrupt as exc:
                return GameCheck(game_id, False, str(exc))
            except EditionMissing as exc:
                return _missing(game_id, exc)
            if fill:
                await tx.fill_choice_digests(game_id, fill)
            await tx.replace_snapshots(game_id, keep, at)
            if over:
                status = "finished"
            elif game.status == "broken":
                status = (
                    game.broken_from if game.broken_from in ("active", "cancelled") else "active"
                )
            else:
                status = "cancelled" if game.status == "cancelled" else "active"
            await tx.update_game(
                game_id,
                seq=len(rows),
                status=status,
                broken_reason=None,
                broken_from=None,
                log_digest=verified.log_digest,
                to_move=verified.to_move,
                updated_at=at,
                finished_at=(game.finished_at or at)
                if status in ("finished", "cancelled")
                else None,
            )
            return None

        failed = await self._db.write(rebuild)
        if failed is not None:
            return failed
        log.warning("game %s repaired from its seed and choices", game_id)
        return await self.verify_game(game_id, mark=False)

    async def integrity_check(self) -> list[str]:
        """The database's own checks (SQLite: integrity_check and foreign_key_check); an empty
        list means all good."""

        async def check(tx: Tx) -> list[str]:
            return await tx.integrity_problems()

        return await self._db.read(check)


def _check(
    ev: Evidence, snaps: list[SnapshotRow], rebuilt: list[tuple[int, str, str]]
) -> GameCheck:
    """The game's check; damaged older snapshots are added to ``rebuilt`` rebuilt (seq, text,
    digest): the check is OK if they are all that is wrong."""
    game = ev.game
    if game.setup is None:
        if ev.choices or snaps:
            return GameCheck(game.id, False, "choices or snapshots for a game never started")
        return GameCheck(game.id, True)
    try:
        replayed = replay_rows(
            game, ev.choices, ev.seats, ev.snapshots, all_snapshots=True, rebuilt=rebuilt
        )
    except Corrupt as exc:
        return GameCheck(game.id, False, str(exc))
    except EditionMissing as exc:
        return _missing(game.id, exc)
    seq = game.seq
    if any(s.seq > seq for s in snaps):
        return GameCheck(game.id, False, "a snapshot is newer than the last choice", seq)
    over = replayed.state.is_over
    if game.status == "finished" and not over:
        return GameCheck(game.id, False, "marked finished but the game is not over", seq)
    if game.status == "active" and over:
        return GameCheck(game.id, False, "marked active but the game is over", seq)
    if game.status == "broken":
        return GameCheck(game.id, False, f"marked broken: {game.broken_reason}", seq)
    return GameCheck(game.id, True, None, seq, rebuilt=tuple(r[0] for r in rebuilt))


def _missing(game_id: int, exc: EditionMissing) -> GameCheck:
    problem = f"needs the edition {exc.edition!r}, which this bot does not have (not checked)"
    return GameCheck(game_id, False, problem, missing_edition=exc.edition)


def _rebuild(
    game: GameRow, rows: list[ChoiceRow], seats: list[SeatRecord]
) -> tuple[list[tuple[int, str, str]], Verified, list[tuple[int, str]], bool]:
    """Snapshots to keep (first, checkpoints, latest), what is then verified, digests to
    fill in on old rows, and whether the game is over. Raises Corrupt if the rows can't be
    trusted."""
    if [r.seq for r in rows] != list(range(len(rows))):
        raise Corrupt("the live choices are not numbered 0..n-1")
    state = start_state(setup_of(game))
    problem = seat_problem(seats, state.seat_names, game.seats_digest)
    if problem:
        raise Corrupt(problem)
    log_digest = choicelog.start_digest(game.setup or "")
    keep = [(0, *codec.encode(state))]
    fill = []
    for r in rows:
        decision = state.decision
        if decision is None or decision.player != r.seat:
            raise Corrupt(f"choice {r.seq} was made by the wrong seat")
        try:
            state.apply(r.choice_id)
        except IllegalChoice as exc:
            raise Corrupt(f"choice {r.seq} is illegal") from exc
        except Exception as exc:
            raise Corrupt(f"choice {r.seq} cannot be replayed ({type(exc).__name__})") from exc
        log_digest = choicelog.next_digest(log_digest, r.seq, r.seat, r.choice_id)
        if r.digest is None:
            fill.append((r.id, log_digest))
        elif r.digest != log_digest:
            raise Corrupt(
                f"the choice log is damaged at choice {r.seq} (its digest differs):"
                " restore the database from a backup"
            )
        n = r.seq + 1
        if n == len(rows) or (n % CHECKPOINT_EVERY == 0 and not state.is_over):
            keep.append((n, *codec.encode(state)))
    verified = Verified(len(rows), log_digest, keep[-1][2], to_move(state))
    return keep, verified, fill, state.is_over
