"""Shared helpers for the engine tests: seeded random play and hand-made positions."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from engine import GameSetup, GameState, new_game
from engine.rules import apply, forget_choices, legal_ids
from engine.versions import LATEST_RULES


def random_game(
    players: int,
    seed: int,
    each: Callable[[GameState], None] | None = None,
    limit: int = 5000,
    rules_version: int = LATEST_RULES,
    edition: str | None = None,
) -> tuple[GameState, int]:
    """Play a whole game with uniformly random legal choices; call `each` at every decision.
    `edition`: the content edition (default: the one new games take)."""
    rnd = random.Random(seed)
    more = {"edition": edition} if edition else {}
    st = new_game(GameSetup(players=players, seed=seed, rules_version=rules_version, **more))
    decisions = 0
    while not st.over:
        if each:
            each(st)
        options = legal_ids(st)
        apply(st, options[rnd.randrange(len(options))])
        decisions += 1
        assert decisions < limit, "game did not end"
    if each:
        each(st)
    return st, decisions


def random_states(players: int, seed: int, every: int = 1) -> Iterator[GameState]:
    """Copies of the states met along one random game (every `every` decisions)."""
    found: list[GameState] = []
    counter = iter(range(10**9))

    def keep(st: GameState) -> None:
        if next(counter) % every == 0:
            found.append(st.copy())

    random_game(players, seed, keep)
    return iter(found)


def fresh(
    players: int = 2, seed: int = 1, random_setup: bool = False, rules_version: int = LATEST_RULES
) -> GameState:
    """A new game on the standard (printed) setup unless told otherwise, under the latest rules
    unless told otherwise, to be arranged by hand (so it keeps no listing of choices)."""
    st = new_game(
        GameSetup(
            players=players,
            seed=seed,
            shuffle_seats=False,
            random_setup=random_setup,
            rules_version=rules_version,
        )
    )
    forget_choices(st)
    return st


def choose(st: GameState, choice_id: str) -> None:
    """Apply a choice, failing with the legal list if it is not legal."""
    ids = legal_ids(st)
    assert choice_id in ids, f"{choice_id!r} not in {ids} (decision {st.stack[-1]['op']})"
    apply(st, choice_id)


def kind(st: GameState) -> str:
    dec = st.decision
    assert dec is not None
    return dec.kind


def ids(st: GameState) -> list[str]:
    return list(legal_ids(st))
