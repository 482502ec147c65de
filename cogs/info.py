"""Information, shown only to the asker: board, Mills, score, log, rules, hand, final scorepad,
a finished game's record (export), the games of the server, help. Everything here is drawn or written from the asker's own view of
the game: another player's hand, deck and the scores that depend on them stay hidden."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import ui
from cogs.base import AdaCog, defer, friendly, say
from cogs.clicks import ClickAnswer
from cogs.rules_help import rules_text
from cogs.service import Oops, status_problem
from cogs.text import escape, shorten
from engine import GameState
from engine.scoring import CATEGORIES
from engine.scoring import score as score_so_far
from i18n import N_, Lang
from i18n import game as words
from store import GameRecord

EMBED_MAX = 4096  # characters of an embed's description
HIDDEN_CATEGORIES = ("Partners", "Meetings")  # depend on the hidden hand and deck

HELP_TEXT = N_("""\
**Ada's Dream on Discord**
• `/ada new` in a text channel creates a game with its own thread; others press **Join** (or \
`/ada join`), the creator presses **Start**. Seat order and the first player are drawn.
• On your turn the bot mentions you in the thread. The turn message says what you must decide, \
what happened since your last turn, and shows a picture of what the decision is about; its \
buttons are the legal choices (many choices come in groups: pick the area, then the target). \
Prefer typing? `/ada play` suggests the legal choices.
• Decisions about your hand of Partner cards come to you privately.
• **Undo** takes back your moves within your turn, up to the last dice roll, card draw or reveal.
• **My hand**, **My Mill**, **Board** and `/ada board`, `/ada mill`, `/ada score`, `/ada log`, \
`/ada rules`, `/ada hand`: information, only to you. `/ada final`: the scorepad once the game is over.
• Reminders come after 12 h without a move (DM, else the thread); `/ada reminders enabled:False` \
stops them. A player away for long? `/ada standin` asks an AI to play their turn: the game's \
creator, a server admin or a moderator who may manage threads asks, or the other players still \
in the server vote for it. The same people may cancel a game (`/ada cancel`).
• `/ada language` chooses the language of your private answers and DMs.
""")

# The commands of issue 30 in their own message (the one above keeps its translations).
RECORDS_HELP_TEXT = N_("""\
• `/ada games`: your games here, those waiting for you first. `/ada records history`, \
`/ada records profile` and `/ada records leaderboard`: finished games, results and ratings of \
this server's members. `/ada export`: a finished game's record as a file.
• Away for a while? `/ada away until:2026-12-24` pauses your reminders, and no stand-in can be \
asked for your turns, until then; `/ada away` without a date: you are back.
""")

# Shown only to members who may use /ada-admin (Discord hides the group from the others).
ADMIN_HELP_TEXT = N_("""\
**For server admins:** `/ada-admin settings` and `/ada-admin edition`: the server's settings \
and cards. `/ada-admin status`: how the bot is doing. `/ada-admin stats`: games per week, game \
length and seat wins. `/ada-admin away-limit`: the longest time away a member may announce. \
`/ada-admin rebuild-records`: recompute results, stats and ratings from the games.
""")


def score_text(rec: GameRecord, state: GameState, viewer: int | None, tr: Lang) -> str:
    """The scorepad so far (or final), hiding what depends on other players' hidden cards."""
    names = state.seat_names
    scores = [score_so_far(state, seat) for seat in range(len(names))]
    rows = []
    for cat in [*CATEGORIES, "Total"]:
        cells = []
        for seat, s in enumerate(scores):
            hidden = not state.is_over and seat != viewer
            if hidden and cat in HIDDEN_CATEGORIES:
                cells.append("?")
            elif hidden and cat == "Total":
                shown = s["Total"] - sum(s[c] for c in HIDDEN_CATEGORIES)
                cells.append(f"{shown}+?")
            else:
                cells.append(str(s[cat]))
        rows.append((cat, cells))
    if state.is_over:
        title = tr._("**Game #{id}: final score**", id=rec.id)
        note = ""
    else:
        title = tr._("**Game #{id}: score so far** (round {round})", id=rec.id, round=state.round)
        note = "\n" + tr._(
            "? = depends on a player's hidden hand and deck (Partners, Meetings).\n"
            "Gears count every empty Gear space against you until you build there."
        )
    return title + "\n" + ui.score_table(names, rows, tr) + note


