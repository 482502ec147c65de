"""``python -m store COMMAND ...``: the same commands as ``python bot.py COMMAND ...``
(``store.cli``)."""

from .cli import main

raise SystemExit(main())
