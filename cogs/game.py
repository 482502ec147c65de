"""The ``/ada`` command group, the component handlers, the turn message, the AI seats and the
reminders: everything the bot does for a game of Ada's Dream.

The turn message: one message per turn in the game's thread. It is edited in place while the
same player decides, and re-posted (mentioning the player: the turn ping) when the turn passes
to someone else; the previous turn message keeps its images but loses its components. Every
version is recorded with ``store.record_message(game, "turn", ...)`` with the sequence number it
shows, so a restarted bot knows whether the thread is up to date.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import random
import re
from collections import defaultdict
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import media, ui
from cogs.config import BotConfig
from cogs.rules_help import rules_text
from engine import GameState, IllegalChoice
from engine.scoring import CATEGORIES
from engine.scoring import score as score_so_far
from store import (
    CannotUndo,
    GameBroken,
    GameNotFound,
    GameRecord,
    LobbyError,
    NotYourTurn,
    StaleMove,
    Store,
    StoreError,
)

log = logging.getLogger(__name__)

AI_NAMES = ["Babbage", "Somerville", "Herschel", "De Morgan"]
AI_POLICIES = ["greedy", "random", "search"]
HIDDEN_CATEGORIES = ("Partners", "Meetings")  # depend on the hidden hand and deck
MIN_REMINDER_GAP = timedelta(hours=6)  # at most four reminders a day
MAX_REMINDER_GAP = timedelta(hours=48)
POST_ATTEMPTS = 3
RETRY_DELAYS = (0.25, 1.0)
NEEDED_PERMISSIONS = (
    "view_channel",
    "send_messages",
    "create_public_threads",
    "send_messages_in_threads",
    "embed_links",
    "attach_files",
)


class Oops(Exception):
    """A user-facing problem: its text is answered privately."""


class PublishError(Exception):
    """The turn message could not be posted or edited (after retries)."""


def _friendly(exc: BaseException) -> str:
    if isinstance(exc, IllegalChoice):
        return "That's not a legal choice now. Start typing in `/ada play` to see the legal ones."
    if isinstance(exc, GameBroken):
        return (
            "This game's saved data is damaged, so it is paused. A server admin can run "
            "`python bot.py check-db` on the bot's host."
        )
    if isinstance(exc, StoreError | Oops):
        return str(exc)
    return "Something went wrong on my side; nothing was changed. Please try again."


async def say(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    text = ui.truncate(text, 1900) if len(text) > 1900 else text
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s privately", interaction.id, exc_info=True)


def friendly(fn: Any) -> Any:
    """Answer a command's user-facing errors privately (they are not bot errors)."""

    @functools.wraps(fn)
    async def wrapper(
        self: Any, interaction: discord.Interaction[Any], *args: Any, **kwargs: Any
    ) -> None:
        try:
            await fn(self, interaction, *args, **kwargs)
        except (Oops, StoreError, IllegalChoice) as exc:
            await say(interaction, _friendly(exc))

    return wrapper


def _file(data: bytes | None, name: str) -> discord.File | None:
    import io

    return None if data is None else discord.File(io.BytesIO(data), filename=name)


