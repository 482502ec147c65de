"""Drawing primitives shared by the board, Mill, focus and scorepad images.

A `Canvas` owns its image and the record of every text and token mark it placed (tests read it
to check that text fits its box, never overlaps and is legible at the size Discord shows it).
What does not depend on one image is shared by the whole process and computed once: the fonts
(the TrueType files shipped in render/fonts, laid out with Pillow's BASIC engine so the same
state gives the same bytes on every machine), text widths, the wrapping of a text in a box, and
each line of text rendered as a coverage mask, pasted in its colour wherever it recurs.

Fonts follow the language an image is drawn in (``i18n.using``): DejaVu Sans, and for Japanese
a subset of Noto Sans JP (render/fonts/README.md says how it is cut). A character the first font
lacks is drawn with the other (a Japanese name on an English board, an accented name on a
Japanese one). Japanese lines break between any two characters, except before closing and after
opening punctuation; other text breaks at spaces.

A finished canvas becomes a palette PNG (``Canvas.png``, ``encode_png``): 256 colours chosen
from a sample of its pixels, written by ``write_png`` with zlib-ng (issue 34).
"""

from __future__ import annotations

import json
import math
import struct
import threading
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from zlib_ng import zlib_ng

import i18n

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FACES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSansCondensed.ttf",
    (True, True): "DejaVuSansCondensed-Bold.ttf",
}
JA_FACES = {  # no condensed face: the layout shrinks the size instead
    (False, False): "NotoSansJP-Regular.ttf",
    (True, False): "NotoSansJP-Bold.ttf",
    (False, True): "NotoSansJP-Regular.ttf",
    (True, True): "NotoSansJP-Bold.ttf",
}

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 exclusive)

# -- palette ------------------------------------------------------------------------------
TABLE: RGB = (226, 215, 190)  # opaque "table" behind everything: reads in dark and light themes
PANEL: RGB = (250, 246, 236)
PANEL_ALT: RGB = (239, 232, 214)
INK: RGB = (33, 28, 22)
MUTED: RGB = (105, 96, 84)
LINE: RGB = (72, 62, 50)
WHITE: RGB = (255, 255, 255)
HILITE: RGB = (255, 214, 64)
GOOD: RGB = (30, 120, 50)
BAD: RGB = (170, 30, 30)
MARK: RGB = (232, 150, 0)  # the outline of an option a player may choose

# Die colours, with the ink used for pips and the colour letter (the colour-blind cue).
DIE_FILL: dict[str, RGB] = {
    "Y": (245, 200, 50),
    "B": (44, 108, 206),
    "G": (46, 150, 72),
    "P": (139, 76, 182),
    "K": (158, 158, 158),
}
DIE_INK: dict[str, RGB] = {
    "Y": INK,
    "B": WHITE,
    "G": WHITE,
    "P": WHITE,
    "K": INK,
}
# Action-area / Research-track colours (same letters as dice).
AREA_FILL = DIE_FILL

PLAYER_FILL: dict[str, RGB] = {
    "red": (214, 40, 57),
    "lime": (150, 206, 60),
    "sky": (86, 190, 240),
    "purple": (120, 82, 196),
}
PLAYER_INK: dict[str, RGB] = {"red": WHITE, "lime": INK, "sky": INK, "purple": WHITE}

GEAR_FILL: dict[str, RGB] = {"+": (214, 172, 60), "-": (150, 170, 186), "x": (196, 118, 64)}

ELLIPSIS = "\u2026"


def shade(c: RGB, f: float) -> RGB:
    """Darken (f < 1) or lighten towards white (f > 1)."""
    if f <= 1:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f))
    t = f - 1
    return (
        int(c[0] + (255 - c[0]) * t),
        int(c[1] + (255 - c[1]) * t),
        int(c[2] + (255 - c[2]) * t),
    )


@dataclass(frozen=True, slots=True)
class TextItem:
    """One piece of text the canvas drew: the box it had to fit, and where its ink went."""

    text: str  # what was asked for
    shown: str  # what was drawn (lines joined by newlines; may end in an ellipsis)
    box: Box
    bbox: Box  # union of the drawn lines' ink boxes
    size: int
    clipped: bool  # shortened with an ellipsis
    kind: str  # "label" (checked for overlaps) or "name" (a player's name: may be cut)
    cap: int = (
        0  # height in px of a capital letter (and digit) of the font drawn: how tall it reads
    )


