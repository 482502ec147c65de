"""offline.screenshots (issue 28): it captured pages that still said "Updating viewport…", wrote
into the repository by default, and after a time-out left its Chromium running and its profile
folder behind. Now it waits for the page to settle, writes to a temporary folder unless told,
and stops its browser and removes the profile whatever happens (these tests need Debian's
``chromium``; they are skipped without it)."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from offline import screenshots
from offline.screenshots import PHONE_WIDTH, ScreenshotError

needs_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
    reason="chromium is not installed",
)


MESSAGE = "<p data-control-key='message:1'>Round 3 · ada's turn</p>"  # as the table shows one


def live_processes_of_group(pgid: int) -> list[int]:
    """Processes of a process group that still run (zombies are over: only not yet reaped)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, pgrp = fields[0], int(fields[2])
        if pgrp == pgid and state != "Z":
            alive.append(int(stat.parent.name))
    return alive


@pytest.fixture
def watched(monkeypatch: Any, request: pytest.FixtureRequest) -> dict[str, list[Any]]:
    """The browsers screenshots starts and the profile folders it makes, noted; and the
    temporary folder the browser is told of (TMPDIR) is a new one, to see what it leaves there."""
    system_tmp = Path(tempfile.mkdtemp(prefix="t"))  # short: a socket's path has a limit
    request.addfinalizer(lambda: shutil.rmtree(system_tmp, ignore_errors=True))
    monkeypatch.setenv("TMPDIR", str(system_tmp))
    seen: dict[str, list[Any]] = {"pids": [], "profiles": [], "tmp": [system_tmp]}
    start = asyncio.create_subprocess_exec
    mkdtemp = tempfile.mkdtemp

    async def noting_start(*args: Any, **kwargs: Any) -> Any:
        proc = await start(*args, **kwargs)
        seen["pids"].append(proc.pid)
        return proc

    def noting_mkdtemp(*args: Any, **kwargs: Any) -> str:
        path = mkdtemp(*args, **kwargs)
        seen["profiles"].append(Path(path))
        return path

    monkeypatch.setattr(screenshots.asyncio, "create_subprocess_exec", noting_start)
    monkeypatch.setattr(screenshots.tempfile, "mkdtemp", noting_mkdtemp)
    return seen


def gone(seen: dict[str, list[Any]]) -> None:
    assert seen["pids"] and seen["profiles"]
    for pid in seen["pids"]:
        assert live_processes_of_group(pid) == [], "a browser process is still running"
    for profile in seen["profiles"]:
        assert not profile.exists(), "the browser's profile folder was left behind"
    # Chromium keeps its singleton socket in a folder of TMPDIR (org.chromium.Chromium.*): one
    # was left behind per browser, hundreds in /tmp after some weeks of tests
    (system_tmp,) = seen["tmp"]
    assert list(system_tmp.iterdir()) == [], "the browser left files in the temporary folder"


@needs_chromium
@pytest.mark.parametrize(
    "page",
    [
        f"{MESSAGE}<p>Updating viewport…</p>",  # what the table says while at work
        "<p>SimCord · Viewing as</p>",  # seen: the page's frame only, before its first snapshot
    ],
)
async def test_a_page_that_never_settles_fails_and_leaves_nothing_behind(
    watched: dict[str, list[Any]], tmp_path: Path, page: str
) -> None:
    out = tmp_path / "shot.png"
    with pytest.raises(ScreenshotError, match="did not settle"):
        async with screenshots.chromium(PHONE_WIDTH, 900) as browser:
            # two looks (screenshots.POLL apart): the fewest in which a settled page passes
            await browser.screenshot(f"data:text/html,{page}", out, timeout=2 * screenshots.POLL)
    assert not out.exists()
    gone(watched)


@needs_chromium
async def test_a_settled_page_is_captured_at_the_width_asked(
    watched: dict[str, list[Any]], tmp_path: Path
) -> None:
    from PIL import Image

    out = tmp_path / "shot.png"
    async with screenshots.chromium(PHONE_WIDTH, 900) as browser:
        await browser.screenshot(f"data:text/html,{MESSAGE}", out)
    assert Image.open(out).size == (PHONE_WIDTH, 900)  # the page's width, not a window's
    gone(watched)


@needs_chromium
async def test_any_failure_inside_stops_the_browser(watched: dict[str, list[Any]]) -> None:
    with pytest.raises(RuntimeError):
        async with screenshots.chromium(1100, 1400):
            raise RuntimeError("the table broke")
    gone(watched)


def test_pictures_go_outside_the_repository_unless_asked() -> None:
    args = screenshots.parse([])
    assert args.out is None and args.width == [1100] and args.lang == ["en"]
    args = screenshots.parse(["--phone", "--width", "1100", "--lang", "en", "es", "ja"])
    assert args.width == [1100, PHONE_WIDTH] and args.lang == ["en", "es", "ja"]
    assert screenshots.height_for(PHONE_WIDTH, None) == 900
    assert screenshots.height_for(1100, None) == 1400
