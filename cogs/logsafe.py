"""Logging that never holds a secret, at any level: no interaction or webhook token, no saved
state and no private message (a player's hand).

discord.py logs every REST call's URL and body, and every gateway event, at DEBUG; the URLs of
interaction answers carry their token, and the bodies of private answers carry a hand. The
database libraries log each statement at DEBUG, saved states included. So those loggers stay at
INFO whatever LOG_LEVEL says, and tokens are cut out of whatever they log above it.
"""

from __future__ import annotations

import logging
import re

#: Loggers whose DEBUG output holds request bodies, gateway payloads or SQL parameters.
QUIET_LOGGERS = (
    "discord.http",
    "discord.gateway",
    "discord.state",
    "discord.webhook.async_",
    "aiosqlite",
    "asyncpg",
)
#: Loggers whose messages may carry a token in a URL (warnings about retries, rate limits).
TOKEN_LOGGERS = (
    "discord",
    "discord.http",
    "discord.webhook.async_",
    "discord.gateway",
    "discord.client",
)

_TOKENS = [
    (re.compile(r"(/webhooks/\d+/)[^/\s'\"?]+"), r"\1<token>"),
    (re.compile(r"(/interactions/\d+/)[^/\s'\"?]+"), r"\1<token>"),
    (re.compile(r"(['\"]token['\"]\s*:\s*['\"])[^'\"]+"), r"\1<token>"),
]


def redact(text: str) -> str:
    for pattern, replacement in _TOKENS:
        text = pattern.sub(replacement, text)
    return text


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


def install() -> None:
    """Idempotent: raise the noisy loggers to INFO and cut tokens out of discord.py's logs."""
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level < logging.INFO:  # NOTSET or DEBUG
            logger.setLevel(logging.INFO)
    for name in TOKEN_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
