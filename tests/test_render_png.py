"""The PNG step (issue 34): every picture is written as a palette PNG by render._draw.write_png
(zlib-ng's deflate, four chunks) instead of Pillow's writer. What a player and Discord get must
not change: a valid PNG that any decoder reads back to the palette picture, as close to what was
drawn as before, and not much larger than Pillow's own file of the same picture."""

from __future__ import annotations

import io
import struct
import zlib
from functools import cache

from PIL import Image, ImageChops, ImageStat

from engine import GameSetup, GameState, new_game
from render import board_png, focus_png, mill_png, scorepad_png
from render._draw import PNG_SIGNATURE, encode_png, palette_image, write_png
from render.board import draw_board
from render.focus import draw_focus
from tests.test_render_focus import sampled_states


@cache
def states() -> tuple[GameState, ...]:
    """A few states from the start of a game to its end, each with a decision."""
    picked = [st for st in sampled_states() if st.decision is not None]
    return tuple(picked[:: max(1, len(picked) // 6)])


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of a PNG, each CRC checked."""
    assert data.startswith(PNG_SIGNATURE)
    out, i = [], len(PNG_SIGNATURE)
    while i < len(data):
        (n,) = struct.unpack(">I", data[i : i + 4])
        kind, body = data[i + 4 : i + 8], data[i + 8 : i + 8 + n]
        (crc,) = struct.unpack(">I", data[i + 8 + n : i + 12 + n])
        assert crc == zlib.crc32(kind + body), kind
        out.append((kind, body))
        i += 12 + n
    return out


def test_a_picture_reads_back_as_its_palette_picture() -> None:
    for st in states():
        q = palette_image(draw_focus(st, st.current).im)
        data = write_png(q)
        back = Image.open(io.BytesIO(data))
        back.load()
        assert back.mode == "P" and back.size == q.size
        assert back.convert("RGB").tobytes() == q.convert("RGB").tobytes()


def test_the_chunks_are_those_of_a_plain_palette_png() -> None:
    st = states()[-1]
    q = palette_image(draw_board(st, st.current).im)
    found = chunks(write_png(q))
    assert [kind for kind, _ in found] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, height, depth, colour, *rest = struct.unpack(">IIBBBBB", found[0][1])
    assert (width, height, depth, colour, *rest) == (*q.size, 8, 3, 0, 0, 0)
    # the palette holds the entries up to the highest one drawn, no more
    assert len(found[1][1]) == 3 * (q.getextrema()[1] + 1)  # type: ignore[operator]
    rows = zlib.decompress(found[2][1])
    assert len(rows) == height * (width + 1)
    assert all(rows[y * (width + 1)] == 0 for y in range(height))  # filter type 0 on every row


def test_the_palette_keeps_what_was_drawn() -> None:
    # the nearest of 256 colours chosen from the picture: off by less than one level on average
    # and almost nowhere by more than a tenth of the range
    for st in states():
        for cv in (draw_focus(st, st.current), draw_board(st, st.current)):
            back = Image.open(io.BytesIO(encode_png(cv.im))).convert("RGB")
            diff = ImageChops.difference(cv.im.convert("RGB"), back)
            assert sum(ImageStat.Stat(diff).mean) / 3 < 1.5
            far = diff.convert("L").point(lambda v: 255 if v > 24 else 0)
            assert ImageStat.Stat(far).mean[0] / 255 < 0.0005


def test_the_files_are_no_more_than_15_percent_larger_than_pillows() -> None:
    for st in states():
        for cv in (draw_focus(st, st.current), draw_board(st, st.current)):
            q = palette_image(cv.im)
            buf = io.BytesIO()
            q.save(buf, "PNG", compress_level=5)  # the writer and level in use before
            assert len(write_png(q)) <= 1.15 * len(buf.getvalue())


def test_every_entry_point_gives_the_same_bytes_for_the_same_state() -> None:
    st = new_game(GameSetup(players=3, seed=7))
    for draw in (
        lambda: board_png(st, 0),
        lambda: mill_png(st, 1, 1),
        lambda: mill_png(st, 1, 1, compact=True),
        lambda: focus_png(st, st.current),
        lambda: scorepad_png(st),
    ):
        first = draw()
        assert first.startswith(PNG_SIGNATURE) and draw() == first