@dataclass(frozen=True, slots=True)
class GlyphItem:
    """A short mark drawn inside a token (a seat number, a die letter, a gear operator)."""

    text: str
    size: int
    bbox: Box
    cap: int = 0  # height in px of a capital letter (and digit) at this size


# -- fonts, measuring and rendered text, shared by every canvas of the process ----------------
# FreeType faces are not safe to use from two threads at once, and renders run in threads: every
# call into a font goes through this lock. Results are cached, so it is held only on a miss.
_FONT_LOCK = threading.RLock()


def script() -> str:
    """Which fonts the current language draws with: "ja" or "latin"."""
    return "ja" if i18n.current().code == "ja" else "latin"


def _chain(faces: str, bold: bool, cond: bool) -> tuple[str, str]:
    """The font files of a script, the first one used for every character it has."""
    latin, ja = FACES[(bold, cond)], JA_FACES[(bold, cond)]
    return (ja, latin) if faces == "ja" else (latin, ja)


@cache
def _coverage() -> dict[str, list[list[int]]]:
    return json.loads((FONT_DIR / "coverage.json").read_text(encoding="utf-8"))


@cache
def cmap(file: str) -> frozenset[int]:
    """The characters a shipped font has (from render/fonts/coverage.json, which
    ``python -m i18n.fonts`` writes when it cuts a font)."""
    return frozenset(cp for lo, hi in _coverage()[file] for cp in range(lo, hi + 1))


@cache
def _face(file: str, size: int) -> ImageFont.FreeTypeFont:
    with _FONT_LOCK:
        return ImageFont.truetype(str(FONT_DIR / file), size, layout_engine=ImageFont.Layout.BASIC)


def font(size: int, bold: bool = False, cond: bool = False) -> ImageFont.FreeTypeFont:
    """The first font of the current language."""
    return _face(_chain(script(), bold, cond)[0], size)


@lru_cache(maxsize=65536)
def _runs(text: str, faces: str, bold: bool, cond: bool) -> tuple[tuple[str, str], ...]:
    """The text cut into runs of one font each: (text, font file). A character that no shipped
    font has (an emoji in a player's name) is left out: drawn, it would be an empty box."""
    chain = _chain(faces, bold, cond)
    first = cmap(chain[0])
    if all(ord(ch) in first for ch in text):
        return ((text, chain[0]),)
    runs: list[tuple[str, str]] = []
    for ch in text:
        file = next((f for f in chain if ord(ch) in cmap(f)), None)
        if file is None:
            continue
        if runs and runs[-1][1] == file:
            runs[-1] = (runs[-1][0] + ch, file)
        else:
            runs.append((ch, file))
    return tuple(runs)


def text_width(text: str, size: int, bold: bool = False, cond: bool = False) -> float:
    return _text_width(text, size, bold, cond, script())


@lru_cache(maxsize=65536)
def _text_width(text: str, size: int, bold: bool, cond: bool, faces: str) -> float:
    with _FONT_LOCK:
        return sum(_face(f, size).getlength(piece) for piece, f in _runs(text, faces, bold, cond))


def _band(size: int, bold: bool, cond: bool) -> tuple[int, int]:
    return _band_of(size, bold, cond, script())


@cache
def _band_of(size: int, bold: bool, cond: bool, faces: str) -> tuple[int, int]:
    """Vertical ink extent of a line (top, bottom) relative to where it is drawn."""
    with _FONT_LOCK:
        f = _face(_chain(faces, bold, cond)[0], size)
        # Japanese text: kana, kanji, full-width brackets and Latin letters; accented capitals
        # and "|" (taller in Noto Sans JP) would cost every Japanese line three pixels
        sample = "漢あ（）Hbdfghjklpqy" if faces == "ja" else "HÉbdfghjklpqy|("
        _, top, _, bottom = f.getbbox(sample)
    return top, bottom


def cap_height(size: int, bold: bool = False, cond: bool = False) -> int:
    """How tall a capital letter or a digit of the current language's font is, in pixels (what
    a reader sees as the height of a text; Japanese kana and kanji are taller still)."""
    return _cap_of(size, bold, cond, script())


