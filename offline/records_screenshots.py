"""Screenshots of what the bot remembers (issue 30), on the offline table: after two finished
games, a member asks for ``/ada records profile``, ``/ada records leaderboard``,
``/ada records history`` and ``/ada away``, and the channel is shot as that member sees it.

    .venv/bin/python -m offline.records_screenshots [--out docs/images] [--lang en|es|ja]

The two games are played to their end with random legal choices straight through the store
(a whole game through clicks takes minutes; the records are the same), then the commands run
through the simulated Discord as a member would type them. Needs ``chromium`` on the PATH.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from datetime import timedelta
from pathlib import Path

from offline.screenshots import LOCALES, chromium


async def main(args: argparse.Namespace) -> None:
    import discord
    import simcord

    from bot import create_bot
    from offline.driver import Table
    from store.testing import pick

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ada-shots-") as scratch:
        bot = create_bot(
            Path(scratch) / "table.db", images=True, ai_delay=0, seed=4, ai_workers=0, offline=True
        )
        try:
            async with simcord.run(bot, settle_timeout=60) as env:
                table = Table(env, ("ada", "charles", "mary"), guild="Ada's Dream (offline)")
                options = {"language": args.lang} if args.lang != "en" else {}
                now = env.bot.ada.games.now()
                for member in table.members.values():
                    if args.lang != "en":
                        await table.store.set_user_settings(member.id, language=args.lang, now=now)
                rng = random.Random(3)
                for joiners in (("charles",), ("charles", "mary")):
                    game = await table.new_game("ada", joiners, **options)
                    state, seq = await table.store.load_state(game)
                    while not state.is_over:
                        seat, choice = pick(state, rng)
                        state = await table.store.apply_choice(
                            game, seq, seat, choice, now=env.bot.ada.games.now()
                        )
                        seq += 1
                ada = table.members["ada"]
                room = table.guild.create_text_channel("records")
                await ada.slash(room, "ada records profile")
                await ada.slash(room, "ada records leaderboard")
                await ada.slash(room, "ada records history")
                back = (discord.utils.utcnow() + timedelta(days=6)).date().isoformat()
                await ada.slash(room, "ada away", until=back)
                async with env.preview(
                    room,
                    viewers=[ada],
                    layout="channel",
                    display="fixed",
                    width=args.width,
                    height=args.height,
                    locale=LOCALES[args.lang],
                ) as preview:
                    name = out / f"records-table-{args.lang}.png"
                    async with chromium(args.width, args.height) as browser:
                        await browser.screenshot(preview.url, name)
                    print(name)
        finally:
            await bot.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/images")
    parser.add_argument("--lang", choices=sorted(LOCALES), default="en")
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--height", type=int, default=1750)
    asyncio.run(main(parser.parse_args()))
