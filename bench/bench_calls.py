"""Benchmark: the Discord REST calls one whole game costs, by kind, per game and per decision.

    .venv/bin/python bench/bench_calls.py [--games 1] [--players 4] [--seed 1] [--no-images]
                                          [--budget SECONDS]

Runs the real bot against simcord (in memory, no network) on a temporary database. Four people
(no AI seat) play whole games through the turn messages only, as people would: each decision is
chosen by the greedy AI, then reached by clicking through the components the bot posted (see
``offline.driver.Clicker``). Every REST call the bot makes during the game (not the lobby) is read
from simcord's request log and counted by kind:

- interaction responses, by type: the message edited in the response itself, a private answer
  sent as the response, an acknowledgement (of a click: "defer update"; of a command: "thinking");
- follow-ups (messages sent through the interaction's webhook) and their edits;
- posts and edits of channel messages (the turn messages);
- anything else.

Printed: a table of calls by kind for each game and per decision, then the totals. Discord's
global limit is 50 requests per second per bot: calls per decision decide how many games one bot
can carry. ``--budget`` sets the time the bot gives itself to answer a click with the updated
message before it falls back to acknowledging first (default: the bot's own).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RESPONSE_TYPES = {
    4: "response: private answer or message",
    5: "response: acknowledge (thinking)",
    6: "response: acknowledge (click)",
    7: "response: message edited",
    8: "response: autocomplete",
}


def kind_of(method: str, path: str, body: Any) -> str:
    """The kind of one REST call, from its method, path and JSON body."""
    if method == "POST" and re.fullmatch(r"/interactions/\d+/[^/]+/callback", path):
        kind = body.get("type") if isinstance(body, dict) else None
        return RESPONSE_TYPES.get(kind, f"response: type {kind}")  # type: ignore[arg-type]
    if method == "POST" and re.fullmatch(r"/webhooks/\d+/[^/]+", path):
        return "follow-up"
    if method == "PATCH" and re.fullmatch(r"/webhooks/\d+/[^/]+/messages/[^/]+", path):
        return "follow-up or response edit"
    if method == "POST" and re.fullmatch(r"/channels/\d+/messages", path):
        return "message posted"
    if method == "PATCH" and re.fullmatch(r"/channels/\d+/messages/\d+", path):
        return "message edited"
    where = re.sub(r"/\d+", "/N", path)
    return f"other: {method} {where}"


def count_calls(requests: list[Any]) -> Counter[str]:
    return Counter(kind_of(r.method, r.path, r.json) for r in requests)


async def play_game(table: Any, game: int, seed: int) -> int:
    """Play ``game`` to its end through the turn messages; returns the decisions made."""
    from offline.driver import greedy_pick

    pick = greedy_pick(seed)
    decisions = 0
    while True:
        state, _seq = await table.store.load_state(game)
        if state.decision is None:
            return decisions
        await table.move(game, pick, whole_state=True)
        decisions += 1


async def main(args: argparse.Namespace) -> None:
    import simcord

    from bot import create_bot
    from offline.driver import Clicker, Table

    db = Path(tempfile.mkdtemp(prefix="ada-bench-")) / "bench.db"
    options: dict[str, Any] = {}
    if args.budget is not None:
        options["click_budget"] = args.budget
    bot = create_bot(db, images=not args.no_images, ai_delay=0, seed=args.seed, **options)
    totals: Counter[str] = Counter()
    all_decisions = all_clicks = 0
    print(f"REST calls of whole {args.players}-player games through the bot (people only):\n")
    try:
        async with simcord.run(bot, settle_timeout=60) as env:
            names = tuple(f"p{i}" for i in range(args.players))
            table = Table(env, names, guild="Bench")
            for g in range(args.games):
                game = await table.new_game(names[0], names[1:])
                table.clicker = Clicker(env)
                start = len(env.http_requests)  # count the game itself, not the lobby
                decisions = await play_game(table, game, args.seed + g)
                calls = count_calls(env.http_requests[start:])
                totals += calls
                all_decisions += decisions
                all_clicks += table.clicker.clicks
                print(
                    f"Game {g + 1} (seed {args.seed + g}): {decisions} decisions, "
                    f"{table.clicker.clicks} clicks, {calls.total()} REST calls "
                    f"({calls.total() / decisions:.2f} per decision)"
                )
                print_table(calls, decisions)
    finally:
        await bot.close()
    if args.games > 1:
        print(f"All {args.games} games: {all_decisions} decisions, {all_clicks} clicks")
        print_table(totals, all_decisions)


def print_table(calls: Counter[str], decisions: int) -> None:
    print("\n| kind | calls | per decision |\n|---|---|---|")
    for kind, n in sorted(calls.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"| {kind} | {n} | {n / decisions:.3f} |")
    total = calls.total()
    print(f"| **all** | **{total}** | **{total / decisions:.3f}** |\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-images", action="store_true")
    parser.add_argument("--budget", type=float, default=None)
    asyncio.run(main(parser.parse_args()))