@cache
def _cap_of(size: int, bold: bool, cond: bool, faces: str) -> int:
    with _FONT_LOCK:
        _, top, _, bottom = _face(_chain(faces, bold, cond)[0], size).getbbox("H")
    return bottom - top


@cache
def _glyph_cap(size: int, bold: bool) -> int:
    with _FONT_LOCK:
        _, top, _, bottom = _face(FACES[(bold, False)], size).getbbox("0")
    return bottom - top


def _line_mask(line: str, size: int, bold: bool, cond: bool) -> tuple[Image.Image, int, int]:
    return _line_mask_of(line, size, bold, cond, script())


@lru_cache(maxsize=4096)  # a few KB each; a whole game of boards draws about 450 lines
def _line_mask_of(
    line: str, size: int, bold: bool, cond: bool, faces: str
) -> tuple[Image.Image, int, int]:
    """A line of text rendered once as a coverage mask, with its offset from the text origin.

    Pasting a colour through it gives the same pixels as drawing the text again."""
    runs = _runs(line, faces, bold, cond)
    if not runs:  # nothing drawable (a name of emoji only)
        return Image.new("L", (1, 1), 0), 0, 0
    with _FONT_LOCK:
        if len(runs) == 1:
            piece, file = runs[0]
            f = _face(file, size)
            left, top, right, bottom = f.getbbox(piece)
            mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
            ImageDraw.Draw(mask).text((-left, -top), piece, font=f, fill=255)
            return mask, left, top
        # several fonts: each run on the first font's baseline, one after another
        first = _face(runs[0][1], size)
        ascent = first.getmetrics()[0]
        width = int(sum(_face(f, size).getlength(piece) for piece, f in runs)) + 4 * size
        pad = 2 * size
        canvas = Image.new("L", (width + 2 * pad, 4 * size + 2 * pad), 0)
        draw = ImageDraw.Draw(canvas)
        x = float(pad)
        for piece, file in runs:
            f = _face(file, size)
            draw.text((x, pad + ascent), piece, font=f, fill=255, anchor="ls")
            x += f.getlength(piece)
        box = canvas.getbbox() or (pad, pad, pad + 1, pad + 1)
        return canvas.crop(box), box[0] - pad, box[1] - pad


@lru_cache(maxsize=4096)
def _glyph_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """A token's mark (digits, letters, operators): always DejaVu, in every language."""
    with _FONT_LOCK:
        f = _face(FACES[(bold, False)], size)
        left, top, right, bottom = f.getbbox(text, anchor="mm")
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor="mm")
    return mask, left, top


# -- where lines may break -----------------------------------------------------------------------

_NO_START = set("、。，．,.!?！？）」』】〕〉》・：；:;ー～…%％")  # never first on a line
_NO_END = set("（「『【〔〈《")  # never last on a line


def _wide(ch: str) -> bool:
    cp = ord(ch)
    return (
        0x3000 <= cp <= 0x30FF  # CJK punctuation, hiragana, katakana
        or 0x3400 <= cp <= 0x9FFF  # ideographs
        or 0xFF00 <= cp <= 0xFFEF  # full-width forms
        or 0xF900 <= cp <= 0xFAFF
    )


@lru_cache(maxsize=16384)
def _tokens(para: str) -> tuple[tuple[str, bool], ...]:
    """The pieces a paragraph may wrap between: (text, whether a space comes before it).

    Text without Japanese characters: its words. Japanese: each character a piece, with the
    punctuation that may not start or end a line kept with its neighbour."""
    words = para.split()
    if not any(_wide(ch) for ch in para):
        return tuple((w, i > 0) for i, w in enumerate(words))
    out: list[list[Any]] = []
    for i, word in enumerate(words):
        pieces: list[str] = []
        run = ""
        for ch in word:
            if _wide(ch):
                if run:
                    pieces.append(run)
                    run = ""
                pieces.append(ch)
            else:
                run += ch
        if run:
            pieces.append(run)
        for j, piece in enumerate(pieces):
            glue = bool(out) and (
                (j > 0 and (piece[0] in _NO_START or out[-1][0][-1] in _NO_END))
                or (j > 0 and not _wide(piece[0]) and not _wide(out[-1][0][-1]))
            )
            if glue:
                out[-1][0] += piece
            else:
                out.append([piece, j == 0 and i > 0])
    return tuple((text, spaced) for text, spaced in out)


