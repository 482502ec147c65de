"""Regenerate the README's pictures of the board, a Mill and the scorepad from a seeded game,
and the pictures of its languages section (a Spanish board, a Japanese decision).

.venv/bin/python scripts/readme_images.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import GameSetup, new_game  # noqa: E402
from render import board_png, focus_png, mill_png, scorepad_png  # noqa: E402


def main() -> None:
    out = ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    names = ["Ada", "Charles", "Mary", "Michael"]
    st = new_game(GameSetup(players=4, seed=2026, names=names))
    rnd = random.Random(2026)
    while st.round < 12:
        st.apply(rnd.choice(st.decision.choices).id)
    (out / "board.png").write_bytes(board_png(st, viewer=st.current))
    (out / "mill.png").write_bytes(mill_png(st, st.current, viewer=st.current))
    (out / "board-es.png").write_bytes(board_png(st, viewer=st.current, lang="es"))
    while st.decision.kind != "turn":
        st.apply(rnd.choice(st.decision.choices).id)
    (out / "focus-ja.png").write_bytes(focus_png(st, viewer=st.decision.player, lang="ja"))
    while not st.is_over:
        st.apply(rnd.choice(st.decision.choices).id)
    (out / "scorepad.png").write_bytes(scorepad_png(st))
    print(f"wrote board.png, mill.png, scorepad.png, board-es.png and focus-ja.png to {out}")


if __name__ == "__main__":
    main()
