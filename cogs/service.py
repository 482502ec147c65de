"""The game service the cogs share: showing a game in its thread, playing moves, AI seats.

One object per bot (``bot.ada.games``), made by ``cogs.setup_service``. The cogs turn slash commands
and clicks into calls here; nothing here answers an interaction (the cogs do), so every cog can
use it without importing another cog. A click's ``ClickAnswer`` (``cogs.clicks``) may be passed
down, so that the turn message's edit is the click's answer: one REST call instead of two.

The turn message: one message per turn in the game's thread. It is edited in place while the
same player decides, and posted anew (mentioning the player: the turn ping) when the turn passes;
the previous one then shrinks to a one-line record of what that turn played. Every version is
recorded with the sequence number it shows, so a restarted bot knows whether the thread is up to
date: a message posted by a click is written with the game's next move (or the next batch of
shown marks), so every click is one read and one write; a restart finds a message the database
missed in the thread (``notice_restore``) and edits it instead of posting another.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import logging
import os
import re
import socket
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import discord

import i18n
from cogs import media, thinking, ui
from cogs.backoff import Backoff
from cogs.clicks import ClickAnswer
from cogs.config import BotConfig
from engine import GameState, IllegalChoice
from engine.state import Choice
from i18n import N_, Lang
from i18n import game as words
from store import GameRecord, NotYourTurn, SeatRecord, StaleMove, Store
from store.backend import ActiveGame, PostedTurn, Shows

log = logging.getLogger(__name__)

POST_ATTEMPTS = 3
SHOWN_KEPT = 1000  # turn messages whose shown state is kept in memory (the most recent games)
RESUME_AT_START = 50  # behind threads brought up to date at start; the rest on their next event
RESUME_AT_ONCE = 5  # threads brought up to date at the same time (Discord's rate limits)
AI_LEASE = timedelta(minutes=10)  # how long a process may take over an AI turn before others may
RETRY_DELAYS = (0.25, 1.0)
LANGUAGE_TTL = 300.0  # seconds a member's language setting is kept in memory
LANGUAGES_KEPT = 10_000  # members whose language setting is kept at most
MEMBER_TTL = 600.0  # seconds an answer of Discord's "is this user still a member?" is kept


_IN_FLIGHT: contextvars.ContextVar[bool] = contextvars.ContextVar("ada_in_flight", default=False)
"""Set inside ``GameService.working``: the task's work was accepted before any stop."""
RESTARTING = N_("The bot is restarting: try again in a minute. Nothing was changed.")
"""The answer to anything asked while the bot is stopping (``GameService.stopping``)."""


class Oops(Exception):
    """A user-facing problem, answered privately in the asker's language: an English message
    (a catalog id) and its fields. ``str()`` is the English text."""

    def __init__(self, message: str, **fields: Any) -> None:
        self.template = message
        self.fields = fields
        super().__init__(message.format(**fields) if fields else message)

    def said(self, tr: Lang) -> str:
        return tr._(self.template, **self.fields)


class OopsN(Oops):
    """An `Oops` that counts something ("1 day", "2 days"): the catalog's form for ``n``."""

    def __init__(self, singular: str, plural: str, n: int, **fields: Any) -> None:
        super().__init__(singular if n == 1 else plural, n=n, **fields)
        self.template, self.plural, self.n = singular, plural, n
        del self.fields["n"]  # n_ gives it to the text

    def said(self, tr: Lang) -> str:
        return tr.n_(self.template, self.plural, self.n, **self.fields)


class PublishError(Exception):
    """The turn message could not be posted or edited (after retries)."""


@dataclass(slots=True)
class Shown:
    """What a game's current turn message shows, so an unchanged image is not uploaded again
    and a click needs no database read to find the message.

    The database learns it too (``thread_shows``), so that a restart edits only the threads that
    are behind: with the message when it is posted, and for edits within a turn at the next
    reminder round or when the bot closes, many games in one write (``flush_shown``), so a click
    stays one commit. A process killed meanwhile edits those few threads again at its start."""

    message_id: int
    channel_id: int
    image_key: str | None
    attachment: discord.Attachment | None
    seq: int  # the decision it shows
    player: int | None  # the engine seat deciding


class GameLocks:
    """One asyncio.Lock per game, kept only while someone holds or awaits it: a game touched
    once does not keep an entry forever (a lock nobody references has nobody to exclude)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __getitem__(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        return len(self._locks)


class Recent(OrderedDict[int, Any]):
    """A dictionary of the ``limit`` games used most recently (per-game memory stays bounded
    however many games the bot has seen)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: int, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


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


