"""Images read inline in Discord (issue 18), image keys (issue 18) and nothing hidden drawn for
another viewer (issue 19).

The legibility rule: Discord shows an image in a message at about 550 px wide. In every image
meant to be read there (focus_png, mill_png(compact=True), scorepad_png), every text the canvas
drew and every mark inside a token (a die's colour letter, a disc's seat number, a gear's
operator, a badge's value) has a font size s, the em size in pixels handed to FreeType (what CSS
calls font-size), with  s * 550 / image width >= 12.  The states are sampled from seeded random
games of 2, 3 and 4 players (every 23rd decision, plus the first decision of every kind met).

The phone rule (issue 28): a phone shows the decision picture about 295 px wide (a 420 px
window). There every text of the focus image and every mark inside a token is at least 10 px
tall, measured as the ink height of a capital letter or a digit of the font it is drawn in
(``TextItem.cap``, ``GlyphItem.cap``; Japanese kana and kanji are taller still):
cap * 300 / image width >= 10, in English, Spanish and Japanese.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from functools import cache

import pytest
from PIL import Image

from engine import GameSetup, GameState, new_game
from engine.edition import FIRST_EDITION, edition
from engine.rules import PRIVATE_DECISIONS, STEPS, forget_choices
from engine.scoring import score
from render import (
    board_png,
    focus_kind,
    focus_name,
    focus_png,
    image_key,
    mill_png,
    scorepad_png,
)
from render._draw import Canvas
from render._state import Pending
from render.focus import (
    CHOICE_TITLES,
    FOCUS_OF_KIND,
    MAX_LISTED,
    TITLES,
    draw_focus,
    focus_of,
)
from render.mill import draw_mill
from render.mill_compact import draw_mill_compact
from render.scorepad import draw_scorepad
from tests.engine_helpers import random_game
from tests.test_render import assert_text_ok

ED = edition(FIRST_EDITION)

INLINE_WIDTH = 550
MIN_INLINE_PX = 12
PHONE_WIDTH = 300
MIN_PHONE_CAP = 10
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# Choices that point at nothing on the picture (pass, skip, the Publish action, Steam, ...).
UNMARKED = ("skip", "done", "pass", "idle:", "publish", "steam", "opt:", "adv:", "wb:", "itop:")


@cache
def sampled_states() -> tuple[GameState, ...]:
    """Every 23rd decision of three random games, and the first decision of each kind met."""
    out: list[GameState] = []
    for players, seed in ((2, 101), (3, 102), (4, 103)):
        kinds: set[str] = set()
        count = iter(range(10**9))

        def keep(st: GameState, kinds: set[str] = kinds, count=count) -> None:  # noqa: B008
            n = next(count)
            dec = st.decision
            kind = dec.kind if dec else "over"
            if n % 23 == 0 or kind not in kinds:
                kinds.add(kind)
                out.append(st.copy())

        random_game(players, seed, keep)
    return tuple(out)


def first_of_kind(kind: str) -> GameState:
    for st in sampled_states():
        if st.decision is not None and st.decision.kind == kind:
            return st
    pytest.skip(f"no {kind} decision in the sampled games")


def assert_legible(cv: Canvas, what: str) -> None:
    """The legibility rule of this module's docstring (font size at 550 px wide)."""
    _assert_shown_at_least(cv, what, INLINE_WIDTH, MIN_INLINE_PX, "size")


def assert_phone_legible(cv: Canvas, what: str) -> None:
    """The phone rule of this module's docstring (a capital's height at 300 px wide)."""
    _assert_shown_at_least(cv, what, PHONE_WIDTH, MIN_PHONE_CAP, "cap")


def _assert_shown_at_least(cv: Canvas, what: str, width: int, least: int, measure: str) -> None:
    """Every text and token mark of `cv` measures at least `least` px (its font size, or the
    height of a capital) when the picture is shown `width` px wide."""
    scale = width / cv.width
    items = [("text", t.shown, t) for t in cv.texts if t.shown]
    items += [("mark", g.text, g) for g in cv.glyphs]
    for kind, shown, item in items:
        px = getattr(item, measure) * scale
        assert px >= least, (
            f"{what}: {kind} {shown!r} at {item.size} px measures {px:.1f} px ({measure}) "
            f"at {width} px wide"
        )


