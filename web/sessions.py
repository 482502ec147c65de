"""Session tokens of the board page: who is asking, for which game, from which seat.

A token is ``<payload>.<signature>``: the payload is URL-safe base64 of a small JSON object, the
signature an HMAC-SHA256 of it under the server's secret. The server issues a token only after it
has established the user and the game itself; a browser cannot make or alter one. Tokens expire,
and carry no hidden information (a token is only a name for a viewer).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta


class BadSession(Exception):
    """The token is malformed, forged, or expired: the page must sign in again."""


@dataclass(frozen=True)
class Viewer:
    user_id: int
    game_id: int
    seat: int | None
    """The viewer's seat in the game, or None for a spectator (the public view only)."""
    via: str
    """How the server established the user: "discord" (an Activity) or "local" (offline table)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    """Issues and reads session tokens. ``secret``: the signing key (WEB_SECRET; a random one
    when absent, so tokens then end with the process and pages sign in again by themselves)."""

    MAX_TOKEN = 512

    def __init__(
        self,
        secret: bytes | None,
        clock: Callable[[], datetime],
        ttl: timedelta = timedelta(hours=12),
    ) -> None:
        self.secret = secret or secrets.token_bytes(32)
        self.clock = clock
        self.ttl = ttl

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self.secret, payload.encode("ascii"), hashlib.sha256).digest())

    def issue(self, viewer: Viewer) -> str:
        body = asdict(viewer) | {"exp": int((self.clock() + self.ttl).timestamp())}
        payload = _b64(json.dumps(body, separators=(",", ":")).encode("utf-8"))
        return f"{payload}.{self._sign(payload)}"

    def read(self, token: str) -> Viewer:
        if not isinstance(token, str) or len(token) > self.MAX_TOKEN or token.count(".") != 1:
            raise BadSession("malformed session")
        payload, signature = token.split(".")
        if not hmac.compare_digest(signature, self._sign(payload)):
            raise BadSession("forged session")
        try:
            body = json.loads(_unb64(payload))
            viewer = Viewer(
                user_id=int(body["user_id"]),
                game_id=int(body["game_id"]),
                seat=None if body["seat"] is None else int(body["seat"]),
                via=str(body["via"]),
            )
            expires = int(body["exp"])
        except (ValueError, KeyError, TypeError):
            raise BadSession("malformed session") from None
        if self.clock().timestamp() >= expires:
            raise BadSession("session expired")
        return viewer