NOT_PLAYED = N_("Game #{id} isn't being played right now.")
STATUS_TEXT = {
    "lobby": N_("Game #{id} hasn't started yet."),
    "finished": N_("Game #{id} is over: see `/ada final`."),
    "cancelled": N_("Game #{id} was cancelled."),
    "broken": N_(
        "Game #{id}'s saved data is damaged, so it is paused. A server admin can run "
        "`./scripts/run check-db` on the bot's host."
    ),
}


ASIDE_TEXT = {
    "broken": N_(
        "⚠️ Game #{id} is paused: its saved data is damaged, so no move can be made until a "
        "server admin has run `./scripts/run check-db` on the bot's host (and `repair`, if it "
        "can be rebuilt). There are no reminders meanwhile."
    ),
    "edition": N_(
        "⚠️ Game #{id} is paused: it is played with an edition of the cards and board that this "
        "bot doesn't have now. It is kept as it is and plays on once the bot has that edition "
        "again; there are no reminders meanwhile."
    ),
}
"""What a game's thread is told, once, when the game is set aside (``store.on_set_aside``)."""


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
    return Oops(STATUS_TEXT.get(rec.status, NOT_PLAYED), id=rec.id)


def game_lang(rec: GameRecord) -> Lang:
    """The language of a game's thread: chosen when it was created (games from before there
    was a choice are in English)."""
    return i18n.get(rec.options.get("language") or "en")


RESTORE_LOOKBACK = 20
"""Messages of a thread read at start to notice a restored backup or a turn message the
database missed (``notice_restore``): the latest ones; if they do not reach back to the turn
message the database knows, also the first ones after it (a turn message it missed was posted
right after that one, whatever was said in the thread since): a page of ``AFTER_RECORDED``."""
AFTER_RECORDED = 100  # Discord's page of messages: one REST call

_CONTROL = re.compile(r"^ada:[a-z]+:(\d+):(\d+)")


def shown_seq(message: discord.Message, game_id: int) -> int | None:
    """The move a message's controls are for (their custom ids carry game and seq), or None."""
    found: int | None = None
    stack: list[Any] = list(message.components)
    while stack:
        item = stack.pop()
        match = _CONTROL.match(getattr(item, "custom_id", None) or "")
        if match and int(match.group(1)) == game_id:
            found = max(found or 0, int(match.group(2)))
        stack += list(getattr(item, "children", None) or [])
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return found


