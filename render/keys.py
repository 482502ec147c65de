"""Image keys: a short digest of exactly what an image shows, so the bot re-renders and
re-uploads an image only when it changed.

The key is taken over the same visible state the renderer draws from (the engine's view for the
viewer), reduced to the parts that image draws:

- board: the round and turn, where everyone's Travel token and Research markers are, the
  Workshop, every display and deck size, and every disc on the main board: nothing of the
  players' own boards, hands, the log or the pending decision;
- mill: that player's board as the viewer may see it, their score as the viewer may see it, and
  the round and turn (header);
- focus: the pending decision as the viewer may see it and the whole visible state except the
  log, the history and the rules' bookkeeping (a focus image changes with nearly every decision);
- scorepad: every visible score, the ranking and the names.

Equal keys mean byte-identical PNGs (tests check it over sampled games); RENDER_VERSION is part of
every key, so a new look of the images gives new keys.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from typing import Any

from engine.scoring import ranking
from engine.state import GameState
from render._common import visible_score
from render._state import pending, visible

RENDER_VERSION = "2"

# What the main board draws of each player; the rest of a player's state is on their Mill.
BOARD_PLAYER_FIELDS = ("name", "colour", "city", "research")
BOARD_COUNTED = ("bag", "program_deck", "assignment_deck", "partner_deck", "multiplier_deck")
NOT_DRAWN = ("log", "history", "undo_floor", "stack", "rng", "setup", "ctx")


def _digest(*parts: Any) -> str:
    text = json.dumps([RENDER_VERSION, *parts], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _public(st: GameState) -> dict[str, Any]:
    d = st.to_dict()
    for name in NOT_DRAWN:
        d.pop(name, None)
    for p in d["players"]:
        p.pop("turns", None)  # bookkeeping, never drawn
    return d


def board_key(state: Any, viewer: int | None = None) -> str:
    return _board_digest(_public(visible(state, viewer)), viewer)


def _board_digest(d: dict[str, Any], viewer: int | None) -> str:
    """(``d``: ``_public`` of the visible state; changed here)"""
    for name in BOARD_COUNTED:
        d[name] = len(d[name])
    d["players"] = [{f: p[f] for f in BOARD_PLAYER_FIELDS} for p in d["players"]]
    return _digest("board", viewer, d)


def _mill_parts(
    st: GameState, seat: int, viewer: int | None, d: dict[str, Any] | None = None
) -> list[Any]:
    d = _public(st) if d is None else d
    if not 0 <= seat < len(d["players"]):
        raise ValueError(f"no seat {seat} in a {len(d['players'])}-player game")
    return [
        seat,
        viewer,
        d["players"][seat],
        visible_score(st, seat),
        st.round,
        st.current,
        st.over,
    ]


def mill_key(state: Any, seat: int, viewer: int | None = None, compact: bool = False) -> str:
    st = visible(state, viewer)
    return _digest("mill", compact, *_mill_parts(st, seat, viewer))


def page_keys(state: Any, viewer: int | None = None) -> tuple[str, list[str]]:
    """``board_key(state, viewer)`` and every seat's ``mill_key(state, seat, viewer)`` at once,
    from one view of the state (the board page asks for them all at every move)."""
    st = visible(state, viewer)
    d = _public(st)
    mills = [
        _digest("mill", False, *_mill_parts(st, seat, viewer, d))
        for seat in range(len(d["players"]))
    ]
    return _board_digest(d, viewer), mills


def focus_key(state: Any, viewer: int | None = None) -> str:
    dec = pending(state, viewer)
    if dec is None:
        return scorepad_key(state, viewer)
    st = visible(state, viewer)
    d = _public(st)
    d["ctx"] = st.ctx  # the focus shows the die being placed, the space pushed into...
    return _digest("focus", viewer, [dec.player, dec.kind, dec.prompt, dec.choices], d)


def scorepad_key(state: Any, viewer: int | None = None) -> str:
    st = visible(state, viewer)
    rows = [visible_score(st, s) for s in range(len(st.players))]
    hidden = any(v is None for r in rows for v in r.values())
    order = None if hidden else ranking(st)
    people = [(p.name, p.colour) for p in st.players]
    return _digest("scorepad", rows, order, people, st.round, st.over)


KEYS = {"board": board_key, "mill": mill_key, "focus": focus_key, "scorepad": scorepad_key}


def image_key(name: str, state: Any, *args: Any, lang: str = "en", **kwargs: Any) -> str:
    """The key of `<name>_png(state, *args, **kwargs)`: the same arguments as the image (an
    image in another language than English has its own key)."""
    fn = KEYS.get(name)
    if fn is None:
        raise ValueError(f"no image called {name!r} (one of {', '.join(KEYS)})")
    bound = inspect.signature(fn).bind(state, *args, **kwargs)
    bound.apply_defaults()
    key = fn(*bound.args, **bound.kwargs)
    return key if lang == "en" else _digest(lang, key)