def line_height(size: int) -> int:
    return int(math.ceil(size * 1.2))


def panel_inner(box: Box, titled: bool = True, title_size: int = 17) -> Box:
    """The content box of a panel (``Canvas.panel``) drawn over ``box``: what the geometry of
    the board page's hotspots (``render.spots``) shares with the drawing."""
    x0, y0, x1, y1 = box
    if not titled:
        return (x0 + 8, y0 + 8, x1 - 8, y1 - 8)
    return (x0 + 8, y0 + line_height(title_size) + 12, x1 - 8, y1 - 8)


@dataclass(frozen=True, slots=True)
class _Layout:
    size: int
    cond: bool
    lines: tuple[str, ...]
    widths: tuple[float, ...]
    clipped: bool


def _room_for(s: int, bold: bool, cond: bool, bh: int, wrap: bool, max_lines: int | None) -> int:
    top, bottom = _band(s, bold, cond)
    ink = bottom - top
    if ink > bh:
        return 0
    n = 1 + (bh - ink) // line_height(s) if wrap else 1
    return min(n, max_lines) if max_lines else n


def _layout(
    text: str,
    size: int,
    min_size: int,
    bold: bool,
    wrap: bool,
    max_lines: int | None,
    bw: int,
    bh: int,
) -> _Layout:
    """Wrap, then shrink (down to min_size, trying the condensed face at each size), and only
    then cut the last line with an ellipsis. Pure, so computed once per distinct text and box
    (and script)."""
    return _layout_of(text, size, min_size, bold, wrap, max_lines, bw, bh, script())


def lines_needed(text: str, size: int, width: int, bold: bool = False) -> int:
    """How many lines `text` takes at `size` in `width` (for boxes that grow with their text)."""
    return len(_layout(text, size, size, bold, True, None, width, 10_000).lines)


def fits_one_line(
    text: str, size: int, min_size: int, width: int, height: int, bold: bool = False
) -> bool:
    """Does `text` fit one line of a box, shrinking down to `min_size` (or condensed)?"""
    return not _layout(text, size, min_size, bold, False, None, width, height).clipped


@lru_cache(maxsize=16384)
def _layout_of(
    text: str,
    size: int,
    min_size: int,
    bold: bool,
    wrap: bool,
    max_lines: int | None,
    bw: int,
    bh: int,
    faces: str,
) -> _Layout:
    chosen: tuple[int, bool, list[str]] | None = None
    for s in range(size, min_size - 1, -1):
        for cond in (False, True):
            room = _room_for(s, bold, cond, bh, wrap, max_lines)
            if room == 0:
                continue
            lines = _wrap(text, s, bold, cond, bw, room)
            if lines is not None:
                chosen = (s, cond, lines)
                break
        if chosen:
            break
    clipped = False
    if chosen is None and wrap:  # a word wider than the box: break it with a hyphen
        for cond in (False, True):
            room = _room_for(min_size, bold, cond, bh, wrap, max_lines)
            hyphenated = _hyphenate(text, min_size, bold, cond, bw)
            lines = _wrap(hyphenated, min_size, bold, cond, bw, room) if room else None
            if lines is not None:
                chosen = (min_size, cond, lines)
                break
    if chosen is None:
        s = min_size
        room = max(1, _room_for(s, bold, True, bh, wrap, max_lines))
        lines = _wrap_loose(text, s, bold, True, bw)
        if len(lines) > room:
            lines = lines[:room]
            lines[-1] = lines[-1] + ELLIPSIS
        lines = [_ellipsise(line, s, bold, True, bw) for line in lines]
        clipped = True
        chosen = (s, True, lines)
    s, cond, lines = chosen
    joined = "\n".join(lines).replace(HYPHEN + "\n", "")
    return _Layout(
        size=s,
        cond=cond,
        lines=tuple(lines),
        widths=tuple(text_width(line, s, bold, cond) for line in lines),
        clipped=clipped or "".join(joined.split()) != "".join(text.split()),
    )


HYPHEN = "\u2010"  # a hyphen that marks a word broken at the end of a line (not in any text)


