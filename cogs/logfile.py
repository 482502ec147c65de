"""Where the log goes: stderr as before (for systemd's journal), and optionally a file that
rotates by size (``LOG_FILE``, ``LOG_MAX_BYTES``, ``LOG_BACKUPS``) in text or JSON lines
(``LOG_FORMAT=json``).

A file line is one event: a traceback is kept on the same line (its line breaks escaped in
text, a field in JSON). The same loggers feed every handler, so ``cogs.logsafe``'s filters (no
token, no saved state, no hand) hold for the file too.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from cogs.config import whole

TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_BACKUPS = 5


class OneLine(logging.Formatter):
    """The text format, with a traceback's line breaks escaped: one line per event."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r", "\\r").replace("\n", "\\n")


class JsonLines(logging.Formatter):
    """One JSON object per line: time (ISO 8601, UTC), level, logger, message, and the
    traceback as ``exc`` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


def file_handler(settings: Mapping[str, str]) -> logging.Handler | None:
    """The rotating file handler the settings ask for (None without ``LOG_FILE``). Raises
    SystemExit with a clear line for a bad setting or a file that cannot be opened."""
    path = settings.get("LOG_FILE", "").strip()
    if not path:
        return None
    fmt = settings.get("LOG_FORMAT", "").strip().lower() or "text"
    if fmt not in ("text", "json"):
        raise SystemExit(f"LOG_FORMAT must be text or json (it is {fmt!r}).")
    max_bytes = _whole(settings, "LOG_MAX_BYTES", DEFAULT_MAX_BYTES, 1024)
    backups = _whole(settings, "LOG_BACKUPS", DEFAULT_BACKUPS, 1)
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8"
        )
    except OSError as exc:
        raise SystemExit(f"LOG_FILE {path} cannot be written: {exc.strerror}.") from None
    handler.setFormatter(JsonLines() if fmt == "json" else OneLine(TEXT_FORMAT))
    return handler


def _whole(settings: Mapping[str, str], key: str, default: int, least: int) -> int:
    text = settings.get(key, "").strip()
    return whole(key, text, least) if text else default
