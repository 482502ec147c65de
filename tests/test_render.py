"""Images: golden pictures for seeded states, every state of random games renders, text fits its
box and never overlaps, same state -> same bytes, hidden information stays hidden, small PNGs.

Regenerate the golden images after a deliberate change of the pictures (the stored states stay) with
    RENDER_UPDATE_GOLDEN=images .venv/bin/python -m pytest tests/test_render.py
or, after a change of the content or rules, the states too with RENDER_UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import io
import os
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine import GameSetup, GameState, new_game
from engine import vocabulary as V
from engine.edition import FIRST_EDITION, edition
from engine.vocabulary import AREAS
from render import board_png, focus_png, mill_png, scorepad_png
from render._draw import Canvas, TextItem
from render._state import as_state
from render.board import draw_board
from render.mill import draw_mill
from render.scorepad import draw_scorepad

ED = edition(FIRST_EDITION)

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("RENDER_UPDATE_GOLDEN") == "1"  # states and images
UPDATE_IMAGES = UPDATE or os.environ.get("RENDER_UPDATE_GOLDEN") == "images"
MAX_BYTES = 2 * 1024 * 1024
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def play(players: int, seed: int, steps: int | None = None) -> GameState:
    """A seeded random game, `steps` choices in (None: to the end)."""
    st = new_game(GameSetup(players=players, seed=seed))
    rnd = random.Random(seed)
    n = 0
    while not st.over and (steps is None or n < steps):
        st.apply(rnd.choice(st.decision.choices).id)
        n += 1
    return st


def states_of_game(players: int, seed: int, every: int) -> list[GameState]:
    st = new_game(GameSetup(players=players, seed=seed))
    rnd = random.Random(seed)
    out = [st.copy()]
    n = 0
    while not st.over:
        st.apply(rnd.choice(st.decision.choices).id)
        n += 1
        if n % every == 0:
            out.append(st.copy())
    out.append(st.copy())
    return out


# -- text checks ------------------------------------------------------------------------------


def _inside(inner: tuple[int, ...], outer: tuple[int, ...], slack: int = 1) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _intersects(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def assert_text_ok(cv: Canvas, allow_clipped_names: bool = True) -> None:
    """Every text fits its box (ink inside the box, nothing cut short except player names),
    stays on the image, and no two texts overlap."""
    items: list[TextItem] = [t for t in cv.texts if t.shown]
    for t in items:
        assert _inside(t.bbox, t.box), f"text {t.text!r} spills out of its box {t.box}: {t.bbox}"
        assert _inside(t.bbox, (0, 0, cv.width, cv.height), 0), f"text {t.text!r} off the image"
        if t.kind != "name" or not allow_clipped_names:
            assert not t.clipped, f"text {t.text!r} was cut to {t.shown!r} (size {t.size})"
    ordered = sorted(items, key=lambda t: t.bbox[0])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.bbox[0] >= a.bbox[2]:
                break
            assert not _intersects(a.bbox, b.bbox), f"texts overlap: {a.text!r} and {b.text!r}"


# -- golden images ----------------------------------------------------------------------------


def _golden_state(name: str, players: int, seed: int, steps: int | None) -> GameState:
    """The state is stored next to its images, so rule changes don't move the golden pictures."""
    path = GOLDEN / f"{name}.json"
    if UPDATE or not path.exists():
        st = play(players, seed, steps)
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(st.to_json())
    return GameState.from_json(path.read_text())


GOLDEN_STATES = {
    "mid4": (4, 3, 250),  # 4 players, mid game
    "end2": (2, 7, None),  # 2 players, game over
}


def _compare(name: str, data: bytes, tmp_path: Path) -> None:
    path = GOLDEN / f"{name}.png"
    if UPDATE_IMAGES or not path.exists():
        path.write_bytes(data)
        if not UPDATE_IMAGES:
            pytest.skip(f"wrote missing golden image {path.name}")
        return
    want = Image.open(path).convert("RGB")
    got = Image.open(io.BytesIO(data)).convert("RGB")
    assert got.size == want.size, f"{name}: size {got.size} != golden {want.size}"
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > 40 else 0)
    changed = diff.histogram()[255]
    share = changed / (got.width * got.height)
    if share > 0.002:
        out = tmp_path / f"{name}.actual.png"
        out.write_bytes(data)
        pytest.fail(
            f"{name}: {share:.2%} of pixels differ from tests/golden/{name}.png (see {out}); "
            "if the change is intended, rerun with RENDER_UPDATE_GOLDEN=1"
        )