class GameCog(commands.Cog, name="Game"):
    """Ada's Dream, played in Discord threads."""

    ada = app_commands.Group(
        name="ada",
        description="Play Ada's Dream, the board game, in this server.",
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot, config: BotConfig) -> None:
        self.bot = bot
        self.cfg = config
        assert config.store is not None
        self.store: Store = config.store
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._resumed = False
        # Rendering is CPU-bound (Pillow, mostly under the GIL): a few at a time, in order.
        self.render_slots = asyncio.Semaphore(max(1, min(4, os.cpu_count() or 1)))

    # ------------------------------------------------------------------ lifecycle

    async def cog_load(self) -> None:
        self.reminder_loop.change_interval(seconds=self.cfg.reminder_interval)
        self.reminder_loop.start()

    async def cog_unload(self) -> None:
        self.reminder_loop.cancel()
        for task in self.ai_tasks.values():
            task.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self._resumed:
            return
        self._resumed = True
        await self.resume_games()

    async def resume_games(self) -> None:
        """After a start: bring stale turn messages up to date and restart AI seats."""
        try:
            ids = await self.store.game_ids(["active"])
        except Exception:
            log.exception("could not list the active games")
            return
        log.info("resuming %d active game(s)", len(ids))
        for game_id in ids:
            try:
                async with self.locks[game_id]:
                    rec = await self.store.get_game(game_id)
                    state, seq = await self.store.load_state(game_id)
                    shown = await self.store.latest_message(game_id, "turn")
                    if shown is None or shown.seq != seq:
                        log.info(
                            "game %s: turn message shows %s, state is %s: refreshing",
                            game_id,
                            shown and shown.seq,
                            seq,
                        )
                        await self.after_change(rec, None, state, seq, from_ai=True, schedule=False)
                self.kick_ai(game_id)
            except Exception:
                log.exception("could not resume game %s", game_id)

    def now(self) -> Any:
        return self.cfg.now()

    # ------------------------------------------------------------------ error handling

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CheckFailure):
            await say(interaction, "You don't have permission to do that here.")
            return
        if not isinstance(original, StoreError | Oops | IllegalChoice):
            log.error(
                "command %s failed",
                interaction.command and interaction.command.qualified_name,
                exc_info=original,
            )
        await say(interaction, _friendly(original))

    async def _guard(self, interaction: discord.Interaction[Any], coro: Any) -> None:
        """Run a component handler; any error becomes a private answer (and is logged)."""
        try:
            await coro
        except Exception as exc:
            if not isinstance(exc, StoreError | Oops | IllegalChoice):
                log.exception("component handler failed")
            await say(interaction, _friendly(exc))

    # ------------------------------------------------------------------ finding games

    async def _game(
        self,
        interaction: discord.Interaction[Any],
        game: int | None,
        statuses: tuple[str, ...] | None = ("lobby", "active"),
    ) -> GameRecord:
        """The game a command is about: the one given, else this thread's, else the user's."""
        guild_id = interaction.guild_id
        if game is not None:
            try:
                rec = await self.store.get_game(game)
            except GameNotFound:
                raise Oops(f"There is no game #{game}.") from None
            if rec.guild_id != guild_id:
                raise Oops(f"Game #{game} is not in this server.")
            return rec
        channel_id = interaction.channel_id or 0
        here = [
            g
            for g in await self.store.games_in_channel(channel_id, statuses)
            if g.thread_id == channel_id
        ]
        if len(here) == 1:
            return here[0]
        mine = [
            g
            for g in await self.store.games_for_user(interaction.user.id, statuses)
            if g.guild_id == guild_id
        ]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise Oops(
                "I can't tell which game you mean: use this in a game's thread, "
                "or give the `game` option."
            )
        ids = ", ".join(f"#{g.id}" for g in mine[:10])
        raise Oops(f"You are in several games ({ids}): give the `game` option.")

    async def _game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        try:
            games = {g.id: g for g in await self.store.games_for_user(interaction.user.id)}
            for g in await self.store.games_in_guild(interaction.guild_id or 0):
                games.setdefault(g.id, g)
        except Exception:
            return []
        out = []
        for g in sorted(games.values(), key=lambda g: -g.id):
            names = ", ".join(s.name for s in g.seats)
            label = ui.truncate(f"#{g.id} ({g.status}): {names}", 100)
            if current and current.lower() not in label.lower():
                continue
            out.append(app_commands.Choice(name=label, value=g.id))
        return out[:25]

    async def _channel(self, channel_id: int) -> Any:
        ch = self.bot.get_channel(channel_id)
        if ch is None:
            ch = await self.bot.fetch_channel(channel_id)
        return ch

    async def _is_admin(self, interaction: discord.Interaction[Any], rec: GameRecord) -> bool:
        perms = interaction.permissions
        return (
            interaction.user.id == rec.creator_id
            or perms.administrator
            or perms.manage_guild
            or perms.manage_threads
        )

    # ------------------------------------------------------------------ the turn message

    async def _turn_files(self, state: GameState) -> tuple[bytes | None, bytes | None]:
        if not self.cfg.images:
            return None, None
        dec = state.decision
        seat = dec.player if dec is not None else state.current
        async with self.render_slots:  # first come, first served when many games move at once
            board, mill = await asyncio.gather(
                media.render(media.board_png, state, None),
                media.render(media.mill_png, state, seat, None),
            )
        return board, mill

    async def _retrying(self, what: str, make_call: Any) -> Any:
        """Call ``make_call()`` (a fresh coroutine each time) with a few retries on server errors."""
        for attempt in range(POST_ATTEMPTS):
            try:
                return await make_call()
            except discord.Forbidden:
                raise
            except discord.NotFound:
                raise
            except (discord.HTTPException, OSError) as exc:
                if attempt == POST_ATTEMPTS - 1:
                    raise
                delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
                log.warning("%s failed (%s); retry %d in %.2fs", what, exc, attempt + 1, delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def publish_turn(
        self, rec: GameRecord, state: GameState, seq: int, *, repost: bool, note: str | None = None
    ) -> discord.Message | None:
        """Show the current decision: edit the turn message, or post a new one (the ping)."""
        dec = state.decision
        assert dec is not None
        thread_id = rec.thread_id or rec.channel_id
        seat = rec.seat_at(dec.player)
        if seat is not None and not seat.is_ai:
            content = f"{ui.mention_of(seat)}, it's your turn in game #{rec.id}."
        else:
            content = f"{state.players[dec.player].name} (AI) is playing game #{rec.id}…"
        board, mill = await self._turn_files(state)
        embeds = ui.turn_embeds(
            rec,
            state,
            board_file="board.png" if board else None,
            mill_file="mill.png" if mill else None,
            note=note,
        )
        view = ui.turn_view(rec.id, seq, state)

        def files() -> list[discord.File]:
            return [f for f in (_file(board, "board.png"), _file(mill, "mill.png")) if f]

        prev = await self.store.latest_message(rec.id, "turn")
        try:
            channel = await self._channel(thread_id)
            if prev is not None and not repost:
                partial = channel.get_partial_message(prev.message_id)
                try:
                    msg = await self._retrying(
                        f"editing the turn message of game {rec.id}",
                        lambda: partial.edit(
                            content=content, embeds=embeds, attachments=files(), view=view
                        ),
                    )
                    await self.store.record_message(
                        rec.id, "turn", channel.id, prev.message_id, seq, now=self.now()
                    )
                    return msg
                except discord.NotFound:
                    log.warning("game %s: the turn message is gone; posting a new one", rec.id)
            if prev is not None:
                await self._strip(prev.channel_id, prev.message_id)
            msg = await self._retrying(
                f"posting the turn message of game {rec.id}",
                lambda: channel.send(content=content, embeds=embeds, files=files(), view=view),
            )
            await self.store.record_message(rec.id, "turn", channel.id, msg.id, seq, now=self.now())
            return msg
        except discord.HTTPException as exc:
            log.error("game %s: could not show decision %s: %s", rec.id, seq, exc)
            raise PublishError(str(exc)) from exc

    async def _strip(self, channel_id: int, message_id: int, content: str | None = None) -> None:
        """Remove the components of an old message (best effort)."""
        try:
            channel = await self._channel(channel_id)
            kwargs: dict[str, Any] = {"view": ui.empty_view()}
            if content is not None:
                kwargs["content"] = content
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as exc:
            log.info("could not strip the components of message %s: %s", message_id, exc)

    async def publish_final(self, rec: GameRecord, state: GameState) -> None:
        prev = await self.store.latest_message(rec.id, "turn")
        if prev is not None:
            await self._strip(prev.channel_id, prev.message_id)
        pad = await media.render(media.scorepad_png, state) if self.cfg.images else None
        embed = ui.final_embed(rec, state, "scorepad.png" if pad else None)
        mentions = " ".join(ui.mention_of(s) for s in rec.seats_in_turn_order if not s.is_ai)
        try:
            channel = await self._channel(rec.thread_id or rec.channel_id)
            msg = await self._retrying(
                f"posting the final scores of game {rec.id}",
                lambda: channel.send(
                    content=f"Game over! {mentions}".strip(),
                    embed=embed,
                    files=[f for f in [_file(pad, "scorepad.png")] if f],
                ),
            )
            await self.store.record_message(
                rec.id, "final", channel.id, msg.id, len(state.history), now=self.now()
            )
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
    ) -> None:
        """The game changed (a move, an undo, a start): update the thread, plan the reminder,
        let an AI seat play. Call with the game's lock held."""
        if new.is_over:
            await self.publish_final(rec, new)
            return
        dec = new.decision
        assert dec is not None
        old_dec = old.decision if old is not None else None
        turn_passed = old_dec is None or old_dec.player != dec.player
        try:
            await self.publish_turn(rec, new, seq, repost=turn_passed, note=note)
        finally:
            if schedule:
                await self.schedule_reminder(rec, new, seq)
            if not from_ai:
                self.kick_ai(rec.id)

    # ------------------------------------------------------------------ playing a choice

    async def _current_link(self, rec: GameRecord) -> str:
        msg = await self.store.latest_message(rec.id, "turn")
        if msg is None:
            return f"<#{rec.thread_id or rec.channel_id}>"
        return ui.jump_url(rec.guild_id, msg.channel_id, msg.message_id)

    async def _check_turn(
        self, interaction: discord.Interaction[Any], rec: GameRecord, seq: int | None
    ) -> tuple[GameState, int, int]:
        """(state, seq, seat) if the user may decide now; raises Oops otherwise."""
        if rec.status != "active":
            raise Oops(
                {
                    "lobby": "This game hasn't started yet.",
                    "finished": "This game is over: see `/ada final`.",
                    "cancelled": "This game was cancelled.",
                }.get(rec.status, "This game isn't being played right now.")
            )
        seat = rec.seat_of(interaction.user.id)
        if seat is None:
            raise Oops(f"You're not playing in game #{rec.id}.")
        state, current = await self.store.load_state(rec.id)
        if seq is not None and seq != current:
            raise Oops(
                "That message is out of date: the game has moved on. "
                f"The current turn: {await self._current_link(rec)}"
            )
        dec = state.decision
        if dec is None:
            raise Oops("This game is over: see `/ada final`.")
        if dec.player != seat:
            waiting = rec.seat_at(dec.player)
            who = waiting.name if waiting else "someone else"
            raise Oops(f"It's not your turn: waiting for {who}.")
        return state, current, seat

    async def play(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        seq: int | None,
        idx: int | None = None,
        choice_id: str | None = None,
    ) -> tuple[GameState, GameState, str]:
        """Apply a choice for the interacting user (the caller has deferred). Returns
        (old state, new state, label of the choice)."""
        async with self.locks[rec.id]:
            rec = await self.store.get_game(rec.id)
            state, current, seat = await self._check_turn(interaction, rec, seq)
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
                    rec.id, current, seat, choice.id, now=self.now()
                )
            except StaleMove:
                raise Oops(
                    "That was already played (double click?). The current turn: "
                    f"{await self._current_link(rec)}"
                ) from None
            except NotYourTurn:
                raise Oops("It's not your turn.") from None
            try:
                await self.after_change(rec, state, new, current + 1)
            except PublishError as exc:
                await say(
                    interaction,
                    f"Your move **{ui.truncate(choice.label, 200)}** was saved, but I couldn't "
                    f"update the game thread ({exc}). Use `/ada refresh` to show it again.",
                )
            return state, new, choice.label

    async def on_choice_component(
        self, interaction: discord.Interaction[Any], game: int, seq: int, idx: int
    ) -> None:
        await interaction.response.defer()
        await self._guard(interaction, self._choice_component(interaction, game, seq, idx))

    async def _choice_component(
        self, interaction: discord.Interaction[Any], game: int, seq: int, idx: int
    ) -> None:
        rec = await self.store.get_game(game)
        old, new, label = await self.play(interaction, rec, seq, idx=idx)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await self._update_private(interaction, rec, new, len(new.history), done=label)

    async def _update_private(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        state: GameState,
        seq: int,
        *,
        done: str | None,
    ) -> None:
        """Edit the player's private (ephemeral) message: the next private decision, or a note."""
        dec = state.decision
        seat = rec.seat_of(interaction.user.id)
        head = f"✅ You chose: {ui.truncate(done, 300)}\n\n" if done else ""
        try:
            if dec is not None and dec.player == seat and ui.is_private(state):
                await interaction.edit_original_response(
                    content=head + self._private_text(state, seat),
                    view=ui.turn_view(rec.id, seq, state, private_ok=True),
                )
            else:
                link = await self._current_link(rec)
                await interaction.edit_original_response(
                    content=(head or "Done.\n") + f"The game continues: {link}",
                    view=ui.empty_view(),
                )
        except discord.HTTPException:
            log.info("could not update a private message", exc_info=True)

    def _private_text(self, state: GameState, seat: int | None) -> str:
        dec = state.decision
        assert dec is not None and seat is not None
        return ui.truncate(
            f"**{dec.prompt}**\n{ui.choices_listing(dec, 1100)}\n\n{ui.hand_text(state, seat)}",
            1950,
        )

    async def on_page(
        self, interaction: discord.Interaction[Any], game: int, seq: int, page: int
    ) -> None:
        async def run() -> None:
            rec = await self.store.get_game(game)
            state, current, _seat = await self._check_turn(interaction, rec, seq)
            message = interaction.message
            private_ok = message is not None and message.flags.ephemeral
            await interaction.response.edit_message(
                view=ui.turn_view(game, current, state, page=page, private_ok=private_ok)
            )

        await self._guard(interaction, run())

    async def on_private(self, interaction: discord.Interaction[Any], game: int, seq: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def run() -> None:
            rec = await self.store.get_game(game)
            state, current, seat = await self._check_turn(interaction, rec, seq)
            await interaction.followup.send(
                self._private_text(state, seat),
                view=ui.turn_view(game, current, state, private_ok=True),
                ephemeral=True,
            )

        await self._guard(interaction, run())

    async def on_hand(self, interaction: discord.Interaction[Any], game: int) -> None:
        async def run() -> None:
            rec = await self.store.get_game(game)
            seat = rec.seat_of(interaction.user.id)
            if seat is None:
                raise Oops(f"You're not playing in game #{game}.")
            state, _ = await self.store.load_state(game)
            await say(interaction, ui.hand_text(state, seat))

        await self._guard(interaction, run())

    async def undo(
        self, interaction: discord.Interaction[Any], rec: GameRecord, seq: int | None
    ) -> GameState:
        async with self.locks[rec.id]:
            rec = await self.store.get_game(rec.id)
            state, current, seat = await self._check_turn(interaction, rec, seq)
            if not state.can_undo():
                raise CannotUndo(
                    "There is nothing you can take back now "
                    "(undo stops at the last dice roll, card draw or reveal)."
                )
            try:
                new = await self.store.undo(rec.id, current, seat, now=self.now())
            except StaleMove:
                raise Oops("That was already done (double click?).") from None
            try:
                await self.after_change(
                    rec, state, new, current - 1, note="The last move was taken back."
                )
            except PublishError as exc:
                await say(
                    interaction,
                    f"Undone, but I couldn't update the game thread ({exc}). Use `/ada refresh`.",
                )
            return new

    async def on_undo_component(
        self, interaction: discord.Interaction[Any], game: int, seq: int
    ) -> None:
        await interaction.response.defer()

        async def run() -> None:
            rec = await self.store.get_game(game)
            new = await self.undo(interaction, rec, seq)
            message = interaction.message
            if message is not None and message.flags.ephemeral:
                await self._update_private(interaction, rec, new, len(new.history), done=None)

        await self._guard(interaction, run())

    # ------------------------------------------------------------------ AI seats

    def kick_ai(self, game_id: int) -> None:
        """Start the AI runner of a game if an AI seat is to play (no-op otherwise)."""
        task = self.ai_tasks.get(game_id)
        if task is not None and not task.done():
            return
        self.ai_tasks[game_id] = asyncio.get_running_loop().create_task(
            self._ai_loop(game_id), name=f"ada-ai-{game_id}"
        )

    @staticmethod
    def _ai_choices(state: GameState, policy_name: str | None, seed: int) -> list[str]:
        """The AI's whole turn on a copy of ``state`` (engine.ai), or random legal choices."""
        rng = random.Random(seed)
        work = state.copy()
        try:
            from engine.ai import get_policy, play_turn

            policy = get_policy(policy_name or "greedy")
            return play_turn(work, policy, rng)
        except ImportError:
            pass
        except Exception:
            log.exception("AI policy %r failed; playing random legal choices", policy_name)
            work = state.copy()
        seat = work.current
        out: list[str] = []
        while not work.is_over and work.decision is not None and work.decision.player == seat:
            choice = rng.choice(work.decision.choices).id
            work.apply(choice)
            out.append(choice)
        return out

    async def _ai_loop(self, game_id: int) -> None:
        try:
            while True:
                rec = await self.store.get_game(game_id)
                if rec.status != "active":
                    return
                state, seq = await self.store.load_state(game_id)
                dec = state.decision
                if dec is None:
                    return
                seat = rec.seat_at(dec.player)
                if seat is None or not seat.is_ai:
                    return
                if self.cfg.ai_delay > 0:
                    await asyncio.sleep(self.cfg.ai_delay)
                async with self.locks[game_id]:
                    state, seq = await self.store.load_state(game_id)
                    dec = state.decision
                    if dec is None or rec.seat_at(dec.player) != seat:
                        continue
                    await self._play_turn_by_ai(rec, state, seq, seat.ai_policy)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the AI of game %s stopped", game_id)

    async def _play_turn_by_ai(
        self, rec: GameRecord, state: GameState, seq: int, policy: str | None
    ) -> GameState:
        """Play the current player's whole turn with an AI policy (caller holds the game lock):
        used by AI seats and by a stand-in for an absent human."""
        dec = state.decision
        assert dec is not None
        seed = ((rec.seed or 0) * 1_000_003 + seq) & ((1 << 62) - 1)
        ids = await asyncio.to_thread(self._ai_choices, state, policy, seed)
        new, cur = state, seq
        for choice_id in ids:
            d = new.decision
            if d is None or d.player != dec.player:
                break
            new = await self.store.apply_choice(rec.id, cur, dec.player, choice_id, now=self.now())
            cur += 1
        if cur == seq:  # the policy gave nothing usable: play one random choice
            pick = self.cfg.rng.choice(dec.choices).id
            new = await self.store.apply_choice(rec.id, cur, dec.player, pick, now=self.now())
            cur += 1
        try:
            await self.after_change(rec, state, new, cur, from_ai=True)
        except PublishError:
            pass  # logged; the next change or /ada refresh shows it again
        return new

    @ada.command(
        name="standin",
        description="Ask an AI to play the current turn of an absent player (owner, or a table vote).",
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def standin(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """An AI stand-in plays one turn for the player whose turn it is. It never happens by
        itself: the game's creator (or a server admin, or the absent player) asks, or a majority
        of the other human players vote for it with this same command."""
        rec = await self._game(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.locks[rec.id]:
            rec = await self.store.get_game(rec.id)
            state, seq = await self.store.load_state(rec.id)
            dec = state.decision
            seat = rec.seat_at(dec.player) if dec else None
            if rec.status != "active" or dec is None or seat is None:
                await say(interaction, "This game has no turn waiting.")
                return
            if seat.is_ai:
                await say(interaction, "An AI seat is playing: it needs no stand-in.")
                return
            user = interaction.user.id
            humans = [s.user_id for s in rec.seats if not s.is_ai and s.user_id is not None]
            others = [u for u in humans if u != seat.user_id]
            owner = user == seat.user_id or await self._is_admin(interaction, rec)
            if not owner:
                if user not in others:
                    await say(interaction, "Only players of this game can vote for a stand-in.")
                    return
                votes = await self.store.add_standin_vote(rec.id, seq, user, now=self.now())
                needed = len(others) // 2 + 1
                if len(set(votes) & set(others)) < needed:
                    await say(
                        interaction,
                        f"Vote recorded: {len(votes)} of {needed} needed for a stand-in to play "
                        f"{seat.name}'s turn.",
                    )
                    return
            with contextlib.suppress(discord.HTTPException):
                channel = await self._channel(rec.thread_id or rec.channel_id)
                await channel.send(
                    f"An AI stand-in plays **{seat.name}**'s turn "
                    f"(asked by {interaction.user.mention}).",
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            await self._play_turn_by_ai(rec, state, seq, "greedy")
        await say(interaction, f"The stand-in played {seat.name}'s turn.")
        self.kick_ai(rec.id)

    # ------------------------------------------------------------------ reminders

    async def _reminder_hours(self, rec: GameRecord, user_id: int) -> tuple[bool, float]:
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
            enabled, hours = await self._reminder_hours(rec, seat.user_id)
            if enabled:
                due = self.now() + timedelta(hours=hours)
                await self.store.schedule_reminder(rec.id, seat.user_id, due, seq, now=self.now())
        except Exception:
            log.exception("could not schedule a reminder for game %s", rec.id)

    @staticmethod
    def backoff(hours: float, attempt: int) -> timedelta:
        """Delay before reminder ``attempt + 1``: doubling, at least 6 h, at most 48 h."""
        delay = timedelta(hours=hours * (2**attempt))
        return max(MIN_REMINDER_GAP, min(delay, MAX_REMINDER_GAP))

    @tasks.loop(seconds=120)
    async def reminder_loop(self) -> None:
        try:
            await self.send_due_reminders()
        except Exception:
            log.exception("the reminder round failed")

    @reminder_loop.before_loop
    async def _before_reminders(self) -> None:
        await self.bot.wait_until_ready()

    async def send_due_reminders(self) -> int:
        """Send every reminder that is due (once, even if several periods were missed while
        the bot was down), then plan the next one with backoff. Returns how many were sent."""
        now = self.now()
        sent = 0
        for rem in await self.store.due_reminders(now):
            try:
                rec = await self.store.get_game(rem.game_id)
                enabled, hours = await self._reminder_hours(rec, rem.user_id)
                if not enabled:
                    await self.store.cancel_reminders(rem.game_id, rem.user_id)
                    continue
                if not await self._still_member(rec, rem.user_id):
                    await self._left_notice(rec, rem.user_id)
                    await self.store.mark_reminder_sent(rem.id, now=now)
                    continue  # no more reminders for someone who left
                if not await self._send_reminder(rec, rem.user_id, rem.attempt):
                    continue  # both ways failed: stays pending, tried again next round
                await self.store.mark_reminder_sent(rem.id, now=now)
                sent += 1
                await self.store.schedule_reminder(
                    rem.game_id,
                    rem.user_id,
                    now + self.backoff(hours, rem.attempt),
                    rem.seq,
                    now=now,
                )
            except Exception:
                log.exception("reminder %s failed", rem.id)
        return sent

    async def _still_member(self, rec: GameRecord, user_id: int) -> bool:
        guild = self.bot.get_guild(rec.guild_id)
        if guild is None:
            return True  # can't tell: remind anyway
        try:
            await guild.fetch_member(user_id)
            return True
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True

    async def _left_notice(self, rec: GameRecord, user_id: int) -> None:
        log.info("game %s: user %s has left the server", rec.id, user_id)
        try:
            channel = await self._channel(rec.thread_id or rec.channel_id)
            await channel.send(
                f"<@{user_id}> has left the server, and game #{rec.id} is waiting for them. "
                "The game's creator or a server admin can end it with `/ada cancel`.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as exc:
            log.warning("game %s: could not post that a player left: %s", rec.id, exc)

    async def _send_reminder(self, rec: GameRecord, user_id: int, attempt: int) -> bool:
        link = await self._current_link(rec)
        settings = await self.store.user_settings(user_id)
        mode = settings.ping_mode or "dm"
        nth = f" (reminder {attempt})" if attempt > 1 else ""
        text = (
            f"⏰ Reminder: it's your turn in Ada's Dream game #{rec.id}{nth}: {link}\n"
            "Switch reminders off with `/ada reminders enabled:False`."
        )
        if mode == "dm":
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(text)
                log.info("game %s: reminded user %s by DM", rec.id, user_id)
                return True
            except discord.HTTPException as exc:
                log.info(
                    "game %s: DM to %s failed (%s); reminding in the thread", rec.id, user_id, exc
                )
        try:
            channel = await self._channel(rec.thread_id or rec.channel_id)
            await channel.send(
                f"<@{user_id}> {text}",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )
            log.info("game %s: reminded user %s in the thread", rec.id, user_id)
            return True
        except discord.HTTPException as exc:
            log.warning("game %s: could not remind user %s: %s", rec.id, user_id, exc)
            return False

    # ================================================================== commands: lobby

    async def _ai_policy_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            from engine.ai import POLICIES

            names = list(POLICIES)
        except Exception:
            names = AI_POLICIES
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]

    @staticmethod
    def _check_policy(policy: str | None) -> str:
        name = (policy or "greedy").strip().lower()
        try:
            from engine.ai import POLICIES

            known = list(POLICIES)
        except Exception:
            known = AI_POLICIES
        if name not in known:
            raise Oops(f"Unknown AI `{name}`: choose one of {', '.join(known)}.")
        return name

    async def _lobby_message(self, rec: GameRecord) -> None:
        """Refresh the lobby message after a change."""
        msg = await self.store.latest_message(rec.id, "lobby")
        if msg is None:
            return
        try:
            channel = await self._channel(msg.channel_id)
            await channel.get_partial_message(msg.message_id).edit(
                embed=ui.lobby_embed(rec), view=ui.lobby_view(rec.id, open_=rec.status == "lobby")
            )
        except discord.HTTPException as exc:
            log.warning("game %s: could not update the lobby message: %s", rec.id, exc)

    async def _add_ai(self, rec: GameRecord, policy: str) -> None:
        taken = {s.name for s in rec.seats}
        name = next((n for n in AI_NAMES if f"{n} (AI)" not in taken), "Engine")
        await self.store.add_seat(
            rec.id, name=f"{name} (AI)", is_ai=True, ai_policy=policy, now=self.now()
        )

    @ada.command(name="new", description="Create a game in this channel; it gets its own thread.")
    @app_commands.describe(
        players="Number of seats, 2 to 4 (AI seats included).",
        ai="How many of the seats are played by the computer (0-3).",
        ai_policy="How the computer plays: greedy (default), random or search.",
        reminder_hours="Remind a player after this many hours without a move (default: server setting, 12).",
        join="Take a seat yourself (default: yes).",
    )
    @app_commands.autocomplete(ai_policy=_ai_policy_autocomplete)
    @friendly
    async def new(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, 4] = 2,
        ai: app_commands.Range[int, 0, 3] = 0,
        ai_policy: str | None = None,
        reminder_hours: app_commands.Range[float, 0.25, 336.0] | None = None,
        join: bool = True,
    ) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise Oops(
                "Create games in a server text channel (not in a thread): "
                "each game gets its own thread there."
            )
        if ai + (1 if join else 0) > players:
            raise Oops(f"{players} seats can't hold {ai} AI players and you.")
        policy = self._check_policy(ai_policy) if ai else None
        assert interaction.guild is not None
        me = interaction.guild.me
        perms = channel.permissions_for(me)
        missing = [p for p in NEEDED_PERMISSIONS if not getattr(perms, p)]
        if missing:
            raise Oops(
                "I can't run a game in this channel: I need the permissions "
                + ", ".join(p.replace("_", " ").title() for p in missing)
                + "."
            )
        await interaction.response.defer(thinking=True)
        options: dict[str, Any] = {"players": players}
        if reminder_hours:
            options["reminder_hours"] = float(reminder_hours)
        game_id = await self.store.create_game(
            interaction.guild_id or 0, channel.id, interaction.user.id, options, now=self.now()
        )
        try:
            thread = await channel.create_thread(
                name=f"Ada's Dream #{game_id}",
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:
            await self.store.cancel_game(game_id, now=self.now())
            raise Oops(f"I couldn't create the game's thread here ({exc.text or exc}).") from exc
        await self.store.set_thread(game_id, thread.id, now=self.now())
        if join:
            await self.store.add_seat(
                game_id,
                name=interaction.user.display_name[:32],
                user_id=interaction.user.id,
                now=self.now(),
            )
        for _ in range(ai):
            await self._add_ai(await self.store.get_game(game_id), policy or "greedy")
        rec = await self.store.get_game(game_id)
        try:
            msg = await self._retrying(
                "posting a lobby",
                lambda: thread.send(embed=ui.lobby_embed(rec), view=ui.lobby_view(game_id)),
            )
        except discord.HTTPException as exc:
            await self.store.cancel_game(game_id, now=self.now())
            raise Oops(f"I couldn't post in the game's thread ({exc.text or exc}).") from exc
        await self.store.record_message(game_id, "lobby", thread.id, msg.id, now=self.now())
        log.info(
            "game %s created by %s in channel %s (thread %s)",
            game_id,
            interaction.user.id,
            channel.id,
            thread.id,
        )
        await interaction.followup.send(
            f"{interaction.user.mention} created **Ada's Dream game #{game_id}** "
            f"for {players} players: join it in {thread.mention}."
        )

    async def _join(self, interaction: discord.Interaction[Any], rec: GameRecord) -> GameRecord:
        await self.store.add_seat(
            rec.id,
            name=interaction.user.display_name[:32],
            user_id=interaction.user.id,
            now=self.now(),
        )
        rec = await self.store.get_game(rec.id)
        await self._lobby_message(rec)
        return rec

    @ada.command(name="join", description="Take a seat in a game that hasn't started yet.")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def join(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("lobby",))
        rec = await self._join(interaction, rec)
        await say(interaction, f"You joined game #{rec.id} ({len(rec.seats)} seated).")

    async def _leave(self, interaction: discord.Interaction[Any], rec: GameRecord) -> GameRecord:
        if not await self.store.remove_seat(rec.id, user_id=interaction.user.id, now=self.now()):
            raise Oops(f"You're not seated in game #{rec.id}.")
        rec = await self.store.get_game(rec.id)
        await self._lobby_message(rec)
        return rec

    @ada.command(name="leave", description="Give up your seat in a game that hasn't started yet.")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def leave(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("lobby",))
        await self._leave(interaction, rec)
        await say(interaction, f"You left game #{rec.id}.")

    @ada.command(name="addai", description="Add a computer player to a game that hasn't started.")
    @app_commands.describe(
        policy="How the computer plays: greedy (default), random or search.",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(policy=_ai_policy_autocomplete, game=_game_autocomplete)
    @friendly
    async def addai(
        self,
        interaction: discord.Interaction[Any],
        policy: str | None = None,
        game: int | None = None,
    ) -> None:
        rec = await self._game(interaction, game, ("lobby",))
        if not await self._is_admin(interaction, rec):
            raise Oops("Only the game's creator or a server admin can add AI players.")
        await self._add_ai(rec, self._check_policy(policy))
        rec = await self.store.get_game(rec.id)
        await self._lobby_message(rec)
        await say(interaction, f"Added an AI player to game #{rec.id}.")

    async def _start(self, interaction: discord.Interaction[Any], rec: GameRecord) -> None:
        if not await self._is_admin(interaction, rec):
            raise Oops("Only the game's creator or a server admin can start it.")
        if len(rec.seats) < 2:
            raise Oops("A game needs at least 2 seats: ask someone to join or add an AI.")
        async with self.locks[rec.id]:
            seed = self.cfg.rng.getrandbits(62)
            state = await self.store.start_game(rec.id, seed, now=self.now())
            rec = await self.store.get_game(rec.id)
            await self._lobby_message(rec)
            order = ", ".join(ui.mention_of(s) for s in rec.seats_in_turn_order)
            log.info("game %s started (seed %s): %s", rec.id, seed, order)
            try:
                channel = await self._channel(rec.thread_id or rec.channel_id)
                await channel.send(
                    f"**Game #{rec.id} starts!** Seat order (drawn): {order}.",
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:
                log.warning("game %s: could not announce the start: %s", rec.id, exc)
            try:
                await self.after_change(rec, None, state, 0)
            except PublishError as exc:
                await say(
                    interaction,
                    f"The game started, but I couldn't post the turn ({exc}). Use `/ada refresh`.",
                )

    @ada.command(name="start", description="Start the game: seat order and first player are drawn.")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def start(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("lobby",))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._start(interaction, rec)
        await say(interaction, f"Game #{rec.id} started.")

    async def _cancel(self, interaction: discord.Interaction[Any], rec: GameRecord) -> None:
        if not await self._is_admin(interaction, rec):
            raise Oops("Only the game's creator or a server admin can cancel it.")
        async with self.locks[rec.id]:
            await self.store.cancel_game(rec.id, now=self.now())
            task = self.ai_tasks.pop(rec.id, None)
            if task is not None:
                task.cancel()
            rec = await self.store.get_game(rec.id)
            await self._lobby_message(rec)
            turn = await self.store.latest_message(rec.id, "turn")
            if turn is not None:
                await self._strip(turn.channel_id, turn.message_id)
            try:
                channel = await self._channel(rec.thread_id or rec.channel_id)
                await channel.send(
                    f"Game #{rec.id} was cancelled by {interaction.user.mention}.",
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:
                log.warning("game %s: could not announce the cancel: %s", rec.id, exc)
            log.info("game %s cancelled by %s", rec.id, interaction.user.id)

    @ada.command(name="cancel", description="Cancel a game (its creator or a server admin).")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def cancel(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._cancel(interaction, rec)
        await say(interaction, f"Game #{rec.id} is cancelled.")

    async def on_lobby_button(
        self, interaction: discord.Interaction[Any], action: str, game: int
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=action in ("start", "cancel"))

        async def run() -> None:
            rec = await self.store.get_game(game)
            if action != "cancel" and rec.status != "lobby":
                raise LobbyError(
                    "This game has already started."
                    if rec.status == "active"
                    else "This game is no longer open."
                )
            if action == "join":
                rec = await self._join(interaction, rec)
                await say(interaction, f"You joined game #{game} ({len(rec.seats)} seated).")
            elif action == "leave":
                await self._leave(interaction, rec)
                await say(interaction, f"You left game #{game}.")
            elif action == "ai":
                if not await self._is_admin(interaction, rec):
                    raise Oops("Only the game's creator or a server admin can add AI players.")
                await self._add_ai(rec, "greedy")
                await self._lobby_message(await self.store.get_game(game))
                await say(interaction, "Added an AI player.")
            elif action == "start":
                await self._start(interaction, rec)
                await say(interaction, f"Game #{game} started.")
            elif action == "cancel":
                await self._cancel(interaction, rec)
                await say(interaction, f"Game #{game} is cancelled.")

        await self._guard(interaction, run())

    @ada.command(name="delay", description="Set a lobby's reminder delay (creator or admin).")
    @app_commands.describe(
        hours="Hours without a move before the player is reminded.",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def delay(
        self,
        interaction: discord.Interaction[Any],
        hours: app_commands.Range[float, 0.25, 336.0],
        game: int | None = None,
    ) -> None:
        rec = await self._game(interaction, game, ("lobby",))
        if not await self._is_admin(interaction, rec):
            raise Oops("Only the game's creator or a server admin can change this.")
        await self.store.set_options(
            rec.id, {**rec.options, "reminder_hours": float(hours)}, now=self.now()
        )
        await self._lobby_message(await self.store.get_game(rec.id))
        await say(interaction, f"Game #{rec.id}: reminders after {hours:g} h without a move.")

    # ================================================================== commands: playing

    async def _choice_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            game = getattr(interaction.namespace, "game", None)
            rec = await self._game(interaction, game, ("active",))
            state, seq = await self.store.load_state(rec.id)
        except Exception:
            return []
        dec = state.decision
        seat = rec.seat_of(interaction.user.id)
        if dec is None:
            return []
        if dec.player != seat:
            who = rec.seat_at(dec.player)
            return [
                app_commands.Choice(
                    name=ui.truncate(
                        f"It's not your turn (waiting for {who.name if who else '?'})", 100
                    ),
                    value="-",
                )
            ]
        words = current.lower().split()
        out = []
        for i, c in enumerate(dec.choices):
            label = f"{i + 1}. {c.label}"
            if all(w in label.lower() for w in words):
                out.append(app_commands.Choice(name=ui.truncate(label, 100), value=f"#{seq}:{i}"))
        return out[:25]

    @staticmethod
    def _parse_choice(text: str, state: GameState, seq: int) -> tuple[int | None, int]:
        """(seq the choice was offered at or None, index) from an autocomplete value, a number,
        a choice id or a label. Raises IllegalChoice."""
        dec = state.decision
        assert dec is not None
        m = re.fullmatch(r"#(\d+):(\d+)", text.strip())
        if m:
            return int(m[1]), int(m[2])
        t = text.strip().lower()
        if t.isdigit() and 1 <= int(t) <= len(dec.choices):
            return seq, int(t) - 1
        for i, c in enumerate(dec.choices):
            if c.id.lower() == t or c.label.lower() == t or f"{i + 1}. {c.label}".lower() == t:
                return seq, i
        matches = [i for i, c in enumerate(dec.choices) if t and t in c.label.lower()]
        if len(matches) == 1:
            return seq, matches[0]
        raise IllegalChoice(text)

    @ada.command(
        name="play", description="Make your move by typing: pick one of the legal choices."
    )
    @app_commands.describe(
        choice="Start typing: the legal choices of your current decision are suggested.",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(choice=_choice_autocomplete, game=_game_autocomplete)
    @friendly
    async def play_cmd(
        self, interaction: discord.Interaction[Any], choice: str, game: int | None = None
    ) -> None:
        rec = await self._game(interaction, game, ("active",))
        await interaction.response.defer(ephemeral=True, thinking=True)
        state, seq = await self.store.load_state(rec.id)
        if state.decision is None:
            raise Oops("This game is over.")
        offered, idx = self._parse_choice(choice, state, seq)
        old, new, label = await self.play(interaction, rec, offered, idx=idx)
        text = f"✅ Played: {ui.truncate(label, 300)}"
        dec = new.decision
        seat = rec.seat_of(interaction.user.id)
        if dec is not None and dec.player == seat:
            if ui.is_private(new):
                await interaction.followup.send(
                    text + "\n\n" + self._private_text(new, seat),
                    view=ui.turn_view(rec.id, len(new.history), new, private_ok=True),
                    ephemeral=True,
                )
                return
            text += f"\nNext: **{dec.prompt}**"
        await say(interaction, text)

    @ada.command(
        name="undo",
        description="Take back your last move (within your turn, up to the last reveal).",
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def undo_cmd(
        self, interaction: discord.Interaction[Any], game: int | None = None
    ) -> None:
        rec = await self._game(interaction, game, ("active",))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.undo(interaction, rec, None)
        await say(interaction, "↩️ Your last move was taken back.")

    @ada.command(
        name="refresh", description="Post the current turn message again (if it went missing)."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def refresh(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("active",))
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.locks[rec.id]:
            state, seq = await self.store.load_state(rec.id)
            if state.decision is None:
                raise Oops("This game is over.")
            await self.publish_turn(rec, state, seq, repost=True)
        await say(interaction, f"Posted: {await self._current_link(rec)}")

    # ================================================================== commands: information

    async def _send_image(
        self, interaction: discord.Interaction[Any], text: str, data: bytes | None, name: str
    ) -> None:
        f = _file(data, name)
        await interaction.followup.send(text, files=[f] if f else [], ephemeral=True)

    @ada.command(name="board", description="Show the main board now (only to you).")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def board(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("active", "finished"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        state, _ = await self.store.load_state(rec.id)
        data = await media.render(media.board_png, state, rec.seat_of(interaction.user.id))
        await self._send_image(
            interaction, f"Game #{rec.id}, round {state.round}.", data, "board.png"
        )

    async def _player_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            rec = await self._game(
                interaction, getattr(interaction.namespace, "game", None), ("active", "finished")
            )
        except Exception:
            return []
        return [
            app_commands.Choice(name=s.name, value=s.name)
            for s in rec.seats_in_turn_order
            if current.lower() in s.name.lower()
        ][:25]

    @ada.command(name="mill", description="Show a player's Mill and resources (only to you).")
    @app_commands.describe(
        player="Whose Mill (default: yours, or the player whose turn it is).",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(player=_player_autocomplete, game=_game_autocomplete)
    @friendly
    async def mill(
        self,
        interaction: discord.Interaction[Any],
        player: str | None = None,
        game: int | None = None,
    ) -> None:
        rec = await self._game(interaction, game, ("active", "finished"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        state, _ = await self.store.load_state(rec.id)
        viewer = rec.seat_of(interaction.user.id)
        if player:
            seats = [i for i, n in enumerate(state.seat_names) if n.lower() == player.lower()]
            if not seats:
                raise Oops(f"No player called {player!r} in game #{rec.id}.")
            seat = seats[0]
        else:
            seat = viewer if viewer is not None else state.current
        data = await media.render(media.mill_png, state, seat, viewer)
        await self._send_image(interaction, f"Mill of {state.seat_names[seat]}.", data, "mill.png")

    @ada.command(
        name="score", description="The score so far, in the scorepad's categories (only to you)."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def score(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("active", "finished"))
        state, _ = await self.store.load_state(rec.id)
        await say(interaction, self.score_text(rec, state, rec.seat_of(interaction.user.id)))

    @staticmethod
    def score_text(rec: GameRecord, state: GameState, viewer: int | None) -> str:
        names = state.seat_names
        header = "Category".ljust(18) + "".join(n[:8].rjust(9) for n in names)
        rows = [header]
        scores = [score_so_far(state, seat) for seat in range(len(names))]
        for cat in [*CATEGORIES, "Total"]:
            cells = []
            for seat, s in enumerate(scores):
                hidden = not state.is_over and seat != viewer
                if hidden and cat in HIDDEN_CATEGORIES:
                    cells.append("?".rjust(9))
                elif hidden and cat == "Total":
                    shown = s["Total"] - sum(s[c] for c in HIDDEN_CATEGORIES)
                    cells.append(f"{shown}+?".rjust(9))
                else:
                    cells.append(str(s[cat]).rjust(9))
            rows.append(cat[:18].ljust(18) + "".join(cells))
        note = (
            ""
            if state.is_over
            else ("\n? = depends on a player's hidden hand and deck (Partners, Meetings).")
        )
        return f"**Game #{rec.id}: score so far**\n```\n" + "\n".join(rows) + "\n```" + note

    @ada.command(name="log", description="The last moves of the game, in words (only to you).")
    @app_commands.describe(
        lines="How many lines (1-40, default 12).",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def log_cmd(
        self,
        interaction: discord.Interaction[Any],
        lines: app_commands.Range[int, 1, 40] = 12,
        game: int | None = None,
    ) -> None:
        rec = await self._game(interaction, game, ("active", "finished", "cancelled"))
        state, _ = await self.store.load_state(rec.id)
        text = ui.recent_log(state, lines, 1800)
        await say(interaction, f"**Game #{rec.id}, the last moves:**\n{text}")

    @ada.command(
        name="rules", description="What the current decision means, in short (only to you)."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def rules(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("active",))
        state, _ = await self.store.load_state(rec.id)
        await say(interaction, rules_text(state))

    @ada.command(name="hand", description="Your hand of Partner cards (only to you).")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def hand(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("active",))
        seat = rec.seat_of(interaction.user.id)
        if seat is None:
            raise Oops(f"You're not playing in game #{rec.id}.")
        state, _ = await self.store.load_state(rec.id)
        await say(interaction, ui.hand_text(state, seat))

    @ada.command(name="final", description="The final scorepad and the winner of a finished game.")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=_game_autocomplete)
    @friendly
    async def final(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        rec = await self._game(interaction, game, ("finished",))
        await interaction.response.defer(ephemeral=True, thinking=True)
        state, _ = await self.store.load_state(rec.id)
        pad = await media.render(media.scorepad_png, state) if self.cfg.images else None
        f = _file(pad, "scorepad.png")
        await interaction.followup.send(
            embed=ui.final_embed(rec, state, "scorepad.png" if f else None),
            files=[f] if f else [],
            ephemeral=True,
        )

    @ada.command(name="games", description="The games being set up or played in this server.")
    @friendly
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        recs = await self.store.games_in_guild(interaction.guild_id or 0)
        if not recs:
            await say(interaction, "No open games here. Create one with `/ada new`.")
            return
        lines = []
        for g in recs[-20:]:
            seats = ", ".join(s.name for s in (g.seats_in_turn_order or list(g.seats)))
            where = f"<#{g.thread_id}>" if g.thread_id else f"<#{g.channel_id}>"
            lines.append(f"#{g.id} · {g.status} · {where} · {seats or 'no seats'}")
        await say(interaction, "\n".join(lines))

    @ada.command(name="help", description="How to play Ada's Dream with this bot.")
    @friendly
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await say(interaction, HELP_TEXT)

    # ================================================================== commands: settings

    @ada.command(
        name="reminders",
        description="Switch your turn reminders on or off, or choose how they come.",
    )
    @app_commands.describe(
        enabled="Remind me when I haven't moved for a while.",
        via="dm: a direct message (falls back to the thread if DMs are closed); thread: a mention there.",
        hours="My own reminder delay in hours (default: the game's or server's).",
    )
    @app_commands.choices(
        via=[
            app_commands.Choice(name="dm", value="dm"),
            app_commands.Choice(name="thread", value="thread"),
        ]
    )
    @friendly
    async def reminders(
        self,
        interaction: discord.Interaction[Any],
        enabled: bool,
        via: app_commands.Choice[str] | None = None,
        hours: app_commands.Range[float, 0.25, 336.0] | None = None,
    ) -> None:
        kwargs: dict[str, Any] = {"reminders_enabled": enabled}
        if via is not None:
            kwargs["ping_mode"] = "dm" if via.value == "dm" else "channel"
        if hours is not None:
            kwargs["reminder_hours"] = float(hours)
        await self.store.set_user_settings(interaction.user.id, now=self.now(), **kwargs)
        if not enabled:
            for g in await self.store.games_for_user(interaction.user.id, ("active",)):
                await self.store.cancel_reminders(g.id, interaction.user.id)
        await say(
            interaction,
            "Reminders are "
            + ("on" if enabled else "off")
            + " for you"
            + (f", by {via.name}" if via else "")
            + (f", after {hours:g} h" if hours else "")
            + ".",
        )

    @ada.command(
        name="settings", description="Server settings: the default reminder delay (admins)."
    )
    @app_commands.describe(
        reminder_hours="Hours without a move before a player is reminded (default 12)."
    )
    @app_commands.default_permissions(manage_guild=True)
    @friendly
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        reminder_hours: app_commands.Range[float, 0.25, 336.0],
    ) -> None:
        if not (interaction.permissions.manage_guild or interaction.permissions.administrator):
            raise Oops("Only server admins (Manage Server) can change this.")
        await self.store.set_guild_settings(
            interaction.guild_id or 0, reminder_hours=float(reminder_hours), now=self.now()
        )
        await say(interaction, f"Reminders in this server now come after {reminder_hours:g} h.")


HELP_TEXT = """\
**Ada's Dream on Discord**
• `/ada new` in a text channel creates a game with its own thread; others press **Join** (or `/ada join`), \
the creator presses **Start**. Seat order and the first player are drawn.
• On your turn the bot mentions you in the thread. The turn message shows the board, your Mill, what just \
happened and one button (or menu entry) per legal choice. Prefer typing? `/ada play` suggests the legal choices.
• Decisions about your hand of Partner cards open privately: press **Show my choices**.
• **Undo** takes back your moves within your turn, up to the last dice roll, card draw or reveal.
• `/ada board`, `/ada mill`, `/ada score`, `/ada log`, `/ada rules`, `/ada hand`: information, only to you. \
`/ada final`: the scorepad once the game is over.
• Reminders come after 12 h without a move (DM, else the thread); `/ada reminders enabled:False` stops them.
"""


async def setup(bot: commands.Bot) -> None:
    from cogs.components import DYNAMIC_ITEMS

    config: BotConfig = bot.ada  # type: ignore[attr-defined]
    await bot.add_cog(GameCog(bot, config))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
