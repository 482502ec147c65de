"""AI speed: decisions per second of each policy, and the search's sampled rounds per decision.

Run: .venv/bin/python bench/bench_ai.py [--players 2] [--decisions 150] [--budget-decisions 12]
Prints figures; it is not a test. Measure on an otherwise idle machine, one process per core: the
search's budget is wall-clock time, so a busy machine gives it fewer rounds.

Every figure comes from seeded self-play (every seat the same policy, seeds 1, 2, ...), counting
each decision a policy was asked, including those with a single legal choice (as the self-play
and the balance report count them). The search at a 1 s budget is measured mid-game, where
decisions have many choices, as the rounds it fits in its second.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from engine import GameSetup, new_game
from engine.ai import SearchPolicy, get_policy, policy_rng
from engine.state import GameState


def timed_decisions(
    st: GameState, name: str, kw: dict[str, Any], seed: int, decisions: int
) -> tuple[int, float]:
    """Let `name` play every seat of `st` for up to `decisions` decisions: (made, seconds)."""
    players = len(st.players)
    policies = [get_policy(name, **kw) for _ in range(players)]
    rngs = [policy_rng(seed, seat) for seat in range(players)]
    made, spent = 0, 0.0
    while not st.is_over and made < decisions:
        seat = st.current
        start = time.perf_counter()
        choice = policies[seat].choose(st, rngs[seat])
        spent += time.perf_counter() - start
        st.apply(choice)
        made += 1
    return made, spent


def rate(name: str, kw: dict[str, Any], players: int, games: int, decisions: int) -> float:
    """Decisions per second over the first `decisions` decisions of `games` seeded games."""
    made, spent = 0, 0.0
    for seed in range(1, games + 1):
        m, s = timed_decisions(
            new_game(GameSetup(players=players, seed=seed)), name, kw, seed, decisions
        )
        made, spent = made + m, spent + s
    return made / spent


def rounds_at_budget(players: int, warmup: int, decisions: int) -> tuple[list[int], float]:
    """Sampled rounds of each search decision at 1 s, from `warmup` greedy decisions on."""
    st = new_game(GameSetup(players=players, seed=1))
    timed_decisions(st, "greedy", {}, 1, warmup)
    search = SearchPolicy(budget_seconds=1.0)
    rng = policy_rng(1, 0)
    rounds: list[int] = []
    start = time.perf_counter()
    made = 0
    while not st.is_over and len(rounds) < decisions:
        search.last_iterations = 0  # stays 0 when a decision needs no sampling
        st.apply(search.choose(st, rng))
        made += 1
        if search.last_iterations:
            rounds.append(search.last_iterations)
    return rounds, made / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=150, help="per game, per policy")
    parser.add_argument("--budget-decisions", type=int, default=12, help="search decisions at 1 s")
    args = parser.parse_args()

    print(f"{args.players}-player games, one core")
    for label, name, kw, games in (
        ("random", "random", {}, 20),
        ("greedy", "greedy", {}, 3),
        ("search, 1 sampled round", "search", {"iterations": 1}, 1),
    ):
        per_second = rate(name, kw, args.players, games, args.decisions)
        print(f"{label}: {per_second:,.1f} decisions/s")
    rounds, per_second = rounds_at_budget(args.players, 60, args.budget_decisions)
    print(
        f"search, 1 s budget: {statistics.mean(rounds):.1f} sampled rounds per decision "
        f"(min {min(rounds)}, max {max(rounds)}, {len(rounds)} decisions), "
        f"{per_second:.2f} decisions/s"
    )


if __name__ == "__main__":
    main()
