"""Game states as stored text, and independent copies of them, without needless JSON trips.

``GameState.to_json()`` dumps a state with the standard library's json, and
``GameState.from_json()`` parses the text into a state (the engine's general way, for any
caller). The store only needs the text of a state it will not touch again, and a state from
text it just parsed, so it dumps and builds directly. It writes the text with orjson
(``json_text``: about a tenth of the standard library's time for a 20 KB state, which was a
third of a move's CPU) and escapes what orjson leaves unescaped, so the text
is the standard library's to the byte. The result must be byte-for-byte the engine's own: the
first ``SELF_CHECKS`` calls of the process compare with the engine and, at the first
difference, the store goes back to the engine's functions for good (and says so in the log).
"""

from __future__ import annotations

import codecs
import hashlib
import json
import logging
import threading
from dataclasses import fields
from json.encoder import encode_basestring_ascii
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; the standard library does it, slower
    orjson = None  # type: ignore[assignment]

from engine import GameSetup, GameState
from engine.copies import fast_copy
from engine.state import NOT_SERIALISED, PlayerState

log = logging.getLogger(__name__)

SELF_CHECKS = 20

_STATE_FIELDS = [f.name for f in fields(GameState) if f.name not in NOT_SERIALISED]

_lock = threading.Lock()
_checks_left = {"encode": SELF_CHECKS, "decode": SELF_CHECKS}
_fast = {"encode": True, "decode": True}


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _escape(error: UnicodeEncodeError) -> tuple[str, int]:
    """A run of characters beyond ASCII as ``json.dumps`` escapes them (``\\u00a3``, surrogate
    pairs): the error handler of ``str.encode("ascii", ...)``, which finds them fast."""
    return encode_basestring_ascii(error.object[error.start : error.end])[1:-1], error.end


codecs.register_error("store.json_escape", _escape)

# What json.dumps refuses, orjson must refuse too (not write it its own way).
_ORJSON_OPTIONS = (
    0
    if orjson is None
    else orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)


def json_text(value: Any) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"))``, the same text, faster.

    orjson sorts keys by their UTF-8 bytes, which is code point order, as Python sorts strings.
    It writes as they are what ``json.dumps`` escapes: characters beyond ASCII, and DEL; they
    only occur inside strings (JSON's own syntax is ASCII), so they are escaped afterwards.
    Whatever orjson refuses (an integer beyond 64 bits, a key that is not a string, a lone
    surrogate) goes to the standard library."""
    if orjson is not None:
        try:
            raw = orjson.dumps(value, option=_ORJSON_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError
            pass
        else:
            if raw.isascii():
                text = raw.decode("ascii")
            else:
                text = raw.decode().encode("ascii", "store.json_escape").decode("ascii")
            return text.replace("\x7f", "\\u007f") if "\x7f" in text else text
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _dump(state: GameState) -> str:
    d: dict[str, Any] = {name: getattr(state, name) for name in _STATE_FIELDS}
    # the engine's own dicts: they leave out what older games did not have (a setup's rules
    # version 1 and first edition, an empty `played`), so old games keep their text and digests
    d["setup"] = state.setup.to_dict()
    d["players"] = [p.to_dict() for p in state.players]
    return json_text(d)


def _build(text: str) -> GameState:
    d = json.loads(text)
    kwargs = {name: d[name] for name in _STATE_FIELDS if name in d}
    kwargs["setup"] = GameSetup.from_dict(d["setup"])
    kwargs["players"] = [PlayerState(**p) for p in d["players"]]
    return GameState(**kwargs)


def _use_fast(kind: str) -> tuple[bool, bool]:
    """(use the fast path, also check it against the engine this time)."""
    with _lock:
        if not _fast[kind]:
            return False, False
        if _checks_left[kind] > 0:
            _checks_left[kind] -= 1
            return True, True
        return True, False


def _give_up(kind: str) -> None:
    with _lock:
        if _fast[kind]:
            _fast[kind] = False
            log.warning(
                "the store's fast state %s differs from the engine's: using the engine's", kind
            )


def encode(state: GameState) -> tuple[str, str]:
    """``(state.to_json(), state.digest())``."""
    fast, check = _use_fast("encode")
    if not fast:
        return state.to_json(), state.digest()
    text = _dump(state)
    if check and (text != state.to_json() or sha256(text) != state.digest()):
        _give_up("encode")
        return state.to_json(), state.digest()
    return text, sha256(text)


def decode(text: str) -> GameState:
    """``GameState.from_json(text)``; raises whatever it raises on bad text."""
    fast, check = _use_fast("decode")
    if not fast:
        return GameState.from_json(text)
    state = _build(text)
    if check and state.to_json() != GameState.from_json(text).to_json():
        _give_up("decode")
        return GameState.from_json(text)
    return state


def copy(state: GameState) -> GameState:
    """An independent copy (the engine's fast copy, log included)."""
    return fast_copy(state, keep_log=True)
