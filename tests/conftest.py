"""Fixtures for the bot tests: a bot on a temporary database, driven by simcord.

``simcord_env`` (simcord's pytest plugin) asks for ``simcord_bot``; ``make_bot`` builds the fresh
bot objects a restart needs, and every bot made here is closed at teardown (an open store
would otherwise keep its database thread alive).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

from engine import rules

if TYPE_CHECKING:  # the bot is imported by the fixtures that make one: rules tests never load it
    from bot import AdaBot
    from offline.driver import Table

# Every listing the engine reuses is checked against a fresh one (see rules.forget_choices).
rules.CHECK_REUSED_CHOICES = True

# No test depends on wall-clock speed: Hypothesis examples have no deadline, anywhere.
settings.register_profile("ada", deadline=None)
settings.load_profile("ada")

# simcord waits for the bot to settle after each act; its default 5 s limit is a hang guard that a
# machine busy with other work can exceed (an image, a replay, an AI turn in a process). A test
# that sets its own `@pytest.mark.simcord(settle_timeout=...)` keeps it.
SETTLE_TIMEOUT = 60.0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        marker = item.get_closest_marker("simcord")  # the one simcord's fixture reads
        options = {"settle_timeout": SETTLE_TIMEOUT, **(marker.kwargs if marker else {})}
        item.add_marker(pytest.mark.simcord(**options), append=False)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ada.db"


@pytest.fixture
async def make_bot(db_path: Path) -> Any:
    made: list[AdaBot] = []

    from bot import create_bot

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


@pytest.fixture
def table(simcord_env: Any) -> Table:
    from offline.driver import Table

    return Table(simcord_env)


# The store's backends (SQLite and a throwaway PostgreSQL) for the store tests.
from store_backends import backend, db_location, pg_server, store  # noqa: E402, F401

# One headless Chromium for the browser tests of a run (tests/board_browser.py).
from tests.board_browser import chromium_port  # noqa: E402, F401