def _hyphenate(text: str, size: int, bold: bool, cond: bool, width: int) -> str:
    """Words wider than ``width`` cut into pieces that fit, each but the last ending in a
    hyphen; the pieces then wrap like words (they never share a line: each fills one)."""
    out = []
    for para in text.split("\n"):
        words = []
        for word in para.split():
            while text_width(word, size, bold, cond) > width and len(word) > 2:
                cut = len(word) - 1
                while cut > 1 and text_width(word[:cut] + HYPHEN, size, bold, cond) > width:
                    cut -= 1
                words.append(word[:cut] + HYPHEN)
                word = word[cut:]
            words.append(word)
        out.append(" ".join(words))
    return "\n".join(out)


def _wrap(text: str, size: int, bold: bool, cond: bool, width: int, room: int) -> list[str] | None:
    """Greedy word wrap; None if it needs more than `room` lines or a word is too wide.

    Words are measured once and lines summed from them; each final line is then measured
    whole (kerning) and, if the sum was optimistic, wrapped again exactly."""
    paras = text.split("\n")
    if len(paras) > room:
        return None
    sp = text_width(" ", size, bold, cond)
    if len(paras) == 1:
        whole = text_width(text, size, bold, cond)
        if whole <= width:
            return [text]
        if room == 1:
            return None
        if (whole - len(text.split()) * sp) / width > room:
            return None
    lines: list[str] = []
    for para in paras:
        words = _tokens(para)
        if not words:
            lines.append("")
            continue
        widths = [text_width(w, size, bold, cond) for w, _ in words]
        if max(widths) > width:
            return None
        current, cw = words[0][0], widths[0]
        for (word, spaced), ww in zip(words[1:], widths[1:], strict=True):
            gap = sp if spaced else 0.0
            if cw + gap + ww <= width:
                current, cw = current + (" " if spaced else "") + word, cw + gap + ww
            else:
                lines.append(current)
                if len(lines) >= room:
                    return None
                current, cw = word, ww
        lines.append(current)
        if len(lines) > room:
            return None
    for line in lines:
        if text_width(line, size, bold, cond) > width:
            return _wrap_exact(text, size, bold, cond, width, room)
    return lines


def _wrap_exact(
    text: str, size: int, bold: bool, cond: bool, width: int, room: int
) -> list[str] | None:
    lines: list[str] = []
    for para in text.split("\n"):
        words = _tokens(para)
        if not words:
            lines.append("")
            continue
        current = words[0][0]
        for word, spaced in words[1:]:
            trial = current + (" " if spaced else "") + word
            if text_width(trial, size, bold, cond) <= width:
                current = trial
            else:
                lines.append(current)
                current = word
        lines.append(current)
    ok = len(lines) <= room and all(text_width(line, size, bold, cond) <= width for line in lines)
    return lines if ok else None


def _wrap_loose(text: str, size: int, bold: bool, cond: bool, width: int) -> list[str]:
    """Word wrap that never fails: a word too wide for a line is cut with an ellipsis."""
    lines: list[str] = []
    for para in text.split("\n"):
        current = ""
        for word, spaced in _tokens(para):
            if text_width(word, size, bold, cond) > width:
                word = _ellipsise(word, size, bold, cond, width)
            trial = current + (" " if spaced else "") + word if current else word
            if text_width(trial, size, bold, cond) <= width:
                current = trial
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return lines


def _ellipsise(line: str, size: int, bold: bool, cond: bool, width: int) -> str:
    if text_width(line, size, bold, cond) <= width:
        return line
    base = line[:-1] if line.endswith(ELLIPSIS) else line
    while base and text_width(base.rstrip() + ELLIPSIS, size, bold, cond) > width:
        base = base[:-1]
    return base.rstrip() + ELLIPSIS if base else ""


