"""Write sample images (the README's pictures) from seeded random games:

    .venv/bin/python -m render [DIR]          # default docs/images

One focus image per kind of picture (the first decision of that kind met in seeded 4-player games,
seen by the player deciding), the compact Mill, and the full board, Mill and scorepad.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from engine import GameSetup, GameState, new_game
from render import board_png, focus_kind, focus_png, mill_png, scorepad_png

FOCUS_FILES = {
    "workshop": "focus-workshop.png",
    "map": "focus-map.png",
    "meetings": "focus-meetings.png",
    "lectures": "focus-lectures.png",
    "mill": "focus-mill.png",
    "study": "focus-study.png",
    "research": "focus-research.png",
    "hand": "focus-hand.png",
}


# A picture shown by the decision that uses all of it (a paid journey, not a free move; a
# Lecture, not the Analytical Society alone).
SHOWN_BY = {"map": "travel_move", "lectures": "lecture"}


def first_decisions(seeds: range, min_step: int = 60) -> dict[str, GameState]:
    """The first decision of each focus kind after `min_step` decisions (a board with some play
    on it) in random 4-player games."""
    found: dict[str, GameState] = {}
    for seed in seeds:
        st = new_game(GameSetup(players=4, seed=seed))
        rnd = random.Random(seed)
        step = 0
        while not st.over and len(found) < len(FOCUS_FILES):
            kind = focus_kind(st)
            shown = SHOWN_BY.get(kind, st.decision.kind) == st.decision.kind
            if step >= min_step and kind in FOCUS_FILES and kind not in found and shown:
                found[kind] = st.copy()
            st.apply(rnd.choice(st.decision.choices).id)
            step += 1
    return found


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for kind, st in first_decisions(range(3, 12), min_step=200).items():
        (out / FOCUS_FILES[kind]).write_bytes(focus_png(st, st.decision.player))
    st = first_decisions(range(3, 4), min_step=250)["workshop"]
    (out / "mill-compact.png").write_bytes(mill_png(st, st.current, st.current, compact=True))
    (out / "board.png").write_bytes(board_png(st, st.current))
    (out / "mill.png").write_bytes(mill_png(st, st.current, st.current))
    end = new_game(GameSetup(players=4, seed=3))
    rnd = random.Random(3)
    while not end.over:
        end.apply(rnd.choice(end.decision.choices).id)
    (out / "scorepad.png").write_bytes(scorepad_png(end))
    print(f"wrote {len(list(out.glob('*.png')))} images in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images"))
