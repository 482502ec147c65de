"""The game service the cogs share: showing a game in its thread, playing moves, AI seats.

One object per bot (``bot.ada.games``), made by ``cogs.setup_service``. The cogs turn slash commands
and clicks into calls here; nothing here answers an interaction (the cogs do), so every cog can
use it without importing another cog. A click's ``ClickAnswer`` (``cogs.clicks``) may be passed
down, so that the turn message's edit is the click's answer: one REST call instead of two.

The turn message: one message per turn in the game's thread. It is edited in place while the
same player decides, and posted anew (mentioning the player: the turn ping) when the turn passes;
the previous one then shrinks to a one-line record of what that turn played. Every version is
recorded with ``store.record_message(game, "turn", ...)`` with the sequence number it shows, so
a restarted bot knows whether the thread is up to date.
"""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import os
import socket
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import discord

import i18n
from cogs import ai_worker, media, ui
from cogs.clicks import ClickAnswer
from cogs.config import BotConfig
from engine import GameState, IllegalChoice
from engine.state import Choice
from i18n import N_, Lang
from i18n import game as words
from store import GameRecord, NotYourTurn, StaleMove, Store

log = logging.getLogger(__name__)

POST_ATTEMPTS = 3
AI_LEASE = timedelta(minutes=10)  # how long a process may take over an AI turn before others may
RETRY_DELAYS = (0.25, 1.0)
LANGUAGE_TTL = 300.0  # seconds a member's language setting is kept in memory


class Oops(Exception):
    """A user-facing problem, answered privately in the asker's language: an English message
    (a catalog id) and its fields. ``str()`` is the English text."""

    def __init__(self, message: str, **fields: Any) -> None:
        self.template = message
        self.fields = fields
        super().__init__(message.format(**fields) if fields else message)

    def said(self, tr: Lang) -> str:
        return tr._(self.template, **self.fields)


class PublishError(Exception):
    """The turn message could not be posted or edited (after retries)."""


@dataclass(slots=True)
class Shown:
    """What a game's current turn message shows, so an unchanged image is not uploaded again.

    Edits of the turn message within a turn are not written to the database (a click is then
    one commit, the move's): after a restart the bot cannot tell how far the message got, and
    edits it once more to the stored state (``bring_up_to_date``)."""

    message_id: int
    image_key: str | None
    attachment: discord.Attachment | None
    seq: int  # the decision it shows (the database records it only when the message is new)


@dataclass(frozen=True, slots=True)
class Played:
    old: GameState
    new: GameState
    choice: Choice | None  # the choice made (None: an undo)
    shown: bool  # the thread shows the new state (False: saved, but the message update failed)

    def label(self, tr: Lang) -> str:
        """The choice made, in a language (as offered in ``old``)."""
        if self.choice is None:
            return ""
        dec = self.old.decision
        assert dec is not None
        return words.label(tr, self.old, dec, self.choice)


STATUS_TEXT = {
    "lobby": N_("Game #{id} hasn't started yet."),
    "finished": N_("Game #{id} is over: see `/ada final`."),
    "cancelled": N_("Game #{id} was cancelled."),
    "broken": N_(
        "Game #{id}'s saved data is damaged, so it is paused. A server admin can run "
        "`./scripts/run check-db` on the bot's host."
    ),
}


def status_problem(rec: GameRecord, wanted: tuple[str, ...]) -> Oops | None:
    """Why a command for games in ``wanted`` states can't be used on ``rec`` now (or None)."""
    if rec.status in wanted:
        return None
    if rec.status == "active":
        if wanted == ("finished",):
            return Oops(
                "Game #{id} is still being played: the scorepad comes at the end. "
                "`/ada score` shows the score so far.",
                id=rec.id,
            )
        return Oops("Game #{id} has already started.", id=rec.id)
    return Oops(
        STATUS_TEXT.get(rec.status, N_("Game #{id} isn't being played right now.")), id=rec.id
    )


def game_lang(rec: GameRecord) -> Lang:
    """The language of a game's thread: chosen when it was created (games from before there
    was a choice are in English)."""
    return i18n.get(rec.options.get("language") or "en")


