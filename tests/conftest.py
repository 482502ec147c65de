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
from simcord_settle import poll_quickly

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

# simcord looks again every 10 ms (not 50 ms) while a bot task works: see tests/simcord_settle.py
poll_quickly()


# The costliest tests, costliest first (wall seconds on two idle cores with the whole suite,
# and CPU seconds where they differ much; December 2026). They run first, so that the workers fed
# two tests at a time (scripts/test: --maxschedchunk 2) end together instead of one finishing a
# long test alone at the end. A name missing here only makes the end less even; the order of the
# other tests is kept.
COSTLY = (
    "tests/test_bot_shards.py::test_two_processes",  # 18 s (10 CPU-s)
    "tests/test_web_chromium.py::test_two_people_play_a_whole_game_from_the_page",  # 16 s, Chromium
    "tests/test_bot_shards.py::test_killed_shard_processes",  # 14 s, four bot processes
    "tests/test_ai.py::TestRecordedAIPlaythrough",  # 2 x 12 s (7 CPU-s)
    "tests/test_i18n_play.py::test_a_whole_game_in_the_language",  # 2 x 10 s (6 CPU-s)
    "tests/test_bot_game.py::test_three_player_game",  # 8 s
    "tests/test_bot_records.py::test_time_away_pauses_reminders_and_the_stand_in",  # 7 s (1 CPU-s)
    "tests/test_balance_report.py::TestGameCache::test_a_game_two_samples",  # 7 s, a subprocess
    "tests/test_bot_game.py::test_two_player_game",  # 7 s
    "tests/test_i18n_images.py::test_sampled_images",  # 2 x 6-7 s
    "tests/test_web_board.py::test_no_answer_to_a_viewer_holds_another_players_hidden_card",  # 6 s
    "tests/test_bot_outage.py::test_an_outage_logs_a_bounded_number",  # 6 s (1 CPU-s)
    "tests/test_ai.py::TestGreedyBeatsRandom",  # 6 s
    "tests/test_balance_report.py::TestGameCache",  # 3-6 s each, the first plays the shared run
    "tests/test_selfplay_cli.py::TestReproducible",  # 5 s
    "tests/test_bot_turn_message.py::TestPolish::test_once_the_end_is_triggered",  # 5 s
    "tests/test_render_focus.py::TestImageKeys::test_equal_keys_mean_equal_images",  # 5 s
    "tests/test_engine_compiled.py::test_the_compiled_engine_passes",  # 5 s, one subprocess
    "tests/test_store_records.py::test_rebuilt_from_scratch_equals_the_game_ends",  # 2 x 3-5 s
    "tests/test_selfplay_cli.py::TestJson::test_rotate_moves_the_policies_around_the_table",  # 4 s
    "tests/test_bot_game.py::test_ai_seats_play_by_themselves",  # 3 s
    "tests/test_balance_report.py::TestSmallRun",  # 3 s
)


def _costly_first(item: pytest.Item) -> int:
    return next((n for n, name in enumerate(COSTLY) if item.nodeid.startswith(name)), len(COSTLY))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        marker = item.get_closest_marker("simcord")  # the one simcord's fixture reads
        options = {"settle_timeout": SETTLE_TIMEOUT, **(marker.kwargs if marker else {})}
        item.add_marker(pytest.mark.simcord(**options), append=False)
    items.sort(key=_costly_first)  # stable: the others keep pytest's order


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
from store_backends import backend, db_location, pg_admin, pg_server, store  # noqa: E402, F401

# One headless Chromium for the browser tests of a run (tests/board_browser.py).
from tests.board_browser import chromium_port  # noqa: E402, F401