class Canvas:
    def __init__(
        self, width: int, height: int, background: RGB = TABLE, base: Image.Image | None = None
    ) -> None:
        self.im = base.copy() if base is not None else Image.new("RGB", (width, height), background)
        self.d = ImageDraw.Draw(self.im)
        self.width = width
        self.height = height
        self.texts: list[TextItem] = []
        self.glyphs: list[GlyphItem] = []
        # Named boxes a renderer wants checked (a chart bar, a highlighted option): tests read them.
        self.marks: list[tuple[str, object, Box]] = []
        # No mark inside a token (die letter, seat number...) smaller than this: images read
        # inline set it to their smallest text size.
        self.min_glyph = 0
        # No text smaller than this (shrinking to fit stops here): images read on a phone set it.
        self.min_text = 0
        # A picture drawn past its bottom says how tall it needed to be (to be drawn again).
        self.wanted_height = 0
        # The static frames were pasted from a cached layer: panel() only returns its inner box.
        self.frames_drawn = False

    # -- fonts and measuring ----------------------------------------------------------------
    @staticmethod
    def font(size: int, bold: bool = False, cond: bool = False) -> ImageFont.FreeTypeFont:
        return font(size, bold, cond)

    @staticmethod
    def width_of(text: str, size: int, bold: bool = False, cond: bool = False) -> float:
        return text_width(text, size, bold, cond)

    @staticmethod
    def line_height(size: int) -> int:
        return line_height(size)

    # -- text -------------------------------------------------------------------------------
    def text(
        self,
        box: Box,
        text: str,
        size: int,
        *,
        min_size: int | None = None,
        bold: bool = False,
        fill: RGB = INK,
        align: str = "center",
        valign: str = "middle",
        wrap: bool = True,
        max_lines: int | None = None,
        kind: str = "label",
    ) -> TextItem:
        """Draw text inside box: wrap, then shrink (down to min_size, trying the condensed
        face at each size), and only then cut the last line with an ellipsis."""
        x0, y0, x1, y1 = box
        bw, bh = x1 - x0, y1 - y0
        if min_size is None:
            min_size = max(9, min(size, 11))
        if self.min_text:  # a picture read on a phone: nothing smaller, ever
            size, min_size = max(size, self.min_text), max(min_size, self.min_text)
        lay = _layout(text, size, min_size, bold, wrap, max_lines, bw, bh)
        s, cond = lay.size, lay.cond
        lh = line_height(s)
        band_top, band_bottom = _band(s, bold, cond)
        total = (len(lay.lines) - 1) * lh + (band_bottom - band_top)
        if valign == "top":
            y = y0
        elif valign == "bottom":
            y = y1 - total
        else:
            y = y0 + (bh - total) // 2
        bx0, by0, bx1, by1 = x1, y1, x0, y0
        for line, w in zip(lay.lines, lay.widths, strict=True):
            if align == "left":
                x = x0
            elif align == "right":
                x = x1 - w
            else:
                x = x0 + (bw - w) / 2
            x = int(round(x))
            if line.strip():
                mask, left, top = _line_mask(line, s, bold, cond)
                mx, my = x + left, y - band_top + top
                self.im.paste(fill, (mx, my, mx + mask.width, my + mask.height), mask)
            if line:
                bx0 = min(bx0, x)
                by0 = min(by0, y)
                bx1 = max(bx1, x + int(math.ceil(w)))
                by1 = max(by1, y + band_bottom - band_top)
            y += lh
        if bx1 < bx0:
            bx0, by0, bx1, by1 = x0, y0, x0, y0
        item = TextItem(
            text=text,
            shown="\n".join(lay.lines),
            box=box,
            bbox=(bx0, by0, bx1, by1),
            size=s,
            clipped=lay.clipped,
            kind=kind,
            cap=cap_height(s, bold, cond),
        )
        self.texts.append(item)
        return item

    def glyph(
        self, centre: tuple[float, float], text: str, size: int, fill: RGB, bold: bool = True
    ) -> None:
        """A short mark centred on a point (a number in a disc, a letter on a die), rendered
        once per process as a coverage mask and then pasted in its colour."""
        size = max(size, self.min_glyph)
        mask, left, top = _glyph_mask(text, size, bold)
        x = int(math.floor(centre[0] + left + 0.5))
        y = int(math.floor(centre[1] + top + 0.5))
        self.im.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
        box = (x, y, x + mask.width, y + mask.height)
        self.glyphs.append(GlyphItem(text, size, box, _glyph_cap(size, bold)))

    # -- shapes -----------------------------------------------------------------------------
    def panel(
        self, box: Box, title: str | None = None, fill: RGB = PANEL, title_size: int = 17
    ) -> Box:
        """A rounded panel with an optional title strip; returns the inner content box."""
        x0, y0, x1, y1 = box
        inner = panel_inner(box, bool(title), title_size)
        if self.frames_drawn:
            return inner
        self.d.rounded_rectangle(
            (x0, y0, x1 - 1, y1 - 1), radius=10, fill=fill, outline=LINE, width=2
        )
        if not title:
            return inner
        th = self.line_height(title_size) + 6
        self.d.rounded_rectangle(
            (x0, y0, x1 - 1, y0 + th), radius=10, fill=shade(LINE, 1.0), outline=LINE, width=2
        )
        self.d.rectangle((x0 + 2, y0 + th - 8, x1 - 3, y0 + th), fill=shade(LINE, 1.0))
        self.text(
            (x0 + 10, y0 + 2, x1 - 10, y0 + th - 1),
            title,
            title_size,
            bold=True,
            fill=WHITE,
            align="left",
        )
        return inner

    def box(
        self, box: Box, fill: RGB = WHITE, outline: RGB = LINE, width: int = 1, radius: int = 6
    ) -> None:
        x0, y0, x1, y1 = box
        self.d.rounded_rectangle(
            (x0, y0, x1 - 1, y1 - 1), radius=radius, fill=fill, outline=outline, width=width
        )

    def die(self, x: int, y: int, s: int, die: str | None) -> None:
        """A die face at (x, y) of side s: colour fill, pips, and its colour letter top centre
        (no face ever uses the top-centre pip position, so the letter never hides a pip)."""
        if not die:
            self.d.rounded_rectangle(
                (x, y, x + s - 1, y + s - 1),
                radius=max(3, s // 7),
                fill=PANEL_ALT,
                outline=MUTED,
                width=1,
            )
            return
        colour, pips = die[0], int(die[1:])
        fill = DIE_FILL.get(colour, (200, 200, 200))
        ink = DIE_INK.get(colour, INK)
        self.d.rounded_rectangle(
            (x, y, x + s - 1, y + s - 1),
            radius=max(3, s // 6),
            fill=fill,
            outline=INK,
            width=2 if s >= 40 else 1,
        )
        r = max(2.0, s * 0.085)
        a, m, b = 0.26, 0.5, 0.74
        spots = {
            1: [(m, m)],
            2: [(a, b), (b, a)],
            3: [(a, b), (m, m), (b, a)],
            4: [(a, a), (b, a), (a, b), (b, b)],
            5: [(a, a), (b, a), (m, m), (a, b), (b, b)],
            6: [(a, a), (b, a), (a, m), (b, m), (a, b), (b, b)],
        }.get(pips, [])
        for fx, fy in spots:
            cx, cy = x + fx * s, y + fy * s
            self.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
        if not spots:  # unexpected value: print it
            self.glyph((x + s / 2, y + s / 2), str(pips), int(s * 0.5), ink)
        # the letter is a cue for colour-blind players: never under 16 px on a die of 44 px or more
        letter = max(min(16, int(s * 0.36)), int(s * 0.3))
        self.glyph((x + s / 2, y + s * 0.2), colour, letter, ink)

    def disc(self, cx: float, cy: float, r: float, colour: str, label: str) -> None:
        """A player's disc: their colour plus their seat number (the second cue)."""
        fill = PLAYER_FILL.get(colour, (200, 200, 200))
        self.d.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2 if r >= 9 else 1
        )
        if r >= 6:
            self.glyph(
                (cx, cy + 0.5), label, max(8, int(r * 1.3 + 0.5)), PLAYER_INK.get(colour, INK)
            )

    def pawn(self, cx: float, cy: float, h: float, colour: str, label: str) -> None:
        """A Travel token: a pawn-like pentagon in the player's colour with the seat number."""
        fill = PLAYER_FILL.get(colour, (200, 200, 200))
        w = h * 0.8
        pts = [
            (cx, cy - h / 2),
            (cx + w / 2, cy - h / 6),
            (cx + w / 2, cy + h / 2),
            (cx - w / 2, cy + h / 2),
            (cx - w / 2, cy - h / 6),
        ]
        self.d.polygon(pts, fill=fill, outline=INK, width=2)
        self.glyph(
            (cx, cy + h * 0.1), label, max(8, int(h * 0.62 + 0.5)), PLAYER_INK.get(colour, INK)
        )

    def gear(
        self, cx: float, cy: float, r: float, op: str, teeth: int = 8, label: str | None = None
    ) -> None:
        """A built gear: toothed wheel, fill by kind, and its operator (+, -, x) in the middle,
        or `label` instead (the number of the space it stands on, when that is the choice)."""
        fill = GEAR_FILL.get(op, (180, 180, 180))
        pts = []
        n = teeth * 4
        for i in range(n):
            ang = 2 * math.pi * i / n - math.pi / 2
            rr = r if (i % 4) in (1, 2) else r * 0.78
            pts.append((cx + rr * math.cos(ang), cy + rr * math.sin(ang)))
        self.d.polygon(pts, fill=fill, outline=INK, width=1)
        ir = r * 0.52
        self.d.ellipse((cx - ir, cy - ir, cx + ir, cy + ir), fill=WHITE, outline=INK, width=1)
        sym = label or {"+": "+", "-": "\u2212", "x": "\u00d7"}.get(op, op)
        self.glyph((cx, cy), sym, max(9, int(r * 0.85)), INK)

    def swatch(self, box: Box, colour: str) -> None:
        """A small colour chip with its letter, for an action colour (P, B, Y, G, K)."""
        x0, y0, x1, y1 = box
        self.d.rounded_rectangle(
            (x0, y0, x1 - 1, y1 - 1),
            radius=3,
            fill=DIE_FILL.get(colour, MUTED),
            outline=INK,
            width=1,
        )
        self.glyph(
            ((x0 + x1) / 2, (y0 + y1) / 2 + 0.5),
            colour,
            max(8, int((y1 - y0) * 0.7)),
            DIE_INK.get(colour, INK),
        )

    def badge(
        self, cx: float, cy: float, r: float, text: str, fill: RGB = HILITE, ink: RGB = INK
    ) -> None:
        """A round token with a short value (Prestige, scoring tokens)."""
        self.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=1)
        size = int(r * (1.15 if len(text) < 2 else 0.95) + 0.5)
        self.glyph((cx, cy + 0.5), text, max(8, size), ink)

    # -- output -----------------------------------------------------------------------------
    def png(self) -> bytes:
        """The picture as a palette PNG: small (well under Discord's limits), fast to encode,
        deterministic (``encode_png``)."""
        return encode_png(self.im)


