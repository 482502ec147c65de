"""Playing: the turn message's buttons and menus, ``/ada play``, ``/ada undo``, ``/ada refresh``.

A click is answered with the updated turn message itself when it is ready in time, else
acknowledged first and the message edited after (``cogs.clicks``; Discord allows 3 seconds).
When the move leads to a decision about the player's hand, its choices come straight back to
that player privately, with no extra click.
"""

from __future__ import annotations

import logging
import re
import time
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import ui
from cogs.base import AdaCog, defer, friendly, say
from cogs.clicks import ClickAnswer
from cogs.service import SHOWN_KEPT, Oops, Played, Recent
from cogs.text import one_line
from engine import GameState, IllegalChoice
from i18n import Lang
from i18n import game as words
from store import GameRecord

log = logging.getLogger(__name__)

REFRESH_GAP = timedelta(minutes=5)


def parse_choice(
    text: str, state: GameState, seq: int, tr: Lang | None = None
) -> tuple[int | None, int]:
    """(seq the choice was offered at, index) from an autocomplete value ("#seq:idx"), a number,
    a choice id or a label (in English or in the language ``tr``). Raises IllegalChoice."""
    dec = state.decision
    assert dec is not None
    m = re.fullmatch(r"#(\d+):(\d+)", text.strip())
    if m:
        return int(m[1]), int(m[2])
    t = text.strip().lower()
    if t.isdigit() and 1 <= int(t) <= len(dec.choices):
        return seq, int(t) - 1
    said = words.labels(tr, state, dec) if tr is not None else [c.label for c in dec.choices]
    for i, c in enumerate(dec.choices):
        for label in {c.label, said[i]}:
            if c.id.lower() == t or label.lower() == t or f"{i + 1}. {label}".lower() == t:
                return seq, i
    matches = [
        i for i, c in enumerate(dec.choices) if t and (t in c.label.lower() or t in said[i].lower())
    ]
    if len(matches) == 1:
        return seq, matches[0]
    raise IllegalChoice(text)


