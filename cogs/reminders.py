"""Reminders: the player whose turn it is hears from the bot when they are slow (by DM where they
allow it, else in the thread), with backoff, at most four a day, and never once they opt out."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

import i18n
from cogs.backoff import Backoff
from cogs.base import AdaCog, defer, friendly, language_choices, say
from i18n import Lang
from store import EditionMissing, GameBroken, GameRecord, Reminder

log = logging.getLogger(__name__)

MIN_REMINDER_GAP = timedelta(hours=6)  # at most four reminders a day
MAX_REMINDER_GAP = timedelta(hours=48)


def backoff(hours: float, attempt: int) -> timedelta:
    """Delay before reminder ``attempt + 1``: doubling, at least 6 h, at most 48 h."""
    delay = timedelta(hours=hours * (2**attempt))
    return max(MIN_REMINDER_GAP, min(delay, MAX_REMINDER_GAP))


class RemindersCog(AdaCog, name="Reminders"):
    """Sends due reminders and lets players choose how (or whether) they are reminded."""

    async def cog_load(self) -> None:
        await super().cog_load()
        self.trouble = Backoff("sending a reminder", log)
        """Games whose reminder could not be sent: tried again with growing pauses."""
        self.reminder_loop.change_interval(seconds=self.games.cfg.reminder_interval)
        self.reminder_loop.start()

    async def cog_unload(self) -> None:
        self.reminder_loop.cancel()

    @tasks.loop(seconds=120)
    async def reminder_loop(self) -> None:
        if self.games.stopping:
            return  # the next process sends them
        try:
            await self.send_due_reminders()
        except Exception:
            log.exception("the reminder round failed")
        for game_id in list(self.games.stale):  # threads a failed update left behind
            await self.games.repair(game_id)
        await self.games.flush_shown()  # what the threads show, for a restart
        try:
            await self.games.sweep_ai_turns()
        except Exception:
            log.exception("the AI sweep failed")

    @reminder_loop.before_loop
    async def _before_reminders(self) -> None:
        await self.bot.wait_until_ready()

    async def send_due_reminders(self) -> int:
        """Send every reminder that is due (once, even if several periods were missed while
        the bot was down), then plan the next one with backoff. A member with several games
        due gets one message naming them all; a member who is away (``/ada away``) gets
        none: their reminders wait for their return. Returns how many were sent."""
        now = self.games.now()
        owner = self.games.owner
        due: dict[int, list[tuple[Reminder, GameRecord, float]]] = {}
        # Claimed first: of several bot processes on one database, one sends each reminder;
        # each claims only its own shards' (another's clock must not take a claim being sent)
        for rem in await self.store.claim_due_reminders(now, owner, shards=self.games.shards):
            try:
                rec = await self.store.get_game(rem.game_id)
                try:  # a game that cannot be played now is set aside (and announced), not nagged
                    await self.store.load_state(rem.game_id)
                except (GameBroken, EditionMissing):
                    await self.store.cancel_reminders(rem.game_id)
                    continue
                enabled, hours = await self.games.reminder_hours(rec, rem.user_id)
                if not enabled:
                    await self.store.cancel_reminders(rem.game_id, rem.user_id)
                    continue
                away = await self.store.away_until(rem.user_id, now)
                if away is not None:  # issue 30: paused until the player is back
                    await self.store.schedule_reminder(
                        rem.game_id, rem.user_id, away, rem.seq, now=now
                    )
                    continue
                if not await self.games.is_member(rec.guild_id, rem.user_id):
                    await self.left_notice(rec, rem.user_id)
                    await self.store.mark_reminder_sent(rem.id, now=now, owner=owner)
                    continue  # no more reminders for someone who left
                if not self.trouble.due(rec.id, now):  # it failed lately: after a pause
                    await self.store.release_reminder(rem.id, owner)
                    continue
                due.setdefault(rem.user_id, []).append((rem, rec, hours))
            except Exception:
                log.exception("reminder %s failed", rem.id)
        sent = 0
        for user_id, items in due.items():
            delivered = False
            try:
                if len(items) == 1:
                    rem, rec, _hours = items[0]
                    await self.send_reminder(rec, user_id, rem.attempt)
                else:
                    await self.send_reminders(user_id, [rec for _, rec, _ in items])
                delivered = True
            except discord.HTTPException as exc:
                for _rem, rec, _hours in items:
                    self.trouble.failed(rec.id, now, exc)  # tried again after a pause
            except Exception:
                log.exception("reminders of user %s failed", user_id)
            for rem, rec, hours in items:
                try:
                    if not delivered:
                        await self.store.release_reminder(rem.id, owner)
                        continue
                    self.trouble.succeeded(rec.id, now)
                    if not await self.store.mark_reminder_sent(rem.id, now=now, owner=owner):
                        log.warning(
                            "reminder %s: the claim ran out while it was being sent", rem.id
                        )
                        continue
                    sent += 1
                    await self.store.schedule_reminder(
                        rem.game_id,
                        rem.user_id,
                        now + backoff(hours, rem.attempt),
                        rem.seq,
                        now=now,
                    )
                except Exception:
                    log.exception("reminder %s failed", rem.id)
        return sent

    async def send_reminders(self, user_id: int, recs: list[GameRecord]) -> None:
        """One DM for several games waiting on the member ("3 games are waiting for you"),
        else a reminder in each game's thread; raises discord.HTTPException if none could be
        sent."""
        tr = await self.games.dm_lang(recs[0], user_id)
        links = [
            tr._("#{id}: {link}", id=rec.id, link=await self.games.current_link(rec))
            + self.board_link(rec, tr)
            for rec in recs
        ]
        text = "\n".join(
            [
                tr.n_(
                    "⏰ Reminder: {n} game of Ada's Dream is waiting for you:",
                    "⏰ Reminder: {n} games of Ada's Dream are waiting for you:",
                    len(recs),
                ),
                *links,
                tr._("Switch reminders off with `/ada reminders enabled:False`."),
            ]
        )
        settings = await self.store.user_settings(user_id)
        if (settings.ping_mode or "dm") == "dm":
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(text)
                log.info("reminded user %s of %d games by DM", user_id, len(recs))
                return
            except discord.HTTPException as exc:
                log.info("DM to %s failed (%s); reminding in the threads", user_id, exc)
        failure: discord.HTTPException | None = None
        reached = False
        for rec in recs:
            try:
                await self.send_reminder(rec, user_id, 1, dm=False)
                reached = True
            except discord.HTTPException as exc:
                failure = exc
        if not reached and failure is not None:
            raise failure

    def board_link(self, rec: GameRecord, tr: Lang) -> str:
        """With the Activity set up: a line with Discord's link that opens the board on this
        game (its ``custom_id`` names the game; the sign-in accepts it only from a player
        seated there). Else nothing: the link to the turn message is enough."""
        link = self.games.cfg.activity.deep_link(rec.id)
        if link is None:
            return ""
        quiet = "<" + link + ">"  # (no embed under the reminder)
        return "\n" + tr._("Open the board: {link}", link=quiet)

    async def left_notice(self, rec: GameRecord, user_id: int) -> None:
        log.info("game %s: user %s has left the server", rec.id, user_id)
        tr = self.game_lang(rec)
        await self.games.announce(
            rec,
            tr._(
                "<@{user}> has left the server, and game #{id} is waiting for them. "
                "The game's creator or a server admin can end it with `/ada cancel`.",
                user=user_id,
                id=rec.id,
            ),
        )

    async def send_reminder(
        self, rec: GameRecord, user_id: int, attempt: int, *, dm: bool = True
    ) -> None:
        """By DM (if the member wants that, ``dm``, and it goes through), else in the thread;
        raises discord.HTTPException if neither could be sent."""
        link = await self.games.current_link(rec)
        settings = await self.store.user_settings(user_id)
        mode = (settings.ping_mode or "dm") if dm else "channel"

        def text(tr: Lang) -> str:
            nth = tr._(" (reminder {n})", n=attempt) if attempt > 1 else ""
            said = tr._(
                "⏰ Reminder: it's your turn in Ada's Dream game #{id}{nth}: {link}\n"
                "Switch reminders off with `/ada reminders enabled:False`.",
                id=rec.id,
                nth=nth,
                link=link,
            )
            first, _, rest = said.partition("\n")
            return f"{first}{self.board_link(rec, tr)}\n{rest}"

        if mode == "dm":
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(text(await self.games.dm_lang(rec, user_id)))
                log.info("game %s: reminded user %s by DM", rec.id, user_id)
                return
            except discord.HTTPException as exc:
                log.info(
                    "game %s: DM to %s failed (%s); reminding in the thread", rec.id, user_id, exc
                )
        channel = await self.games.channel(rec.thread_id or rec.channel_id)
        await channel.send(
            f"<@{user_id}> {text(self.game_lang(rec))}",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )
        log.info("game %s: reminded user %s in the thread", rec.id, user_id)

    @app_commands.command(
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
        """Your own reminders: on or off, by DM or in the thread, and after how long."""
        await defer(interaction)
        kwargs: dict[str, Any] = {"reminders_enabled": enabled}
        if via is not None:
            kwargs["ping_mode"] = "dm" if via.value == "dm" else "channel"
        if hours is not None:
            kwargs["reminder_hours"] = float(hours)
        await self.store.set_user_settings(interaction.user.id, now=self.games.now(), **kwargs)
        if not enabled:
            for g in await self.store.games_for_user(interaction.user.id, ("active",)):
                await self.store.cancel_reminders(g.id, interaction.user.id)
        tr = await self.lang_of(interaction)
        parts = [tr._("Reminders are on for you") if enabled else tr._("Reminders are off for you")]
        if via is not None:
            parts.append(tr._("by DM") if via.value == "dm" else tr._("in the thread"))
        if hours:
            parts.append(tr._("after {hours} h", hours=tr.num(hours)))
        await say(interaction, tr._(", ").join(parts) + tr._("."))

    @app_commands.command(
        name="language",
        description="The language of your private answers and DMs from the bot.",
    )
    @app_commands.describe(
        language="A language, or your Discord app's language (the default).",
    )
    @app_commands.choices(language=language_choices("Follow my Discord language"))
    @friendly
    async def language(
        self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]
    ) -> None:
        """Your own language for what the bot says only to you (private answers, DMs and the
        pictures in them). Public messages in a game's thread stay in the game's language."""
        await defer(interaction)
        chosen = None if language.value == "discord" else language.value
        await self.store.set_user_settings(
            interaction.user.id, language=chosen, now=self.games.now()
        )
        self.games.forget_language(interaction.user.id)
        tr = await self.lang_of(interaction)
        if chosen is None:
            text = tr._("I'll answer you in your Discord app's language.")
        else:
            text = tr._("I'll answer you in {language}.", language=i18n.NAMES[chosen])
        await say(interaction, text)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RemindersCog(bot))