def _golden_decision(name: str, players: int, seed: int, kind: str, nth: int) -> GameState:
    """The nth decision of a kind in a seeded random game, stored next to its image."""
    path = GOLDEN / f"{name}.json"
    if UPDATE or not path.exists():
        st = new_game(GameSetup(players=players, seed=seed))
        rnd = random.Random(seed)
        met = 0
        while not st.over:
            if st.decision.kind == kind:
                met += 1
                if met == nth:
                    break
            st.apply(rnd.choice(st.decision.choices).id)
        assert not st.over, f"no {kind} decision number {nth} in game {seed}"
        path.write_text(st.to_json())
    return GameState.from_json(path.read_text())


GOLDEN_DECISIONS = {
    "turn4": (4, 3, "turn", 20),  # the Workshop, Store and Actions
    "travel3": (3, 12, "travel_move", 2),  # the travel map
    "meet4": (4, 13, "meet_room", 2),  # Meeting rooms and Partner display
    "mill2": (2, 11, "gear_place", 1),  # the compact Mill with its open Gear spaces
}


class TestFocusImage:
    @pytest.mark.parametrize("name", sorted(GOLDEN_DECISIONS))
    def test_golden(self, name: str, tmp_path: Path) -> None:
        st = _golden_decision(name, *GOLDEN_DECISIONS[name])
        seat = st.decision.player
        _compare(f"{name}_focus", focus_png(st, seat), tmp_path)

    @pytest.mark.parametrize("name", sorted(GOLDEN_STATES))
    def test_compact_mill_golden(self, name: str, tmp_path: Path) -> None:
        st = _golden_state(name, *GOLDEN_STATES[name])
        _compare(f"{name}_mill0_compact", mill_png(st, 0, viewer=0, compact=True), tmp_path)


