"""Playing through the bot's messages as a person would, on simcord: for tests and benchmarks.

``Clicker.choose`` reaches a given choice of the current decision by clicking what the bot shows
(a group button, then the choice; a menu; the private message the bot sent after the previous
click, or "Show my choices"), and counts every interaction it needed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from cogs import ui
from engine import GameState


def greedy_pick(seed: int) -> Any:
    """A player who chooses as the greedy AI would (so the game looks like a real one)."""
    from engine.ai import get_policy

    greedy, rng = get_policy("greedy"), random.Random(seed)

    def pick(state: Any) -> int:
        choice = greedy.choose(state.copy(), rng)
        return next(i for i, c in enumerate(state.decision.choices) if c.id == choice)

    return pick


def flat_components(message: Any) -> list[dict[str, Any]]:
    """Every component of a message (a discord.Message or a simcord response), nested ones too."""
    out: list[dict[str, Any]] = []

    def walk(items: Any) -> None:
        for c in items or []:
            d = c if isinstance(c, dict) else c.to_dict()
            out.append(d)
            walk(d.get("components"))
            if isinstance(d.get("accessory"), dict):
                walk([d["accessory"]])

    walk(message.components)
    return out


def custom_ids(message: Any) -> list[str]:
    return [c["custom_id"] for c in flat_components(message) if c.get("custom_id")]


def texts(message: Any) -> str:
    """All the text a message shows: content, embeds and Components V2 text displays."""
    parts = [getattr(message, "content", "") or ""]
    for e in getattr(message, "embeds", []) or []:
        parts += [e.title or "", e.description or ""]
    parts += [c.get("content", "") for c in flat_components(message) if c.get("type") == 10]
    return "\n".join(p for p in parts if p)


def decision_shown(message: Any, game: int) -> int | None:
    """The decision (sequence number) a turn message's controls are for, or None (no controls)."""
    for cid in custom_ids(message):
        parts = cid.split(":")
        if len(parts) >= 4 and parts[1] in "csgpub" and parts[2] == str(game):
            return int(parts[3])
    return None


def pinged(env: Any, message: Any) -> list[int]:
    """The users a message notified (simcord keeps who was pinged, not only who was mentioned)."""
    return list(env.backend.messages[message.channel.id][message.id].ping_user_ids)


class Clicker:
    """Reaches choices through the components, remembering each player's private message."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.clicks = 0
        self.latency: list[float] = []
        self.private: dict[tuple[int, int], int] = {}  # (user, thread) -> latest private message

    @staticmethod
    def _find(thread: Any, message_id: int, viewer: Any) -> Any:
        """The message as ``viewer`` sees it now (ephemeral ones only their addressee sees)."""
        for m in reversed(thread.history(viewer=viewer)):
            if m.id == message_id:
                return m
        raise AssertionError(f"message {message_id} not found")

    async def act(self, actor: Any, verb: str, target: Any, *args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        res = await getattr(actor, verb)(target, *args, **kwargs)
        self.latency.append(time.perf_counter() - t0)
        self.clicks += 1
        assert res.acknowledged, res
        for f in res.followups:
            if f.ephemeral and any(i.startswith("ada:") for i in custom_ids(f)):
                self.private[actor.id, f.channel_id] = f.id
        return res

    async def choose(
        self, actor: Any, thread: Any, message: Any, state: GameState, game: int, seq: int, idx: int
    ) -> Any:
        """Click through ``message`` (the turn message) to choice ``idx``; returns the last result."""
        target = message
        if (
            state.decision is not None
            and state.decision.private
            and (actor.id, thread.id) in self.private
        ):
            mine = self._find(thread, self.private[actor.id, thread.id], actor)
            if any(
                i.startswith(f"ada:c:{game}:{seq}:") or i.startswith(f"ada:s:{game}:{seq}:")
                for i in custom_ids(mine)
            ):
                target = mine
        for _ in range(6):
            comps = flat_components(target)
            ids = {c["custom_id"]: c for c in comps if c.get("custom_id")}
            direct = ui.cid_choice(game, seq, idx)
            if direct in ids:
                return await self.act(actor, "click", target, custom_id=direct)
            for cid, c in ids.items():
                if cid.startswith(f"ada:s:{game}:{seq}:") and any(
                    o["value"] == str(idx) for o in c.get("options", [])
                ):
                    return await self.act(actor, "select", target, [str(idx)], custom_id=cid)
            step = self._next_step(ids, state, game, seq, idx)
            if step is None:
                raise AssertionError(f"no way to choice {idx} among {sorted(ids)}")
            res = await self.act(actor, "click", target, custom_id=step)
            if res.response is not None and res.response.ephemeral:
                target = self._find(thread, res.response.id, actor)
            elif res.followups and res.followups[-1].ephemeral:
                target = self._find(thread, res.followups[-1].id, actor)
            else:
                target = self._find(thread, target.id, actor)
        raise AssertionError("too many steps to reach a choice")

    @staticmethod
    def _next_step(
        ids: dict[str, Any], state: GameState, game: int, seq: int, idx: int
    ) -> str | None:
        private = ui.cid_private(game, seq)
        if private in ids:
            return private
        _direct, groups = ui.choice_layout(state)
        for k, g in enumerate(groups):
            if idx in g.indexes and ui.cid_group(game, seq, k) in ids:
                return ui.cid_group(game, seq, k)
        back = ui.cid_back(game, seq)
        return back if back in ids else None


class Table:
    """A guild with a games channel and a few members, and helpers to play through Discord only."""

    def __init__(
        self,
        env: Any,
        names: tuple[str, ...] = ("alice", "bob", "carol", "dave"),
        *,
        guild: str = "Club",
        shard_id: int | None = None,
    ):
        self.env = env
        self.guild = env.create_guild(guild, shard_id=shard_id)
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
        # what the bot shows (a turn message posted by a click is written with the next move)
        rec: Any = self.env.bot.ada.games.shown.get(game)
        if rec is None:
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

    async def move(
        self,
        game: int,
        pick: Callable[[Any], int],
        *,
        slash: bool = False,
        whole_state: bool = False,
    ) -> Any:
        """The player to move makes one decision through Discord: ``pick(decision)`` (or, with
        ``whole_state``, ``pick(state)``) gives the index of the choice. Returns the
        InteractionResult of the last click."""
        state, seq = await self.store.load_state(game)
        rec = await self.store.get_game(game)
        dec = state.decision
        assert dec is not None
        seat = rec.seat_at(dec.player)
        assert seat is not None and not seat.is_ai
        actor = self.by_id[seat.user_id]
        idx = pick(state) if whole_state else pick(dec)
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
