"""The images in Spanish and Japanese, drawn straight from sampled states (every decision kind of
three random games, and a few states more): every word drawn is in the language (names and
numbers apart), the fonts have every character, the text-fit and inline-legibility rules of the
English images hold for the translated strings; and golden images per language (a board and a
compact Mill in each: RENDER_UPDATE_GOLDEN=images rewrites them, see tests/test_render.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import i18n
from engine.state import GameState
from render import board_png, mill_png
from render.board import draw_board
from render.focus import draw_focus
from render.mill import draw_mill
from render.mill_compact import draw_mill_compact
from render.scorepad import draw_scorepad
from tests.test_i18n_play import Seen, assert_fonts_cover, assert_in_language
from tests.test_render import GOLDEN_STATES, _compare, _golden_state, assert_text_ok
from tests.test_render_focus import assert_legible, sampled_states

LANGS = ("es", "ja")


def canvases(st: GameState, k: int = 0) -> list[tuple[str, object]]:
    """The pictures of a state as its players see them: the decision's picture always, the
    others (the same code for every state, other texts) every third state."""
    viewer = st.decision.player if st.decision else 0
    seat = (viewer + 1) % len(st.players)
    out: list[tuple[str, object]] = [("focus", draw_focus(st, viewer))]
    if k % 3 == 0:
        out += [
            ("board", draw_board(st, viewer)),
            ("mill own", draw_mill(st, viewer, viewer)),
            ("mill other", draw_mill(st, seat, viewer)),
            ("compact own", draw_mill_compact(st, viewer, viewer)),
            ("compact other", draw_mill_compact(st, seat, viewer)),
            ("scorepad", draw_scorepad(st, viewer)),
        ]
    return out


@pytest.mark.parametrize("code", LANGS)
def test_sampled_images_are_in_the_language_and_fit(code: str) -> None:
    seen = Seen()
    states = sampled_states()
    problems: list[str] = []
    with i18n.using(code):
        for k, st in enumerate(states):
            for name, cv in canvases(st, k):
                for t in cv.texts:  # type: ignore[attr-defined]
                    seen.drawn.append((code, name, t.shown or t.text))
                try:
                    assert_text_ok(cv)  # type: ignore[arg-type]
                    if cv.width == 720:  # type: ignore[attr-defined]
                        assert_legible(cv, name)  # type: ignore[arg-type]
                except AssertionError as e:
                    problems.append(f"state {k} {name}: {e}")
    assert len(states) > 40
    assert_in_language(seen, states[0])
    if code == "ja":
        assert_fonts_cover(seen)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:15])


@pytest.mark.parametrize("code", LANGS)
@pytest.mark.parametrize("name", ["mid4"])
def test_golden_board(code: str, name: str, tmp_path: Path) -> None:
    st = _golden_state(name, *GOLDEN_STATES[name])
    _compare(f"{name}_board_{code}", board_png(st, viewer=0, lang=code), tmp_path)


@pytest.mark.parametrize("code", LANGS)
@pytest.mark.parametrize("name", ["mid4"])
def test_golden_compact_mill(code: str, name: str, tmp_path: Path) -> None:
    st = _golden_state(name, *GOLDEN_STATES[name])
    _compare(f"{name}_mill0_compact_{code}", mill_png(st, 0, 0, compact=True, lang=code), tmp_path)


def test_japanese_names_in_kanji_draw_with_glyphs() -> None:
    """Players' names are drawn on every picture, and a Japanese table's names are kanji far
    beyond the catalog's: the Japanese font holds all of JIS X 0208 (levels 1 and 2), so
    names such as these never draw as empty boxes."""
    st = _golden_state("mid4", *GOLDEN_STATES["mid4"])
    for p, name in zip(
        st.players, ["渡邊 健太", "齋藤 美咲", "佐々木 翔", "鈴木 一郎"], strict=True
    ):
        p.name = name
    seen = Seen()
    with i18n.using("ja"):
        for name, cv in canvases(st):
            for t in cv.texts:  # type: ignore[attr-defined]
                seen.drawn.append(("ja", name, t.shown or t.text))
    assert any("齋藤" in text for _, _, text in seen.drawn)
    assert_fonts_cover(seen)