def hide_swapped(st: GameState, seat: int) -> GameState:
    """The same game with other cards in the seat's hand and deck (same counts): what nobody but
    the seat may see changed, and with it their real Partners score."""
    t = st.copy()
    p = t.players[seat]
    pool = sorted(
        (c for c in ED.partner if c not in p.supply()), key=lambda c: -ED.partner[c]["prestige"]
    )
    p.hand = pool[: len(p.hand)]
    p.deck = pool[len(p.hand) : len(p.hand) + len(p.deck)]
    return t


# -- which picture for which decision --------------------------------------------------------


class TestFocusChoice:
    def test_every_decision_kind_of_the_engine_has_a_picture(self) -> None:
        """Each kind of decision the engine can ask declares its board place (engine.steps) or
        has, on purpose, a title for the list of choices (a new kind must be placed)."""
        asking = {op for op, kind in STEPS.items() if kind.choices is not None}
        unplaced = sorted(asking - set(FOCUS_OF_KIND) - set(CHOICE_TITLES))
        assert not unplaced, f"decision kinds without a focus: {unplaced}"
        assert set(FOCUS_OF_KIND) <= asking, "focus mapping names a kind the engine lacks"
        assert set(FOCUS_OF_KIND.values()) <= set(TITLES) | {"discs"}

    @pytest.mark.parametrize(
        ("kind", "focus", "title"),
        [
            ("turn", "workshop", "Workshop"),
            ("ws_push", "workshop", "Workshop"),
            ("travel_move", "map", "Travel map"),
            ("meet_room", "meetings", "Meeting rooms"),
            ("lecture", "lectures", "Institutions"),
            ("mill_place", "mill", "Mill"),
            ("publish_or_build", "mill", "Mill"),
            ("study_program", "study", "Ada's Study"),
            ("research", "research", "Research tracks"),
            ("partner_play", "hand", "Partner cards"),
            ("workshop_bonus", "choices", "Workshop bonus"),
        ],
    )
    def test_focus_of_a_decision(self, kind: str, focus: str, title: str) -> None:
        st = first_of_kind(kind)
        assert focus_kind(st) == focus
        assert focus_name(st) == title

    def test_game_over_shows_the_final_scores(self) -> None:
        st, _ = random_game(2, 7)
        assert focus_kind(st) == "final" and focus_name(st) == "Final scores"
        assert focus_png(st) == scorepad_png(st)

    def test_unknown_kind_falls_back_to_the_list_of_choices(self) -> None:
        st = new_game(GameSetup(players=2, seed=4))
        view = st.view(st.current)
        view["decision"] = {
            "player": st.current,
            "kind": "a_new_kind",
            "prompt": "Pick a new thing.",
            "choices": [["x:1", "The first new thing"], ["x:2", "The second new thing"]],
        }
        assert focus_kind(view) == "choices"
        cv = draw_focus(view, st.current)
        shown = " ".join(t.shown for t in cv.texts)
        assert "The first new thing" in shown and "Pick a new thing." in shown
        assert_legible(cv, "fallback")

    def test_disc_decisions_go_where_their_options_are(self) -> None:
        from render.focus import _disc_focus

        def dec(kind: str, *ids: str) -> Pending:
            return Pending(0, kind, "", tuple((i, i) for i in ids))

        assert _disc_focus(dec("move_disc_to", "to:uni:leeds", "to:uni:york")) == "map"
        assert _disc_focus(dec("move_disc", "skip", "from:room:1", "from:room:3")) == "meetings"
        assert _disc_focus(dec("stack_disc", "stack:room:1", "stack:room:3")) == "meetings"
        assert _disc_focus(dec("place_disc", "skip", "mv:lec:1:4")) == "lectures"
        assert _disc_focus(dec("move_disc_to", "to:uni:leeds", "to:room:2")) == "choices"


# -- legible at 550 px -----------------------------------------------------------------------


