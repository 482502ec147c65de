"""What the bot remembers about people (issue 30): history, profiles, the leaderboard, time away
and privacy, under ``/ada``; server stats, the longest allowed absence and the rebuild of every
record, under ``/ada-admin``. Everything is read from the records the game ends keep
(``store.records``), so no answer replays a game. Everything is private to the asker."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs import admin, ui
from cogs.base import AdaCog, defer, friendly, say
from cogs.service import Oops, OopsN
from cogs.text import shorten
from i18n import Lang
from render.records import BoardRow, draw_leaderboard, draw_profile
from render.scorepad import ORDINAL
from store.records import HistoryEntry, Reliability
from store.tally import PROVISIONAL_GAMES

log = logging.getLogger(__name__)

PAGE = 8
"""Games on one page of ``/ada history``."""
BOARD = 15
"""Members on the leaderboard."""


def place_text(tr: Lang, place: int) -> str:
    return tr._(ORDINAL[place - 1]) if 0 < place <= len(ORDINAL) else str(place)


def percent(tr: Lang, part: float, whole: float) -> str:
    return tr._("{n}%", n=tr.num(round(100 * part / whole))) if whole else "–"


def duration_text(tr: Lang, seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 60:
        return tr._("{m} min", m=minutes)
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return tr._("{h} h {m} min", h=hours, m=minutes)
    return tr._("{d} days", d=tr.num(round(hours / 24, 1)))


def reliability_text(tr: Lang, r: Reliability | None) -> str:
    """'on time 92% · 3 turns by a stand-in · 1 game left' (or that there is nothing yet)."""
    if r is None or r.on_time is None:
        return tr._("no finished games yet")
    return " · ".join(
        (
            tr._("on time {on_time}", on_time=percent(tr, r.on_time, 1)),
            tr.n_("{n} turn by a stand-in", "{n} turns by a stand-in", r.standin_turns),
            tr.n_("{n} game left", "{n} games left", r.games_left),
        )
    )


async def lobby_reliability(store: Any, rec: Any, tr: Lang) -> dict[int, str]:
    """What a lobby shows next to each member: how they finish games in this server (nothing
    for a member with no finished game, or who hid their profile)."""
    users = [s.user_id for s in rec.seats if s.user_id is not None and not s.is_ai]
    found = await store.reliability(rec.guild_id, users)
    return {u: reliability_text(tr, r) for u, r in found.items()}


class HistoryPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:h:(?P<user>\d+):(?P<page>\d+)",
):
    """A page button of ``/ada history`` (the member and the page are in its custom id, so it
    works after a restart)."""

    def __init__(self, user: int, page: int, item: discord.ui.Button[Any] | None = None) -> None:
        super().__init__(item or discord.ui.Button(custom_id=f"ada:h:{user}:{page}"))
        self.user, self.page = user, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> HistoryPage:
        return cls(int(match["user"]), int(match["page"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Records")  # type: ignore[attr-defined]
        assert cog is not None
        await cog.on_history_page(interaction, self.user, self.page)


class RecordsCog(AdaCog, name="Records"):
    """History, profiles, the leaderboard and privacy under ``/ada records``; time away
    (``/ada away``); your games (``/ada games``). (``/ada`` may hold 25 commands: the records
    share one of them.)"""

    records = app_commands.Group(
        name="records", description="Finished games, profiles and the leaderboard of this server."
    )

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(HistoryPage)

    # ------------------------------------------------------------------ who is asked about

    async def member_asked(
        self, interaction: discord.Interaction[Any], member: discord.User | discord.Member | None
    ) -> tuple[int, str]:
        """(user id, name) of the member a command is about (default: the asker). Refuses
        someone who is not in this server, and a member who hid their profile (to others)."""
        if member is None:
            return interaction.user.id, interaction.user.display_name
        if not await self.is_member(interaction.guild, member.id):
            raise Oops("{name} is not a member of this server.", name=member.display_name)
        if member.id != interaction.user.id and (await self.store.member_record(member.id)).hidden:
            raise Oops("{name} keeps their profile private.", name=member.display_name)
        return member.id, member.display_name

    @staticmethod
    async def is_member(guild: discord.Guild | None, user_id: int) -> bool:
        if guild is None:
            return False
        if guild.get_member(user_id) is not None:
            return True
        try:
            await guild.fetch_member(user_id)
            return True
        except discord.NotFound:
            return False

    async def names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """Display names of members (the name they last played under if they left)."""
        guild = self.bot.get_guild(guild_id)
        out = await self.store.last_names(guild_id, user_ids)
        for u in user_ids:
            m = guild.get_member(u) if guild is not None else None
            if m is not None:
                out[u] = m.display_name
        return out

    # ------------------------------------------------------------------ history

    @records.command(name="history", description="A member's finished games in this server.")
    @app_commands.describe(member="Whose games (default: yours).")
    @friendly
    async def history(
        self, interaction: discord.Interaction[Any], member: discord.User | None = None
    ) -> None:
        """A member's finished games in this server, newest first: date, players, place, score
        and a link to the thread, a page at a time."""
        await defer(interaction)
        user_id, name = await self.member_asked(interaction, member)
        text, view = await self.history_page(interaction, user_id, name, 0)
        await interaction.followup.send(text, view=view, ephemeral=True)

    async def on_history_page(
        self, interaction: discord.Interaction[Any], user_id: int, page: int
    ) -> None:
        async def run() -> None:
            if not await self.is_member(interaction.guild, user_id):
                who = f"<@{user_id}>"
                raise Oops("{name} is not a member of this server.", name=who)
            name = (await self.names(interaction.guild_id or 0, [user_id])).get(user_id, "")
            if user_id != interaction.user.id and (await self.store.member_record(user_id)).hidden:
                raise Oops("{name} keeps their profile private.", name=name)
            text, view = await self.history_page(interaction, user_id, name, page)
            await interaction.response.edit_message(content=text, view=view)

        await self.guard(interaction, run())

    async def history_page(
        self, interaction: discord.Interaction[Any], user_id: int, name: str, page: int
    ) -> tuple[str, discord.ui.View]:
        tr = await self.lang_of(interaction)
        guild_id = interaction.guild_id or 0
        entries, total = await self.store.history(guild_id, user_id, offset=page * PAGE, limit=PAGE)
        view = discord.ui.View(timeout=None)
        if total == 0:
            raise Oops("{name} has no finished games in this server yet.", name=name)
        if not entries:
            raise Oops("There is no such page.")
        pages = (total + PAGE - 1) // PAGE
        others = {p[1] for e in entries for p in e.players if p[1] is not None} - {
            user_id,
            interaction.user.id,
        }
        hidden = {u for u, r in (await self.store.member_records(others)).items() if r.hidden}
        lines = [
            tr._(
                "**Finished games of {name}** ({total}), page {page} of {pages}",
                name=name,
                total=total,
                page=page + 1,
                pages=pages,
            )
        ]
        lines += [self.history_line(tr, e, hidden) for e in entries]
        for label, target, on in (
            (tr._("◀ Newer"), page - 1, page > 0),
            (tr._("Older ▶"), page + 1, page + 1 < pages),
        ):
            button = discord.ui.Button(
                label=label, custom_id=f"ada:h:{user_id}:{max(0, target)}", disabled=not on
            )
            view.add_item(button)
        view.stop()  # handled by the dynamic item, never stored
        return shorten("\n".join(lines), 1900), view

    def history_line(self, tr: Lang, e: HistoryEntry, hidden: set[int]) -> str:
        table = ", ".join(
            f"{tr._('a private player') if u in hidden else n} {score}"
            for n, u, _place, score in e.players
        )
        where = f"<#{e.thread_id or e.channel_id}>"
        return tr._(
            "**#{id}** {date} · {place} of {players} · {score} Prestige · {table} · {where}",
            id=e.game_id,
            date=discord.utils.format_dt(e.finished_at, "d"),
            place=place_text(tr, e.place) + (" ★" if e.won else ""),
            players=len(e.players),
            score=e.score,
            table=table,
            where=where,
        )

    # ------------------------------------------------------------------ your games

    @app_commands.command(
        name="games", description="Your games here (those waiting for you first), then the others."
    )
    @friendly
    async def games_command(self, interaction: discord.Interaction[Any]) -> None:
        """The games you are in here, those waiting for your move first, with links and who
        each waits on (and if they are away); then the server's other open games."""
        await defer(interaction)
        tr = await self.lang_of(interaction)
        me = interaction.user.id
        recs = await self.store.games_in_guild(interaction.guild_id or 0)
        if not recs:
            raise Oops("No open games here. Create one with `/ada new`.")
        mine = [
            g for g in recs if g.seat_of(me) is not None or any(s.user_id == me for s in g.seats)
        ]
        moving = await self.store.to_move_of([g.id for g in mine if g.status == "active"])
        waiting_on = {g.id: g.seat_at(moving[g.id]) for g in mine if g.id in moving}
        away = await self.store.member_records(
            s.user_id for s in waiting_on.values() if s is not None and s.user_id is not None
        )
        now = self.games.now()
        yours, others = [], []
        for g in mine:
            link = await self.games.current_link(g)
            seat = waiting_on.get(g.id)
            if seat is not None and seat.user_id == me:
                yours.append(tr._("#{id}: **your move** · {link}", id=g.id, link=link))
            elif seat is not None:
                line = tr._("#{id}: waiting on {name} · {link}", id=g.id, name=seat.name, link=link)
                record = away.get(seat.user_id or 0)
                if record is not None and record.away_until and record.away_until > now:
                    line += " · " + tr._(
                        "away until {date}", date=discord.utils.format_dt(record.away_until, "D")
                    )
                others.append(line)
            else:
                others.append(f"#{g.id} · {tr.p_('status', g.status)} · {link}")
        lines = []
        if mine:
            lines.append(
                tr.n_(
                    "**{n} game is waiting for you**",
                    "**{n} games are waiting for you**",
                    len(yours),
                )
            )
            lines += yours + others
        rest = [g for g in recs if g not in mine]
        if rest:
            lines.append(tr._("**Other open games here**"))
        for g in rest[-20:]:
            order = g.seats_in_turn_order or list(g.seats)
            seats = ", ".join(ui.seat_name(s, tr) for s in order) or tr._("no seats")
            where = f"<#{g.thread_id}>" if g.thread_id else f"<#{g.channel_id}>"
            lines.append(f"#{g.id} · {tr.p_('status', g.status)} · {where} · {seats}")
        await say(interaction, "\n".join(lines))

    # ------------------------------------------------------------------ profile

    @records.command(
        name="profile", description="A member's results, ratings and reliability here."
    )
    @app_commands.describe(
        member="Whose profile (default: yours).",
        hidden="True: hide your profile and history, leave the leaderboard. False: show them.",
    )
    @friendly
    async def profile(
        self,
        interaction: discord.Interaction[Any],
        member: discord.User | None = None,
        hidden: bool | None = None,
    ) -> None:
        """A member's games, wins against what the seat counts lead to expect, scores, rating,
        reliability and time to move in this server, with a chart of their average in each
        scorepad category against the server's. With ``hidden``: your privacy (your games
        stay as they are and your rating is kept, unseen)."""
        await defer(interaction)
        tr = await self.lang_of(interaction)
        if hidden is not None:
            await self.set_privacy(interaction, member, hidden)
            return
        user_id, name = await self.member_asked(interaction, member)
        profile = await self.store.profile(interaction.guild_id or 0, user_id)
        if profile is None:
            raise Oops("{name} has no finished games in this server yet.", name=name)
        s = profile.stats
        rel = Reliability(s.turns, s.late_turns, s.standin_turns, profile.games_left)
        lines = [
            tr._("**{name}** in this server", name=name),
            tr._(
                "Games {games} · wins {wins} ({rate}; {expected} expected from the seat counts)",
                games=s.games,
                wins=s.wins,
                rate=percent(tr, s.wins, s.games),
                expected=percent(tr, s.expected_wins, s.games),
            ),
            tr._(
                "Average score {average} · best {best}",
                average=tr.num(round(s.score_sum / s.games, 1)),
                best=s.best_score,
            ),
        ]
        if s.rating is not None:
            lines.append(
                tr.n_(
                    "Rating {ordinal} (skill {mu}, uncertainty {sigma}) over {n} rated game",
                    "Rating {ordinal} (skill {mu}, uncertainty {sigma}) over {n} rated games",
                    s.rated_games,
                    ordinal=tr.num(round(s.rating.ordinal, 1)),
                    mu=tr.num(round(s.rating.mu, 1)),
                    sigma=tr.num(round(s.rating.sigma, 1)),
                )
                + (" · " + tr._("provisional") if s.provisional else "")
            )
        else:
            lines.append(tr._("Not rated yet (rated games have at least two people)."))
        lines.append(
            tr._(
                "Turns played {turns}: {reliability}",
                turns=s.turns,
                reliability=reliability_text(tr, rel),
            )
        )
        if profile.median_wait is not None:
            lines.append(
                tr._("Median time to move: {time}", time=duration_text(tr, profile.median_wait))
            )
        lines.append(tr._("Games where an AI stood in: {n}", n=s.standin_games))
        if user_id == interaction.user.id and (await self.store.member_record(user_id)).hidden:
            lines.append(
                tr._(
                    "Your profile is hidden from others (`/ada records profile hidden:False` shows it)."
                )
            )
        mine = [v / s.games for v in s.categories]
        title = tr._("{name}: scorepad", name=name)
        legend = (name, tr._("server average"))
        png = await asyncio.to_thread(
            _png, tr, draw_profile, title, mine, list(profile.server_categories), legend
        )
        await self.send_picture(interaction, "\n".join(lines), png, "profile.png")

    async def set_privacy(
        self,
        interaction: discord.Interaction[Any],
        member: discord.User | None,
        hidden: bool,
    ) -> None:
        if member is not None and member.id != interaction.user.id:
            raise Oops("You can only change your own privacy.")
        tr = await self.lang_of(interaction)
        await self.store.set_hidden(interaction.user.id, hidden, now=self.games.now())
        if hidden:
            text = tr._(
                "Your profile and history are hidden from others, and you are off the leaderboard."
            )
        else:
            text = tr._("Your profile, history and place on the leaderboard are shown again.")
        await say(interaction, text)

    async def send_picture(
        self, interaction: discord.Interaction[Any], text: str, png: bytes, filename: str
    ) -> None:
        await interaction.followup.send(
            shorten(text, 1900), file=discord.File(io.BytesIO(png), filename), ephemeral=True
        )

    # ------------------------------------------------------------------ leaderboard

    @records.command(name="leaderboard", description="The server's ratings, best first.")
    @friendly
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        """The rated members of this server by rating (skill minus three times its
        uncertainty, so few games rank low), with games played; a rating of fewer than five
        games is marked provisional. As a picture and as text."""
        await defer(interaction)
        tr = await self.lang_of(interaction)
        guild_id = interaction.guild_id or 0
        board = await self.store.leaderboard(guild_id, limit=BOARD)
        if not board:
            raise Oops(
                "Nobody is rated in this server yet: a rating comes with a finished game of at "
                "least two people."
            )
        names = await self.names(guild_id, [s.user_id for s in board])
        rows = [
            BoardRow(
                k + 1,
                names.get(s.user_id, str(s.user_id)),
                s.rating.ordinal if s.rating else 0.0,
                s.rated_games,
                s.provisional,
            )
            for k, s in enumerate(board)
        ]
        lines = [tr._("**Leaderboard**")]
        for r in rows:
            lines.append(
                tr.n_(
                    "{rank}. {name}: {rating} ({n} game)",
                    "{rank}. {name}: {rating} ({n} games)",
                    r.games,
                    rank=r.rank,
                    name=r.name,
                    rating=tr.num(round(r.ordinal, 1)),
                )
                + (" *" if r.provisional else "")
            )
        lines.append(
            tr._(
                "-# * provisional: fewer than {n} rated games. `/ada records profile hidden:True` leaves the leaderboard.",
                n=PROVISIONAL_GAMES,
            )
        )
        png = await asyncio.to_thread(_png, tr, draw_leaderboard, tr._("Leaderboard"), rows)
        await self.send_picture(interaction, "\n".join(lines), png, "leaderboard.png")

    # ------------------------------------------------------------------ time away

    @app_commands.command(
        name="away", description="Tell the bot you are away until a date (no date: you are back)."
    )
    @app_commands.describe(
        until="The last day you are away, as YYYY-MM-DD (e.g. 2026-12-24); leave out when back."
    )
    @friendly
    async def away(self, interaction: discord.Interaction[Any], until: str | None = None) -> None:
        """Until the end of the given day (UTC), your reminders pause, a stand-in can't be
        asked for your turns before then, your games' turn messages say you are away, and the
        other players see it. The server sets the longest absence allowed. Without a date:
        you are back, and reminders start again."""
        await defer(interaction)
        tr = await self.lang_of(interaction)
        now = self.games.now()
        if until is None:
            if await self.store.away_until(interaction.user.id, now) is None:
                raise Oops(
                    "You are not away. To be, give the last day: `/ada away until:2026-12-24`."
                )
            await self.store.set_away(interaction.user.id, None, now=now)
            self.games.forget_away(interaction.user.id)
            await self.refresh_turns(interaction.user.id, back=True)
            await say(interaction, tr._("Welcome back: your reminders start again."))
            return
        try:
            day = date.fromisoformat(until.strip())
        except ValueError:
            raise Oops("Give the date as YYYY-MM-DD, e.g. 2026-12-24.") from None
        back = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
        if back <= now:
            raise Oops("That date is already past.")
        days = await self.store.max_away_days(interaction.guild_id or 0)
        if back - now > timedelta(days=days):
            raise OopsN(
                "This server allows an absence of at most {n} day.",
                "This server allows an absence of at most {n} days.",
                days,
            )
        await self.store.set_away(interaction.user.id, back, now=now)
        self.games.forget_away(interaction.user.id)
        await self.refresh_turns(interaction.user.id)
        await say(
            interaction,
            tr._(
                "You are away until {date}: your reminders pause and nobody can ask a stand-in "
                "for your turns before then. `/ada away` without a date ends it early.",
                date=discord.utils.format_dt(back, "f"),
            ),
        )

    async def refresh_turns(self, user_id: int, *, back: bool = False) -> None:
        """Redraw the turn message of every game waiting on the member (it says when they are
        away); ``back``: their reminders, which waited for the end of the absence, are due
        again after the usual delay from now."""
        recs = await self.store.games_for_user(user_id, ("active",))
        moving = await self.store.to_move_of([r.id for r in recs])
        for rec in recs:
            seat = rec.seat_at(moving[rec.id]) if rec.id in moving else None
            if seat is None or seat.user_id != user_id or not self.games.owns(rec.guild_id):
                continue
            try:
                state, seq = await self.store.load_state(rec.id)
                if back:
                    enabled, hours = await self.games.reminder_hours(rec, user_id)
                    if enabled:
                        due = self.games.now() + timedelta(hours=hours)
                        await self.store.schedule_reminder(
                            rec.id, user_id, due, seq, now=self.games.now()
                        )
                await self.games.publish_turn(rec, state, seq, how="edit")
            except Exception:  # the turn message is redrawn with the next move anyway
                log.warning("game %s: could not redraw the turn after /ada away", rec.id)
                self.games.stale.add(rec.id)


