"""Digests of the pixels the render package draws (not a test): proof that a restructuring of
render/ changed no picture.

    .venv/bin/python bench/render_digests.py > before.json      # on the old code
    .venv/bin/python bench/render_digests.py --check before.json  # on the new code

The sample: the states of tests/test_render_focus.sampled_states (every 23rd decision of three
random games of 2, 3 and 4 players, and the first decision of each kind met), each drawn as its
focus picture for the decider in English; the first state of each focus kind also in Spanish and
Japanese; and every 8th state as the board, the Mill and the compact Mill in all three languages.
A digest is of the drawn pixels (size and RGB bytes), so it holds across a change of the PNG
encoding, which changes bytes but no pixel.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pixels(cv: Any) -> str:
    im = cv.im.convert("RGB")
    return hashlib.sha256(repr(im.size).encode() + im.tobytes()).hexdigest()[:16]


def digests() -> dict[str, str]:
    import i18n
    from render.board import draw_board
    from render.focus import draw_focus, focus_of
    from render.mill import draw_mill
    from render.mill_compact import draw_mill_compact
    from tests.test_render_focus import sampled_states

    out: dict[str, str] = {}
    seen_kinds: set[str] = set()
    for n, st in enumerate(sampled_states()):
        viewer = st.current if st.decision is not None else None
        kind = focus_of(st, viewer).kind
        langs = ["en"]
        if kind not in seen_kinds:
            seen_kinds.add(kind)
            langs = ["en", "es", "ja"]
        for lang in langs:
            with i18n.using(lang):
                out[f"{n:03} focus {kind} {lang}"] = pixels(draw_focus(st, viewer))
        if n % 8:
            continue
        for lang in ("en", "es", "ja"):
            with i18n.using(lang):
                out[f"{n:03} board {lang}"] = pixels(draw_board(st, viewer))
                out[f"{n:03} mill {lang}"] = pixels(draw_mill(st, st.current, viewer))
                out[f"{n:03} compact mill {lang}"] = pixels(
                    draw_mill_compact(st, st.current, viewer)
                )
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", help="a JSON file this script wrote before: report differences")
    args = ap.parse_args()
    now = digests()
    if not args.check:
        print(json.dumps(now, indent=1, sort_keys=True))
        return
    before = json.loads(Path(args.check).read_text(encoding="utf-8"))
    changed = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    kinds = sorted({k.split(" ", 1)[1].rsplit(" ", 1)[0] for k in now})
    print(f"{len(now)} pictures ({', '.join(kinds)}): {len(changed)} differ")
    for key in changed:
        print(f"  {key}: {before.get(key)} -> {now.get(key)}")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
