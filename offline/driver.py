"""Playing through the bot's messages as a person would, on simcord: for tests and benchmarks.

``Clicker.choose`` reaches a given choice of the current decision by clicking what the bot shows
(a group button, then the choice; a menu; the private message the bot sent after the previous
click, or "Show my choices"), and counts every interaction it needed.
"""

from __future__ import annotations

import time
from typing import Any

from cogs import ui
from engine import GameState


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