class RecordsAdminCog(AdaCog, name="RecordsAdmin"):
    """Server stats, the longest allowed absence and the rebuild of the records (admins)."""

    admin_group = True
    require_admin = staticmethod(admin.SettingsCog.require_admin)  # the same rule

    @app_commands.command(
        name="stats", description="Games per week, game length and seat wins here."
    )
    @friendly
    async def stats(self, interaction: discord.Interaction[Any]) -> None:
        """The server's finished games: per week (the last eight), their average length, and
        how often each seat won (the balance figures of bench/, for people's games). Members
        who hid their profile are counted but never named."""
        await defer(interaction)
        self.require_admin(interaction)
        tr = await self.lang_of(interaction)
        s = await self.store.server_stats(interaction.guild_id or 0, self.games.now())
        if s.games == 0:
            raise Oops("This server has no finished games yet.")
        lines = [
            tr.n_(
                "**Server stats**: {n} finished game",
                "**Server stats**: {n} finished games",
                s.games,
            )
        ]
        weeks = ", ".join(
            f"{discord.utils.format_dt(monday, 'd')} {n}" for monday, n in reversed(s.weeks)
        )
        lines.append(tr._("Games per week: {weeks}", weeks=weeks))
        if s.average_hours is not None and s.average_moves is not None:
            lines.append(
                tr._(
                    "Average game: {time}, {moves} moves",
                    time=duration_text(tr, s.average_hours * 3600),
                    moves=tr.num(round(s.average_moves)),
                )
            )
        for players, (games, wins) in sorted(s.seat_wins.items()):
            shares = ", ".join(
                tr._("seat {seat} {share}", seat=k + 1, share=percent(tr, w, games))
                for k, w in enumerate(wins)
            )
            lines.append(
                tr.n_(
                    "{players} players ({n} game): {shares}",
                    "{players} players ({n} games): {shares}",
                    games,
                    players=players,
                    shares=shares,
                )
            )
        await say(interaction, "\n".join(lines))

    @app_commands.command(
        name="away-limit", description="The longest time away a member may announce."
    )
    @app_commands.describe(days="Days (1 to 365).")
    @friendly
    async def away_limit(
        self, interaction: discord.Interaction[Any], days: app_commands.Range[int, 1, 365]
    ) -> None:
        """The longest absence a member of this server may announce with `/ada away`."""
        await defer(interaction)
        self.require_admin(interaction)
        await self.store.set_max_away_days(
            interaction.guild_id or 0, int(days), now=self.games.now()
        )
        tr = await self.lang_of(interaction)
        await say(
            interaction,
            tr.n_(
                "Members may now be away for up to {n} day.",
                "Members may now be away for up to {n} days.",
                int(days),
            ),
        )

    @app_commands.command(
        name="rebuild-records", description="Recompute results, stats and ratings from the games."
    )
    @friendly
    async def rebuild(self, interaction: discord.Interaction[Any]) -> None:
        """Recompute this server's results, stats and ratings from its stored games (setup and
        choices): the same numbers the game ends wrote, unless something was lost."""
        await defer(interaction)
        self.require_admin(interaction)
        n = await self.store.rebuild_records(interaction.guild_id or 0)
        tr = await self.lang_of(interaction)
        await say(
            interaction,
            tr.n_(
                "Records rebuilt from {n} finished game.",
                "Records rebuilt from {n} finished games.",
                n,
            ),
        )


def _png(tr: Lang, draw: Any, *args: Any) -> bytes:
    """Draw a picture in the asker's language (in a worker thread)."""
    with i18n.using(tr):
        return draw(*args).png()  # type: ignore[no-any-return]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RecordsCog(bot))
    await bot.add_cog(RecordsAdminCog(bot))
