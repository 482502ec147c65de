"""The lobby: creating a game (with its own thread), seats, AI players, starting and cancelling."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs import ui
from cogs.base import AdaCog, defer, friendly, language_choices, say
from cogs.clicks import ClickAnswer
from cogs.records import lobby_reliability
from cogs.service import Oops, OopsN, PublishError
from cogs.text import clean_name
from engine.edition import edition_problem
from i18n import N_, Lang
from store import GameRecord, LobbyError

log = logging.getLogger(__name__)

AI_NAMES = ["Babbage", "Somerville", "Herschel", "De Morgan"]
MAX_OPEN_LOBBIES_PER_MEMBER = 3  # default: games a member created that have not started yet
MAX_GAMES_PER_SERVER = 100  # default: lobbies and games being played, in one server
MAX_NEW_GAMES_PER_MEMBER = 10  # default: games a member may create in one server per FLOOD_WINDOW
FLOOD_WINDOW = timedelta(hours=24)  # whatever became of them: started, finished or cancelled
NEEDED_PERMISSIONS = {
    "view_channel": N_("View Channels"),
    "send_messages": N_("Send Messages"),
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
}
LANGUAGE_CHOICES = language_choices()
POLICY_CHOICES = [  # the AI policies (engine.ai.POLICIES), the default first
    app_commands.Choice(name="greedy: the best move now (default)", value="greedy"),
    app_commands.Choice(name="random: any legal move", value="random"),
    app_commands.Choice(name="search: thinks ahead (slower)", value="search"),
]


def known_policies() -> list[str]:
    from engine.ai import POLICIES

    return list(POLICIES)


def check_policy(policy: str | None) -> str:
    name = (policy or "greedy").strip().lower()
    known = known_policies()
    if name not in known:
        raise Oops("Unknown AI `{name}`: choose one of {known}.", name=name, known=", ".join(known))
    return name


class LobbyCog(AdaCog, name="Lobby"):
    """Setting up games: ``/ada new``, join, leave, add AI, start, cancel, reminder delay."""

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.creating: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def refresh_lobby(self, rec: GameRecord, answer: ClickAnswer | None = None) -> None:
        """Show the lobby message as the game now is (as the answer to a click on it, if
        ``answer`` is given and still unanswered: one REST call less)."""
        msg = await self.store.latest_message(rec.id, "lobby")
        if msg is None:
            return
        tr = self.game_lang(rec)
        reliability = await lobby_reliability(self.store, rec, tr)
        shown = dict(embed=ui.lobby_embed(rec, tr, reliability), view=ui.lobby_view(rec, tr))
        try:
            if answer is None or not await answer.edit_message(msg.message_id, **shown):
                channel = await self.games.channel(msg.channel_id)
                await channel.get_partial_message(msg.message_id).edit(**shown)
        except discord.HTTPException as exc:
            log.warning("game %s: could not update the lobby message: %s", rec.id, exc)

    async def add_ai(self, rec: GameRecord, policy: str) -> None:
        taken = {s.name.removesuffix(" (AI)") for s in rec.seats}
        name = next((n for n in AI_NAMES if n not in taken), "Engine")
        await self.store.add_seat(
            rec.id, name=name, is_ai=True, ai_policy=policy, now=self.games.now()
        )

    @app_commands.command(
        name="new", description="Create a game in this channel; it gets its own thread."
    )
    @app_commands.describe(
        players="Number of seats, 2 to 4 (AI seats included).",
        ai="How many of the seats are played by the computer (0-3).",
        ai_policy="How the computer plays: greedy (default), random or search.",
        reminder_hours="Remind a player after this many hours without a move (default: server setting, 12).",
        standin_hours="After a reminder, hours before an AI stand-in may be asked (default: the reminder delay).",
        join="Take a seat yourself (default: yes).",
        language="The game's language in its thread (default: the server's).",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, ai_policy=POLICY_CHOICES)
    @friendly
    async def new(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, 4] = 2,
        ai: app_commands.Range[int, 0, 3] = 0,
        ai_policy: str | None = None,
        reminder_hours: app_commands.Range[float, 0.25, 336.0] | None = None,
        standin_hours: app_commands.Range[float, 1.0, 336.0] | None = None,
        join: bool = True,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        """Create a game: it gets its own thread with a lobby message (Join, Leave, Add AI,
        Start, Cancel); seat order and the first player are drawn at the start. Its thread
        speaks ``language``: by default the server's setting, else the server's Discord
        language."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise Oops(
                "Create games in a server text channel (not in a thread): "
                "each game gets its own thread there."
            )
        if ai + (1 if join else 0) > players:
            raise Oops(
                "{players} seats can't hold {ai} AI players and you.", players=players, ai=ai
            )
        policy = check_policy(ai_policy) if ai else None
        assert interaction.guild is not None
        perms = channel.permissions_for(interaction.guild.me)
        missing = [p for p in NEEDED_PERMISSIONS if not getattr(perms, p)]
        if missing:
            tr = await self.lang_of(interaction)
            raise Oops(
                "I can't run a game in this channel: I need the permissions {permissions}.",
                permissions=", ".join(tr._(NEEDED_PERMISSIONS[p]) for p in missing),
            )
        await defer(interaction)  # privately: a refusal is for the asker only
        await self.check_edition(interaction)
        async with self.creating[interaction.guild_id or 0]:  # one check-and-create at a time
            await self.check_limits(interaction)
            code = language.value if language else await self.server_language(interaction)
            await self.create(
                interaction, channel, players, ai, policy, reminder_hours, standin_hours, join, code
            )

    async def check_edition(self, interaction: discord.Interaction[Any]) -> None:
        """Refuse a new game whose edition (the server's, else the bot's default) can't be
        loaded: its lobby could never start. The reason names the host's files: the log's."""
        settings = await self.store.guild_settings(interaction.guild_id or 0)
        problem = await asyncio.to_thread(edition_problem, settings.edition)
        if problem is not None:
            log.error("refused a new game in server %s: %s", interaction.guild_id, problem)
            raise Oops(
                "New games can't be set up right now: the bot can't load its edition of the "
                "cards and board. The bot's operator can see why in its log."
            )

    async def server_language(self, interaction: discord.Interaction[Any]) -> str:
        """A new game's language by default: the server's setting (``/ada-admin settings``),
        else the server's Discord language (its community's preferred locale)."""
        settings = await self.store.guild_settings(interaction.guild_id or 0)
        return i18n.code_of(settings.language or interaction.guild_locale)

    async def check_limits(self, interaction: discord.Interaction[Any]) -> None:
        """A member may hold a few open lobbies, a server a fair number of games (the server's
        settings, ``/ada-admin settings``, else the defaults), and a member may set up only so
        many games a day in a server (its ``max_new_games``, else ``MAX_NEW_GAMES_PER_MEMBER``),
        whatever became of them (a lobby started at once with AI seats is no longer waiting,
        but still counts)."""
        guild_id = interaction.guild_id or 0
        settings = await self.store.guild_settings(guild_id)
        max_lobbies = settings.max_open_lobbies or MAX_OPEN_LOBBIES_PER_MEMBER
        max_games = settings.max_games or MAX_GAMES_PER_SERVER
        max_new_games = settings.max_new_games or MAX_NEW_GAMES_PER_MEMBER
        mine = [
            g
            for g in await self.store.games_for_user(interaction.user.id, ("lobby",))
            if g.creator_id == interaction.user.id and g.guild_id == guild_id
        ]
        if len(mine) >= max_lobbies:
            links = ", ".join(f"<#{g.thread_id}>" for g in mine if g.thread_id)
            raise OopsN(
                "You already have {n} game waiting for players ({links}): start or "
                "cancel it before creating another.",
                "You already have {n} games waiting for players ({links}): start or "
                "cancel one of them before creating another.",
                len(mine),
                links=links,
            )
        made = await self.store.games_created(
            guild_id, interaction.user.id, self.games.now() - FLOOD_WINDOW
        )
        if made >= max_new_games:
            raise Oops(
                "You have set up {n} games here in the last 24 hours: that is the most one "
                "member may, so that one member cannot fill the server. Try again later.",
                n=made,
            )
        if len(await self.store.games_in_guild(guild_id)) >= max_games:
            raise OopsN(
                "This server already has {n} game set up or being played: "
                "finish or cancel it before creating more.",
                "This server already has {n} games set up or being played: "
                "finish or cancel some before creating more.",
                max_games,
            )

    async def create(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel,
        players: int,
        ai: int,
        policy: str | None,
        reminder_hours: float | None,
        standin_hours: float | None,
        join: bool,
        language: str = "en",
    ) -> None:
        now = self.games.now()
        options: dict[str, Any] = {"players": players, "language": language}
        tr = i18n.get(language)  # the game's thread and what is said in public about it
        if reminder_hours:
            options["reminder_hours"] = float(reminder_hours)
        if standin_hours:
            options["standin_hours"] = float(standin_hours)
        game_id = await self.store.create_game(
            interaction.guild_id or 0, channel.id, interaction.user.id, options, now=now
        )
        try:
            thread = await channel.create_thread(
                name=f"Ada's Dream #{game_id}",
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:
            await self.store.cancel_game(game_id, now=now)
            raise Oops(
                "I couldn't create the game's thread here ({why}).", why=exc.text or exc
            ) from exc
        await self.store.set_thread(game_id, thread.id, now=now)
        if join:
            await self.store.add_seat(
                game_id,
                name=clean_name(interaction.user.display_name),
                user_id=interaction.user.id,
                now=now,
            )
        for _ in range(ai):
            await self.add_ai(await self.store.get_game(game_id), policy or "greedy")
        rec = await self.store.get_game(game_id)
        embed = ui.lobby_embed(rec, tr, await lobby_reliability(self.store, rec, tr))
        try:
            msg = await self.games.retrying(
                "posting a lobby",
                lambda: thread.send(embed=embed, view=ui.lobby_view(rec, tr)),
            )
        except discord.HTTPException as exc:
            await self.store.cancel_game(game_id, now=now)
            raise Oops(
                "I couldn't post in the game's thread ({why}).", why=exc.text or exc
            ) from exc
        await self.store.record_message(game_id, "lobby", thread.id, msg.id, now=now)
        log.info(
            "game %s created by %s in channel %s (thread %s)",
            game_id,
            interaction.user.id,
            channel.id,
            thread.id,
        )
        try:
            await channel.send(
                tr.n_(
                    "{user} created **Ada's Dream game #{id}** for {n} player: join it in "
                    "{thread}.",
                    "{user} created **Ada's Dream game #{id}** for {n} players: join it in "
                    "{thread}.",
                    players,
                    user=interaction.user.mention,
                    id=game_id,
                    thread=thread.mention,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as exc:
            log.warning("game %s: could not announce it in the channel: %s", game_id, exc)
        mine = await self.lang_of(interaction)
        await say(
            interaction,
            mine._("Game #{id} is set up in {thread}.", id=game_id, thread=thread.mention),
        )

    async def join_game(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        answer: ClickAnswer | None = None,
    ) -> GameRecord:
        await self.store.add_seat(
            rec.id,
            name=clean_name(interaction.user.display_name),
            user_id=interaction.user.id,
            now=self.games.now(),
        )
        rec = await self.store.get_game(rec.id)
        await self.refresh_lobby(rec, answer)
        return rec

    @app_commands.command(name="join", description="Take a seat in a game that hasn't started yet.")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def join(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Take a seat in a lobby."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("lobby",))
        rec = await self.join_game(interaction, rec)
        await say(interaction, self.joined(await self.lang_of(interaction), rec))

    @staticmethod
    def joined(tr: Lang, rec: GameRecord) -> str:
        return tr.n_(
            "You joined game #{id} ({n} seated).",
            "You joined game #{id} ({n} seated).",
            len(rec.seats),
            id=rec.id,
        )

    async def leave_game(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        answer: ClickAnswer | None = None,
    ) -> None:
        if not await self.store.remove_seat(
            rec.id, user_id=interaction.user.id, now=self.games.now()
        ):
            raise Oops("You're not seated in game #{id}.", id=rec.id)
        await self.refresh_lobby(await self.store.get_game(rec.id), answer)

    @app_commands.command(
        name="leave", description="Give up your seat in a game that hasn't started yet."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def leave(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Give up your seat in a lobby."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("lobby",))
        await self.leave_game(interaction, rec)
        await say(
            interaction, (await self.lang_of(interaction))._("You left game #{id}.", id=rec.id)
        )

    @app_commands.command(
        name="addai", description="Add a computer player to a game that hasn't started."
    )
    @app_commands.describe(
        policy="How the computer plays: greedy (default), random or search.",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @app_commands.choices(policy=POLICY_CHOICES)
    @friendly
    async def addai(
        self,
        interaction: discord.Interaction[Any],
        policy: str | None = None,
        game: int | None = None,
    ) -> None:
        """Add an AI seat to a lobby (the game's creator or a server admin)."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("lobby",))
        if not await self.is_admin(interaction, rec):
            raise Oops("Only the game's creator or a server admin can add AI players.")
        await self.add_ai(rec, check_policy(policy))
        await self.refresh_lobby(await self.store.get_game(rec.id))
        tr = await self.lang_of(interaction)
        await say(interaction, tr._("Added an AI player to game #{id}.", id=rec.id))

    async def start_game(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        answer: ClickAnswer | None = None,
    ) -> None:
        if not await self.is_admin(interaction, rec):
            raise Oops("Only the game's creator or a server admin can start it.")
        if len(rec.seats) < 2:
            raise Oops("A game needs at least 2 seats: ask someone to join or add an AI.")
        async with self.games.locks[rec.id]:
            seed = self.games.cfg.rng.getrandbits(62)
            state = await self.store.start_game(rec.id, seed, now=self.games.now())
            rec = await self.store.get_game(rec.id)
            await self.refresh_lobby(rec, answer)
            tr = self.game_lang(rec)
            order = ", ".join(ui.mention_of(s, tr) for s in rec.seats_in_turn_order)
            log.info("game %s started (seed %s)", rec.id, seed)
            await self.games.announce(
                rec,
                tr._("**Game #{id} starts!** Seat order (drawn): {order}.", id=rec.id, order=order),
            )
            try:
                await self.games.after_change(rec, None, state, 0)
            except PublishError as exc:
                log.warning("game %s started, but its turn could not be posted: %s", rec.id, exc)
                self.games.stale.add(rec.id)
                mine = await self.lang_of(interaction)
                text = mine._(
                    "The game started, but I couldn't post the turn ({why}). Use `/ada refresh`.",
                    why=exc,
                )
                await (answer.say(text) if answer is not None else say(interaction, text))

    @app_commands.command(
        name="start", description="Start the game: seat order and first player are drawn."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def start(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Start a lobby's game (the game's creator or a server admin)."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("lobby",))
        await self.start_game(interaction, rec)
        await say(
            interaction, (await self.lang_of(interaction))._("Game #{id} started.", id=rec.id)
        )

    async def cancel_game(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        answer: ClickAnswer | None = None,
    ) -> None:
        if not await self.is_admin(interaction, rec):
            raise Oops("Only the game's creator or a server admin can cancel it.")
        async with self.games.locks[rec.id]:
            await self.store.cancel_game(rec.id, now=self.games.now())
            self.games.stop_ai(rec.id)
            rec = await self.store.get_game(rec.id)
            await self.refresh_lobby(rec, answer)
            await self.games.write_posted(rec.id)
            turn = await self.store.latest_message(rec.id, "turn")
            tr = self.game_lang(rec)
            if turn is not None:
                await self.games.retire(
                    rec, turn.channel_id, turn.message_id, tr._("-# This game was cancelled.")
                )
            self.games.release(rec.id)
            await self.games.announce(
                rec,
                tr._(
                    "Game #{id} was cancelled by {user}.", id=rec.id, user=interaction.user.mention
                ),
            )
            log.info("game %s cancelled by %s", rec.id, interaction.user.id)

    @app_commands.command(
        name="cancel", description="Cancel a game (its creator or a server admin)."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def cancel(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Cancel a game in its lobby or while it is played (the creator or a server admin)."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("lobby", "active"))
        await self.cancel_game(interaction, rec)
        await say(
            interaction, (await self.lang_of(interaction))._("Game #{id} is cancelled.", id=rec.id)
        )

    @app_commands.command(
        name="delay", description="Set a lobby's reminder delay (creator or admin)."
    )
    @app_commands.describe(
        hours="Hours without a move before the player is reminded.",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def delay(
        self,
        interaction: discord.Interaction[Any],
        hours: app_commands.Range[float, 0.25, 336.0],
        game: int | None = None,
    ) -> None:
        """Set how long a lobby's game waits before reminding a slow player."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("lobby",))
        if not await self.is_admin(interaction, rec):
            raise Oops("Only the game's creator or a server admin can change this.")
        await self.store.set_options(
            rec.id, {**rec.options, "reminder_hours": float(hours)}, now=self.games.now()
        )
        await self.refresh_lobby(await self.store.get_game(rec.id))
        tr = await self.lang_of(interaction)
        await say(
            interaction,
            tr._(
                "Game #{id}: reminders after {hours} h without a move.",
                id=rec.id,
                hours=tr.num(hours),
            ),
        )

    async def on_lobby_button(
        self, interaction: discord.Interaction[Any], action: str, game: int
    ) -> None:
        """A lobby button: the lobby's update is the click's answer, the private note follows."""
        answer = self.answer(interaction, private=action in ("start", "cancel"))

        async def run() -> None:
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            if action != "cancel" and rec.status != "lobby":
                raise LobbyError(
                    N_("This game has already started.")
                    if rec.status == "active"
                    else N_("This game is no longer open.")
                )
            tr = await self.lang_of(interaction)
            if action == "join":
                rec = await self.join_game(interaction, rec, answer)
                await answer.say(self.joined(tr, rec))
            elif action == "leave":
                await self.leave_game(interaction, rec, answer)
                await answer.say(tr._("You left game #{id}.", id=game))
            elif action == "ai":
                if not await self.is_admin(interaction, rec):
                    raise Oops("Only the game's creator or a server admin can add AI players.")
                await self.add_ai(rec, "greedy")
                await self.refresh_lobby(await self.store.get_game(game), answer)
                await answer.say(tr._("Added an AI player."))
            elif action == "start":
                await self.start_game(interaction, rec, answer)
                await answer.say(tr._("Game #{id} started.", id=game))
            elif action == "cancel":
                await self.cancel_game(interaction, rec, answer)
                await answer.say(tr._("Game #{id} is cancelled.", id=game))

        await self.guard(interaction, run(), answer)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LobbyCog(bot))
