"""Screenshots of the offline table, as a player sees it: for the README and for looking at a game.

    .venv/bin/python -m offline.screenshots [--out DIR] [--moves 30] [--players 3 --ai 1]
                                            [--width 420 1100] [--height H] [--phone]
                                            [--lang en es ja] [--seed 4]

Plays ``--moves`` decisions of a new game on the offline table (the people choose as the greedy AI
would, clicking through the turn messages; AI seats play themselves), then opens the table's page
for each person in headless Chromium (``chromium`` must be on the PATH: Debian's package), waits
until the page has settled (no "Updating…" or "Loading…", every picture loaded) and saves a
screenshot. Every ``--width`` gives one screenshot per person (``--phone``: 420 px, a phone's
width; the height is 900 px for a phone, 1400 px wider). Every ``--lang`` plays its own game: the
thread in that language, each person's private answers too (their ``/ada language`` setting), and
the page's Discord chrome in that locale.

The files go to a new temporary folder (printed) unless ``--out`` names one: nothing is written
into the repository unless asked. Whatever happens, the browser started here is stopped and its
profile folder removed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--disable-crash-reporter",
    "--disable-breakpad",
    # a tab in the background runs its timers and its rendering as the one in front does
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--remote-debugging-port=0",  # the port is written to the profile's DevToolsActivePort
]


def browser_env(profile: Path) -> dict[str, str]:
    """The environment to start Chromium in: its temporary files inside its profile folder, so
    that removing the profile removes them (Chromium keeps a folder of its own in TMPDIR,
    org.chromium.Chromium.*, and leaves it there when it stops)."""
    tmp = profile / "tmp"
    tmp.mkdir(exist_ok=True)
    return {**os.environ, "TMPDIR": str(tmp)}
LOCALES = {"en": "en-US", "es": "es-ES", "ja": "ja"}
PHONE_WIDTH = 420
SETTLE_TIMEOUT = 90.0  # seconds for the page to settle (the table may be slow under load)
POLL = 0.25

# The page is still working while its status line says one of these (simcord's preview).
UNSETTLED = (
    "Updating",
    "Loading",
    "Completing action",
    "Switching viewer",
    "Opening message",
    "Sending message",
    "Saving message",
    "Deleting message",
    "trying again",
    "awaiting a confirmed result",
)
PAGE_STATE = """JSON.stringify({
  ready: document.readyState === "complete",
  messages: document.querySelectorAll('[data-control-key^="message:"]').length,
  text: document.body ? document.body.innerText : "",
  images: [...document.images].every(i => i.complete && i.naturalWidth > 0),
})"""

# Wait in the page until EXPRESSION is true (its value), or LIMIT ms have passed (null); a check
# that throws (the page not there yet) counts as false.
WAIT_IN_PAGE = """new Promise((resolve) => {
  const end = Date.now() + LIMIT;
  const check = () => {
    let value = null;
    try { value = (EXPRESSION); } catch (error) {}
    if (value || Date.now() >= end) resolve(value || null);
    else setTimeout(check, 5);
  };
  check();
})"""


class ScreenshotError(Exception):
    """The browser could not show the page or take the picture."""


def height_for(width: int, asked: int | None) -> int:
    return asked or (900 if width <= 600 else 1400)


@contextlib.asynccontextmanager
async def open_tab(browser: DevTools, url: str = "about:blank") -> AsyncIterator[DevTools]:
    """Another tab of the same browser, and a DevTools connection to it."""
    import aiohttp

    target = await browser.call("Target.createTarget", url=url)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{browser.port}/json/list") as res:
            targets = await res.json()
        page = next(t for t in targets if t.get("id") == target["targetId"])
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            yield DevTools(ws, browser.port)


@contextlib.asynccontextmanager
async def chromium(width: int, height: int) -> AsyncIterator[Any]:
    """A headless Chromium and a DevTools connection to its page; on leaving, however it is
    left, the browser is stopped and its profile folder removed."""
    import aiohttp

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("chromium is not installed (Debian: apt-get install chromium)")
    profile = Path(tempfile.mkdtemp(prefix="ada-chromium-"))
    proc = None
    try:
        proc = await asyncio.create_subprocess_exec(
            browser,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            env=browser_env(profile),
            start_new_session=True,  # its own process group: its helpers are stopped with it
        )
        port = await _devtools_port(profile, proc)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/json/list") as res:
                targets = await res.json()
            page = next(t for t in targets if t.get("type") == "page")
            async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws, port)
                await tools.viewport(width, height)
                yield tools
    finally:
        try:
            if proc is not None:
                await _stop(proc)
        finally:  # even if stopping was interrupted
            shutil.rmtree(profile, ignore_errors=True)


async def _stop(proc: Any) -> None:
    """Stop the browser (asked first, so that it ends its helpers itself), then whatever is
    left of its process group, even if this is interrupted."""
    try:
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), timeout=10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        _wait_for_group_gone(proc.pid)


def _wait_for_group_gone(pgid: int, limit: float = 10.0) -> None:
    """Return once no process of the group runs (a killed process takes a moment to end), or
    after ``limit`` seconds. A short blocking wait: this is the command line, not the bot."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        alive = False
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                alive = True
                break
        if not alive:
            return
        time.sleep(0.02)