class GameService:
    def __init__(self, bot: discord.Client, config: BotConfig) -> None:
        self.bot = bot
        self.cfg = config
        assert config.store is not None
        self.store: Store = config.store
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.images = media.Images(config.images)
        self.ai_tasks: dict[int, asyncio.Task[None]] = {}
        self.shown: dict[int, Shown] = {}
        self.stale: set[int] = set()  # games whose thread could not be updated after a move
        self._ai_pool: ProcessPoolExecutor | None = None
        self._languages: dict[int, tuple[str | None, float]] = {}
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        """This process's name in the database's claims of reminders and AI turns."""

    def now(self) -> Any:
        return self.cfg.now()

    async def user_language(self, user_id: int) -> str | None:
        """A member's own language setting (None: follow their Discord client), kept a few
        minutes in memory: every private answer asks."""
        now = time.monotonic()
        kept = self._languages.get(user_id)
        if kept is not None and now - kept[1] < LANGUAGE_TTL:
            return kept[0]
        chosen = (await self.store.user_settings(user_id)).language
        self._languages[user_id] = (chosen, now)
        return chosen

    def forget_language(self, user_id: int) -> None:
        self._languages.pop(user_id, None)

    async def dm_lang(self, rec: GameRecord, user_id: int) -> Lang:
        """The language of a direct message about a game: the member's own setting, else the
        game's (a DM has no Discord client language to follow)."""
        chosen = await self.user_language(user_id)
        return i18n.get(chosen) if chosen else game_lang(rec)

    # ------------------------------------------------------------------ Discord plumbing

    async def channel(self, channel_id: int) -> Any:
        ch = self.bot.get_channel(channel_id)
        if ch is None:
            ch = await self.bot.fetch_channel(channel_id)
        return ch

    async def current_link(self, rec: GameRecord) -> str:
        msg = await self.store.latest_message(rec.id, "turn")
        if msg is None:
            return f"<#{rec.thread_id or rec.channel_id}>"
        return ui.jump_url(rec.guild_id, msg.channel_id, msg.message_id)

    async def retrying(self, what: str, make_call: Callable[[], Awaitable[Any]]) -> Any:
        """Call ``make_call()`` (a fresh coroutine each time), retrying server errors a few times."""
        for attempt in range(POST_ATTEMPTS):
            try:
                return await make_call()
            except (discord.Forbidden, discord.NotFound):
                raise
            except (discord.HTTPException, OSError) as exc:
                if attempt == POST_ATTEMPTS - 1:
                    raise
                delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
                log.warning("%s failed (%s); retry %d in %.2fs", what, exc, attempt + 1, delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def announce(self, rec: GameRecord, text: str) -> None:
        """A line in the game's thread, mentioning nobody (best effort)."""
        try:
            channel = await self.channel(rec.thread_id or rec.channel_id)
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("game %s: could not post %r: %s", rec.id, text[:40], exc)

    # ------------------------------------------------------------------ the turn message

    async def publish_turn(
        self,
        rec: GameRecord,
        state: GameState,
        seq: int,
        *,
        how: str = "edit",
        note: str | None = None,
        ping: bool = True,
        answer: ClickAnswer | None = None,
    ) -> discord.Message:
        """Show the current decision. ``how``: "edit" the turn message in place (same player);
        "pass": the turn passed, so the old message becomes the record of its turn and a new one
        is posted (mentioning the player: the turn ping); "again": post the same turn anew at the
        bottom of the thread. ``answer``: the click on the turn message that led here, answered
        with the message's edit if still in time (one REST call instead of two)."""
        assert how in ("edit", "pass", "again")
        dec = state.decision
        assert dec is not None
        tr = game_lang(rec)
        image = await self.images.get("focus", state, None, lang=tr.code)
        prev = await self.store.latest_message(rec.id, "turn")
        shown = self.shown.get(rec.id)
        layout = ui.turn_layout(
            rec, state, seq, image=image and image.data and image.filename, tr=tr, note=note
        )
        seat = rec.seat_at(dec.player)
        pinged = seat is not None and not seat.is_ai and seat.user_id is not None and ping
        mentions = (
            discord.AllowedMentions(users=[discord.Object(seat.user_id)])  # type: ignore[union-attr]
            if pinged
            else discord.AllowedMentions.none()
        )

        def attachments(keep: bool) -> list[Any]:
            if image is None or image.data is None:
                return []
            if keep and shown is not None and shown.attachment is not None:
                return [shown.attachment]
            return [discord.File(io.BytesIO(image.data), filename=image.filename)]

        try:
            channel = await self.channel(rec.thread_id or rec.channel_id)
            if prev is not None and how == "edit":
                same_image = (
                    shown is not None
                    and shown.message_id == prev.message_id
                    and image is not None
                    and shown.image_key == image.key
                )
                partial = channel.get_partial_message(prev.message_id)
                edit = dict(
                    content=None,
                    embeds=[],
                    view=layout,
                    attachments=attachments(same_image),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                try:
                    msg = answer and await answer.edit_message(prev.message_id, **edit)
                    if not msg:
                        msg = await self.retrying(
                            f"editing the turn message of game {rec.id}",
                            lambda: partial.edit(**edit),
                        )
                    await self._shown(rec, msg, image, seq, posted=False)
                    return msg
                except discord.NotFound:
                    log.warning("game %s: the turn message is gone; posting a new one", rec.id)
            if prev is not None and how == "pass":
                await self.shrink(rec, state, prev.channel_id, prev.message_id, answer)
            elif prev is not None:
                await self.retire(
                    rec,
                    prev.channel_id,
                    prev.message_id,
                    tr._("-# This turn is posted again below."),
                )
            msg = await self.retrying(
                f"posting the turn message of game {rec.id}",
                lambda: channel.send(
                    view=layout, files=attachments(False), allowed_mentions=mentions
                ),
            )
            await self._shown(rec, msg, image, seq, posted=True)
            return msg
        except discord.HTTPException as exc:
            log.error("game %s: could not show decision %s: %s", rec.id, seq, exc)
            raise PublishError(str(exc)) from exc

    async def _shown(
        self,
        rec: GameRecord,
        msg: discord.Message,
        image: media.Image | None,
        seq: int,
        *,
        posted: bool,
    ) -> None:
        attachment = msg.attachments[0] if msg.attachments else None
        self.shown[rec.id] = Shown(msg.id, image.key if image else None, attachment, seq)
        if posted:  # a new message: the database must know it (an edit keeps the same one)
            await self.store.record_message(
                rec.id, "turn", msg.channel.id, msg.id, seq, now=self.now()
            )
        self.stale.discard(rec.id)

    async def shrink(
        self,
        rec: GameRecord,
        state: GameState,
        channel_id: int,
        message_id: int,
        answer: ClickAnswer | None = None,
    ) -> None:
        """An old turn message becomes the record of the turn it was about: one line, no controls."""
        tr = game_lang(rec)
        turn = ui.finished_turn(state)
        text = (
            ui.record_text(state, turn, tr)
            if turn
            else tr._("-# Game #{id}: this turn is over.", id=rec.id)
        )
        await self.retire(
            rec, channel_id, message_id, text, ui.seat_colour(turn.seat) if turn else None, answer
        )

    async def retire(
        self,
        rec: GameRecord,
        channel_id: int,
        message_id: int,
        text: str,
        colour: int | None = None,
        answer: ClickAnswer | None = None,
    ) -> None:
        """Replace a message's picture and controls by a line of text (best effort; as the
        answer to ``answer``'s click when that was on this message)."""
        edit = dict(
            content=None,
            embeds=[],
            attachments=[],
            view=ui.text_layout(text, colour=colour),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        try:
            if not (answer and await answer.edit_message(message_id, **edit)):
                channel = await self.channel(channel_id)
                await channel.get_partial_message(message_id).edit(**edit)
        except discord.HTTPException as exc:
            log.info("could not retire old message %s: %s", message_id, exc)
        shown = self.shown.get(rec.id)
        if shown is not None and shown.message_id == message_id:
            del self.shown[rec.id]

    async def publish_final(
        self, rec: GameRecord, state: GameState, answer: ClickAnswer | None = None
    ) -> None:
        prev = await self.store.latest_message(rec.id, "turn")
        if prev is not None:
            await self.shrink(rec, state, prev.channel_id, prev.message_id, answer)
        tr = game_lang(rec)
        pad = await self.images.get("scorepad", state, lang=tr.code)
        data = pad.data if pad else None
        embed = ui.final_embed(rec, state, "scorepad.png" if data else None, tr)
        mentions = " ".join(ui.mention_of(s, tr) for s in rec.seats_in_turn_order if not s.is_ai)
        try:
            channel = await self.channel(rec.thread_id or rec.channel_id)
            msg = await self.retrying(
                f"posting the final scores of game {rec.id}",
                lambda: channel.send(
                    content=tr._("Game over! {mentions}", mentions=mentions).strip(),
                    embed=embed,
                    files=[discord.File(io.BytesIO(data), "scorepad.png")] if data else [],
                ),
            )
            await self.store.record_message(
                rec.id, "final", channel.id, msg.id, len(state.history), now=self.now()
            )
            self.stale.discard(rec.id)
        except discord.HTTPException as exc:
            log.error("game %s: could not post the final scores: %s", rec.id, exc)
            raise PublishError(str(exc)) from exc

    async def after_change(
        self,
        rec: GameRecord,
        old: GameState | None,
        new: GameState,
        seq: int,
        *,
        from_ai: bool = False,
        note: str | None = None,
        schedule: bool = True,
        answer: ClickAnswer | None = None,
    ) -> None:
        """The game changed (a move, an undo, a start): update the thread, plan the reminder,
        let an AI seat play. Call with the game's lock held. ``answer``: the click on the turn
        message that changed it."""
        if new.is_over:
            await self.publish_final(rec, new, answer)
            return
        dec = new.decision
        assert dec is not None
        old_dec = old.decision if old is not None else None
        turn_passed = old_dec is None or old_dec.player != dec.player
        try:
            await self.publish_turn(
                rec, new, seq, how="pass" if turn_passed else "edit", note=note, answer=answer
            )
        finally:
            if schedule:
                await self.schedule_reminder(rec, new, seq)
            if not from_ai:
                self.kick_ai(rec.id)

    async def repair(self, game_id: int) -> None:
        """Bring a game's thread up to date if an earlier update failed (call without the lock)."""
        if game_id not in self.stale:
            return
        async with self.locks[game_id]:
            if game_id not in self.stale:
                return
            try:
                await self.bring_up_to_date(await self.store.get_game(game_id))
                self.stale.discard(game_id)
            except Exception:
                log.warning("game %s: the thread is still out of date", game_id, exc_info=True)

    async def bring_up_to_date(self, rec: GameRecord) -> None:
        """Make the thread show the stored state (after a restart or a failed update). Call
        with the game's lock held."""
        state, seq = await self.store.load_state(rec.id)
        if state.is_over:
            if await self.store.latest_message(rec.id, "final") is None:
                await self.publish_final(rec, state)
            return
        mine = self.shown.get(rec.id)  # what this process last showed, if it did
        if mine is not None and mine.seq == seq:
            return
        record = await self.store.latest_message(rec.id, "turn")
        shown = mine.seq if mine is not None else record.seq if record is not None else None
        log.info("game %s: the thread shows move %s, the game is at %s", rec.id, shown, seq)
        dec = state.decision
        assert dec is not None
        passed = shown is None or await self.player_at(rec.id, shown) != dec.player
        await self.publish_turn(rec, state, seq, how="pass" if passed else "edit", ping=passed)

    async def player_at(self, game_id: int, seq: int) -> int | None:
        """Who was deciding after the first ``seq`` moves (a replay, off the event loop)."""
        from engine import replay

        setup = await self.store.load_setup(game_id)
        choices = [c.choice_id for c in await self.store.choices(game_id)][:seq]
        state = await asyncio.to_thread(replay, setup, choices)
        dec = state.decision
        return dec.player if dec is not None else None

    # ------------------------------------------------------------------ moves

    async def check_turn(
        self, user_id: int, rec: GameRecord, seq: int | None
    ) -> tuple[GameState, int, int]:
        """(state, seq, seat) if the user may decide now; raises Oops otherwise."""
        problem = status_problem(rec, ("active",))
        if problem:
            raise problem
        seat = rec.seat_of(user_id)
        if seat is None:
            raise Oops("You're not playing in game #{id}.", id=rec.id)
        state, current = await self.store.load_state(rec.id)
        if seq is not None and seq != current:
            raise Oops(
                "That message is out of date: the game has moved on. The current turn: {link}",
                link=await self.current_link(rec),
            )
        dec = state.decision
        if dec is None:
            raise Oops("Game #{id} is over: see `/ada final`.", id=rec.id)
        if dec.player != seat:
            waiting = rec.seat_at(dec.player)
            raise Oops("It's not your turn: waiting for {name}.", name=ui.seat_name(waiting))
        return state, current, seat

    async def play(
        self,
        user_id: int,
        rec: GameRecord,
        seq: int | None,
        *,
        idx: int | None = None,
        choice_id: str | None = None,
        answer: ClickAnswer | None = None,
    ) -> Played:
        """Apply a choice for a user. Once the store has committed, the move counts whatever
        happens next: a failure to update the thread is reported in ``Played.shown`` and
        repaired on the game's next event. ``answer``: the click on the turn message, answered
        with the updated message when it is ready in time."""
        await self.repair(rec.id)
        async with self.locks[rec.id]:
            rec = await self.store.get_game(rec.id)
            state, current, seat = await self.check_turn(user_id, rec, seq)
            dec = state.decision
            assert dec is not None
            if choice_id is None:
                if idx is None or not 0 <= idx < len(dec.choices):
                    raise IllegalChoice(f"no choice {idx}")
                choice = dec.choices[idx]
            else:
                matches = [c for c in dec.choices if c.id == choice_id]
                if not matches:
                    raise IllegalChoice(choice_id)
                choice = matches[0]
            try:
                new = await self.store.apply_choice(
                    rec.id, current, seat, choice.id, now=self.now(), remind=True
                )
            except StaleMove:
                raise Oops(
                    "That was already played (double click?). The current turn: {link}",
                    link=await self.current_link(rec),
                ) from None
            except NotYourTurn:
                raise Oops("It's not your turn.") from None
            shown = await self._after_commit(rec, state, new, current + 1, answer=answer)
            return Played(state, new, choice, shown)

    async def _after_commit(
        self,
        rec: GameRecord,
        old: GameState,
        new: GameState,
        seq: int,
        note: str | None = None,
        answer: ClickAnswer | None = None,
    ) -> bool:
        try:  # (the move's transaction scheduled the next reminder)
            await self.after_change(rec, old, new, seq, note=note, schedule=False, answer=answer)
            return True
        except Exception:
            log.exception(
                "game %s: move %s saved, but the thread could not be updated", rec.id, seq
            )
            self.stale.add(rec.id)
            return False

    async def undo(
        self, user_id: int, rec: GameRecord, seq: int | None, answer: ClickAnswer | None = None
    ) -> Played:
        from store import CannotUndo

        await self.repair(rec.id)
        async with self.locks[rec.id]:
            rec = await self.store.get_game(rec.id)
            state, current, seat = await self.check_turn(user_id, rec, seq)
            if not state.can_undo():
                raise CannotUndo(
                    "There is nothing you can take back now "
                    "(undo stops at the last dice roll, card draw or reveal)."
                )
            try:
                new = await self.store.undo(rec.id, current, seat, now=self.now(), remind=True)
            except StaleMove:
                raise Oops("That was already done (double click?).") from None
            shown = await self._after_commit(
                rec,
                state,
                new,
                current - 1,
                note=N_("The last move was taken back."),
                answer=answer,
            )
            return Played(state, new, None, shown)

    # ------------------------------------------------------------------ reminders (planning)

    async def reminder_hours(self, rec: GameRecord, user_id: int) -> tuple[bool, float]:
        enabled, _mode, hours = await self.store.reminder_policy(rec.guild_id, user_id)
        game_hours = rec.options.get("reminder_hours")
        if isinstance(game_hours, int | float) and game_hours > 0:
            hours = float(game_hours)
        return enabled, hours

    async def schedule_reminder(self, rec: GameRecord, state: GameState, seq: int) -> None:
        """Plan the first reminder for the human who must decide now (the store cancelled the
        previous one when the move was applied)."""
        dec = state.decision
        if dec is None:
            return
        seat = rec.seat_at(dec.player)
        if seat is None or seat.is_ai or seat.user_id is None:
            return
        try:
            enabled, hours = await self.reminder_hours(rec, seat.user_id)
            if enabled:
                due = self.now() + timedelta(hours=hours)
                await self.store.schedule_reminder(rec.id, seat.user_id, due, seq, now=self.now())
        except Exception:
            log.exception("could not schedule a reminder for game %s", rec.id)

    # ------------------------------------------------------------------ AI seats

    def kick_ai(self, game_id: int) -> None:
        """Start the AI runner of a game if an AI seat is to play (no-op otherwise)."""
        task = self.ai_tasks.get(game_id)
        if task is not None and not task.done():
            return
        self.ai_tasks[game_id] = asyncio.get_running_loop().create_task(
            self._ai_loop(game_id), name=f"ada-ai-{game_id}"
        )

    def stop_ai(self, game_id: int) -> None:
        task = self.ai_tasks.pop(game_id, None)
        if task is not None:
            task.cancel()

    async def ai_choices(self, state: GameState, policy: str | None, seed: int) -> list[str]:
        """The AI's whole turn, thought out in the AI process pool (or a thread without one)."""
        loop = asyncio.get_running_loop()
        pool = self.ai_pool()
        if pool is None:
            return await asyncio.to_thread(ai_worker.turn_choices, state.to_json(), policy, seed)
        return await loop.run_in_executor(
            pool, ai_worker.turn_choices, state.to_json(), policy, seed
        )

    def ai_pool(self) -> ProcessPoolExecutor | None:
        """Worker processes for AI thinking, started on first use (``BotConfig.ai_workers``)."""
        if self._ai_pool is None and self.cfg.ai_workers > 0:
            self._ai_pool = ProcessPoolExecutor(
                max_workers=self.cfg.ai_workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._ai_pool

    def close(self) -> None:
        for task in self.ai_tasks.values():
            task.cancel()
        if self._ai_pool is not None:
            self._ai_pool.shutdown(wait=False, cancel_futures=True)
            self._ai_pool = None

    async def _ai_loop(self, game_id: int) -> None:
        """Play AI seats' turns while it is an AI seat's turn, each claimed in the database
        first, so that of several bot processes exactly one plays it."""
        try:
            while True:
                rec = await self.store.get_game(game_id)
                if rec.status != "active" or not self.owns(rec.guild_id):
                    return
                seq = await self.store.claim_ai_turn(game_id, self.owner, AI_LEASE, now=self.now())
                if seq is None:
                    return  # not an AI seat's turn, or another process plays it
                try:
                    if self.cfg.ai_delay > 0:
                        await asyncio.sleep(self.cfg.ai_delay)
                    state, now_seq = await self.store.load_state(game_id)
                    dec = state.decision
                    seat = rec.seat_at(dec.player) if dec else None
                    if now_seq == seq and seat is not None and seat.is_ai:
                        await self.play_turn_by_ai(rec, state, seq, seat.ai_policy)
                finally:
                    await self.store.release_ai_turn(game_id, self.owner)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the AI of game %s stopped", game_id)

    async def sweep_ai_turns(self) -> None:
        """Take up AI turns nobody is playing (a process died while its AI was thinking)."""
        for game_id, _seq in await self.store.claim_waiting_ai_turns(self.owner, now=self.now()):
            rec = await self.store.get_game(game_id)
            if self.owns(rec.guild_id):
                self.kick_ai(game_id)  # claims again as the same owner: renews the lease
            else:
                await self.store.release_ai_turn(game_id, self.owner)

    def owns(self, guild_id: int) -> bool:
        """Does this process serve the guild (runs its Discord shard)?"""
        count, ids = self.cfg.shard_count, self.cfg.shard_ids
        if not count or ids is None:
            return True
        return (guild_id >> 22) % count in ids

    async def play_turn_by_ai(
        self, rec: GameRecord, state: GameState, seq: int, policy: str | None
    ) -> GameState | None:
        """Play the current player's whole turn with an AI policy: used by AI seats and by a
        stand-in for an absent human. The AI thinks without holding the game's lock; its
        choices are applied only if the game is still where it thought (else None)."""
        dec = state.decision
        assert dec is not None
        seed = ((rec.seed or 0) * 1_000_003 + seq) & ((1 << 62) - 1)
        ids = await self.ai_choices(state, policy, seed)
        async with self.locks[rec.id]:
            now_state, now_seq = await self.store.load_state(rec.id)
            if now_seq != seq:
                return None  # someone moved meanwhile (an undo, a stand-in): think again
            new, cur = now_state, seq
            for choice_id in ids:
                d = new.decision
                if d is None or d.player != dec.player:
                    break
                new = await self.store.apply_choice(
                    rec.id, cur, dec.player, choice_id, now=self.now(), remind=True
                )
                cur += 1
            if cur == seq:  # the policy gave nothing usable: play one random choice
                pick = self.cfg.rng.choice(dec.choices).id
                new = await self.store.apply_choice(
                    rec.id, cur, dec.player, pick, now=self.now(), remind=True
                )
                cur += 1
            try:
                await self.after_change(rec, now_state, new, cur, from_ai=True, schedule=False)
            except Exception:
                log.exception("game %s: AI turn saved, but the thread could not be updated", rec.id)
                self.stale.add(rec.id)
            return new