class GameService:
    def __init__(self, bot: discord.Client, config: BotConfig) -> None:
        self.bot = bot
        self.cfg = config
        assert config.store is not None
        self.store: Store = config.store
        self.locks = GameLocks()
        self.images = media.Images(config.images)
        self.ai_tasks: dict[int, asyncio.Task[None]] = {}  # running AI seats only
        self.shown: Recent = Recent(SHOWN_KEPT)  # game -> Shown
        self.stale: set[int] = set()  # games whose thread could not be updated after a move
        self.thinking = thinking.Thinking(config.ai_workers)
        self.thread_trouble = Backoff("updating the thread", log)
        """Games whose thread failed to update: retried with growing pauses (``repair``)."""
        self.behind: dict[int, ActiveGame] = {}
        """Games whose thread was behind at start, brought up to date on their next event."""
        self._unsaved: dict[int, Shows] = {}  # shown marks not yet written (flush_shown)
        self._unrecorded: dict[int, PostedTurn] = {}  # turn messages posted, not yet written
        self._languages = Recent(LANGUAGES_KEPT)  # member -> (language, when read)
        self._away = Recent(LANGUAGES_KEPT)  # member -> (away until or None, when read)
        self._members: dict[tuple[int, int], tuple[bool, float]] = {}
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        """This process's name in the database's claims of reminders and AI turns."""
        self.metrics = config.metrics
        self.stopping = False
        """Set when the bot is asked to stop: work in flight finishes, no new work starts."""
        self.busy = 0  # commands, clicks and moves in flight (``working``)
        self.idle = asyncio.Event()
        self.idle.set()
        self._setting_aside: set[int] = set()  # games whose set-aside notice is being posted
        self._announced_aside: set[int] = set()  # games whose thread has been told (few)
        self.store.on_set_aside = self._on_set_aside
        self.watchers: list[Callable[[int, int], None]] = []
        """Called with (game id, seq) once a change of a game is committed, before the thread
        is updated (the board page's live updates: ``web.live``). Must not block or raise."""

    @contextlib.contextmanager
    def working(self) -> Iterator[None]:
        """Work in flight (a command, a click, a move): a stop waits for it to finish. Once
        the bot is stopping no new work starts (Oops: the bot is restarting), but the steps of
        work already started go on (a click's move: the block is nested)."""
        if self.stopping and not _IN_FLIGHT.get():
            raise Oops(RESTARTING)
        token = _IN_FLIGHT.set(True)
        self.busy += 1
        self.idle.clear()
        try:
            yield
        finally:
            _IN_FLIGHT.reset(token)
            self.busy -= 1
            if self.busy == 0:
                self.idle.set()

    def counted(self, by: str, moves: int = 1) -> None:
        if self.metrics is not None:
            self.metrics.moves.labels(by).inc(moves)

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
        self._languages[user_id] = (chosen, now)  # a Recent: bounded, the oldest dropped
        return chosen

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Is the user still a member of the server? Without the privileged members intent the
        bot is not told when someone leaves (its member cache keeps them), so ask Discord
        (``fetch_member``) and keep the answer a few minutes. Unknown (the server not in the
        cache, Discord failing): True."""
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return True
        now = time.monotonic()
        kept = self._members.get((guild_id, user_id))
        if kept is not None and now - kept[1] < MEMBER_TTL:
            return kept[0]
        try:
            await guild.fetch_member(user_id)
            member = True
        except discord.NotFound:
            member = False
        except discord.HTTPException:
            return True  # can't tell: not remembered
        if len(self._members) >= LANGUAGES_KEPT:
            self._members.clear()
        self._members[(guild_id, user_id)] = (member, now)
        return member

    async def away_until(self, user_id: int) -> Any:
        """Until when a member is away (``/ada away``; None: not away), kept a few minutes in
        memory like the language: every turn that passes to them asks, and a click reads the
        game once."""
        at = time.monotonic()
        kept = self._away.get(user_id)
        if kept is not None and at - kept[1] < LANGUAGE_TTL:
            until = kept[0]
        else:
            until = (await self.store.member_record(user_id)).away_until
            self._away[user_id] = (until, at)
        return until if until is not None and until > self.now() else None

    def forget_away(self, user_id: int) -> None:
        self._away.pop(user_id, None)

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
        msg: Any = self.shown.get(rec.id)  # what this process shows (no read needed)
        if msg is None:
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
                if self.metrics is not None:
                    self.metrics.retries.labels(what.split(" of game")[0]).inc()
                # INFO: a call that then works is no trouble; one that doesn't is the caller's
                # to report (once per game: ``repair``'s backoff)
                log.info("%s failed (%s); retry %d in %.2fs", what, exc, attempt + 1, delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def announce(self, rec: GameRecord, text: str) -> None:
        """A line in the game's thread, mentioning nobody (best effort)."""
        try:
            channel = await self.channel(rec.thread_id or rec.channel_id)
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("game %s: could not post %r: %s", rec.id, text[:40], exc)

    def _on_set_aside(self, game_id: int, why: str) -> None:
        """The store set a game aside: say so in its thread (once), stop its AI and reminders."""
        if game_id in self._setting_aside or game_id in self._announced_aside:
            return
        self._setting_aside.add(game_id)
        self.stop_ai(game_id)
        task = asyncio.get_running_loop().create_task(self.announce_aside(game_id, why))
        task.add_done_callback(lambda _: self._setting_aside.discard(game_id))

    async def announce_aside(self, game_id: int, why: str) -> None:
        """Tell a set-aside game's thread why it is paused, once (the notice is recorded as the
        game's "aside" message), and cancel its reminders."""
        try:
            if await self.store.latest_message(game_id, "aside") is not None:
                self._announced_aside.add(game_id)
                return  # said already (the reminders were cancelled then)
            await self.store.cancel_reminders(game_id)
            rec = await self.store.get_game(game_id)
            tr = game_lang(rec)
            channel = await self.channel(rec.thread_id or rec.channel_id)
            msg = await channel.send(
                tr._(ASIDE_TEXT[why], id=game_id), allowed_mentions=discord.AllowedMentions.none()
            )
            await self.store.record_message(
                game_id, "aside", msg.channel.id, msg.id, rec.seq, now=self.now()
            )
            self._announced_aside.add(game_id)
            log.warning("game %s set aside (%s): announced in its thread", game_id, why)
        except Exception:
            log.exception("game %s: could not announce that it is set aside", game_id)

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
        shown = self.shown.get(rec.id)
        seat = rec.seat_at(dec.player)
        note = note or await self.away_note(rec, seat)
        prev: Any = shown  # the turn message as this process last showed it (no read needed)
        if prev is None:
            prev = await self.store.latest_message(rec.id, "turn")
        layout = ui.turn_layout(
            rec,
            state,
            seq,
            image=image and image.data and image.filename,
            tr=tr,
            note=note,
            activity=self.cfg.activity.enabled,
        )
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
                    await self._shown(rec, msg, image, seq, dec.player, posted=False)
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
            await self._shown(rec, msg, image, seq, dec.player, posted=True)
            return msg
        except discord.HTTPException as exc:
            log.info("game %s: could not show decision %s: %s", rec.id, seq, exc)
            raise PublishError(str(exc)) from exc

    async def away_note(self, rec: GameRecord, seat: SeatRecord | None) -> str | None:
        """The turn message's line when the player to move is away (``/ada away``, issue 30),
        in the game's language; None when they are not."""
        if seat is None or seat.is_ai or seat.user_id is None:
            return None
        until = await self.away_until(seat.user_id)
        if until is None:
            return None
        who = f"<@{seat.user_id}>"
        return game_lang(rec)._(
            "{user} is away until {date}: the table waits for them (no reminders, no stand-in "
            "before then).",
            user=who,
            date=discord.utils.format_dt(until, "D"),
        )

    async def _shown(
        self,
        rec: GameRecord,
        msg: discord.Message,
        image: media.Image | None,
        seq: int,
        player: int,
        *,
        posted: bool,
    ) -> None:
        attachment = msg.attachments[0] if msg.attachments else None
        self.shown[rec.id] = Shown(
            msg.id, msg.channel.id, image.key if image else None, attachment, seq, player
        )
        position = self.store.position(rec.id)
        log_digest = position[1] if position is not None and position[0] == seq else None
        shows = Shows(msg.id, seq, log_digest, player)
        if posted:  # a new message: written with the game's next write (its next move)
            self._unsaved.pop(rec.id, None)
            self._unrecorded[rec.id] = PostedTurn(msg.channel.id, msg.id, shows)
        else:
            self._note_shown(rec.id, shows)
        self.stale.discard(rec.id)
        self.thread_trouble.succeeded(rec.id, self.now())
        self.behind.pop(rec.id, None)

    def _note_shown(self, game_id: int, shows: Shows) -> None:
        """Remember to record what a thread shows, with other games' in one write: at the
        next reminder round (``flush_shown``) or when the bot closes."""
        posted = self._unrecorded.get(game_id)
        if posted is not None and posted.message_id == shows.message_id:
            self._unrecorded[game_id] = PostedTurn(posted.channel_id, posted.message_id, shows)
        else:
            self._unsaved[game_id] = shows

    def posted_turn(self, game_id: int) -> PostedTurn | None:
        """The game's turn message posted but not yet written: for the game's next write."""
        return self._unrecorded.get(game_id)

    async def write_posted(self, game_id: int) -> None:
        """Write the game's turn message posted but not yet written, now (a game that ends or
        is cancelled makes no next move to carry it)."""
        posted = self._unrecorded.pop(game_id, None)
        if posted is not None:
            await self.store.record_message(
                game_id,
                "turn",
                posted.channel_id,
                posted.message_id,
                posted.shows.seq,
                now=self.now(),
                shows=posted.shows,
            )

    def recorded(self, game_id: int, posted: PostedTurn | None) -> None:
        """``posted`` was written (with a move): nothing left to record for it."""
        if posted is not None and self._unrecorded.get(game_id) is posted:
            del self._unrecorded[game_id]

    async def flush_shown(self) -> None:
        """Write the shown marks gathered so far (one transaction). A mark lost (the write
        failed, the process was killed) only costs that thread an edit at the next start."""
        batch, self._unsaved = self._unsaved, {}
        posted, self._unrecorded = self._unrecorded, {}
        if not batch and not posted:
            return
        try:
            await self.store.mark_shown(batch, now=self.now(), posted=posted)
        except Exception as exc:
            log.warning("could not record what %d thread(s) show: %s", len(batch | posted), exc)

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
            self._unsaved.pop(rec.id, None)

    async def publish_final(
        self, rec: GameRecord, state: GameState, answer: ClickAnswer | None = None
    ) -> None:
        await self.write_posted(rec.id)
        prev: Any = self.shown.get(rec.id)  # (no read needed)
        if prev is None:
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
            self.thread_trouble.succeeded(rec.id, self.now())
            self.release(rec.id)
        except discord.HTTPException as exc:
            log.info("game %s: could not post the final scores: %s", rec.id, exc)
            raise PublishError(str(exc)) from exc

    def release(self, game_id: int) -> None:
        """Let go of what this process holds for a game that ended (or went quiet): its shown
        message and its verified state; a later event reads them again."""
        self.shown.pop(game_id, None)
        self._unsaved.pop(game_id, None)
        self._unrecorded.pop(game_id, None)
        self.behind.pop(game_id, None)
        self.store.forget_state(game_id)

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
        for watcher in self.watchers:
            try:
                watcher(rec.id, seq)
            except Exception:  # a watcher's fault never stops the thread's update
                log.exception("a watcher of game %s failed", rec.id)
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
            seat = rec.seat_at(dec.player)
            if not from_ai and seat is not None and seat.is_ai:  # no AI claim where none sits
                self.kick_ai(rec.id)

    async def repair(self, game_id: int) -> None:
        """Bring a game's thread up to date if an earlier update failed, or if it was behind
        at start (call without the lock). After a failure the game waits a growing pause before
        the next try (``cogs.backoff``): an outage costs one warning per game, not one per
        round."""
        if game_id not in self.stale and game_id not in self.behind:
            return
        if not self.thread_trouble.due(game_id, self.now()):
            return
        async with self.locks[game_id]:
            if game_id not in self.stale and game_id not in self.behind:
                return
            if self.metrics is not None and game_id in self.stale:  # (behind at start: no retry)
                self.metrics.retries.labels("bringing a thread up to date").inc()
            try:
                await self.bring_up_to_date(
                    await self.store.get_game(game_id), self.behind.get(game_id)
                )
                self.stale.discard(game_id)
                self.behind.pop(game_id, None)
                self.thread_trouble.succeeded(game_id, self.now())
            except Exception as exc:
                self.thread_trouble.failed(game_id, self.now(), exc)

    def thread_failed(self, game_id: int, exc: BaseException, what: str) -> None:
        """A change was saved but the thread could not show it: ``repair`` does it later. Discord
        failing (an outage) counts in the game's backoff, one warning a stretch; anything else
        is a bug, logged with its traceback."""
        self.stale.add(game_id)
        if isinstance(exc, PublishError | discord.HTTPException):
            self.thread_trouble.failed(game_id, self.now(), exc)
        else:
            log.error("game %s: %s", game_id, what, exc_info=exc)

    async def bring_up_to_date(self, rec: GameRecord, game: ActiveGame | None = None) -> None:
        """Make the thread show the stored state (after a restart or a failed update). Call
        with the game's lock held. ``game``: what the database says the thread shows, as
        ``store.active_games`` read it (else it is read here)."""
        state, seq = await self.store.load_state(rec.id)  # the one replay (verifying)
        if state.is_over:
            if await self.store.latest_message(rec.id, "final") is None:
                await self.publish_final(rec, state)
            return
        dec = state.decision
        assert dec is not None
        mine = self.shown.get(rec.id)  # what this process last showed, if it did
        if mine is not None and mine.seq == seq:
            return
        missed: discord.Message | None = None
        if mine is not None:
            shown_seq, player = mine.seq, mine.player
        elif game is not None and game.shows is not None:
            shown_seq, player = game.shows.seq, game.shows.player
            missed, _ = await self.notice_restore(rec, seq, game.shows.message_id)
        else:
            record = await self.store.latest_message(rec.id, "turn")
            missed, _ = await self.notice_restore(rec, seq, record.message_id if record else None)
            shown_seq = record.seq if record is not None else None
            player = dec.player if shown_seq == seq else None
            if shown_seq is not None and shown_seq < seq and missed is None:  # before migration 14
                player = await self.player_at(rec.id, shown_seq)
        if mine is None and missed is not None:
            # posted by a process that stopped before writing it: that message is the turn
            # message (edited below, not posted again)
            await self.store.record_message(
                rec.id, "turn", missed.channel.id, missed.id, seq, now=self.now()
            )
            shown_seq, player = seq, dec.player
        log.info("game %s: the thread shows move %s, the game is at %s", rec.id, shown_seq, seq)
        passed = shown_seq is None or player != dec.player
        await self.publish_turn(rec, state, seq, how="pass" if passed else "edit", ping=passed)

    async def notice_restore(
        self, rec: GameRecord, seq: int, recorded: int | None
    ) -> tuple[discord.Message | None, bool]:
        """If the thread shows controls for moves the database does not have, the database was
        restored from a backup: retire those controls and tell the thread, once, which move the
        game is back at. One REST call (the thread's latest messages), none when the thread's
        last message is the turn message the database ``recorded``.

        Returns the newest turn message for the current decision ``seq`` posted after
        ``recorded`` (one the database missed: the process stopped before writing it), and
        whether a restore was found and told."""
        me = self.bot.user
        if me is None:
            return None, False
        missed: discord.Message | None = None
        try:
            channel = await self.channel(rec.thread_id or rec.channel_id)
            last = getattr(channel, "last_message_id", None)
            if recorded is not None and last == recorded:
                return None, False  # nothing was posted after what the database knows
            ahead: dict[int, int] = {}  # message id -> the move its controls are for
            read: list[discord.Message] = [
                m
                async for m in channel.history(limit=RESTORE_LOOKBACK)  # the newest first
            ]
            if recorded is not None and len(read) == RESTORE_LOOKBACK and read[-1].id > recorded:
                after = discord.Object(recorded)  # the first ones after the recorded message
                read += [m async for m in channel.history(limit=AFTER_RECORDED, after=after)]
            for msg in read:
                shown = shown_seq(msg, rec.id) if msg.author.id == me.id else None
                if shown is not None and shown > seq:
                    ahead[msg.id] = shown
                newer = recorded is None or msg.id > recorded
                if shown == seq and newer and (missed is None or msg.id > missed.id):
                    missed = msg
        except discord.HTTPException as exc:
            log.info("game %s: could not look for a restore: %s", rec.id, exc)
            return None, False
        if not ahead:
            return missed, False
        undone = [m for m, shown in ahead.items() if await self.lost_in_restore(rec.id, shown)]
        if not undone:
            return missed, False
        log.warning(
            "game %s: the thread shows moves the database does not have: restored from a"
            " backup, the game is back at move %s",
            rec.id,
            seq,
        )
        tr = game_lang(rec)
        for message_id in undone:
            await self.retire(
                rec, channel.id, message_id, tr._("-# This turn was undone by a restore.")
            )
        await self.announce(
            rec,
            tr._(
                "⚠️ Game #{id} was restored from a backup: it is back at move {seq}, and the "
                "moves made after that are undone. The current turn is below.",
                id=rec.id,
                seq=seq,
            ),
        )
        return missed, True

    async def lost_in_restore(self, game_id: int, seq: int) -> bool:
        """Was move ``seq`` (shown by a message, ahead of the game) lost to a restored backup?
        An undo also leaves messages ahead, but the undone choice's row is still there; a
        restored database never had it."""
        rows = await self.store.choices(game_id, include_undone=True)
        return all(c.seq != seq - 1 for c in rows)

    async def resume(self) -> None:
        """After a start: bring up to date the threads of this process's active games that are
        behind (one statement finds them: a thread that shows its game as it stands is not
        touched), the most recently played first, a few at a time; the rest on their next
        event. Then take up AI turns nobody plays. Another process's games (shards) are left
        to it."""
        games = [g for g in await self.store.active_games() if self.owns(g.guild_id)]
        behind = sorted(
            (g for g in games if not g.thread_current), key=lambda g: g.updated_at, reverse=True
        )
        log.info("resuming %d active game(s): %d thread(s) behind", len(games), len(behind))
        # A thread the database calls current may still show more (a restored backup, whose
        # marks say current): where the cached thread has a message after the recorded turn
        # message, look (one read) and tell the thread if moves were undone.
        later_messages = [g for g in games if g.thread_current and self._posted_since(g)]
        now, later = behind[:RESUME_AT_START], behind[RESUME_AT_START:]
        for g in later:
            self.behind[g.game_id] = g
        gate = asyncio.Semaphore(RESUME_AT_ONCE)

        async def bring(g: ActiveGame) -> None:
            async with gate, self.locks[g.game_id]:
                try:
                    await self.bring_up_to_date(await self.store.get_game(g.game_id), g)
                except Exception:
                    log.exception("could not resume game %s", g.game_id)
                    self.stale.add(g.game_id)

        async def look(g: ActiveGame) -> None:
            async with gate, self.locks[g.game_id]:
                try:
                    rec = await self.store.get_game(g.game_id)
                    assert g.shows is not None
                    _, restored = await self.notice_restore(rec, g.seq, g.shows.message_id)
                    if restored:  # the recorded turn message shows the game again
                        state, seq = await self.store.load_state(rec.id)
                        await self.publish_turn(rec, state, seq, how="edit", ping=False)
                except Exception:
                    log.exception("could not look for a restore of game %s", g.game_id)

        await asyncio.gather(*(bring(g) for g in now), *(look(g) for g in later_messages))
        await self.sweep_ai_turns()

    def _posted_since(self, g: ActiveGame) -> bool:
        """Does the thread, as the gateway's cache knows it (no REST call), have a message after
        the recorded turn message? Unknown (not cached): False."""
        thread = self.bot.get_channel(g.thread_id) if g.thread_id else None
        last = getattr(thread, "last_message_id", None)
        return last is not None and g.shows is not None and last != g.shows.message_id

    async def player_at(self, game_id: int, seq: int) -> int | None:
        """Who was deciding after the first ``seq`` moves (``seq`` below the game's): the seat
        that made the next choice, as the choice log says (no second replay)."""
        for choice in await self.store.choices(game_id):
            if choice.seq == seq:
                return choice.seat
        return None

    # ------------------------------------------------------------------ moves

    async def check_turn(
        self,
        user_id: int,
        rec: GameRecord,
        seq: int | None,
        known: tuple[GameState, int] | None = None,
    ) -> tuple[GameState, int, int]:
        """(state, seq, seat) if the user may decide now; raises Oops otherwise. ``known``:
        the state and seq read with ``rec`` (``store.game_and_state``), else they are read."""
        problem = status_problem(rec, ("active",))
        if problem:
            raise problem
        seat = rec.seat_of(user_id)
        if seat is None:
            raise Oops("You're not playing in game #{id}.", id=rec.id)
        state, current = known if known is not None else await self.store.load_state(rec.id)
        if seq is not None and seq > current and await self.lost_in_restore(rec.id, seq):
            raise Oops(
                "This game was restored from a backup and is back at move {seq}: that message "
                "is from a turn that was undone. The current turn: {link}",
                seq=current,
                link=await self.current_link(rec),
            )
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
            raise Oops(
                "It's not your turn: waiting for {name}.", name=ui.seat_name(waiting)
            )  # (escaped)
        return state, current, seat

    async def play(
        self,
        user_id: int,
        rec: GameRecord,
        seq: int | None,
        *,
        idx: int | None = None,
        choice_id: str | None = None,
        known: tuple[GameState, int] | None = None,
        answer: ClickAnswer | None = None,
    ) -> Played:
        """Apply a choice for a user. Once the store has committed, the move counts whatever
        happens next: a failure to update the thread is reported in ``Played.shown`` and
        repaired on the game's next event. ``answer``: the click on the turn message, answered
        with the updated message when it is ready in time.

        ``known``: the game's state and seq, read with ``rec`` in one read
        (``store.game_and_state``): a click then reads the game once and writes once (the
        move). Should another click of this process have moved the game meanwhile, the move's
        sequence check refuses it like a double click."""
        with self.working():
            return await self._play(
                user_id, rec, seq, idx=idx, choice_id=choice_id, known=known, answer=answer
            )

    async def _play(
        self,
        user_id: int,
        rec: GameRecord,
        seq: int | None,
        *,
        idx: int | None,
        choice_id: str | None,
        known: tuple[GameState, int] | None,
        answer: ClickAnswer | None,
    ) -> Played:
        await self.repair(rec.id)
        async with self.locks[rec.id]:
            if known is None or rec.id in self.stale:
                rec = await self.store.get_game(rec.id)
                known = None
            state, current, seat = await self.check_turn(user_id, rec, seq, known)
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
            posted = self.posted_turn(rec.id)
            try:
                new = await self.store.apply_choice(
                    rec.id, current, seat, choice.id, now=self.now(), remind=True, posted=posted
                )
            except StaleMove:
                raise Oops(
                    "That was already played (double click?). The current turn: {link}",
                    link=await self.current_link(rec),
                ) from None
            except NotYourTurn:
                raise Oops("It's not your turn.") from None
            self.recorded(rec.id, posted)
            self.counted("player")
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
        except Exception as exc:
            self.thread_failed(
                rec.id, exc, f"move {seq} saved, but the thread could not be updated"
            )
            return False

    async def undo(
        self, user_id: int, rec: GameRecord, seq: int | None, answer: ClickAnswer | None = None
    ) -> Played:
        with self.working():
            return await self._undo(user_id, rec, seq, answer)

    async def _undo(
        self, user_id: int, rec: GameRecord, seq: int | None, answer: ClickAnswer | None
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
            self.counted("undo")
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
        task = asyncio.get_running_loop().create_task(
            self._ai_loop(game_id), name=f"ada-ai-{game_id}"
        )
        self.ai_tasks[game_id] = task

        def done(_: asyncio.Task[None]) -> None:  # only running AI seats keep an entry
            if self.ai_tasks.get(game_id) is task:
                del self.ai_tasks[game_id]

        task.add_done_callback(done)

    def stop_ai(self, game_id: int) -> None:
        task = self.ai_tasks.pop(game_id, None)
        if task is not None:
            task.cancel()

    async def ai_choices(
        self, rec: GameRecord, state: GameState, policy: str | None, seed: int
    ) -> list[str]:
        """The AI's whole turn, thought out when the fair queue of AI thinking comes to it
        (``cogs.thinking``: worker processes, or a thread without them)."""
        return await self.thinking.think(rec.guild_id, rec.id, state.to_json(), policy, seed)

    async def aclose(self) -> None:
        """Record what the threads show, then stop (``close``)."""
        await self.flush_shown()
        self.close()

    def close(self) -> None:
        for task in list(self.ai_tasks.values()):
            task.cancel()
        self.thinking.close()

    async def _ai_loop(self, game_id: int) -> None:
        """Play AI seats' turns while it is an AI seat's turn, each claimed in the database
        first, so that of several bot processes exactly one plays it."""
        try:
            while not self.stopping:
                rec = await self.store.get_game(game_id)
                if rec.status != "active" or not self.owns(rec.guild_id):
                    return
                seq = await self.store.claim_ai_turn(game_id, self.owner, AI_LEASE, now=self.now())
                if seq is None:
                    return  # not an AI seat's turn, or another process plays it
                if self.metrics is not None:
                    self.metrics.ai_waiting.setdefault(game_id, time.monotonic())
                try:
                    if self.cfg.ai_delay > 0:
                        await asyncio.sleep(self.cfg.ai_delay)
                    state, now_seq = await self.store.load_state(game_id)
                    dec = state.decision
                    seat = rec.seat_at(dec.player) if dec else None
                    if now_seq == seq and seat is not None and seat.is_ai and not self.stopping:
                        await self.play_turn_by_ai(rec, state, seq, seat.ai_policy)
                finally:
                    if self.metrics is not None:
                        self.metrics.ai_waiting.pop(game_id, None)
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

    @property
    def shards(self) -> tuple[int, tuple[int, ...]] | None:
        """The Discord shards this process runs, (count, ids); None: every guild."""
        count, ids = self.cfg.shard_count, self.cfg.shard_ids
        if not count or ids is None:
            return None
        return count, tuple(ids)

    def owns(self, guild_id: int) -> bool:
        """Does this process serve the guild (runs its Discord shard)?"""
        shards = self.shards
        if shards is None:
            return True
        count, ids = shards
        return (guild_id >> 22) % count in ids

    async def play_turn_by_ai(
        self, rec: GameRecord, state: GameState, seq: int, policy: str | None
    ) -> GameState | None:
        """Play the current player's whole turn with an AI policy: used by AI seats and by a
        stand-in for an absent human. The AI thinks without holding the game's lock; its
        choices are applied only if the game is still where it thought (else None)."""
        with self.working():
            return await self._play_turn_by_ai(rec, state, seq, policy)

    async def _play_turn_by_ai(
        self, rec: GameRecord, state: GameState, seq: int, policy: str | None
    ) -> GameState | None:
        dec = state.decision
        assert dec is not None
        seed = ((rec.seed or 0) * 1_000_003 + seq) & ((1 << 62) - 1)
        ids = await self.ai_choices(rec, state, policy, seed)
        async with self.locks[rec.id]:
            now_state, now_seq = await self.store.load_state(rec.id)
            if now_seq != seq:
                return None  # someone moved meanwhile (an undo, a stand-in): think again
            new, cur = now_state, seq
            for choice_id in ids:
                d = new.decision
                if d is None or d.player != dec.player:
                    break
                posted = self.posted_turn(rec.id)
                new = await self.store.apply_choice(
                    rec.id, cur, dec.player, choice_id, now=self.now(), remind=True, posted=posted
                )
                self.recorded(rec.id, posted)
                cur += 1
            if cur == seq:  # the policy gave nothing usable: play one random choice
                pick = self.cfg.rng.choice(dec.choices).id
                new = await self.store.apply_choice(
                    rec.id, cur, dec.player, pick, now=self.now(), remind=True
                )
                cur += 1
            self.counted("ai", cur - seq)
            try:
                await self.after_change(rec, now_state, new, cur, from_ai=True, schedule=False)
            except Exception as exc:
                self.thread_failed(
                    rec.id, exc, "AI turn saved, but the thread could not be updated"
                )
            return new
