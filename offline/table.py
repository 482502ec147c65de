"""The offline table: try Ada's Dream without a Discord token.

    ./scripts/run offline [--players 3] [--ai 1] [--port 8765] [--web-port 8766] [--db FILE]

Starts the real bot (same cogs, same database code) against simcord's in-memory Discord, creates
a server with a #games channel and a few members, sets up a game in its thread, and serves a
Discord-like page on http://127.0.0.1:<port>/ where you play through the real buttons, selects and
slash commands. The page lets you switch between the seated members ("viewers"). The board page
(``web``) runs too, on http://127.0.0.1:<web-port>/local, with a local login: pick a seat (or
watch, or replay) and play on the board itself while the thread follows. Stop with Ctrl-C or the
page's "End preview session".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

log = logging.getLogger("adas_dream.offline")

NAMES = ("ada", "charles", "mary", "john")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bot.py offline", description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="seats in the game")
    p.add_argument("--ai", type=int, default=1, choices=(0, 1, 2, 3), help="how many are AI")
    p.add_argument("--policy", default="greedy", help="AI policy (random, greedy, search)")
    p.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (0: any free)")
    p.add_argument("--web-port", type=int, default=8766, help="the board page's port (0: any free)")
    p.add_argument("--db", help="database file (default: a temporary one)")
    p.add_argument("--no-images", action="store_true", help="skip board images (faster)")
    return p


async def run_table(args: argparse.Namespace, ready: Any = None) -> None:
    if args.ai >= args.players:
        raise SystemExit("leave at least one seat for a person (--ai < --players)")
    with database(args.db) as db:
        await _run(args, db, ready)


@contextlib.contextmanager
def database(path: str | None) -> Iterator[str]:
    """The table's database: the file given, else a temporary one removed when the table stops."""
    if path:
        yield path
        return
    scratch = tempfile.mkdtemp(prefix="ada-offline-")
    try:
        yield str(Path(scratch) / "offline.db")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


async def _run(args: argparse.Namespace, db: str, ready: Any) -> None:
    import simcord

    from bot import create_bot

    bot = create_bot(
        db,
        images=not args.no_images,
        # no pause before an AI seat's move: the bot runs on simcord's clock, where a pause
        # passes only as the Discord-like page drives it, never after a board-page move
        ai_delay=0.0,
        seed=None,
        offline=True,
        web_port=args.web_port,
        web_local_login=True,  # the offline table only: anyone on this machine picks a seat
    )
    try:
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild("Ada's Dream (offline)")
            channel = guild.create_text_channel("games")
            humans = args.players - args.ai
            people = [guild.add_member(env.create_user(n)) for n in NAMES[:humans]]
            res = await people[0].slash(
                channel, "ada new", players=args.players, ai=args.ai, ai_policy=args.policy
            )
            if not res.acknowledged:
                raise SystemExit("the bot did not answer /ada new")
            store = bot.ada.store
            assert store is not None
            game = max(g.id for g in await store.games_in_channel(channel.id))
            thread = next(t for t in channel.threads if t.name == f"Ada's Dream #{game}")
            lobby = await store.latest_message(game, "lobby")
            assert lobby is not None
            lobby_msg = next(m for m in thread.history() if m.id == lobby.message_id)
            for person in people[1:]:
                await person.click(lobby_msg, custom_id=f"ada:l:join:{game}")
            await people[0].click(lobby_msg, custom_id=f"ada:l:start:{game}")
            async with env.preview(
                thread, viewers=people, layout="channel", port=args.port
            ) as preview:
                where = (
                    f"database {args.db}"
                    if args.db
                    else "a temporary database, removed when you stop"
                )
                print(f"\nAda's Dream offline table (game #{game}, {where})")
                print(f"Open this address in a browser on this machine:\n\n    {preview.url}\n")
                if bot.web is not None:
                    print(
                        f"The board page (pick a seat, watch or replay):\n\n    {bot.web.url}/local\n"
                    )
                print("Switch between the players with the page's viewer menu; type /ada for the")
                print("commands. Stop with Ctrl-C (or 'End preview session' on the page).\n")
                if ready is not None:
                    ready(preview.url)
                refresher = asyncio.create_task(Refresher(env, preview, bot.ada.games).run())
                try:
                    await preview.wait_closed()
                finally:
                    refresher.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await refresher
    finally:
        await bot.close()


class Refresher:
    """Republishes the table's page when the bot changed something by itself (an AI seat
    played): never on a timer alone, and never while the bot is busy.

    A click on the page carries the page's revision, and a republish makes a new one: a click
    on a page drawn before the republish is refused ("Action was not completed"), and a
    republish while the bot still works holds simcord's one operation at a time, so a click
    arriving then fails ("Action outcome uncertain"). The page only needs republishing when the
    bot made REST calls since that page was last published (a click publishes every page
    itself), and then only once the bot is idle, when republishing takes no time."""

    def __init__(self, env: Any, preview: Any, games: Any) -> None:
        self.env, self.preview, self.games = env, preview, games
        calls = len(env.http_requests)
        self.published = {page: calls for page in preview._pages}  # page -> the bot's calls
        publish = preview._publish

        def noting(page: Any, **kwargs: Any) -> None:  # (simcord 3.2.1 publishes through this)
            publish(page, **kwargs)
            self.published[page.id] = len(env.http_requests)

        preview._publish = noting

    def idle(self) -> bool:
        """No click or other simcord operation under way, and no AI seat thinking."""
        return self.env._operation_task is None and all(
            task.done() for task in self.games.ai_tasks.values()
        )

    def due(self) -> bool:
        calls = len(self.env.http_requests)
        behind = any(self.published.get(page, -1) < calls for page in self.browser_pages())
        return behind and self.idle()

    def browser_pages(self) -> list[str]:
        """The pages open in a browser (not the preview's own Python page, which a click does
        not republish: counting it would republish after every click)."""
        own = getattr(self.preview, "_python", None)
        return [page for page in self.preview._pages if own is None or page != own.id]

    async def tick(self) -> bool:
        """Republish if due; True if it did."""
        if not self.due():
            return False
        with contextlib.suppress(Exception):
            await self.preview.refresh()
        return True

    async def run(self, every: float = 0.5) -> None:
        while True:
            await asyncio.sleep(every)
            await self.tick()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        asyncio.run(run_table(args))
    except KeyboardInterrupt:
        print("\nbye")
    except ImportError as exc:
        print(
            f"The offline table needs simcord's preview: pip install 'simcord[preview]==3.2.1' ({exc})"
        )
        return 1
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    raise SystemExit(main())
