"""The process settings an operator writes in `.env` (bot.py): each read as the README's table says,
and a malformed value stops the start with a message naming the key, never a traceback."""

from __future__ import annotations

import pytest

from bot import ai_delay_setting, ai_workers_setting, shard_range


class TestShardRange:
    def test_no_shards_named_runs_them_all(self) -> None:
        assert shard_range("", "") == (None, None)

    def test_ranges_and_lists(self) -> None:
        assert shard_range("8", "0-3") == (8, [0, 1, 2, 3])
        assert shard_range("8", "4, 6,5") == (8, [4, 5, 6])
        assert shard_range("8", "") == (8, None)

    @pytest.mark.parametrize(
        ("count", "ids", "names"),
        [
            ("", "0-3", "SHARD_COUNT"),
            ("0", "", "SHARD_COUNT"),
            ("two", "", "SHARD_COUNT"),
            ("4", "0-9", "SHARD_IDS"),
            ("4", "a-b", "SHARD_IDS"),
        ],
    )
    def test_a_malformed_range_says_which_key(self, count: str, ids: str, names: str) -> None:
        with pytest.raises(SystemExit) as stop:
            shard_range(count, ids)
        assert names in str(stop.value.code)


class TestAiWorkers:
    def test_default_leaves_one_core_to_the_bot(self) -> None:
        assert ai_workers_setting("") is None  # create_bot: cores - 1, at least 1 (default_workers)

    def test_a_number_of_processes_or_zero_for_a_thread(self) -> None:
        assert ai_workers_setting("4") == 4
        assert ai_workers_setting(" 0 ") == 0

    @pytest.mark.parametrize("text", ["-1", "many", "1.5"])
    def test_a_malformed_value_says_which_key(self, text: str) -> None:
        with pytest.raises(SystemExit) as stop:
            ai_workers_setting(text)
        assert "AI_WORKERS" in str(stop.value.code)


class TestAiDelay:
    def test_seconds_or_the_default(self) -> None:
        assert ai_delay_setting("") == 2.0
        assert ai_delay_setting("0.5") == 0.5

    @pytest.mark.parametrize("text", ["soon", "-3", "nan"])
    def test_a_malformed_value_says_which_key(self, text: str) -> None:
        with pytest.raises(SystemExit) as stop:
            ai_delay_setting(text)
        assert "AI_DELAY_SECONDS" in str(stop.value.code)
