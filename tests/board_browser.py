"""What the board page's browser tests share (tests/test_web_chromium.py on the offline table,
tests/test_web_activity_e2e.py inside a fake Discord): blank pictures, and the few pieces of
JavaScript that read the page and click in it as a person would.

A page inside the fake Discord client is its iframe: every helper takes the expression of the
page's ``document`` (``FRAME_DOC`` there, the tab's own ``document`` otherwise)."""

from __future__ import annotations

import io
import json
from typing import Any

from PIL import Image as PILImage

from cogs.media import Image
from render import board, mill

HANG = 60.0  # seconds: a bound against a hang, never a speed
FRAME_DOC = "document.getElementById('activity').contentDocument"
"""The Activity's page inside the fake Discord client's page (tests/fake_discord.py)."""
FRAME_BOARD = "document.getElementById('activity').contentWindow.adaBoard"
"""The board (webapp/board.js) of that page."""


def blank(width: int, height: int) -> bytes:
    out = io.BytesIO()
    PILImage.new("RGB", (width, height), "white").save(out, "PNG")
    return out.getvalue()


SCALE = 10
"""The blank pictures are this many times smaller than the real ones: the page lays a picture
out at its own width and places the hotspots in percents of it, so only the shape counts, and
the browser has next to nothing to decode at each move."""


class BlankPictures:
    """Pictures of the real shapes with nothing drawn (nobody looks at them here), so that the
    hotspots sit where they would; ``offline.board_shots`` takes the pictures people look at."""

    def __init__(self) -> None:
        assert board.W % SCALE == board.H % SCALE == mill.W % SCALE == mill.H % SCALE == 0
        self.png = {
            "board": blank(board.W // SCALE, board.H // SCALE),
            "mill": blank(mill.W // SCALE, mill.H // SCALE),
        }
        self.asked = 0

    async def get(self, name: str, state: Any, *args: Any, lang: str = "en") -> Image:
        self.asked += 1
        return Image(name, self.png[name], f"{name}.png")


# Click a choice as a person would: its hotspot on the board or the Mill if it has one (then the
# choice in the little menu, when several choices share the place), else its button.
CLICK = """((document, id) => {
  const spot = [...document.querySelectorAll("button.spot")]
    .find((b) => b.dataset.choices.split(" ").includes(id));
  if (spot) {
    spot.click();
    if (document.getElementById("menu").hidden) return "spot";
    document.querySelector(`#menubox button[data-choice="${CSS.escape(id)}"]`).click();
    return "spot and menu";
  }
  const button = [...document.querySelectorAll("#turn button.choice")]
    .find((b) => b.dataset.choice === id);
  const group = button.closest("details");
  if (group) group.open = true;
  button.click();
  return "button";
})(%s, %s)"""


def click(choice: str, doc: str = "document") -> str:
    """JavaScript clicking ``choice`` in the page; its value says how ("spot", "button"...)."""
    return CLICK % (doc, json.dumps(choice))


def shows(seq: int, doc: str = "document") -> str:
    """JavaScript: true once the page shows the game at ``seq``, every picture loaded."""
    return f"{doc}.body.dataset.seq === '{seq}' && {doc}.body.dataset.ready === '1'"