class PlayCog(AdaCog, name="Play"):
    """Making moves: the turn message's components, ``/ada play``, undo and refresh."""

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.refreshed = Recent(SHOWN_KEPT)  # game -> when its turn message was last re-posted
        self.resumed = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self.resumed:
            return
        self.resumed = True
        await self.resume_games()

    async def resume_games(self) -> None:
        """After a start: bring the threads of this process's active games up to date (only
        those that are behind), restart AI seats (``GameService.resume``)."""
        try:
            await self.games.resume()
        except Exception:
            log.exception("could not resume the active games")

    # ------------------------------------------------------------------ after a move

    async def tell_player(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        played: Played,
        answer: ClickAnswer,
        *,
        from_private: bool,
    ) -> None:
        """The clicking player's private answer: their next decision about their hand (at once,
        no "Show my choices" click), or that the private step is done."""
        tr = await self.lang_of(interaction)
        done = played.label(tr) or None
        if not played.shown:
            await answer.say(
                tr._(
                    "Your move **{move}** counted, but I couldn't update the game thread. It "
                    "will show again with the next move, or use `/ada refresh`.",
                    move=one_line(done or tr._("undo"), 200),
                )
            )
        state = played.new
        dec = state.decision
        seat = rec.seat_of(interaction.user.id)
        seq = len(state.history)
        try:
            if dec is not None and dec.player == seat and dec.private and seat is not None:
                view = ui.private_layout(rec, state, seq, seat, tr, done=done)
                if from_private:
                    await answer.edit_original(view=view)
                else:
                    await answer.send_private(view=view)
            elif from_private:
                link = await self.games.current_link(rec)
                head = (
                    tr._("✅ You chose: {choice}", choice=one_line(done, 300)) + "\n"
                    if done
                    else ""
                )
                await answer.edit_original(
                    view=ui.text_layout(head + tr._("The game continues: {link}", link=link))
                )
        except discord.HTTPException:
            pass  # the move counted; the public message shows the game

    # ------------------------------------------------------------------ components
    # A click is answered with the updated message itself when that is ready in time (one REST
    # call), else acknowledged first (``cogs.clicks``). A click on a private message updates
    # the public turn message the ordinary way: the answer is the private message's update.

    async def on_choice(
        self, interaction: discord.Interaction[Any], game: int, seq: int, idx: int
    ) -> None:
        started = time.perf_counter()
        from_private = bool(interaction.message and interaction.message.flags.ephemeral)
        answer = self.answer(interaction)

        async def run() -> None:
            rec, state, current = await self.store.game_and_state(game)  # the click's one read
            await self.check_place(interaction, rec)
            known = (state, current) if state is not None else None
            played = await self.games.play(
                interaction.user.id,
                rec,
                seq,
                idx=idx,
                known=known,
                answer=None if from_private else answer,
            )
            await self.tell_player(interaction, rec, played, answer, from_private=from_private)

        await self.guard(interaction, run(), answer)
        if self.games.metrics is not None:
            self.games.metrics.click_seconds.observe(time.perf_counter() - started)

    async def on_group(
        self, interaction: discord.Interaction[Any], game: int, seq: int, group: int | None
    ) -> None:
        """Open one group of choices (or go back to all of them) on the same message."""
        message = interaction.message
        from_private = bool(message and message.flags.ephemeral)
        answer = self.answer(interaction)

        async def run() -> None:
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            state, current, seat = await self.games.check_turn(interaction.user.id, rec, seq)
            if from_private:
                tr = await self.lang_of(interaction)
                view = ui.private_layout(rec, state, current, seat, tr, group=group)
            else:  # the public turn message: in the game's language
                image = message.attachments[0].filename if message and message.attachments else None
                view = ui.turn_layout(
                    rec,
                    state,
                    current,
                    image=image,
                    tr=self.game_lang(rec),
                    group=group,
                    activity=self.games.cfg.activity.enabled,
                )
            await answer.edit_original(view=view)

        await self.guard(interaction, run(), answer)

    async def on_private(self, interaction: discord.Interaction[Any], game: int, seq: int) -> None:
        answer = self.answer(interaction, private=True)

        async def run() -> None:
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            state, current, seat = await self.games.check_turn(interaction.user.id, rec, seq)
            tr = await self.lang_of(interaction)
            await answer.send_private(view=ui.private_layout(rec, state, current, seat, tr))

        await self.guard(interaction, run(), answer)

    async def on_undo(self, interaction: discord.Interaction[Any], game: int, seq: int) -> None:
        from_private = bool(interaction.message and interaction.message.flags.ephemeral)
        answer = self.answer(interaction)

        async def run() -> None:
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            played = await self.games.undo(
                interaction.user.id, rec, seq, None if from_private else answer
            )
            await self.tell_player(interaction, rec, played, answer, from_private=from_private)

        await self.guard(interaction, run(), answer)

    async def on_old_page(self, interaction: discord.Interaction[Any], game: int, seq: int) -> None:
        """A page button of a turn message from before choices were grouped: show the turn anew."""
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def run() -> None:
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            await self.games.check_turn(interaction.user.id, rec, seq)
            async with self.games.locks[game]:
                state, current = await self.store.load_state(game)
                await self.games.publish_turn(rec, state, current, how="again", ping=False)
            tr = await self.lang_of(interaction)
            link = await self.games.current_link(rec)
            await say(interaction, tr._("Here is the turn again: {link}", link=link))

        await self.guard(interaction, run())

    # ------------------------------------------------------------------ slash commands

    async def choice_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            rec = await self.game_for(
                interaction, getattr(interaction.namespace, "game", None), ("active",)
            )
            state, seq = await self.store.load_state(rec.id)
        except Exception:
            return []
        dec = state.decision
        seat = rec.seat_of(interaction.user.id)
        if dec is None:
            return []
        tr = await self.lang_of(interaction)
        if dec.player != seat:
            who = ui.seat_name(rec.seat_at(dec.player), tr, markdown=False)
            text = tr._("It's not your turn (waiting for {name})", name=who)
            return [app_commands.Choice(name=one_line(text, 100), value="-")]
        typed = current.lower().split()
        out = []
        for i, said in enumerate(words.labels(tr, state, dec)):
            label = f"{i + 1}. {said}"
            if all(w in label.lower() for w in typed):
                out.append(app_commands.Choice(name=one_line(label, 100), value=f"#{seq}:{i}"))
        return out[:25]

    @app_commands.command(
        name="play", description="Make your move by typing: pick one of the legal choices."
    )
    @app_commands.describe(
        choice="Start typing: the legal choices of your current decision are suggested.",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(choice=choice_autocomplete, game=AdaCog.game_autocomplete)
    async def play(
        self, interaction: discord.Interaction[Any], choice: str, game: int | None = None
    ) -> None:
        """Make a move by typing (autocomplete lists the legal choices)."""
        answer = self.answer(interaction, private=True)  # the answer: one private message

        async def run() -> None:
            rec = await self.game_for(interaction, game, ("active",))
            state, seq, _seat = await self.games.check_turn(interaction.user.id, rec, None)
            tr = await self.lang_of(interaction)
            offered, idx = parse_choice(choice, state, seq, tr)
            played = await self.games.play(
                interaction.user.id, rec, offered, idx=idx, known=(state, seq)
            )
            if not played.shown:
                await self.tell_player(interaction, rec, played, answer, from_private=False)
                return
            dec = played.new.decision
            seat = rec.seat_of(interaction.user.id)
            done = played.label(tr)
            text = tr._("✅ Played: {choice}", choice=one_line(done, 300))
            if dec is not None and dec.player == seat and seat is not None:
                if dec.private:
                    await answer.send_private(
                        view=ui.private_layout(
                            rec, played.new, len(played.new.history), seat, tr, done=done
                        )
                    )
                    return
                text += "\n" + tr._("Next: **{prompt}**", prompt=words.prompt(tr, dec))
            await answer.say(text)

        await self.guard(interaction, run(), answer)

    @app_commands.command(
        name="undo",
        description="Take back your last move (within your turn, up to the last reveal).",
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    async def undo(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Take back your last move, within your turn and up to the last reveal."""
        answer = self.answer(interaction, private=True)

        async def run() -> None:
            rec = await self.game_for(interaction, game, ("active",))
            played = await self.games.undo(interaction.user.id, rec, None)
            if not played.shown:
                await self.tell_player(interaction, rec, played, answer, from_private=False)
                return
            tr = await self.lang_of(interaction)
            await answer.say(tr._("↩️ Your last move was taken back."))

        await self.guard(interaction, run(), answer)

    @app_commands.command(
        name="refresh", description="Post the current turn message again (players of the game)."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def refresh(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Post the turn message again at the bottom of the thread (seated players; at most once
        every few minutes; it mentions the player only if a reminder is due)."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("active",))
        if rec.seat_of(interaction.user.id) is None:
            raise Oops("Only the players of game #{id} can post its turn again.", id=rec.id)
        now = self.games.now()
        last = self.refreshed.get(rec.id)
        if last is not None and now - last < REFRESH_GAP and rec.id not in self.games.stale:
            minutes = max(1, int((now - last).total_seconds() // 60))
            raise Oops(
                "The turn was posted again {minutes} min ago: {link}",
                minutes=minutes,
                link=await self.games.current_link(rec),
            )
        async with self.games.locks[rec.id]:
            state, seq = await self.store.load_state(rec.id)
            if state.decision is None:
                raise Oops("Game #{id} is over: see `/ada final`.", id=rec.id)
            due = any(
                r.seq == seq and r.due_at <= now for r in await self.store.pending_reminders(rec.id)
            )
            await self.games.publish_turn(rec, state, seq, how="again", ping=due)
        self.refreshed[rec.id] = now
        tr = await self.lang_of(interaction)
        await say(interaction, tr._("Posted: {link}", link=await self.games.current_link(rec)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
