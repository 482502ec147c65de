"""What the board page's routes work with (``WebContext``), given to ``web.app.make_app``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from cogs import media
from cogs.config import BotConfig
from cogs.service import GameService
from store import Store
from web.live import Live
from web.sessions import Sessions


def wall_clock() -> datetime:
    """Sessions expire in real time, whatever clock the bot's games run on (a simulated
    Discord's, in tests and on the offline table)."""
    return datetime.now(UTC)


@dataclass
class WebContext:
    service: GameService
    """The one path every move takes (``GameService.play``, ``undo``)."""
    store: Store
    sessions: Sessions
    config: BotConfig
    """The bot's settings: WEB_*, PUBLIC_URL, ACTIVITY_CLIENT_ID among them."""
    clock: Callable[[], datetime]
    live: Live = field(default_factory=Live)
    pictures: media.Images = field(default_factory=lambda: media.Images(True))
    """The page's pictures, drawn off the event loop and kept by what they show (the bot's
    own images may be switched off; the page always needs them)."""

    @classmethod
    def of(cls, service: GameService) -> WebContext:
        """The context of a running bot's service: sessions signed with WEB_SECRET, and the
        live updates hooked into the service's commits."""
        cfg = service.cfg
        secret = cfg.web_secret.encode("utf-8") if cfg.web_secret else None
        ctx = cls(
            service=service,
            store=service.store,
            sessions=Sessions(secret, wall_clock),
            config=cfg,
            clock=wall_clock,
        )
        service.watchers.append(ctx.live.changed)
        return ctx
