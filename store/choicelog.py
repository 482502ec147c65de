"""The running digest of a game's choice log (issue 19: damage must not go unnoticed).

Each live choice row stores ``next_digest(previous digest, row)``; the chain starts from the
digest of the game's setup, and ``games.log_digest`` holds the digest of the last live row. A
rewritten, removed or inserted row breaks the chain from that row on, which a load can check by
hashing (microseconds a row) instead of replaying the game. An undone row keeps its digest; the
row that replaces it chains from the same predecessor.

Version 1 of the format: sha256 hex of the fields below, joined by newlines.
"""

from __future__ import annotations

import hashlib


def start_digest(setup_text: str) -> str:
    """The chain's start: the digest of the game's stored setup (JSON text)."""
    return hashlib.sha256(f"ada-log-v1\n{setup_text}".encode()).hexdigest()


def next_digest(previous: str, seq: int, seat: int, choice_id: str) -> str:
    return hashlib.sha256(f"{previous}\n{seq}\n{seat}\n{choice_id}".encode()).hexdigest()


CHANGED_MARK = "changed at choice "
"""How ``games.log_digest`` begins once a choice row of the game was rewritten or deleted
(migration 15's triggers write ``changed at choice N``): no digest starts so, so the next move's
check fails and the replay that follows sets the game aside (issue 33: caught at the next move,
at a constant cost per move)."""


def changed_mark(log_digest: str | None) -> bool:
    """The game's log digest says one of its choice rows was changed after it was written."""
    return isinstance(log_digest, str) and log_digest.startswith(CHANGED_MARK)
