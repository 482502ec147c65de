"""Invariants over many random full games for 2, 3 and 4 players (property-based)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as hs

from engine import GameState
from engine import vocabulary as V
from engine.common import discs_at, own_board_discs
from engine.edition import FIRST_EDITION, edition
from tests.engine_helpers import random_game

ED = edition(FIRST_EDITION)


def dice_everywhere(st: GameState) -> Counter[str]:
    seen: Counter[str] = Counter(st.bag)
    for space in st.workshop:
        seen.update(d[0] for d in space)
    for p in st.players:
        seen.update(d[0] for d in p.store + p.mill if d)
    active = st.ctx.get("active")
    if active and st.ctx.get("slot") is None:  # a pushed die waiting on its bonus space
        seen[active[0]] += 1
    if st.ctx.get("type") in ("actions", "idle") and st.ctx.get("die"):
        placed = any(st.ctx["die"] in p.mill for p in st.players)
        if not placed or st.stack and st.stack[-1]["op"] == "mill_place":
            seen[st.ctx["die"][0]] += 1
    return seen


def discs_on_main_board(st: GameState, seat: int) -> int:
    total = sum(stack.count(seat) for stack in st.university_discs.values())
    total += sum(discs_at(st, f"room:{r}").count(seat) for r in range(4))
    total += sum(seats.count(seat) for seats in st.lectures.values())
    total += sum(1 for a in range(4) for who, _ in st.objective_discs[a] if who == seat)
    return total


def check(st: GameState) -> None:
    n = len(st.players)
    per_colour = ED.dice_per_colour - {2: 2, 3: 1, 4: 0}[n]
    pending = st.stack[-1]["op"] if st.stack else None
    if pending == "turn" or st.over:
        # Dice are conserved: bag + Workshop + Stores + Mills.
        counts = dice_everywhere(st)
        assert counts == Counter({c: per_colour for c in V.DIE_COLOURS}), counts
        # No hand over five at the end of a turn.
        assert all(len(p.hand) <= 5 for p in st.players)
    for seat, p in enumerate(st.players):
        assert 0 <= p.innovation <= ED.innovation_max
        if pending != "keep_eight":
            assert len(p.supply()) == 8, f"{p.name} has {len(p.supply())} Partner cards"
        # No disc is created or lost.
        assert p.discs + p.discs_boxed + discs_on_main_board(st, seat) == 12
        assert p.discs >= 0
        assert sum(1 for g in p.gears if g) + p.discs <= 12
        # Never more than two discs in the same location (a Meeting room holds many spaces).
        for loc in own_board_discs(st, seat):
            if not loc.startswith("room:"):
                assert discs_at(st, loc).count(seat) <= 2
        assert all(len(space) <= 2 for room in st.rooms for space in room if space)
        assert all(0 <= v <= ED.research_track["top"] for v in p.research.values())
        assert all(d is None or 1 <= int(d[1]) <= 6 for d in p.store + p.mill)
        assert min(p.money, p.coal, p.brass, p.books) >= 0


class TestInvariants:
    @settings(max_examples=24, deadline=None, derandomize=True)
    @given(players=hs.sampled_from([2, 3, 4]), seed=hs.integers(0, 2**32))
    def test_random_full_games_keep_every_invariant(self, players: int, seed: int) -> None:
        st, decisions = random_game(players, seed, each=check)
        assert st.over
        # Every game ends, with equal turns (or at the designed round cap).
        turns = {p.turns for p in st.players}
        assert len(turns) == 1
        assert st.end_triggered or st.round >= st.setup.max_rounds

    def test_game_ends_when_a_mill_holds_nine_dice(self) -> None:
        for seed in range(6):
            st, _ = random_game(4, seed)
            if st.end_triggered:
                assert any(None not in p.mill for p in st.players)