class TestBoardImage:
    @pytest.mark.parametrize("name", sorted(GOLDEN_STATES))
    def test_golden(self, name: str, tmp_path: Path) -> None:
        st = _golden_state(name, *GOLDEN_STATES[name])
        _compare(f"{name}_board", board_png(st, viewer=0), tmp_path)

    def test_random_games_render(self) -> None:
        for players, seed, every in ((2, 11, 40), (3, 12, 50), (4, 13, 60)):
            for st in states_of_game(players, seed, every):
                viewer = None if st.over else st.current
                data = board_png(st, viewer)
                assert data.startswith(PNG_MAGIC) and len(data) < MAX_BYTES
                assert_text_ok(draw_board(st, viewer))

    def test_every_display_item_fits(self) -> None:
        """Every Program, Assignment, Partner, Multiplier, University tile, Objective and
        Breakthrough of the content, shown in its display slot, fits without being cut."""
        st = play(4, 5, 40)

        def chunks(ids: list[str], n: int) -> list[list[str | None]]:
            out: list[list[str | None]] = []
            for i in range(0, len(ids), n):
                part: list[str | None] = list(ids[i : i + n])
                out.append(part + [None] * (n - len(part)))
            return out

        progs = chunks(list(ED.program), len(st.program_display))
        asgs = chunks(list(ED.assignment), len(st.assignment_display))
        partners = chunks(list(ED.partner), len(st.partner_display))
        mults = chunks(list(ED.multiplier), len(st.multiplier_display))
        objs = [[o["id"] for o in ED.objectives if o["area"] == area] for area in AREAS]
        bts = chunks(list(ED.breakthrough), 4)
        unis = {
            r: [t for t, u in ED.university_tile.items() if u["region"] == r]
            for r in ("southern", "central")
        }
        rounds = max(
            len(progs), len(asgs), len(partners), len(mults), max(map(len, objs)), len(bts)
        )
        for k in range(rounds):
            s = st.copy()
            s.program_display = progs[k % len(progs)]
            s.assignment_display = asgs[k % len(asgs)]
            s.partner_display = partners[k % len(partners)]
            s.multiplier_display = mults[k % len(mults)]
            s.objectives = [o[k % len(o)] for o in objs]
            s.breakthroughs = {c: bts[k % len(bts)][i] or "" for i, c in enumerate(V.COLOURS_MAIN)}
            for region, tiles in unis.items():
                cities = [c for c in ED.university_cities if ED.city[c]["region"] == region]
                for i, city in enumerate(cities):
                    s.universities[city] = tiles[(i + k * len(cities)) % len(tiles)]
            assert_text_ok(draw_board(s, 0))

    def test_long_names_and_crowded_spaces(self) -> None:
        st = play(4, 6, 120)
        for p in st.players:
            p.name = "A very long Discord display name!"
        # every disc of every player on one University, in the Meeting rooms and on Lectures
        st.university_discs[
            "london" if "london" in st.university_discs else ED.university_cities[0]
        ] = [0, 1, 2, 3, 0, 1]
        st.rooms = [[[0, 1], [2], [3], [0, 0]] for _ in st.rooms]
        st.lectures = {
            f"{i}:{lvl}": [i % 4, (i + 1) % 4]
            for i in range(len(ED.institutions))
            for lvl in ED.lecture_levels
        }
        st.workshop[0] = ["Y1", "B2", "G3", "P4"]
        for p in st.players:
            p.city = "london"
        data = board_png(st, 0)
        assert data.startswith(PNG_MAGIC)
        assert_text_ok(draw_board(st, 0))

    def test_same_state_same_bytes(self) -> None:
        st = play(3, 21, 150)
        first = board_png(st, 1)
        assert board_png(st.copy(), 1) == first
        assert board_png(GameState.from_json(st.to_json()), 1) == first
        assert board_png(st.view(1), 1) == first  # the viewer's redacted view draws the same

    def test_threads(self) -> None:
        """Renders share fonts and caches across threads: the bytes are the same as alone."""
        states = [play(4, 22, n) for n in (200, 230, 260)]
        jobs = [
            (fn, st)
            for st in states
            for fn in (
                lambda s: board_png(s),
                lambda s: focus_png(s, s.current),
                lambda s: mill_png(s, s.current, s.current, compact=True),
            )
        ]
        want = [fn(st) for fn, st in jobs]
        with ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda job: job[0](job[1]), jobs * 2))
        assert got == want * 2

    def test_size_and_dimensions(self) -> None:
        st = play(4, 3, 10_000)
        data = board_png(st)
        im = Image.open(io.BytesIO(data))
        assert len(data) < MAX_BYTES
        assert 1200 <= im.width <= 2000 and 900 <= im.height <= 1400