async def _devtools_port(profile: Path, proc: Any) -> int:
    marker = profile / "DevToolsActivePort"
    for _ in range(int(30 / POLL)):
        if proc.returncode is not None:
            raise ScreenshotError(f"chromium stopped at start (exit {proc.returncode})")
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int(marker.read_text().split()[0])
        await asyncio.sleep(POLL)
    raise ScreenshotError("chromium did not open its DevTools port")


class DevTools:
    """The few DevTools protocol calls a screenshot needs."""

    def __init__(self, ws: Any, port: int = 0) -> None:
        self.ws = ws
        self.port = port  # the browser's DevTools port (for more tabs: ``open_tab``)
        self.next_id = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        await self.ws.send_json({"id": self.next_id, "method": method, "params": params})
        while True:
            reply = await self.ws.receive_json()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise ScreenshotError(f"{method}: {reply['error']}")
                return dict(reply.get("result", {}))

    async def viewport(self, width: int, height: int) -> None:
        """Show exactly ``width`` x ``height`` CSS pixels (a headless window is at least 500 px
        wide, and its height includes the window's frame)."""
        await self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited if it is a promise)."""
        got = await self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in got:
            raise ScreenshotError(f"{expression[:60]}: {got['exceptionDetails'].get('text')}")
        return got["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = SETTLE_TIMEOUT) -> Any:
        """Wait until a JavaScript expression is true in the page; returns its value. The page
        checks it itself every few milliseconds (one call to the browser per few seconds, not
        one per check), so a wait ends as soon as the page is there."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            waited = WAIT_IN_PAGE.replace("LIMIT", str(int(min(left, 5.0) * 1000)))
            try:
                value = await self.evaluate(waited.replace("EXPRESSION", expression))
            except ScreenshotError:  # (the page is still being replaced by the next one)
                value = None
                await asyncio.sleep(0.05)
            if value:
                return value
        raise ScreenshotError(f"the page never had {expression!r} in {timeout:.0f} s")

    async def state(self) -> dict[str, Any]:
        got = await self.call("Runtime.evaluate", expression=PAGE_STATE, returnByValue=True)
        return dict(json.loads(got["result"]["value"]))

    async def settle(self, timeout: float = SETTLE_TIMEOUT) -> str:
        """Wait until the page is loaded, shows the channel's messages (not only the page's
        frame, as before its first snapshot arrives), says nothing is under way, has every
        picture, and reads the same twice in a row; returns its text."""
        last = None
        for _ in range(int(timeout / POLL)):
            now = await self.state()
            settled = (
                now["ready"]
                and now["messages"] > 0
                and now["images"]
                and not any(w in now["text"] for w in UNSETTLED)
            )
            if settled and now["text"] == last:
                return str(now["text"])
            last = now["text"] if settled else None
            await asyncio.sleep(POLL)
        raise ScreenshotError(f"the page did not settle in {timeout:.0f} s")

    async def screenshot(self, url: str, out: Path, timeout: float = SETTLE_TIMEOUT) -> None:
        """Open ``url``, wait until it has settled, save what it shows to ``out``."""
        await self.call("Page.enable")
        await self.call("Page.navigate", url=url)
        await self.settle(timeout)
        shot = await self.call("Page.captureScreenshot", format="png")
        out.write_bytes(base64.b64decode(shot["data"]))


