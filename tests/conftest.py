"""Fixtures for the bot tests: a bot on a temporary database, driven by simcord.

``simcord_env`` (simcord's pytest plugin) asks for ``simcord_bot``; ``make_bot`` builds the fresh
bot objects a restart needs, and every bot made here is closed at teardown (an open store
would otherwise keep its database thread alive).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import AdaBot, create_bot
from offline.driver import Clicker


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ada.db"


@pytest.fixture
async def make_bot(db_path: Path) -> Any:
    made: list[AdaBot] = []

    def make(**kwargs: Any) -> AdaBot:
        options: dict[str, Any] = {
            "images": False,
            "ai_delay": 0.0,
            "reminder_interval": 600.0,
            "seed": 7,
            "ai_workers": 0,  # AI thinking in a thread here; test_bot_game uses the process pool
        }
        options.update(kwargs)
        bot = create_bot(db_path, **options)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        if not bot.is_closed() or bot.ada.store is not None:
            try:
                await bot.close()
            except Exception:
                pass


@pytest.fixture
def bot_options() -> dict[str, Any]:
    """Override in a test module to change the options of the first bot."""
    return {}


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AdaBot], bot_options: dict[str, Any]) -> AdaBot:
    return make_bot(**bot_options)


class Table:
    """A guild with a games channel and a few members, and helpers to play through Discord only."""

    def __init__(self, env: Any, names: tuple[str, ...] = ("alice", "bob", "carol", "dave")):
        self.env = env
        self.guild = env.create_guild("Club")
        self.channel = self.guild.create_text_channel("games")
        self.members = {n: self.guild.add_member(env.create_user(n)) for n in names}
        self.by_id = {m.id: m for m in self.members.values()}
        self.clicker = Clicker(env)
        self.slashes = 0

    def __getattr__(self, name: str) -> Any:
        members = self.__dict__.get("members", {})
        if name in members:
            return members[name]
        raise AttributeError(name)

    @property
    def store(self) -> Any:
        return self.env.bot.ada.store

    @property
    def cog(self) -> Any:
        return self.env.bot.get_cog("Game")

    def thread(self, game: int) -> Any:
        for th in self.channel.threads:
            if th.name == f"Ada's Dream #{game}":
                return th
        raise AssertionError(f"no thread for game {game}")

    def message(self, channel: Any, message_id: int) -> Any:
        for m in channel.history():
            if m.id == message_id:
                return m
        raise AssertionError(f"message {message_id} not found")

    async def turn_message(self, game: int) -> Any:
        rec = await self.store.latest_message(game, "turn")
        assert rec is not None
        return self.message(self.thread(game), rec.message_id)

    async def lobby_message(self, game: int) -> Any:
        rec = await self.store.latest_message(game, "lobby")
        assert rec is not None
        return self.message(self.thread(game), rec.message_id)

    async def new_game(
        self,
        creator: str = "alice",
        joiners: tuple[str, ...] = ("bob",),
        start: bool = True,
        **options: Any,
    ) -> int:
        options.setdefault("players", 1 + len(joiners) + options.get("ai", 0))
        res = await self.members[creator].slash(self.channel, "ada new", **options)
        assert res.acknowledged, res
        games = await self.store.games_in_channel(self.channel.id)
        game = max(g.id for g in games)
        lobby = await self.lobby_message(game)
        for name in joiners:
            r = await self.members[name].click(lobby, custom_id=f"ada:l:join:{game}")
            assert r.acknowledged
        if start:
            r = await self.members[creator].click(lobby, custom_id=f"ada:l:start:{game}")
            assert r.acknowledged
        return game

    async def move(self, game: int, pick: Callable[[Any], int], *, slash: bool = False) -> Any:
        """The player to move makes one decision through Discord; returns the InteractionResult."""
        state, seq = await self.store.load_state(game)
        rec = await self.store.get_game(game)
        dec = state.decision
        assert dec is not None
        seat = rec.seat_at(dec.player)
        assert seat is not None and not seat.is_ai
        actor = self.by_id[seat.user_id]
        idx = pick(dec)
        if slash:
            self.slashes += 1
            res = await actor.slash(self.thread(game), "ada play", choice=f"#{seq}:{idx}")
            assert res.acknowledged and res.ephemeral, res
            return res
        target = await self.turn_message(game)
        res = await self.clicker.choose(actor, self.thread(game), target, state, game, seq, idx)
        assert res.acknowledged, res
        return res

    @property
    def clicks(self) -> int:
        return self.clicker.clicks


@pytest.fixture
def table(simcord_env: Any) -> Table:
    return Table(simcord_env)


# The store's backends (SQLite and a throwaway PostgreSQL) for the store tests.
from store_backends import backend, db_location, pg_server, store  # noqa: E402, F401
