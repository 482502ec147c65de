"""Decisions per turn, and how many of them had only one meaningful answer.

Run: .venv/bin/python bench/bench_decisions.py [--games 12] [--seed 1] [--players 4]
                                               [--rules-version N]
Prints figures; it is not a test. Every seat plays the greedy policy (engine.ai), seeds
`--seed`, `--seed + 1`, ...

For every decision asked, each legal choice is applied to a copy of the state, which runs on to
the next decision, and the results are compared (the history, log and undo floor left out: they
always differ and are not game state). A decision is counted as

* **equivalent** when every choice leads to the same state: whatever is picked, nothing differs;
* **yes/no** when all choices but one lead to the state that resolving the step with no effect
  gives (the step dropped as if it had no legal choice): "do this one thing, or nothing". These
  are real choices (declining is often the better play: a Book kept, a card not played) and
  are reported for the record, not removed.

Equivalent decisions are the pointless ones: rules version 2 does not ask them (see
engine.versions, "no_pointless_decisions"). The late Coal adjust of rules version 2 is counted
as its own kind, "ws_adjust (late)".

Decisions per turn divide by the turns played (every seat's turn, passes included).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from engine import GameSetup, GameState, new_game
from engine.ai import get_policy, policy_rng
from engine.copies import fast_copy
from engine.rules import legal_ids, run

_IGNORED = ("history", "log", "undo_floor")


def _key(st: GameState) -> str:
    d = st.to_dict()
    for name in _IGNORED:
        d.pop(name, None)
    return json.dumps(d, sort_keys=True)


def _after(st: GameState, choice: str) -> str:
    trial = fast_copy(st)
    trial.apply(choice)
    return _key(trial)


def _dropped(st: GameState) -> str:
    """The state had the pending step resolved with no effect (dropped)."""
    trial = fast_copy(st)
    trial.stack.pop()
    run(trial)
    return _key(trial)


def classify(st: GameState) -> str:
    """'equivalent', 'yes/no' or 'real' for the pending decision of `st`."""
    ids = list(legal_ids(st))
    results = [_after(st, cid) for cid in ids]
    if len(set(results)) == 1:
        return "equivalent"
    nothing = _dropped(st)
    if sum(r != nothing for r in results) <= 1 and nothing in results:
        return "yes/no"
    return "real"


def play(setup: GameSetup, stats: dict[str, Any]) -> None:
    st = new_game(setup)
    n = len(st.players)
    policies = [get_policy("greedy") for _ in range(n)]
    rngs = [policy_rng(setup.seed, seat) for seat in range(n)]
    while not st.is_over:
        dec = st.decision
        assert dec is not None
        kind = dec.kind + (" (late)" if st.stack[-1].get("late") else "")
        stats["decisions"][kind] += 1
        stats["classes"][(kind, classify(st))] += 1
        seat = st.current
        st.apply(policies[seat].choose(st, rngs[seat]))
    stats["turns"] += sum(p.turns for p in st.players)
    stats["games"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--rules-version", type=int, default=None, help="rules version (default: the latest)"
    )
    args = parser.parse_args()
    stats: dict[str, Any] = {
        "decisions": Counter(),
        "classes": Counter(),
        "turns": 0,
        "games": 0,
    }
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        kw = {} if args.rules_version is None else {"rules_version": args.rules_version}
        play(GameSetup(players=args.players, seed=seed, **kw), stats)
    spent = time.perf_counter() - start
    version = args.rules_version if args.rules_version is not None else "latest"
    turns = stats["turns"]
    total = sum(stats["decisions"].values())
    classes = Counter()
    for (_, cls), count in stats["classes"].items():
        classes[cls] += count
    print(
        f"{stats['games']} greedy {args.players}-player games (seeds {args.seed}-"
        f"{args.seed + args.games - 1}, rules version {version}), {spent:.0f} s"
    )
    print(f"turns {turns}, decisions {total}: {total / turns:.2f} per turn")
    print(
        f"  equivalent choices: {classes['equivalent']} ({classes['equivalent'] / turns:.3f}"
        f" per turn); yes/no: {classes['yes/no']} ({classes['yes/no'] / turns:.2f} per turn)"
    )
    print()
    print(f"{'decision kind':22} {'per turn':>8} {'count':>6} {'equivalent':>11} {'yes/no':>9}")
    for kind, count in stats["decisions"].most_common():
        eq = stats["classes"][(kind, "equivalent")]
        one = stats["classes"][(kind, "yes/no")]
        print(
            f"{kind:22} {count / turns:8.3f} {count:6d} {eq:6d} ({eq / count:3.0%})"
            f" {one:4d} ({one / count:3.0%})"
        )


if __name__ == "__main__":
    main()