async def play(args: argparse.Namespace, env: Any, lang: str) -> tuple[Any, list[Any], int]:
    """A new game on the offline table, ``args.moves`` decisions into it."""
    from offline.driver import Table, greedy_pick

    names = ("ada", "charles", "mary", "john")[: args.players - args.ai]
    table = Table(env, names, guild="Ada's Dream (offline)")
    options = {"language": lang} if lang != "en" else {}
    for member in table.members.values():  # their own language for private answers
        if lang != "en":
            await table.store.set_user_settings(
                member.id, language=lang, now=env.bot.ada.games.now()
            )
    game = await table.new_game(names[0], names[1:], players=args.players, ai=args.ai, **options)
    pick = greedy_pick(args.seed)
    for _ in range(args.moves):
        state, _seq = await table.store.load_state(game)
        if state.decision is None:
            break
        await table.move(game, pick, whole_state=True)
    return table.thread(game), list(table.members.values()), game


async def shoot_language(args: argparse.Namespace, out: Path, lang: str) -> list[Path]:
    import simcord

    from bot import create_bot

    saved: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="ada-shots-") as scratch:
        bot = create_bot(
            Path(scratch) / "table.db",
            images=True,
            ai_delay=0,
            seed=args.seed,
            ai_workers=0,
            offline=True,
        )
        try:
            async with simcord.run(bot, settle_timeout=60) as env:
                thread, people, _game = await play(args, env, lang)
                for width in args.width:
                    height = height_for(width, args.height)
                    for person in people:
                        async with env.preview(
                            thread,
                            viewers=[person],
                            layout="channel",
                            display="fixed",
                            width=width,
                            height=height,
                            locale=LOCALES[lang],
                        ) as preview:
                            suffix = "" if lang == "en" else f"-{lang}"
                            name = f"{args.prefix}{suffix}-{person.name}-{width}.png"
                            async with chromium(width, height) as browser:
                                await browser.screenshot(preview.url, out / name)
                            print(out / name, flush=True)
                            saved.append(out / name)
        finally:
            await bot.close()
    return saved


async def main(args: argparse.Namespace) -> None:
    # stopped by a signal: unwind (the browser is stopped and its profile removed on the way)
    task = asyncio.current_task()
    assert task is not None

    def stop() -> None:
        if not task.cancelling():  # once: a second signal must not cut the cleaning up short
            task.cancel()

    for sig in (signal.SIGTERM, signal.SIGHUP):
        asyncio.get_running_loop().add_signal_handler(sig, stop)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="ada-screenshots-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"Screenshots in {out}", flush=True)
    for lang in args.lang:
        await shoot_language(args, out, lang)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", help="folder for the pictures (default: a new temporary one)")
    parser.add_argument("--prefix", default="table")
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--ai", type=int, default=1)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument(
        "--width", type=int, nargs="+", default=[], help="window widths in px (default: 1100)"
    )
    parser.add_argument("--height", type=int, help="window height (default: by width)")
    parser.add_argument("--phone", action="store_true", help=f"a phone's width, {PHONE_WIDTH} px")
    parser.add_argument("--lang", choices=sorted(LOCALES), nargs="+", default=["en"])
    args = parser.parse_args(argv)
    if args.phone:
        args.width.append(PHONE_WIDTH)
    args.width = list(dict.fromkeys(args.width or [1100]))
    return args


def run(argv: list[str] | None = None) -> int:
    try:
        asyncio.run(main(parse(argv)))
    except ScreenshotError as exc:
        print(f"no screenshot: {exc} (the browser was stopped, its profile removed)")
        return 1
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("stopped (the browser was stopped, its profile removed)")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(run())
