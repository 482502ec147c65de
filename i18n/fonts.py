"""Cut the Japanese font the images draw with: Noto Sans JP (SIL Open Font License 1.1),
Regular and Bold, subset to the characters the Japanese catalog and a few ranges need.

The full fonts come from the npm registry (about 5 MB a weight):

    npm pack @expo-google-fonts/noto-sans-jp && tar xzf expo-google-fonts-noto-sans-jp-*.tgz
    .venv/bin/python -m i18n.fonts package     # writes render/fonts/NotoSansJP-*.ttf
                                               # and render/fonts/coverage.json

fontTools (a dev dependency) cuts the subset; the bot does not need it: which characters each
shipped font has is written beside the fonts (``coverage.json``, read by render._draw to pick
the font of each character). ``python -m i18n.fonts --coverage`` rewrites only that file.

Run it again after the Japanese catalog gains characters: ``tests/test_i18n_fonts.py`` fails
until every character of the catalog (and every character drawn in a Japanese game) is in the
subset. What is kept: Latin (ASCII, Latin-1, Latin Extended-A) and the punctuation, arrows and
signs the images use, all kana, CJK punctuation and full-width forms, and every character of
the Japanese translations, and every character of JIS X 0208 (the kanji of players' names).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from i18n import DOMAIN, LOCALE_DIR

FONTS = Path(__file__).resolve().parent.parent / "render" / "fonts"
WEIGHTS = {"400Regular": "NotoSansJP-Regular.ttf", "700Bold": "NotoSansJP-Bold.ttf"}
RANGES = [
    (0x20, 0x7E),  # ASCII
    (0xA0, 0x17F),  # Latin-1, Latin Extended-A (players' names)
    (0x2010, 0x2027),  # dashes, quotes, bullets, ellipsis
    (0x2030, 0x203A),
    (0x2190, 0x2199),  # arrows
    (0x2212, 0x2212),  # minus
    (0x2460, 0x2473),  # circled numbers
    (0x25A0, 0x25FF),  # geometric shapes
    (0x3000, 0x303F),  # CJK punctuation
    (0x3041, 0x30FF),  # hiragana, katakana
    (0xFF01, 0xFF5E),  # full-width forms
]


def catalog_characters(code: str = "ja") -> set[str]:
    """Every character of a language's translations."""
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=code)
    chars: set[str] = set()
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for s in strings:
            chars.update(s or "")
    return chars


def jis_x_0208() -> set[str]:
    """Every character of JIS X 0208 (its 6,355 kanji of levels 1 and 2, kana, symbols): what
    Japanese players' names are written in, so a name never draws as empty boxes."""
    chars: set[str] = set()
    for lead in range(0xA1, 0xFF):
        for trail in range(0xA1, 0xFF):
            try:
                chars.add(bytes((lead, trail)).decode("euc_jp"))
            except UnicodeDecodeError:
                continue
    return chars


def wanted() -> set[str]:
    chars = {chr(cp) for lo, hi in RANGES for cp in range(lo, hi + 1)}
    return chars | jis_x_0208() | catalog_characters("ja")


COVERAGE = FONTS / "coverage.json"


def ranges(codepoints: set[int]) -> list[list[int]]:
    """Code points as sorted [first, last] runs (a small file to keep in the repo)."""
    out: list[list[int]] = []
    for cp in sorted(codepoints):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def font_coverage() -> dict[str, list[list[int]]]:
    """Every shipped font's characters, read from the font files (needs fontTools)."""
    from fontTools.ttLib import TTFont

    return {
        path.name: ranges(set(TTFont(str(path), lazy=True).getBestCmap()))
        for path in sorted(FONTS.glob("*.ttf"))
    }


def write_coverage() -> None:
    text = json.dumps(font_coverage(), separators=(",", ":"))
    COVERAGE.write_text(text.replace("]],", "]],\n") + "\n", encoding="utf-8")
    print(f"{COVERAGE}: {COVERAGE.stat().st_size // 1024} KB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", type=Path, nargs="?", help="the unpacked npm package folder")
    parser.add_argument("--coverage", action="store_true", help="only rewrite coverage.json")
    args = parser.parse_args(argv)
    if args.coverage or args.package is None:
        write_coverage()
        return 0
    from fontTools import subset

    text = "".join(sorted(c for c in wanted() if c.isprintable()))
    for folder, name in WEIGHTS.items():
        source = args.package / folder / f"NotoSansJP_{folder}.ttf"
        options = subset.Options()
        options.layout_features = []  # Pillow's BASIC layout uses none
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # copyright, names, licence
        options.notdef_outline = True
        options.hinting = False  # smaller; Pillow renders unhinted glyphs well at these sizes
        font = subset.load_font(str(source), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        target = FONTS / name
        subset.save_font(font, str(target), options)
        print(f"{target}: {target.stat().st_size // 1024} KB, {len(text)} characters asked")
    for licence in (args.package / "LICENSE_FONT", args.package / "LICENSE"):
        if licence.exists() and "Open Font License" in licence.read_text():
            (FONTS / "LICENSE-NotoSansJP.txt").write_text(licence.read_text())
            break
    write_coverage()
    return 0


if __name__ == "__main__":
    sys.exit(main())
