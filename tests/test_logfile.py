"""The log file (issue 29): LOG_FILE is written one line per event, rotates by size, can be
JSON lines that parse, keeps logsafe's promise (no token), and bad settings get one clear line."""

from __future__ import annotations

import json
import logging
import logging.handlers
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bot as bot_module
from cogs import logfile, logsafe


@pytest.fixture
def attach() -> Iterator[Any]:
    """Attach a handler to a logger of its own, as ``bot._logging`` attaches it to the root."""
    attached: list[tuple[logging.Logger, logging.Handler]] = []

    def add(handler: logging.Handler, name: str = "adas_dream.test") -> logging.Logger:
        logger = logging.getLogger(name)
        logger.setLevel(logging.INFO)
        logger.addHandler(handler)
        attached.append((logger, handler))
        return logger

    yield add
    for logger, handler in attached:
        logger.removeHandler(handler)
        handler.close()


def test_the_log_file_has_one_line_per_event(tmp_path: Path, attach: Any) -> None:
    path = tmp_path / "logs" / "bot.log"  # the folder is made
    log = attach(logfile.file_handler({"LOG_FILE": str(path)}))
    log.info("game %s: started", 7)
    try:
        raise ValueError("a broken\nrow")
    except ValueError:
        log.exception("game 7: could not load")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("INFO    adas_dream.test: game 7: started")
    assert (
        "ERROR" in lines[1] and "Traceback" in lines[1] and "ValueError: a broken\\nrow" in lines[1]
    )


def test_the_log_file_rotates_by_size(tmp_path: Path, attach: Any) -> None:
    path = tmp_path / "bot.log"
    settings = {"LOG_FILE": str(path), "LOG_MAX_BYTES": "2048", "LOG_BACKUPS": "2"}
    log = attach(logfile.file_handler(settings))
    for i in range(200):
        log.info("event %03d %s", i, "x" * 40)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["bot.log", "bot.log.1", "bot.log.2"]  # two backups kept, older dropped
    assert all(p.stat().st_size <= 2048 for p in tmp_path.iterdir())
    assert "event 199" in path.read_text()
    kept = "".join(p.read_text() for p in tmp_path.iterdir())
    assert "event 000" not in kept


def test_json_lines_parse(tmp_path: Path, attach: Any) -> None:
    path = tmp_path / "bot.jsonl"
    log = attach(logfile.file_handler({"LOG_FILE": str(path), "LOG_FORMAT": "json"}))
    log.warning("game %s: the thread is «still» out of date", 3)
    try:
        raise ZeroDivisionError("division by zero")
    except ZeroDivisionError:
        log.error("the AI of game 3 stopped", exc_info=True)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["level"] for r in records] == ["WARNING", "ERROR"]
    assert records[0]["message"] == "game 3: the thread is «still» out of date"
    assert records[0]["logger"] == "adas_dream.test"
    assert records[0]["time"].endswith("+00:00")
    assert "ZeroDivisionError" in records[1]["exc"] and "exc" not in records[0]


def test_the_log_file_holds_no_token(tmp_path: Path, attach: Any) -> None:
    logsafe.install()
    path = tmp_path / "bot.log"
    log = attach(logfile.file_handler({"LOG_FILE": str(path)}), "discord.http")
    log.warning("POST https://discord.com/api/v10/webhooks/123/aW50ZXJhY3Rpb24.abc/messages: 500")
    text = path.read_text()
    assert "aW50ZXJhY3Rpb24" not in text and "/webhooks/123/<token>/messages" in text


def test_no_log_file_without_the_setting() -> None:
    assert logfile.file_handler({}) is None
    assert logfile.file_handler({"LOG_FILE": "  "}) is None


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json"),
        ({"LOG_MAX_BYTES": "10"}, "LOG_MAX_BYTES must be a whole number of at least 1024"),
        ({"LOG_BACKUPS": "many"}, "LOG_BACKUPS must be a whole number of at least 1"),
    ],
)
def test_bad_log_settings_get_one_clear_line(
    tmp_path: Path, settings: dict[str, str], said: str
) -> None:
    with pytest.raises(SystemExit, match=said):
        logfile.file_handler({"LOG_FILE": str(tmp_path / "bot.log"), **settings})


def test_a_log_file_that_cannot_be_written_is_said_plainly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SystemExit, match="cannot be written"):
        logfile.file_handler({"LOG_FILE": str(blocker / "bot.log")})


def test_metrics_port_setting() -> None:
    assert bot_module.metrics_port_setting("") is None
    assert bot_module.metrics_port_setting("9108") == 9108
    for bad in ("0", "70000", "http"):
        with pytest.raises(SystemExit, match="METRICS_PORT"):
            bot_module.metrics_port_setting(bad)


def test_the_bot_logs_to_the_file_as_well_as_stderr(tmp_path: Path, monkeypatch: Any) -> None:
    """``bot._logging`` (what ``./scripts/run`` calls) adds the file; stderr's handler stays."""
    path = tmp_path / "bot.jsonl"
    monkeypatch.setenv("LOG_FILE", str(path))
    monkeypatch.setenv("LOG_FORMAT", "json")
    root = logging.getLogger()
    before = list(root.handlers)
    bot_module._logging()
    added = [h for h in root.handlers if h not in before]
    try:
        assert [type(h) for h in added] == [logging.handlers.RotatingFileHandler]
        assert set(before) <= set(root.handlers)
        logging.getLogger("adas_dream.bot").warning("starting Ada's Dream")
        logging.getLogger("discord.client").warning(
            "PyNaCl is not installed, voice will NOT be supported"
        )
    finally:
        for handler in added:
            root.removeHandler(handler)
            handler.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["message"] for line in lines] == ["starting Ada's Dream"]  # the noise is filtered