class InfoCog(AdaCog, name="Info"):
    """Private information about a game: images, score, log, rules, hand, scorepad, help."""

    async def send_image(
        self,
        interaction: discord.Interaction[Any],
        text: str,
        name: str,
        state: GameState,
        *args: Any,
        lang: str = "en",
        answer: ClickAnswer | None = None,
    ) -> None:
        """A private picture: the answer to a click (``answer``), else a follow-up."""
        image = await self.games.images.get(name, state, *args, lang=lang)
        files = (
            [discord.File(io.BytesIO(image.data), image.filename)] if image and image.data else []
        )
        view = ui.image_layout(text, files[0].filename if files else None)
        if answer is not None:
            await answer.send_private(view=view, files=files)
        else:
            await interaction.followup.send(view=view, files=files, ephemeral=True)

    async def player_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            rec = await self.find_game(interaction, getattr(interaction.namespace, "game", None))
        except Exception:
            return []
        return [
            app_commands.Choice(name=s.name, value=s.name)
            for s in rec.seats_in_turn_order
            if current.lower() in s.name.lower()
        ][:25]

    # ------------------------------------------------------------------ buttons on the turn message

    # (each answered privately in one REST call when ready in time: ``cogs.clicks``)

    async def on_hand(self, interaction: discord.Interaction[Any], game: int) -> None:
        answer = self.answer(interaction, private=True)

        async def run() -> None:
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            await answer.say(await self.hand_of(interaction, rec))

        await self.guard(interaction, run(), answer)

    async def on_mill(self, interaction: discord.Interaction[Any], game: int) -> None:
        answer = self.answer(interaction, private=True)

        async def run() -> None:
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            await self.show_mill(interaction, rec, None, answer)

        await self.guard(interaction, run(), answer)

    async def on_board(self, interaction: discord.Interaction[Any], game: int) -> None:
        answer = self.answer(interaction, private=True)

        async def run() -> None:
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            await self.show_board(interaction, rec, answer)

        await self.guard(interaction, run(), answer)

    # ------------------------------------------------------------------ commands

    async def show_board(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        answer: ClickAnswer | None = None,
    ) -> None:
        state, _ = await self.store.load_state(rec.id)
        viewer = rec.seat_of(interaction.user.id)
        tr = await self.lang_of(interaction)
        text = tr._("Game #{id}, round {round}: the board.", id=rec.id, round=state.round)
        await self.send_image(
            interaction, text, "board", state, viewer, lang=tr.code, answer=answer
        )

    @app_commands.command(name="board", description="Show the main board now (only to you).")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def board(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """The whole main board, as it is now."""
        await defer(interaction)
        await self.show_board(
            interaction, await self.game_for(interaction, game, ("active", "finished"))
        )

    async def show_mill(
        self,
        interaction: discord.Interaction[Any],
        rec: GameRecord,
        player: str | None,
        answer: ClickAnswer | None = None,
    ) -> None:
        state, _ = await self.store.load_state(rec.id)
        viewer = rec.seat_of(interaction.user.id)
        if player:
            seats = [i for i, n in enumerate(state.seat_names) if n.lower() == player.lower()]
            if not seats:
                raise Oops("No player called {name!r} in game #{id}.", name=player, id=rec.id)
            seat = seats[0]
        else:
            seat = viewer if viewer is not None else state.current
        tr = await self.lang_of(interaction)
        text = tr._("Mill of {name}.", name=escape(state.seat_names[seat]))
        await self.send_image(
            interaction, text, "mill", state, seat, viewer, lang=tr.code, answer=answer
        )

    @app_commands.command(
        name="mill", description="Show a player's Mill and resources (only to you)."
    )
    @app_commands.describe(
        player="Whose Mill (default: yours, or the player whose turn it is).",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(player=player_autocomplete, game=AdaCog.game_autocomplete)
    @friendly
    async def mill(
        self,
        interaction: discord.Interaction[Any],
        player: str | None = None,
        game: int | None = None,
    ) -> None:
        """A player's Mill: dice, Programs, Gears, resources and tracks (your own hand only to you)."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("active", "finished"))
        await self.show_mill(interaction, rec, player)

    @app_commands.command(
        name="score", description="The score so far, in the scorepad's categories (only to you)."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def score(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """The score so far by scorepad category (other players' hidden parts shown as ?)."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("active", "finished"))
        state, _ = await self.store.load_state(rec.id)
        tr = await self.lang_of(interaction)
        await say(interaction, score_text(rec, state, rec.seat_of(interaction.user.id), tr))

    @app_commands.command(
        name="log", description="The last moves of the game, in words (only to you)."
    )
    @app_commands.describe(
        lines="How many lines (1-40, default 12).",
        game="The game number (default: this thread's game).",
    )
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def log(
        self,
        interaction: discord.Interaction[Any],
        lines: app_commands.Range[int, 1, 40] = 12,
        game: int | None = None,
    ) -> None:
        """The game's log: its last lines, in words."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("active", "finished", "cancelled"))
        state, _ = await self.store.load_state(rec.id)
        tr = await self.lang_of(interaction)
        head = tr._("**Game #{id}, the last moves:**", id=rec.id)
        await say(interaction, head + "\n" + ui.recent_log(state, tr, lines, 1800))

    @app_commands.command(
        name="rules", description="What the current decision means, in short (only to you)."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def rules(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """The rules of the decision in front of the player whose turn it is."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("active",))
        state, _ = await self.store.load_state(rec.id)
        await say(interaction, rules_text(state, await self.lang_of(interaction)))

    async def hand_of(self, interaction: discord.Interaction[Any], rec: GameRecord) -> str:
        seat = rec.seat_of(interaction.user.id)
        if seat is None:
            raise Oops("You're not playing in game #{id}.", id=rec.id)
        state, _ = await self.store.load_state(rec.id)
        return ui.hand_text(state, seat, await self.lang_of(interaction))

    @app_commands.command(name="hand", description="Your hand of Partner cards (only to you).")
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def hand(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Your own hand of Partner cards."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("active",))
        await say(interaction, await self.hand_of(interaction, rec))

    @app_commands.command(
        name="final", description="The final scorepad and the winner of a finished game."
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def final(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """The scorepad of a finished game and its winner."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("finished",))
        state, _ = await self.store.load_state(rec.id)
        tr = await self.lang_of(interaction)
        pad = await self.games.images.get("scorepad", state, lang=tr.code)
        files = [discord.File(io.BytesIO(pad.data), "scorepad.png")] if pad and pad.data else []
        await interaction.followup.send(
            embed=ui.final_embed(rec, state, "scorepad.png" if files else None, tr),
            files=files,
            ephemeral=True,
        )

    @app_commands.command(
        name="export",
        description="A finished game's record as a file you can replay (only to you).",
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def export(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """A finished game's record as a JSON file: its setup, edition, rules version and
        choices, and its log in your language; ``python -m engine replay FILE`` replays it to the
        final scores. Only once the game is over: before that, its seed and choices would
        reveal the players' hidden cards (and a cancelled game's stay hidden for good)."""
        await defer(interaction)
        rec = await self.find_game(interaction, game, ("finished",))
        if rec.status == "active":
            raise Oops(
                "Game #{id} is still being played. Its record can be exported once it is over: "
                "before that it would reveal the players' hidden cards.",
                id=rec.id,
            )
        problem = status_problem(rec, ("finished",))
        if problem:
            raise problem
        record = await self.store.game_record(rec.id)
        state, _ = await self.store.load_state(rec.id)
        tr = await self.lang_of(interaction)
        record["language"] = tr.code
        record["log"] = [words.log_line(tr, state, line) for line in state.log]
        data = json.dumps(record, ensure_ascii=False, indent=1).encode()
        await interaction.followup.send(
            tr._(
                "The record of game #{id} ({moves} moves). `python -m engine replay` replays it "
                "to the final scores.",
                id=rec.id,
                moves=len(record["choices"]),
            ),
            file=discord.File(io.BytesIO(data), f"adas-dream-game-{rec.id}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="help", description="How to play Ada's Dream with this bot.")
    @friendly
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """How to play with this bot, and the admins' commands to those who may use them."""
        tr = await self.lang_of(interaction)
        text = tr._(HELP_TEXT) + tr._(RECORDS_HELP_TEXT)
        if interaction.permissions.manage_guild or interaction.permissions.administrator:
            text += "\n" + tr._(ADMIN_HELP_TEXT)
        # An embed: the whole help in one message (a message's text holds 2,000 characters).
        await say(interaction, "", embed=discord.Embed(description=shorten(text, EMBED_MAX)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(InfoCog(bot))
