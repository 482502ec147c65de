"""Games and the lobby: create, seat, start, cancel, find."""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from engine import GameSetup, GameState, new_game
from engine.edition import EditionError

from . import choicelog, codec
from .backend import ActiveGame, GameRow, Tx, statuses_list
from .base import StoreBase
from .common import engine_options, found, game_record, options, require_lobby
from .errors import GameNotActive, LobbyError
from .models import OPEN_STATUSES, GameRecord, SeatRecord
from .verify import Verified, seats_digest, to_move

log = logging.getLogger("store")


class LobbyMixin(StoreBase):
    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        options: dict[str, Any] | None = None,
        *,
        now: datetime | None = None,
    ) -> int:
        """Create a game in 'lobby' status and return its id. ``options`` is any JSON-able
        dict, e.g. ``{"players": 3, "reminder_hours": 12}``; ``players`` caps the seats."""
        text = json.dumps(options or {}, sort_keys=True)
        at = self._at(now)

        async def create(tx: Tx) -> int:
            return await tx.insert_game(guild_id, channel_id, creator_id, text, at)

        return await self._db.write(create)

    async def set_thread(
        self, game_id: int, thread_id: int | None, *, now: datetime | None = None
    ) -> None:
        """Remember the thread the game is played in."""
        at = self._at(now)

        async def update(tx: Tx) -> None:
            found(await tx.game(game_id, lock=True))
            await tx.update_game(game_id, thread_id=thread_id, updated_at=at)

        await self._db.write(update)

    async def set_options(
        self, game_id: int, options: dict[str, Any], *, now: datetime | None = None
    ) -> None:
        """Replace the game's options (lobby only)."""
        text = json.dumps(options, sort_keys=True)
        at = self._at(now)

        async def update(tx: Tx) -> None:
            require_lobby(found(await tx.game(game_id, lock=True)))
            await tx.update_game(game_id, options=text, updated_at=at)

        await self._db.write(update)

    async def add_seat(
        self,
        game_id: int,
        *,
        name: str,
        user_id: int | None = None,
        is_ai: bool = False,
        ai_policy: str | None = None,
        colour: str | None = None,
        now: datetime | None = None,
    ) -> SeatRecord:
        """Seat a Discord user (``user_id``) or an AI (``is_ai=True``, ``user_id=None``).

        Names must be unique in a game (the engine maps seats by name): a clash gets a
        suffix (" 2", " 3"...); the returned SeatRecord has the name actually used.
        Raises LobbyError if the game has started, the user is already seated, or the
        game is full (``options['players']``).
        """
        if not is_ai and user_id is None:
            raise ValueError("a human seat needs a user_id")
        at = self._at(now)

        async def seat(tx: Tx) -> SeatRecord:
            game = found(await tx.game(game_id, lock=True))
            require_lobby(game)
            seats = await tx.seats(game_id)
            if user_id is not None and any(s.user_id == user_id for s in seats):
                raise LobbyError("You're already in this game.")
            cap = options(game).get("players")
            if isinstance(cap, int) and len(seats) >= cap:
                raise LobbyError("This game is full.")
            taken = {s.name for s in seats}
            final, n = name, 2
            while final in taken:
                final, n = f"{name} {n}", n + 1
            order = max((s.join_order for s in seats), default=-1) + 1
            record = SeatRecord(order, user_id, is_ai, ai_policy, final, colour, None)
            await tx.insert_seat(game_id, record)
            await tx.update_game(game_id, updated_at=at)
            return record

        return await self._db.write(seat)

    async def remove_seat(
        self,
        game_id: int,
        *,
        user_id: int | None = None,
        join_order: int | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Remove a seat (by user, or by ``join_order`` for AI seats) from a lobby.
        Returns False if there was no such seat."""
        if (user_id is None) == (join_order is None):
            raise ValueError("pass exactly one of user_id, join_order")
        at = self._at(now)

        async def remove(tx: Tx) -> bool:
            require_lobby(found(await tx.game(game_id, lock=True)))
            gone = await tx.delete_seat(game_id, user_id=user_id, join_order=join_order)
            if gone:
                await tx.update_game(game_id, updated_at=at)
            return gone

        return await self._db.write(remove)

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """Seats in join order (``turn_index`` set once started)."""

        async def read(tx: Tx) -> list[SeatRecord]:
            found(await tx.game(game_id))
            return await tx.seats(game_id)

        return await self._db.read(read)

    async def start_game(
        self, game_id: int, seed: int | None = None, *, now: datetime | None = None
    ) -> GameState:
        """Start a lobby game: build the engine ``GameSetup`` from the seats (names in join
        order; game options named like GameSetup fields, e.g. ``max_rounds``, are passed on),
        let the engine draw the turn order, record each seat's ``turn_index`` (and the
        engine's player colour unless the seat chose one), store the setup and the first
        snapshot. Returns the initial state.

        The content edition: the game's ``edition`` option if it has one, else the guild's
        setting (``set_guild_settings(edition=...)``), else the bot's default. The setup
        records it, and the game keeps it to the end.
        ``seed`` defaults to a random one. Raises LobbyError if not startable."""
        seed = secrets.randbits(62) if seed is None else seed
        at = self._at(now)

        async def start(tx: Tx) -> GameState:
            game = found(await tx.game(game_id, lock=True))
            require_lobby(game)
            seats = await tx.seats(game_id)
            names = [s.name for s in seats]
            chosen = engine_options(game)
            if "edition" not in chosen:
                guild = await tx.guild_settings(game.guild_id)
                if guild is not None and guild.edition:
                    chosen["edition"] = guild.edition
            try:
                setup = GameSetup(players=len(names), seed=seed, names=names, **chosen)
                state = new_game(setup)
            except EditionError as exc:
                # the detail names files of the host: the log's, not the players'
                log.error("game %s can't start: its edition can't be used: %s", game_id, exc)
                raise LobbyError(
                    "The game can't start: the bot can't load its edition of the cards and"
                    " board right now. The bot's operator can see why in its log."
                ) from exc
            except (ValueError, TypeError) as exc:
                raise LobbyError("The game can't start: {why}", why=exc) from exc
            order = list(state.seat_names)
            if sorted(order) != sorted(names):
                raise LobbyError("The game can't start: the engine returned different seats.")
            colours = [getattr(p, "colour", None) for p in getattr(state, "players", [])]
            started = []
            for s in seats:
                index = order.index(s.name)
                colour = s.colour or (colours[index] if index < len(colours) else None)
                await tx.set_seat_turn(game_id, s.join_order, index, colour)
                started.append(dataclasses.replace(s, turn_index=index, colour=colour))
            setup_text = json.dumps(setup.to_dict(), sort_keys=True)
            text, digest = codec.encode(state)
            verified = Verified(0, choicelog.start_digest(setup_text), digest, to_move(state))
            over = state.is_over
            await tx.update_game(
                game_id,
                status="finished" if over else "active",
                seed=seed,
                setup=setup_text,
                seq=0,
                log_digest=verified.log_digest,
                to_move=verified.to_move,
                started_at=at,
                updated_at=at,
                finished_at=at if over else None,
                seats_digest=seats_digest(started),
            )
            await tx.replace_snapshots(game_id, [(0, text, digest)], at)
            tx.after_commit(lambda: self._verified.put(game_id, verified, state))
            return state

        return codec.copy(await self._db.write(start))

    async def cancel_game(self, game_id: int, *, now: datetime | None = None) -> None:
        """Cancel a lobby or active game (idempotent); pending reminders are cancelled.
        Raises GameNotActive if it already finished."""
        at = self._at(now)

        async def cancel(tx: Tx) -> None:
            game = found(await tx.game(game_id, lock=True))
            if game.status == "cancelled":
                return
            if game.status == "finished":
                raise GameNotActive("This game is already over.")
            await tx.update_game(game_id, status="cancelled", updated_at=at, finished_at=at)
            await tx.cancel_reminders(game_id, None)
            await tx.delete_ai_claim(game_id, None)

        await self._db.write(cancel)

    # ------------------------------------------------------------------ finding games

    async def get_game(self, game_id: int) -> GameRecord:
        """The game's record with its seats. Raises GameNotFound. A game in play whose seats
        are not the ones it started with is set aside first (see ``_checked``)."""

        async def read(tx: Tx) -> tuple[GameRow, list[SeatRecord]]:
            return found(await tx.game(game_id)), await tx.seats(game_id)

        return await self._checked(*await self._db.read(read))

    async def _checked(self, game: GameRow, seats: list[SeatRecord]) -> GameRecord:
        """The record of a game as read, after checking its seats against the digest recorded
        at its start: a changed user id would let another member read that hand and play its
        turns, a flipped AI flag let an AI play a person's seat. Such a game is marked broken
        (and comes back so): every command then refuses it."""
        if (
            game.status == "active"
            and game.seats_digest is not None
            and seats_digest(seats) != game.seats_digest
        ):
            reason = "the seat rows are not the ones the game started with (a player or an AI flag)"
            await self.mark_broken(game.id, reason)
            game = dataclasses.replace(game, status="broken", broken_reason=reason)
        elif game.status == "broken":  # set aside earlier (by check-db, say)
            self._set_aside(game.id, "broken")
        return game_record(game, seats)

    async def game_in_thread(self, thread_id: int) -> GameRecord | None:
        """The game played in this thread (the newest, should there be several), or None: one
        index lookup however many games the channel has had."""

        async def read(tx: Tx) -> tuple[GameRow, list[SeatRecord]] | None:
            game = await tx.game_in_thread(thread_id)
            return None if game is None else (game, await tx.seats(game.id))

        found_here = await self._db.read(read)
        return None if found_here is None else await self._checked(*found_here)

    async def active_games(self) -> list[ActiveGame]:
        """Every active game with what its thread shows (for a restart), in one statement."""

        async def read(tx: Tx) -> list[ActiveGame]:
            return await tx.active_games()

        return await self._db.read(read)

    async def games_in_channel(
        self, channel_id: int, statuses: Iterable[str] | None = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games whose channel or thread is ``channel_id`` (default: lobby and active ones;
        ``statuses=None`` for all), oldest first."""
        return await self._find("channel", channel_id, statuses)

    async def games_in_guild(
        self, guild_id: int, statuses: Iterable[str] | None = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games of a guild (default: lobby and active), oldest first. Two queries however
        many games there are."""
        return await self._find("guild", guild_id, statuses)

    async def games_for_user(
        self, user_id: int, statuses: Iterable[str] | None = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games where the user has a seat (default: lobby and active), oldest first."""
        return await self._find("user", user_id, statuses)

    async def games_created(self, guild_id: int, creator_id: int, since: datetime) -> int:
        """How many games a member created in a guild since ``since``, whatever became of them
        (started, finished, cancelled): the flood limit counts these."""

        async def read(tx: Tx) -> int:
            return await tx.games_created(guild_id, creator_id, since)

        return await self._db.read(read)

    async def game_ids(self, statuses: Iterable[str] | None = None) -> list[int]:
        """All game ids (optionally filtered by status), ascending."""
        st = statuses_list(statuses)

        async def read(tx: Tx) -> list[int]:
            return await tx.game_ids(st)

        return await self._db.read(read)

    async def _find(self, by: str, key: int, statuses: Iterable[str] | None) -> list[GameRecord]:
        st = statuses_list(statuses)

        async def read(tx: Tx) -> list[tuple[GameRow, list[SeatRecord]]]:
            return await tx.find_games(by, key, st)

        return [await self._checked(g, seats) for g, seats in await self._db.read(read)]
