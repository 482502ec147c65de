"""Screenshots of the offline table, as a player sees it: for the README and for looking at a game.

    .venv/bin/python -m offline.screenshots [--out docs/images] [--moves 30] [--players 3 --ai 1]
                                            [--width 1100 --height 1400] [--phone]

Plays ``--moves`` decisions of a new game on the offline table (the people choose as the greedy AI
would, clicking through the turn messages; AI seats play themselves), then opens the table's page
for each person and saves a screenshot taken by headless Chromium (``chromium`` must be on the
PATH: Debian's package). ``--phone`` uses a phone-sized window (420 px wide).
"""

from __future__ import annotations

import argparse
import asyncio
import random
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


async def play(args: argparse.Namespace, env: Any, bot: Any) -> tuple[Any, list[Any], int]:
    from engine.ai import get_policy
    from offline.driver import Clicker

    guild = env.create_guild("Ada's Dream (offline)")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(env.create_user(n)) for n in ("ada", "charles", "mary", "john")]
    people = people[: args.players - args.ai]
    await people[0].slash(channel, "ada new", players=args.players, ai=args.ai)
    store = bot.ada.store
    game = max(g.id for g in await store.games_in_channel(channel.id))
    thread = next(t for t in channel.threads if t.name == f"Ada's Dream #{game}")
    lobby = await store.latest_message(game, "lobby")
    lobby_msg = next(m for m in thread.history() if m.id == lobby.message_id)
    for person in people[1:]:
        await person.click(lobby_msg, custom_id=f"ada:l:join:{game}")
    await people[0].click(lobby_msg, custom_id=f"ada:l:start:{game}")
    greedy, rng, clicker = get_policy("greedy"), random.Random(args.seed), Clicker(env)
    by_id = {p.id: p for p in people}
    for _ in range(args.moves):
        state, seq = await store.load_state(game)
        dec = state.decision
        if dec is None:
            break
        rec = await store.get_game(game)
        choice = greedy.choose(state.copy(), rng)
        idx = next(i for i, c in enumerate(dec.choices) if c.id == choice)
        shown = await store.latest_message(game, "turn")
        message = next(m for m in thread.history() if m.id == shown.message_id)
        await clicker.choose(
            by_id[rec.seat_at(dec.player).user_id], thread, message, state, game, seq, idx
        )
    return thread, people, game


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
                thread, people, game = await play(args, env, bot)
                for person in people:
                    async with env.preview(
                        thread,
                        viewers=[person],
                        layout="channel",
                        display="fixed",
                        width=width,
                        height=height,
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
    asyncio.run(main(parser.parse_args()))
