"""Screenshots of the offline table, as a player sees it: for the README and for looking at a game.

    .venv/bin/python -m offline.screenshots [--out docs/images] [--moves 30] [--players 3 --ai 1]
                                            [--width 1100 --height 1400] [--phone]
                                            [--lang es|ja]

Plays ``--moves`` decisions of a new game on the offline table (the people choose as the greedy AI
would, clicking through the turn messages; AI seats play themselves), then opens the table's page
for each person and saves a screenshot taken by headless Chromium (``chromium`` must be on the
PATH: Debian's package). ``--phone`` uses a phone-sized window (420 px wide). ``--lang`` plays the
game in Spanish or Japanese: the thread in that language, each person's private answers too (their
``/ada language`` setting), and the page's Discord chrome in that locale.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
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
    "--virtual-time-budget=8000",
]


LOCALES = {"en": "en-US", "es": "es-ES", "ja": "ja"}


async def chromium_screenshot(url: str, out: Path, width: int, height: int) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("chromium is not installed (Debian: apt-get install chromium)")
    profile = tempfile.mkdtemp(prefix="ada-chromium-")
    try:
        proc = await asyncio.create_subprocess_exec(
            browser,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            f"--screenshot={out}",
            url,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await asyncio.wait_for(proc.wait(), timeout=60)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


async def play(args: argparse.Namespace, env: Any) -> tuple[Any, list[Any], int]:
    """A new game on the offline table, ``args.moves`` decisions into it."""
    from offline.driver import Table, greedy_pick

    names = ("ada", "charles", "mary", "john")[: args.players - args.ai]
    table = Table(env, names, guild="Ada's Dream (offline)")
    options = {"language": args.lang} if args.lang != "en" else {}
    for member in table.members.values():  # their own language for private answers
        if args.lang != "en":
            await table.store.set_user_settings(
                member.id, language=args.lang, now=env.bot.ada.games.now()
            )
    game = await table.new_game(names[0], names[1:], players=args.players, ai=args.ai, **options)
    pick = greedy_pick(args.seed)
    for _ in range(args.moves):
        state, _seq = await table.store.load_state(game)
        if state.decision is None:
            break
        await table.move(game, pick, whole_state=True)
    return table.thread(game), list(table.members.values()), game


async def main(args: argparse.Namespace) -> None:
    import simcord

    from bot import create_bot

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    width, height = (420, 900) if args.phone else (args.width, args.height)
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
                thread, people, game = await play(args, env)
                for person in people:
                    async with env.preview(
                        thread,
                        viewers=[person],
                        layout="channel",
                        display="fixed",
                        width=width,
                        height=height,
                        locale=LOCALES[args.lang],
                    ) as preview:
                        name = f"{args.prefix}-{person.name}{'-phone' if args.phone else ''}.png"
                        await chromium_screenshot(preview.url, out / name, width, height)
                        print(out / name)
        finally:
            await bot.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/images")
    parser.add_argument("--prefix", default="table")
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--ai", type=int, default=1)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=1400)
    parser.add_argument("--phone", action="store_true")
    parser.add_argument("--lang", choices=sorted(LOCALES), default="en")
    asyncio.run(main(parser.parse_args()))
