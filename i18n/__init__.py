"""The bot's languages: English (the source), Spanish and Japanese, from gettext catalogs.

Every player-facing string is written in English in the code and marked for translation; the
translations are the `.po` catalogs in ``i18n/locale/`` (kept in the repo, extracted and updated
with Babel: ``python -m i18n.extract``). They are read with Babel when first needed and compiled in
memory, so nothing compiled is committed and a fresh ``./scripts/run`` needs only PyPI.

    tr = i18n.get("es")                         # or i18n.get(interaction.locale)
    tr._("Game #{id} started.", id=7)           # 'La partida n.º 7 ha empezado.'
    tr.n_("{n} card", "{n} cards", 3)           # plural forms of the language
    tr.p_("effect", "Gain 1 Innovation")        # a text with a context (content, prompts, ...)
    tr.num(12.5)                                # '12,5': numbers as the language writes them

A string marked with ``_``, ``n_``, ``p_`` (methods of a language, or the module functions of the same
names, which use the language of the current context: ``with i18n.using(tr): ...``) or ``N_``
(marks a string translated later) is found by the extractor. Fields are ``str.format`` fields by
name; a translation keeps the same fields (the tests check every catalog).
"""

from __future__ import annotations

import contextlib
import contextvars
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
LANGUAGES = ("en", "es", "ja")
"""The languages of the bot: English is the source and the fallback of every string."""
NAMES = {"en": "English", "es": "Español", "ja": "日本語"}
"""Each language in its own words (what a language option offers)."""
DISCORD_LOCALES = {"es": ("es-ES", "es-419"), "ja": ("ja",)}
"""Discord's locales that each translated language serves (slash commands are localised for
these; any other locale gets English)."""


def N_(message: str) -> str:
    """Mark a string for the catalogs without translating it here (it is translated where it
    is shown, in the reader's language)."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark a string of a context for the catalogs without translating it here."""
    return message


def code_of(locale: Any) -> str:
    """The bot's language for a Discord locale (``discord.Locale`` or its value such as
    "es-ES"), a language code ("ja"), or None: English for anything else."""
    if locale is None:
        return "en"
    text = str(getattr(locale, "value", locale)).strip()
    base = text.split("-")[0].split("_")[0].lower()
    return base if base in LANGUAGES else "en"


@cache
def _translations(code: str) -> NullTranslations:
    if code == "en":
        return NullTranslations()
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)  # fuzzy entries are left out: English is shown until they are checked
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


@dataclass(frozen=True)
class Lang:
    """One language: its translations, plural rule and number format."""

    code: str
    _t: NullTranslations = field(repr=False, compare=False)
    locale: Locale = field(repr=False, compare=False)

    @property
    def name(self) -> str:
        return NAMES[self.code]

    def _(self, message: str, **fields: Any) -> str:
        """The message in this language, its fields filled in."""
        return self._fill(self._t.gettext(message), fields)

    def n_(self, singular: str, plural: str, n: int, **fields: Any) -> str:
        """The form of the message for ``n`` (also given to the text as the field ``n``)."""
        fields.setdefault("n", n)
        return self._fill(self._t.ngettext(singular, plural, n), fields)

    def p_(self, context: str, message: str, **fields: Any) -> str:
        """The message of a given context (a content text, a prompt...)."""
        return self._fill(self._t.pgettext(context, message), fields)

    def has(self, message: str, context: str | None = None) -> bool:
        """Has this language its own translation of the message?"""
        if self.code == "en":
            return True
        got = (
            self._t.pgettext(context, message) if context is not None else self._t.gettext(message)
        )
        return got != message or message.strip() == ""

    def num(self, value: float) -> str:
        """A number as the language writes it (12.5 -> "12,5" in Spanish)."""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return format_decimal(value, locale=self.locale)

    def join(self, items: Sequence[str], style: str = "standard") -> str:
        """'a, b and c' in the language ("a, b y c", "a、b、c")."""
        return format_list(list(items), style=style, locale=self.locale) if items else ""

    @staticmethod
    def _fill(text: str, fields: dict[str, Any]) -> str:
        return text.format(**fields) if fields else text


def get(which: Any = "en") -> Lang:
    """The language for a code, a Discord locale or None (English)."""
    return _language(code_of(which))


@cache
def _language(code: str) -> Lang:
    """One Lang per language the bot speaks (the cache is keyed by the code, not by whatever
    locale string a client sent: those are unbounded)."""
    return Lang(code, _translations(code), Locale.parse(code))


ENGLISH = get("en")

# -- the language of the current context (renderers, which draw in one language at a time) ----

_current: contextvars.ContextVar[Lang] = contextvars.ContextVar("i18n_lang", default=ENGLISH)


def current() -> Lang:
    return _current.get()


@contextlib.contextmanager
def using(lang: Lang | str | None) -> Iterator[Lang]:
    """Make ``lang`` the language of ``_``, ``n_`` and ``p_`` in this context."""
    tr = lang if isinstance(lang, Lang) else get(lang)
    token = _current.set(tr)
    try:
        yield tr
    finally:
        _current.reset(token)


def _(message: str, **fields: Any) -> str:
    return _current.get()._(message, **fields)


def n_(singular: str, plural: str, n: int, **fields: Any) -> str:
    return _current.get().n_(singular, plural, n, **fields)


def p_(context: str, message: str, **fields: Any) -> str:
    return _current.get().p_(context, message, **fields)
