"""Small text helpers for messages: cutting to Discord's limits and cleaning display names."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

NAME_MAX = 32

# Bidirectional overrides and isolates, zero-width characters and other invisible format marks:
# they can make a name read backwards or look like someone else's in a message or an image.
# The zero-width joiner is kept only inside an emoji sequence (between two symbols).
_INVISIBLE = re.compile(
    "[\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u180e\u00ad\u034f\u061c]"
)
_LONE_JOINER = re.compile(
    "(?<![\U0001f000-\U0001faff\u2600-\u27bf\ufe0f])\u200d|\u200d(?![\U0001f000-\U0001faff\u2600-\u27bf])"
)


# Every character Discord's markdown gives a meaning to: emphasis (* _ ~ |), code (`), quotes,
# headings and lists (> # -), masked links ([ ] ( )), mentions, timestamps and commands
# (< @ and the : of a bare link). A backslash before any ASCII punctuation shows it as typed.
_MARKDOWN = re.compile(r"([\\*_~|`>#\-\[\]()<@:])")


def escape(text: str) -> str:
    """Text from a member (a display name, or a log line that holds one) made safe to put in
    a message: shown exactly as typed, never as a link, mention, timestamp, command, heading
    or emphasis. discord.utils.escape_markdown falls short here: it leaves masked links,
    ``<t:0:R>``, ``</cmd:1>`` and ``<#1>`` live."""
    return _MARKDOWN.sub(r"\\\1", text)


def escape_names(text: str, names: Sequence[str]) -> str:
    """``text`` (a log line, a turn's summary) with every player's name in it escaped; the
    rest stays as written."""
    risky = sorted({n for n in names if escape(n) != n}, key=len, reverse=True)
    if not risky:
        return text
    return re.sub("|".join(map(re.escape, risky)), lambda m: escape(m.group()), text)


def unescape(text: str) -> str:
    """``escape`` undone: the text as a member sees it (tests, lengths)."""
    return re.sub(r"\\(.)", r"\1", text)


# An absolute file path of the host (two segments at least: "/ada cancel" is a command, and a
# URL's slashes follow a letter, a colon or another slash).
_HOST_PATH = re.compile(r"(?<![\w:/<.~-])/(?:[^\s/'\"`()<>]+/)+[^\s/'\"`()<>:,;]*")


def hide_paths(text: str) -> str:
    """``text`` without the host's absolute file paths (each becomes "…"): what players see
    never names the server's files; the log keeps the detail."""
    return _HOST_PATH.sub("…", text)


def shorten(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters at a word boundary with an ellipsis; line breaks stay."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:(\n") + "…"


def one_line(text: str, limit: int) -> str:
    """For a button or menu label: whitespace collapsed, then cut to ``limit``."""
    return shorten(" ".join(text.split()), limit)


def width(text: str) -> int:
    """Columns the text takes in a monospaced block: wide (East Asian) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def pad(text: str, columns: int, *, right: bool = False, cut: int | None = None) -> str:
    """``text`` cut to ``cut`` columns, then padded to ``columns`` (left- or right-aligned), as
    str.ljust/rjust do for narrow characters."""
    if cut is not None:
        while width(text) > cut:
            text = text[:-1]
    fill = " " * max(0, columns - width(text))
    return fill + text if right else text + fill


def _graphemes(text: str) -> list[str]:
    """User-perceived characters, approximately: a base character with its combining marks,
    variation selectors, skin tones and zero-width-joined parts (enough not to split an emoji)."""
    out: list[str] = []
    join_next = False
    for ch in text:
        cp = ord(ch)
        attach = (
            unicodedata.combining(ch)
            or 0xFE00 <= cp <= 0xFE0F  # variation selectors
            or 0x1F3FB <= cp <= 0x1F3FF  # skin tones
            or 0xE0020 <= cp <= 0xE007F  # tag characters (flag sequences)
            or ch == "\u200d"
            or join_next
        )
        if attach and out:
            out[-1] += ch
        else:
            out.append(ch)
        join_next = ch == "\u200d"
    # A regional-indicator pair is one flag.
    merged: list[str] = []
    for g in out:
        if (
            merged
            and len(merged[-1]) == 1
            and 0x1F1E6 <= ord(merged[-1]) <= 0x1F1FF
            and 0x1F1E6 <= ord(g[0]) <= 0x1F1FF
        ):
            merged[-1] += g
        else:
            merged.append(g)
    return merged


def clean_name(name: str, limit: int = NAME_MAX) -> str:
    """A display name safe to show: invisible and direction-changing characters removed, cut to
    ``limit`` characters without splitting an emoji, never empty."""
    text = re.sub(r"\s", " ", name)  # a line break is a space, not nothing
    text = _LONE_JOINER.sub("", _INVISIBLE.sub("", text))
    text = "".join(
        ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf") or ch == "\u200d"
    )
    text = " ".join(text.split())
    kept: list[str] = []
    size = 0
    for g in _graphemes(text):
        if size + len(g) > limit:
            break
        kept.append(g)
        size += len(g)
    return "".join(kept).strip() or "player"
