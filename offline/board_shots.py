"""Screenshots of the board page (``web``), as a player sees it: for the README.

    .venv/bin/python -m offline.board_shots [--out DIR] [--moves 31] [--width 400 1100]
                                            [--lang en] [--seed 4]

Plays ``--moves`` decisions of a new 2-player game on the offline table (clicking through the
turn messages), serves the board page, signs in locally as the player deciding then, and saves
what headless Chromium shows at every ``--width`` (Debian's ``chromium``). The files go to a new
temporary folder (printed) unless ``--out`` names one.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import tempfile
from pathlib import Path

from offline.screenshots import LOCALES, chromium

HALF_WAY = """(() => {
  const s = document.getElementById("slider");
  s.value = String(Math.floor(Number(s.max) / 2));
  s.dispatchEvent(new Event("input"));
})()"""
READY = (
    "document.body.dataset.ready === '1' && [...document.images].every(i => i.complete)"
    " && document.fonts.status === 'loaded'"
)


async def shoot(args: argparse.Namespace, out: Path) -> list[Path]:
    import simcord

    from bot import create_bot
    from offline.screenshots import play
    from web.app import start
    from web.context import WebContext
    from web.sessions import Viewer

    saved = []
    with tempfile.TemporaryDirectory(prefix="ada-board-shots-") as scratch:
        bot = create_bot(
            Path(scratch) / "table.db", images=False, ai_delay=0, seed=args.seed, ai_workers=0
        )
        try:
            async with simcord.run(bot, settle_timeout=60) as env:
                args.players, args.ai = 2, 0
                _thread, _people, game = await play(args, env, args.lang)
                ctx = WebContext.of(bot.ada.games)
                server = await start(ctx, port=0)
                try:
                    rec, state, _seq = await ctx.store.game_and_state(game)
                    assert state is not None and state.decision is not None
                    seat = rec.seat_at(state.decision.player)
                    assert seat is not None and seat.user_id is not None
                    viewer = Viewer(seat.user_id, game, seat.turn_index, "local")
                    url = f"{server.url}/#token={ctx.sessions.issue(viewer)}"
                    if args.replay:  # a spectator's replay, the slider half-way
                        viewer = Viewer(0, game, None, "local")
                        url = f"{server.url}/#replay=1&token={ctx.sessions.issue(viewer)}"
                    for width in args.width:
                        height = 1500 if width < 600 else 1000
                        async with chromium(width, height) as browser:
                            await browser.call(
                                "Emulation.setLocaleOverride", locale=LOCALES[args.lang]
                            )
                            await browser.call("Page.enable")
                            await browser.call("Page.navigate", url=url)
                            await browser.wait_for(READY)
                            if args.replay:
                                await browser.evaluate(HALF_WAY)
                                await browser.wait_for(READY)
                            shot = await browser.call("Page.captureScreenshot", format="png")
                        kind = "replay" if args.replay else "page"
                        path = out / f"board-{kind}-{width}.png"
                        path.write_bytes(base64.b64decode(shot["data"]))
                        print(path, flush=True)
                        saved.append(path)
                finally:
                    await server.stop()
        finally:
            await bot.close()
    return saved


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", help="folder for the pictures (default: a new temporary one)")
    parser.add_argument("--moves", type=int, default=31)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--width", type=int, nargs="+", default=[400, 1100])
    parser.add_argument("--lang", choices=sorted(LOCALES), default="en")
    parser.add_argument("--replay", action="store_true", help="a spectator's replay instead")
    return parser.parse_args(argv)


def run(argv: list[str] | None = None) -> int:
    args = parse(argv)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="ada-board-shots-"))
    out.mkdir(parents=True, exist_ok=True)
    asyncio.run(shoot(args, out))
    return 0


if __name__ == "__main__":
    raise SystemExit(run())
