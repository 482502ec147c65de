"""What the board page's browser tests share (tests/test_web_chromium.py on the offline table,
tests/test_web_activity_e2e.py inside a fake Discord): blank pictures, and the few pieces of
JavaScript that read the page and click in it as a person would.

A page inside the fake Discord client is its iframe: every helper takes the expression of the
page's ``document`` (``FRAME_DOC`` there, the tab's own ``document`` otherwise)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
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


# -- one Chromium for the run's browser tests ------------------------------------------------


@pytest.fixture(scope="session")
def chromium_port() -> Iterator[int]:
    """One headless Chromium for every browser test of the run (or of an xdist worker), its
    DevTools port; each test opens its own tabs in it (``browser_tab``). Skipped without Chromium;
    stopped, its profile removed, when the run ends."""
    from offline.screenshots import CHROMIUM_FLAGS, _wait_for_group_gone, browser_env

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (Debian: apt-get install chromium)")
    profile = Path(tempfile.mkdtemp(prefix="ada-test-chromium-"))
    proc = subprocess.Popen(
        [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=browser_env(profile),
        start_new_session=True,  # its own process group: its helpers are stopped with it
    )
    try:
        marker = profile / "DevToolsActivePort"
        for _ in range(int(HANG / 0.05)):
            if proc.poll() is not None:
                raise RuntimeError(f"chromium stopped at start (exit {proc.returncode})")
            with contextlib.suppress(OSError, ValueError, IndexError):
                port = int(marker.read_text().split()[0])
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("chromium did not open its DevTools port")
        yield port
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        _wait_for_group_gone(proc.pid)
        shutil.rmtree(profile, ignore_errors=True)


@contextlib.asynccontextmanager
async def browser_tab(port: int, width: int, height: int) -> AsyncIterator[Any]:
    """A new tab of the shared Chromium (``chromium_port``) showing exactly ``width`` x
    ``height``, and a DevTools connection to it; closed on leaving."""
    import aiohttp

    from offline.screenshots import DevTools

    async with aiohttp.ClientSession() as http:
        async with http.put(f"http://127.0.0.1:{port}/json/new?about:blank") as res:
            target = await res.json()
        try:
            async with http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws, port)
                await tools.viewport(width, height)
                yield tools
        finally:
            async with http.get(f"http://127.0.0.1:{port}/json/close/{target['id']}"):
                pass