# How hard zlib-ng deflates a picture: level 3 takes a quarter of the time of Pillow's level 5
# for 2% more bytes; 4: a fifth more time, 1% more bytes; 2: 7% more bytes (bench_render --png).
PNG_LEVEL = 3
# One pixel in 4x4 chooses the palette: a third less time than one in 3x3, the same mean error
# (0.85 of 255), a few more pixels off by over 24 levels (30 in a million, at anti-aliased edges).
PALETTE_SAMPLE = 4
NEAREST = Image.Resampling.NEAREST
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def encode_png(im: Image.Image, level: int = PNG_LEVEL) -> bytes:
    """An RGB picture as a palette PNG: its colours chosen (``palette_image``), then written
    (``write_png``)."""
    return write_png(palette_image(im), level)


def palette_image(im: Image.Image) -> Image.Image:
    """The picture in at most 256 colours (the first half of ``encode_png``).

    The palette comes from every PALETTE_SAMPLE-th pixel of every PALETTE_SAMPLE-th row (drawn
    colours and their anti-aliased blends recur all over a picture), then every pixel takes its
    nearest palette colour: a fifth of the time of a full octree, with no larger error."""
    step = PALETTE_SAMPLE
    sample = im.resize((max(1, im.width // step), max(1, im.height // step)), NEAREST)
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return im.quantize(palette=palette, dither=Image.Dither.NONE)


def write_png(q: Image.Image, level: int = PNG_LEVEL) -> bytes:
    """A palette picture as PNG bytes (the second half of ``encode_png``).

    Pillow's PNG writer deflates with the zlib it was built with; zlib-ng deflates the same rows
    three to five times faster at the same size, so the four chunks of a palette PNG (the PNG
    specification, ISO/IEC 15948) are written here: the header, the palette entries in use, the
    rows (each led by its filter type, 0: none, the best for a palette picture) and the end."""
    width, height = q.size
    _lowest, highest = q.getextrema()  # the palette entries drawn: written up to the highest
    palette = bytes((q.getpalette() or [])[: 3 * (int(highest) + 1)])
    # one column more on the left, of zeros: its bytes are the rows each led by filter type 0
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(q, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette colours
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", zlib_ng.compress(rows.tobytes(), level)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def player_label(seat: int) -> str:
    return str(seat + 1)