class TestMillImage:
    @pytest.mark.parametrize("name", sorted(GOLDEN_STATES))
    def test_golden(self, name: str, tmp_path: Path) -> None:
        st = _golden_state(name, *GOLDEN_STATES[name])
        _compare(f"{name}_mill0_own", mill_png(st, 0, viewer=0), tmp_path)
        _compare(f"{name}_mill1_other", mill_png(st, 1, viewer=0), tmp_path)

    def test_random_games_render(self) -> None:
        for players, seed, every in ((2, 11, 40), (3, 12, 50), (4, 13, 60)):
            for st in states_of_game(players, seed, every):
                for seat in range(players):
                    viewer = None if st.over else st.current
                    data = mill_png(st, seat, viewer)
                    assert data.startswith(PNG_MAGIC) and len(data) < MAX_BYTES
                    assert_text_ok(draw_mill(st, seat, viewer))

    def test_every_program_and_card_fits(self) -> None:
        st = play(4, 5, 300)
        progs = list(ED.program)
        partners = list(ED.partner)
        asgs = list(ED.assignment)
        for k in range(0, max(len(progs), len(partners), len(asgs)), 6):
            s = st.copy()
            p = s.players[0]
            p.programs = [progs[(k + i) % len(progs)] for i in range(6)]
            p.hand = [partners[(k + i) % len(partners)] for i in range(6)]
            p.assignments = {
                c: [asgs[(k + 3 * i + j) % len(asgs)] for j in range(3)]
                for i, c in enumerate(V.COLOURS_MAIN)
            }
            p.assignment_tokens = {c: 2 for c in V.COLOURS_MAIN}
            p.science_tokens = {sc: 2 for sc in V.SCIENCES}
            p.gear_supply = ["add"] * 8 + list(ED.multiplier)[:4]
            assert_text_ok(draw_mill(s, 0, 0))

    def test_complete_lines_show_value_and_cap(self) -> None:
        st = play(2, 8, 60)
        p = st.players[0]
        p.mill = ["Y6", "B6", "G6", "P5", "K5", "Y5", "B1", "G2", "P3"]
        p.gears = ["x" if False else "add"] * 12
        p.gears[0] = next(iter(ED.multiplier))
        cv = draw_mill(st, 0, 0)
        shown = " ".join(t.shown for t in cv.texts)
        assert "cap" in shown and "\u2192" in shown  # 6 x 6 + 6 = 42 is over every cap
        assert_text_ok(cv)

    def test_hand_only_for_its_owner(self) -> None:
        st = play(3, 9, 100)
        names = [ED.partner[c]["name"] for c in st.players[1].hand]
        assert names
        own = " ".join(t.shown for t in draw_mill(st, 1, 1).texts)
        other = " ".join(t.shown for t in draw_mill(st, 1, 0).texts)
        spectator = " ".join(t.shown for t in draw_mill(st, 1, None).texts)
        assert all(n in own for n in names)
        assert not any(n in other or n in spectator for n in names)
        # a redacted view draws too (without the score, which needs the hidden Partner deck)
        view_own = " ".join(t.shown for t in draw_mill(as_state(st.view(1)), 1, 1).texts)
        view_other = " ".join(t.shown for t in draw_mill(as_state(st.view(0)), 1, 0).texts)
        assert all(n in view_own for n in names)
        assert not any(n in view_other for n in names)
        assert mill_png(st.view(0), 1, 0).startswith(PNG_MAGIC)

    def test_same_state_same_bytes(self) -> None:
        st = play(4, 23, 200)
        assert mill_png(st, 2, 2) == mill_png(st.copy(), 2, 2)

    def test_bad_seat(self) -> None:
        with pytest.raises(ValueError):
            mill_png(play(2, 1, 0), 3)


class TestScorepadImage:
    @pytest.mark.parametrize("name", sorted(GOLDEN_STATES))
    def test_golden(self, name: str, tmp_path: Path) -> None:
        st = _golden_state(name, *GOLDEN_STATES[name])
        _compare(f"{name}_scorepad", scorepad_png(st), tmp_path)

    def test_random_games_render(self) -> None:
        for players, seed, every in ((2, 11, 40), (3, 12, 50), (4, 13, 60)):
            for st in states_of_game(players, seed, every):
                data = scorepad_png(st)
                assert data.startswith(PNG_MAGIC) and len(data) < MAX_BYTES
                assert_text_ok(draw_scorepad(st))

    def test_winner_and_all_categories_shown(self) -> None:
        from engine.scoring import CATEGORIES, winner

        st = play(3, 4)
        cv = draw_scorepad(st)
        shown = [t.shown for t in cv.texts]
        for cat in CATEGORIES:
            assert cat in shown
        assert any("Winner" in s and st.players[winner(st)].name in s for s in shown)

    def test_same_state_same_bytes(self) -> None:
        st = play(2, 5)
        assert scorepad_png(st) == scorepad_png(st.copy())


class TestUndrawableCharacters:
    """Discord names often hold emoji, which no shipped font has: drawn, each would be an empty
    box. They are left out of the pictures (the messages keep them: Discord draws those)."""

    def test_an_emoji_is_left_out_not_drawn_as_a_box(self) -> None:
        from render import _draw

        with_emoji = _draw._line_mask_of("Ana 🎲✨ Lovelace", 18, True, False, "latin")
        without = _draw._line_mask_of("Ana  Lovelace", 18, True, False, "latin")
        assert with_emoji[0].tobytes() == without[0].tobytes()
        assert with_emoji[1:] == without[1:]
        assert _draw._text_width("Ana 🎲", 18, True, False, "latin") == _draw._text_width(
            "Ana ", 18, True, False, "latin"
        )

    def test_a_name_of_emoji_only_draws_nothing_and_every_picture_still_draws(self) -> None:
        st = play(4, 3, 120)
        for p, name in zip(st.players, ["🎲🎲", "Ana 🎲", "☕ Bo", "中村 ✨"], strict=True):
            p.name = name
        assert board_png(st, 0) and mill_png(st, 1, 0) and scorepad_png(st, 0)
