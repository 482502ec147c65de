"""The Japanese font: the shipped subset of Noto Sans JP has every character the Japanese catalog
can draw (no boxes), and render/fonts/coverage.json (what the bot reads to pick a font per
character, without fontTools) says exactly what the font files hold."""

from __future__ import annotations

import json

import pytest

from i18n import fonts
from render import _draw

JA_FACES = ("NotoSansJP-Regular.ttf", "NotoSansJP-Bold.ttf")
# Emoji of Discord messages (Discord draws them; the images never do: test_i18n_play checks
# every character an image draws).
MESSAGE_ONLY = {"\u23f0", "\u2705", "\ufe0f"}


class TestJapaneseFont:
    @pytest.mark.parametrize("face", JA_FACES)
    def test_every_character_of_the_japanese_catalog_has_a_glyph(self, face: str) -> None:
        """In the Japanese font, or in DejaVu (the fallback for symbols such as ✔)."""
        have = _draw.cmap(face) | _draw.cmap(
            face.replace("NotoSansJP", "DejaVuSans").replace("-Regular", "")
        )
        missing = sorted(
            ch
            for ch in fonts.catalog_characters("ja") - MESSAGE_ONLY
            if ch.isprintable() and ord(ch) not in have
        )
        assert not missing, (
            f"{face} lacks {len(missing)} characters of the Japanese catalog ({''.join(missing[:40])}):"
            " cut the subset again (python -m i18n.fonts, see i18n/fonts.py)"
        )

    @pytest.mark.parametrize("face", JA_FACES)
    def test_kana_punctuation_and_latin_are_in_the_subset(self, face: str) -> None:
        have = _draw.cmap(face)
        for ch in "あいうアイウー、。「」（）・£→×ÉéñÑáí0123456789ABCabc":
            assert ord(ch) in have, ch

    @pytest.mark.parametrize("face", JA_FACES)
    def test_every_character_of_jis_x_0208_is_in_the_subset(self, face: str) -> None:
        """Players' names: a Japanese table writes them in kanji the catalog never uses."""
        have = _draw.cmap(face)
        missing = [ch for ch in fonts.jis_x_0208() if ord(ch) not in have and not ch.isspace()]
        assert len(fonts.jis_x_0208()) > 6800
        assert missing == ["\u2252"]  # ≒, the one JIS X 0208 sign Noto Sans JP itself lacks

    def test_the_subset_is_a_fraction_of_the_font(self) -> None:
        for face in JA_FACES:  # the whole font is about 5.5 MB a weight
            assert (_draw.FONT_DIR / face).stat().st_size < 2_500_000

    def test_the_licence_ships_with_the_font(self) -> None:
        text = (_draw.FONT_DIR / "LICENSE-NotoSansJP.txt").read_text()
        assert "SIL Open Font License" in text or "OFL" in text


class TestCoverageFile:
    def test_coverage_json_matches_the_font_files(self) -> None:
        pytest.importorskip("fontTools")
        shipped = json.loads((_draw.FONT_DIR / "coverage.json").read_text())
        assert shipped == fonts.font_coverage(), "run: python -m i18n.fonts --coverage"

    def test_the_bot_does_not_need_fonttools(self) -> None:
        """Reading a font's characters uses the shipped coverage file only."""
        import inspect

        assert "fontTools" not in inspect.getsource(_draw)
