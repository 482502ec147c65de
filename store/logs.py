"""No saved state or hand in any log (issue 19).

The store logs only game ids, counts and reasons written for admins (never a choice, a card or
a state). Database libraries may log statements with their parameters at DEBUG (aiosqlite does:
every saved state, with all hands). Importing the store sets their loggers to INFO (so no such
record is even made) and drops their records below INFO, whatever level the application sets
later.
"""

from __future__ import annotations

import logging

DATABASE_LIBRARIES = ("aiosqlite", "asyncpg", "sqlite3")


class DropBelowInfo(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.INFO


def quiet_database_libraries() -> None:
    for name in DATABASE_LIBRARIES:
        logger = logging.getLogger(name)
        if logger.level < logging.INFO:  # NOTSET or DEBUG
            logger.setLevel(logging.INFO)
        if not any(isinstance(f, DropBelowInfo) for f in logger.filters):
            logger.addFilter(DropBelowInfo())