class TestLegibleInline:
    def test_focus_images(self) -> None:
        """The rule of the module docstring, for the decider's picture and the public one, over
        the sampled states; and every text fits its box, uncut and not overlapping."""
        seen: set[str] = set()
        for st in sampled_states():
            dec = st.decision
            viewers = [None] if dec is None else [dec.player, None]
            for viewer in viewers:
                cv = draw_focus(st, viewer)
                what = f"focus of {dec.kind if dec else 'the end'} for viewer {viewer}"
                assert cv.width == 720, what
                assert_legible(cv, what)
                assert_text_ok(cv)
            seen.add(focus_of(st).kind)
        assert seen >= {"workshop", "map", "meetings", "lectures", "mill", "study", "research"}

    @pytest.mark.parametrize("lang", ["en", "es", "ja"])
    def test_focus_images_on_a_phone(self, lang: str) -> None:
        """The phone rule of the module docstring, for the decider's picture and the public one,
        over the sampled states (in Spanish and Japanese a third of them and the first of each
        picture), with every text in
        its box, uncut and not overlapping; the 550 px rule holds as well."""
        import i18n

        seen: set[str] = set()
        with i18n.using(lang):
            for n, st in enumerate(sampled_states()):
                dec = st.decision
                if dec is None or lang != "en" and n % 3 and focus_of(st).kind in seen:
                    continue
                for viewer in (dec.player, None):
                    cv = draw_focus(st, viewer)
                    what = f"{lang} focus of {dec.kind} for viewer {viewer}"
                    assert_phone_legible(cv, what)
                    assert_legible(cv, what)
                    assert_text_ok(cv)
                seen.add(focus_of(st).kind)
        assert seen >= {"workshop", "map", "meetings", "lectures", "mill", "research"}

    def test_a_picture_taller_than_its_draft_canvas_is_drawn_whole(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A focus image is drawn on a canvas of DRAFT_H, cut below what was drawn; one that
        needs more is drawn again as tall as it asked: the same picture, nothing cut off."""
        import render.focus_parts as F

        st = first_of_kind("travel_move")
        whole = draw_focus(st, st.current)
        monkeypatch.setattr(F, "DRAFT_H", 300)
        again = draw_focus(st, st.current)
        assert whole.height > 300 and again.height == whole.height
        assert again.im.tobytes() == whole.im.tobytes()
        assert [t.shown for t in again.texts] == [t.shown for t in whole.texts]

    def test_compact_mill_and_scorepad(self) -> None:
        for st in sampled_states()[::3]:
            for seat in range(len(st.players)):
                cv = draw_mill_compact(st, seat, st.current)
                assert_legible(cv, f"compact Mill of seat {seat}")
                assert_text_ok(cv)
            for viewer in (None, st.current):
                cv = draw_scorepad(st, viewer)
                assert_legible(cv, "scorepad")
                assert_text_ok(cv)

    def test_pngs_are_small(self) -> None:
        st = first_of_kind("turn")
        for data in (focus_png(st, st.current), mill_png(st, 0, 0, compact=True)):
            assert data.startswith(PNG_MAGIC) and len(data) < 120_000
            assert Image.open(io.BytesIO(data)).width == 720


class TestOptionsMarked:
    def test_every_option_is_marked_on_the_picture(self) -> None:
        """The picture outlines each option of the decision (the ones that point at something:
        a die, a space, a city, a card, a cell...), recorded as ("option", choice id, box)."""
        checked = 0
        for st in sampled_states():
            dec = st.decision
            if dec is None:
                continue
            cv = draw_focus(st, dec.player)
            marked = {m[1] for m in cv.marks if m[0] == "option"}
            ids = [c.id for c in dec.choices]
            if focus_of(st).kind == "choices":
                ids = ids[:MAX_LISTED]
            want = [i for i in ids if not i.startswith(UNMARKED)]
            if dec.kind == "adjust_die":  # the picture is the Workshop: Mill dice are not on it
                want = [i for i in want if not i.startswith("own:m")]
            if dec.kind == "publish_or_build":  # a gear is marked only if it can be built
                want = [i for i in want if i.startswith("build:")]
            missing = [i for i in want if i not in marked]
            assert not missing, f"{dec.kind}: options not marked on the picture: {missing}"
            checked += len(want)
        assert checked > 300

    @pytest.mark.parametrize("lang", ["en", "es", "ja"])
    def test_gear_spaces_are_numbered_as_the_buttons_name_them(self, lang: str) -> None:
        """Each Gear space of a Gear decision shows the number of its gap, and lies level with
        the row its button names ("row 1, gap 2": the space marked 2 beside "row 1") or under
        the number of its column ("column 3, gap 1": the space marked 1 under the 3). Issue 28:
        the buttons named spaces the picture left unnumbered."""
        import i18n
        from i18n.game import label

        st = first_of_kind("gear_place")
        dec = st.decision
        with i18n.using(lang) as tr:
            cv = draw_focus(st, dec.player)
            buttons = {c.id: label(tr, st, dec, c) for c in dec.choices}
            assert_spaces_named_as_buttons(cv, buttons)
        assert len(buttons) >= 6

    @pytest.mark.parametrize("lang", ["en", "es", "ja"])
    def test_a_gear_to_upgrade_shows_its_gap_number(self, lang: str) -> None:
        """Turning a Subtraction Gear into Addition: the built gears offered carry the number
        of their gap in place of their operator, as the buttons name their spaces."""
        import i18n
        from i18n.game import gear_space

        st = first_of_kind("gear_place").copy()
        seat = st.decision.player
        for pos in (1, 6, 11):  # row 1 gap 2, column 1 gap 1, column 3 gap 2
            st.players[seat].gears[pos] = "sub"
        forget_choices(st)
        view = st.view(seat)
        with i18n.using(lang) as tr:
            buttons = {
                f"up:{pos}": tr._(
                    "Turn the Subtraction Gear at {space} into Addition",
                    space=gear_space(tr, pos),
                )
                for pos in (1, 6, 11)
            }
            view["decision"] = {
                "player": seat,
                "kind": "upgrade_subtraction",
                "prompt": "Turn a Subtraction Gear into Addition?",
                "choices": [[i, b] for i, b in buttons.items()],
            }
            assert_spaces_named_as_buttons(draw_focus(view, seat), buttons)

    def test_destination_letters_on_the_map_do_not_overlap(self) -> None:
        """A crowded map (close cities, many destinations) moves the lettered markers apart:
        no two of them overlap, so every letter can be read and found in the list."""
        from render.focus_areas import NODE_R

        checked = 0
        for st in sampled_states():
            dec = st.decision
            if dec is None or focus_of(st).kind != "map":
                continue
            cv = draw_focus(st, dec.player)
            on_map: dict[str, tuple[float, float]] = {}
            for g in cv.glyphs:  # each letter is drawn on the map, then again in the list
                if g.text.isalpha() and g.text not in on_map:
                    on_map[g.text] = ((g.bbox[0] + g.bbox[2]) / 2, (g.bbox[1] + g.bbox[3]) / 2)
            centres = list(on_map.values())
            for i, (ax, ay) in enumerate(centres):
                for bx, by in centres[i + 1 :]:
                    assert abs(ax - bx) > 2 * NODE_R or abs(ay - by) > 2 * NODE_R, (ax, ay, bx, by)
            checked += len(centres)
        assert checked > 20


def assert_spaces_named_as_buttons(cv: Canvas, buttons: dict[str, str]) -> None:
    """Each option's Gear space shows the last number of its button (the gap), and the row
    label beside it or the column number above it is the row or column the button names."""
    import i18n

    boxes = {m[1]: m[2] for m in cv.marks if m[0] == "option"}
    rows = {i18n._("row {n}", n=r) for r in (1, 2, 3)}
    for choice_id, button in buttons.items():
        x0, y0, x1, y1 = boxes[choice_id]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        (number,) = [g.text for g in cv.glyphs if _inside(g.bbox, boxes[choice_id])]
        assert re.search(rf"\D{number}\D*$", button), (button, number)
        beside = [t.shown for t in cv.texts if t.shown in rows and t.box[1] < cy < t.box[3]]
        if beside:  # a space in a row
            assert beside[0] in button, (button, beside)
        else:  # a space in a column: the column's number is drawn above it
            above = [
                t
                for t in cv.texts
                if t.shown in ("1", "2", "3") and t.box[0] < cx < t.box[2] and t.box[3] < y0
            ]
            column = i18n._("column {n}", n=int(above[-1].shown))
            assert column in button, (button, column)


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


# -- image keys ------------------------------------------------------------------------------

IMAGES = {
    "board": lambda st, v: (board_png, (st, v)),
    "mill": lambda st, v: (mill_png, (st, st.current, v)),
    "compact": lambda st, v: (mill_png, (st, st.current, v, True)),
    "focus": lambda st, v: (focus_png, (st, v)),
    "scorepad": lambda st, v: (scorepad_png, (st, v)),
}


def key_of(name: str, st: GameState, viewer: int | None) -> str:
    fn, args = IMAGES[name](st, viewer)
    image = "mill" if name == "compact" else name
    return image_key(image, *args)


class TestImageKeys:
    def test_equal_keys_mean_equal_images(self) -> None:
        """Over consecutive decisions of random games, for each image and viewer: wherever the
        key stays the same, the PNG is byte-identical (so any drawn change changes the key)."""
        unchanged = dict.fromkeys(IMAGES, 0)
        first: dict[tuple[str, int | None, str], GameState | bytes] = {}
        repeats: dict[tuple[str, int | None, str], int] = {}

        def png(name: str, st: GameState, viewer: int | None) -> bytes:
            fn, args = IMAGES[name](st, viewer)
            return fn(*args)

        for players, seed in ((2, 31), (4, 32)):
            st = new_game(GameSetup(players=players, seed=seed))
            rnd = random.Random(seed)
            for step in range(70):
                if st.over:
                    break
                viewer = None if step % 3 else 0
                for name in IMAGES:
                    seen = (name, viewer, key_of(name, st, viewer))
                    if seen not in first:
                        first[seen] = st.copy()  # rendered only if the key comes back
                        continue
                    repeats[seen] = repeats.get(seen, 0) + 1
                    if repeats[seen] > 4:  # a key that stays for long: checked enough
                        continue
                    earlier = first[seen]
                    if isinstance(earlier, GameState):
                        earlier = first[seen] = png(name, earlier, viewer)
                    assert png(name, st, viewer) == earlier, (name, step, st.decision.kind)
                    unchanged[name] += 1
                st.apply(rnd.choice(st.decision.choices).id)
        # a decision that changes nothing on the board keeps the board's key
        assert unchanged["board"] > 10 and unchanged["mill"] > 10

    def test_what_an_image_does_not_draw_keeps_its_key(self) -> None:
        st = first_of_kind("mill_place")
        t = st.copy()
        t.log.append("something happened")
        t.history.append("nothing")
        t.players[1].turns += 5
        for name in IMAGES:
            assert key_of(name, st, 0) == key_of(name, t, 0), name
        # a player's money is on their Mill, not on the main board
        t.players[st.current].money += 1
        assert key_of("board", st, 0) == key_of("board", t, 0)
        assert key_of("mill", st, 0) != key_of("mill", t, 0)
        assert key_of("compact", st, 0) != key_of("compact", t, 0)

    def test_placing_a_die_in_the_mill_keeps_the_board(self) -> None:
        st = first_of_kind("mill_place")
        after = st.copy()
        after.apply(st.decision.choices[0].id)
        assert image_key("board", st, None) == image_key("board", after, None)
        assert board_png(st) == board_png(after)
        assert image_key("mill", st, st.current) != image_key("mill", after, st.current)

    def test_hidden_cards_do_not_change_another_viewers_keys(self) -> None:
        st = first_of_kind("turn")
        owner = (st.current + 1) % len(st.players)
        t = hide_swapped(st, owner)
        for name in IMAGES:
            assert key_of(name, st, st.current) == key_of(name, t, st.current), name
        assert image_key("mill", st, owner, owner) != image_key("mill", t, owner, owner)

    def test_arguments_as_the_image_takes_them(self) -> None:
        st = first_of_kind("turn")
        assert image_key("mill", st, 1, 0) == image_key("mill", st, 1, viewer=0)
        assert image_key("mill", st, 1, 0) != image_key("mill", st, 1, 0, compact=True)
        assert image_key("board", st) == image_key("board", st, None)
        with pytest.raises(ValueError):
            image_key("poster", st)
        with pytest.raises(ValueError):
            image_key("mill", st, 7)


# -- nothing hidden for another viewer (issue 19) ----------------------------------------------


class TestHiddenInformation:
    def test_hidden_cards_never_change_another_viewers_images(self) -> None:
        """For another viewer (or the public), changing what only the owner may see (the cards
        in their hand and deck) gives byte-identical board, Mill, compact Mill, focus and
        scorepad images. Before the fix the public Mill drew the owner's Partners score."""
        checked = 0
        for st in sampled_states()[1::20]:
            if st.over:
                continue
            owner = (st.current + 1) % len(st.players)
            t = hide_swapped(st, owner)
            if score(t, owner) == score(st, owner):
                continue
            for viewer in (None, st.current):
                assert board_png(st, viewer) == board_png(t, viewer)
                assert mill_png(st, owner, viewer) == mill_png(t, owner, viewer)
                assert mill_png(st, owner, viewer, compact=True) == mill_png(
                    t, owner, viewer, compact=True
                )
                assert focus_png(st, viewer) == focus_png(t, viewer)
                assert scorepad_png(st, viewer) == scorepad_png(t, viewer)
            checked += 1
        assert checked >= 4

    def test_another_players_mill_hides_partners_and_meetings(self) -> None:
        st = first_of_kind("turn")
        owner = (st.current + 1) % len(st.players)
        row = score(st, owner)
        known = row["Total"] - row["Partners"] - row["Meetings"]
        for cv in (draw_mill(st, owner, st.current), draw_mill(st, owner, None)):
            shown = [t.shown for t in cv.texts]
            assert any(s.endswith(f"{known}+?") for s in shown), shown
        own = [t.shown for t in draw_mill(st, owner, owner).texts]
        assert any(s.endswith(f": {row['Total']}") for s in own)
        assert "?" not in own

    def test_the_entry_points_redact_a_full_state(self) -> None:
        """Handing the full state gives the same image as handing the viewer's own view."""
        st = first_of_kind("turn")
        other = (st.current + 1) % len(st.players)
        view = st.view(st.current)
        assert mill_png(st, other, st.current) == mill_png(view, other, st.current)
        assert board_png(st, st.current) == board_png(view, st.current)
        assert focus_png(st, st.current) == focus_png(view, st.current)

    def test_a_hand_decision_shows_the_cards_to_their_owner_only(self) -> None:
        st = first_of_kind("partner_play")
        seat = st.decision.player
        names = [ED.partner[c]["name"] for c in st.players[seat].hand]
        own = " ".join(t.shown for t in draw_focus(st, seat).texts)
        public = " ".join(t.shown for t in draw_focus(st, None).texts)
        assert all(n.split()[0] in own for n in names)
        assert not any(n in public for n in names)
        assert "partner_play" in PRIVATE_DECISIONS

    def test_at_the_end_every_score_is_shown(self) -> None:
        st, _ = random_game(3, 9)
        shown = " ".join(t.shown for t in draw_scorepad(st, None).texts)
        assert "?" not in shown


# -- polish (issue 18) -----------------------------------------------------------------------


class TestPolish:
    def test_negative_totals_grow_left_of_a_marked_zero(self) -> None:
        """Totals below zero are bars left of a zero line labelled "0", over an area marked
        "below 0"; their values sit at the bars' outer ends (never read as high scores)."""
        st = new_game(GameSetup(players=3, seed=5))  # at the start every total is negative
        st.players[2].books = 40  # one player well above zero
        totals = [score(st, s)["Total"] for s in range(3)]
        assert min(totals) < 0 < max(totals)
        cv = draw_scorepad(st, 2)
        (zero,) = [m[2] for m in cv.marks if m[0] == "zero"]
        zx = zero[0]
        zero_labels = [t for t in cv.texts if t.shown == "0" and t.bbox[1] > zero[3]]
        assert zero_labels and abs((zero_labels[0].bbox[0] + zero_labels[0].bbox[2]) / 2 - zx) <= 2
        assert any("below 0" in t.shown for t in cv.texts)
        signs = set()
        for kind, _seat, (x0, y0, x1, y1) in cv.marks:
            if kind != "bar":
                continue
            (label,) = [
                t
                for t in cv.texts
                if re.fullmatch(r"-?\d+(\+\?)?", t.shown) and t.bbox[1] < y1 and t.bbox[3] > y0
            ]
            value = int(label.shown.split("+")[0])
            signs.add(value < 0)
            if value < 0:
                assert x1 == zx and x0 < zx and label.bbox[2] <= x0
            else:
                assert x0 == zx and x1 > zx and label.bbox[0] >= x1
        assert signs == {True, False}

    def test_an_early_low_score_says_why(self) -> None:
        """ "Prestige so far: -24" at the start comes with the reason: empty Gear spaces."""
        st = new_game(GameSetup(players=2, seed=3))
        seat = st.current
        for cv in (draw_mill(st, seat, seat), draw_mill_compact(st, seat, seat)):
            shown = [t.shown for t in cv.texts]
            assert any("Prestige so far: -24" in s for s in shown)
            assert "incl. \u221224 for 12 empty Gear spaces" in shown

    def test_the_boards_lecture_costs_are_innovation(self) -> None:
        """Lectures cost Innovation (rulebook, Institutions), not money."""
        st = new_game(GameSetup(players=2, seed=3))
        from render.board import draw_board

        texts = draw_board(st, None).texts
        levels = [t.shown for t in texts if "\u2605" in t.shown and "BT" not in t.shown]
        assert levels and all("\u00a3" not in s and "Inn" in s for s in levels)


def test_focus_png_for_every_player_of_a_game_state() -> None:
    """Any viewer, including one not in the game, gets a picture."""
    st = first_of_kind("meet_room")
    for viewer in (None, *range(len(st.players)), 9):
        assert focus_png(st, viewer).startswith(PNG_MAGIC)
    assert dataclasses.is_dataclass(focus_of(st))
