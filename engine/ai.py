"""AI players for Ada's Dream: random, greedy and search policies behind one small interface.

One interface serves three uses: an AI seat chosen at game creation (the seat stores a policy
name, see `get_policy` and `POLICIES`), a stand-in that plays one turn for an absent human when the
table votes or the game's owner asks (`play_turn`; never automatic), and self-play
(`python -m engine selfplay`, `bench/balance_report.py`).

    from engine.ai import get_policy, play_turn
    policy = get_policy("greedy")
    choice_id = policy.choose(state, random.Random(seed))  # a legal id; `state` is not changed
    applied = play_turn(state, policy, random.Random(seed))  # the current player's whole turn

Policies
--------
* ``random``: a uniform choice among the legal choices.
* ``greedy``: one-turn lookahead. Each legal choice is applied to a copy of the state, the rest of
  the turn is played by a cheap myopic default (each later decision of the turn picks the choice
  whose immediate result evaluates best), and the position at the end of the turn is scored with
  `evaluate`. The best choice wins (ties: the first in the engine's stable order).
* ``search``: sampled lookahead over the greedy's best six choices. Each round samples the hidden
  information (see below) once and, on that same sample, plays every candidate: the candidate, the
  rest of the turn (myopic default), then two turns of every player (the decider included) played
  as the greedy plays a turn, and scores the end with `evaluate`. The best total wins. To fit
  more rounds in the budget, a rollout turn ranks every first choice only for the first
  candidate; the other candidates' same turn tries just that ranking's best three. Budget:
  seconds per decision (``budget_seconds``, at least one round) or a fixed number of rounds
  (``iterations``, reproducible whatever the machine's speed).

Fair play
---------
The state holds the seed of every future die roll and the order of every deck. Policies never read
that: before looking ahead they replace it with a sample drawn from their own `random.Random`
(`determinize`): a fresh seed, own deck shuffled, the other players' unseen cards (hand and deck)
dealt afresh, and the face-down decks shuffled within their tiers. An AI thus knows what a person
at the table knows.

Evaluation
----------
`evaluate(state, seat)` = `position_value(state, seat)` minus ``opponent_weight`` times the best
opponent's `position_value`. `position_value` is the scorepad total so far (`engine.scoring.score`,
valid mid-game: Gear penalties for unbuilt spaces, complete lines, Objectives, majorities...) plus
the estimated Prestige of what is not scored yet, each term from `WEIGHTS`, scaled down as the
game nears its end (``1 - progress**2`` with progress = the fullest Mill / 9; all zero once the
game is over, where the value is exactly the final score):

* resources: £, Coal, Brass, Books (beyond their Leftovers point) and Innovation, per unit;
* dice in the Store (future actions) and Partner cards in hand;
* Research: each step on a track, more for steps that reach an advanced level or Breakthrough;
* Gears in the supply still to build, and open Gear spaces (discs taken off the player board);
* incomplete Mill lines: the line's value with missing dice counted as 3.5 and missing Gears as
  Addition, capped by the Steam level, times the share of the line already built;
* Programs on incomplete lines: Prestige times the share of completions that meet the criteria.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Protocol, runtime_checkable

from engine import rules, scoring
from engine import vocabulary as V
from engine.choices import GearSpace
from engine.copies import fast_copy
from engine.edition import Edition
from engine.mill import LINE_DICE, LINE_GEARS, gear_operator, line_value, mill_key, program_met
from engine.mill import evaluate as evaluate_line
from engine.state import GameState, PlayerState

# ======================================================================================
# Hidden-information sampling (fast copies: engine/copies.py)
# ======================================================================================


def _shuffle_by_tier(deck: list[str], rng: random.Random, ed: Edition) -> None:
    """Shuffle the Partner deck in place keeping each tier in its positions (tier 2 lies under)."""
    by_tier: dict[Any, list[int]] = {}
    for i, card in enumerate(deck):
        by_tier.setdefault(ed.partner[card]["tier"], []).append(i)
    for positions in by_tier.values():
        cards = [deck[i] for i in positions]
        rng.shuffle(cards)
        for i, card in zip(positions, cards, strict=True):
            deck[i] = card


def determinize(st: GameState, seat: int, rng: random.Random) -> None:
    """Replace, in place, what `seat` cannot know by a random sample consistent with what it sees.

    New seed for future rolls and draws; `seat`'s own deck shuffled; every other player's hand and
    deck pooled and dealt afresh (hand sizes kept); the face-down decks shuffled (Partner deck
    within its tiers).
    """
    st.pending_choices = None  # computed on the real hidden information
    st.rng = rng.getrandbits(64)
    for i, p in enumerate(st.players):
        if i == seat:
            rng.shuffle(p.deck)
        else:
            pool = p.hand + p.deck
            rng.shuffle(pool)
            p.hand, p.deck = pool[: len(p.hand)], pool[len(p.hand) :]
    for name in ("program_deck", "assignment_deck", "multiplier_deck"):
        rng.shuffle(getattr(st, name))
    _shuffle_by_tier(st.partner_deck, rng, st.edition)


# ======================================================================================
# Evaluation
# ======================================================================================

WEIGHTS: dict[str, float] = {
    "money": 0.3,  # per £
    "coal": 0.45,
    "brass": 0.6,
    "books": 0.5,  # on top of the Leftovers point a Book already scores
    "innovation": 0.45,
    "store_die": 1.6,  # per die in the Store (a future Actions turn)
    "hand_card": 0.5,
    "research_step": 0.6,  # per step on a Research track
    "research_milestone": 1.0,  # extra for a step at an advanced level or a Breakthrough
    "gear_in_supply": 1.4,  # a Gear ready to build (it cancels a -2 and completes lines)
    "multiplier_in_supply": 2.2,
    "open_gear_space": 0.4,  # a disc off the player board opens a Gear space
    "partial_line": 0.55,  # times (share of the line built) x (its estimated value)
    "partial_program": 0.7,  # times (share of completions meeting the criteria) x Prestige
    "opponent_weight": 0.5,  # evaluate = own value - this x best opponent value
}

_DIE_FACES = [c + str(v) for c in V.DIE_COLOURS for v in range(1, 7)]


def progress(st: GameState) -> float:
    """How far the game is, 0..1: the fullest Mill's share of its 9 dice (1 once over)."""
    if st.over:
        return 1.0
    return (9 - min(p.mill.count(None) for p in st.players)) / 9


@lru_cache(maxsize=65536)
def _program_chance(ed: Edition, tile: str, dice: tuple[str | None, ...]) -> float:
    """Share of the ways to fill a line's missing dice (uniform colour and value) meeting a Program."""
    criteria = ed.program[tile]["criteria"]
    missing = [i for i, d in enumerate(dice) if d is None]
    if not missing:
        return 1.0 if program_met(criteria, list(dice)) else 0.0  # type: ignore[arg-type]
    if len(missing) == 3:
        sampler = random.Random(zlib.crc32(tile.encode()))
        trials = 300
        hits = sum(
            program_met(criteria, [sampler.choice(_DIE_FACES) for _ in range(3)])
            for _ in range(trials)
        )
        return hits / trials
    hits = total = 0
    if len(missing) == 1:
        combos: Any = ((f,) for f in _DIE_FACES)
    else:
        combos = ((a, b) for a in _DIE_FACES for b in _DIE_FACES)
    for combo in combos:
        line = list(dice)
        for i, face in zip(missing, combo, strict=True):
            line[i] = face
        hits += program_met(criteria, line)  # type: ignore[arg-type]
        total += 1
    return hits / total


def _mill_potential(st: GameState, p: PlayerState) -> float:
    """Estimated Prestige still to come from incomplete lines and their Programs."""
    return _mill_potential_of(st.edition, *mill_key(p))


@lru_cache(maxsize=65536)
def _mill_potential_of(
    ed: Edition,
    mill: tuple[str | None, ...],
    gear_spaces: tuple[str | None, ...],
    programs: tuple[str | None, ...],
    steam: int,
) -> float:
    cap = ed.steam_track[steam]["cap"]
    total = 0.0
    for line in range(6):
        dice = tuple(mill[i] for i in LINE_DICE[line])
        gears = [gear_spaces[i] for i in LINE_GEARS[line]]
        built = sum(d is not None for d in dice) + sum(g is not None for g in gears)
        if built == 5:
            continue
        share = built / 5
        values = [3.5 if d is None else int(d[1]) for d in dice]
        ops = ["+" if g is None else gear_operator(g) for g in gears]
        estimate = min(max(0.0, evaluate_line(values, ops)), cap)  # type: ignore[arg-type]
        total += WEIGHTS["partial_line"] * share * estimate
        tile = programs[line]
        if tile and None in dice:  # with its 3 dice a Program scores already (or never)
            chance = _program_chance(ed, tile, dice)
            total += WEIGHTS["partial_program"] * chance * ed.program[tile]["prestige"]
    return total


@cache
def _milestones_reached(milestones: frozenset[int], level: int) -> int:
    return sum(1 for m in milestones if level >= m)


def potential(st: GameState, seat: int) -> float:
    """Estimated Prestige of everything the seat holds that the scorepad does not count yet."""
    p = st.players[seat]
    w = WEIGHTS
    value = (
        w["money"] * p.money
        + w["coal"] * p.coal
        + w["brass"] * p.brass
        + w["books"] * p.books
        + w["innovation"] * p.innovation
        + w["store_die"] * (len(p.store) - p.store.count(None))
        + w["hand_card"] * len(p.hand)
    )
    milestones = st.edition.research_milestones
    for level in p.research.values():
        value += w["research_step"] * level
        value += w["research_milestone"] * _milestones_reached(milestones, level)
    built = 12 - p.gears.count(None)
    open_spaces = max(0, 12 - built - p.discs)
    for gear in p.gear_supply:
        value += w["gear_in_supply"] if gear in ("add", "sub") else w["multiplier_in_supply"]
    value += w["open_gear_space"] * min(open_spaces, 12 - built)
    value += _mill_potential(st, p)
    return value


def position_value(st: GameState, seat: int) -> float:
    """Score so far plus the estimated value of what is not scored yet (see the module doc)."""
    total = scoring.total(st, seat)
    if st.over:
        return float(total)
    phase = 1.0 - progress(st) ** 2
    return total + phase * potential(st, seat)


def evaluate(st: GameState, seat: int, opponent_weight: float | None = None) -> float:
    """Own `position_value` minus ``opponent_weight`` x the best opponent's."""
    weight = WEIGHTS["opponent_weight"] if opponent_weight is None else opponent_weight
    own = position_value(st, seat)
    if not weight:
        return own
    best = max(position_value(st, o) for o in range(len(st.players)) if o != seat)
    return own - weight * best


# ======================================================================================
# Policies
# ======================================================================================


@runtime_checkable
class Policy(Protocol):
    """Chooses for whoever must decide now. Returns a legal choice id; never changes `state`."""

    name: str

    def choose(self, state: GameState, rng: random.Random) -> str: ...


def _legal_ids(state: GameState) -> list[str]:
    ids = list(rules.legal_ids(state))
    if not ids:
        raise ValueError("no decision to take: the game is over")
    return ids


def _lookahead_ids(st: GameState) -> list[str]:
    """The pending decision's ids in a lookahead state, reusing the choices `rules.run` computed
    for it: such states change only through `apply` (and `determinize`, which drops them)."""
    cached = st.pending_choices
    if cached and st.stack and cached[1] is st.stack[-1] and cached[0] == len(st.history):
        return list(cached[2])
    return list(rules.legal_ids(st))


def _decider(state: GameState) -> int:
    return state.current


class RandomPolicy:
    """A uniform random legal choice."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> str:
        return rng.choice(_legal_ids(state))


# Decisions the cheap default answers without looking: the optional Coal adjust of a Workshop die
# (it only costs Coal within the turn; the greedy still weighs it when it is the decision asked).
_DEFAULT_ANSWER = rules.AI_DEFAULTS  # declared with each step (engine.steps)


def _myopic_step(st: GameState, seat: int) -> GameState:
    """Apply the choice whose immediate result evaluates best for `seat`; return the new state.

    `st` is consumed: it may be returned changed or be left changed while a copy is returned, so
    callers must use the returned state only (the last choice is tried on `st` itself, one copy
    fewer per step).
    """
    ids = _lookahead_ids(st)
    op = st.stack[-1]["op"]
    default = _DEFAULT_ANSWER.get(op) if len(ids) > 1 else None
    if op == "gear_place" and len(ids) > 1:
        default = _best_gear_space(st, ids)
    if len(ids) == 1 or default in ids:
        st.apply(ids[0] if default is None else default)
        return st
    best, best_value = st, -math.inf
    last = len(ids) - 1
    for n, cid in enumerate(ids):
        trial = st if n == last else fast_copy(st)
        trial.apply(cid)
        value = position_value(trial, seat)
        if value > best_value:
            best, best_value = trial, value
    return best


def _best_gear_space(st: GameState, ids: list[str]) -> str:
    """Where the myopic default builds a Gear: the space that most raises the Mill's lines.

    Every space costs the same, so only the lines (scored and estimated) tell them apart; this
    answers without copying the state once per space.
    """
    p = st.me
    gear = st.stack[-1]["gear"]
    cap = st.edition.steam_track[p.steam]["cap"]
    mill, programs = tuple(p.mill), tuple(p.programs)
    best, best_value = ids[0], -math.inf
    for cid in ids:
        gears = list(p.gears)
        gears[GearSpace.decode(cid)[0]] = gear
        scored = sum(
            min(v, cap) for line in range(6) if (v := line_value(p.mill, gears, line)) is not None
        )
        value = scored + _mill_potential_of(st.edition, mill, tuple(gears), programs, p.steam)
        if value > best_value:
            best, best_value = cid, value
    return best


def _finish_turn(st: GameState, seat: int, limit: int = 60) -> GameState:
    """Play `seat`'s remaining decisions of this turn with the myopic default; return the result
    (`st` is consumed, see `_myopic_step`)."""
    for _ in range(limit):
        if st.over or st.current != seat or not st.stack:
            break
        st = _myopic_step(st, seat)
    return st


class GreedyPolicy:
    """One-turn lookahead on `evaluate` (see the module doc)."""

    name = "greedy"

    def __init__(self, fair: bool = True) -> None:
        self.fair = fair

    def rank(self, state: GameState, rng: random.Random) -> list[tuple[float, str]]:
        """Every legal choice with its end-of-turn evaluation, best first (stable on ties)."""
        seat = _decider(state)
        ids = _legal_ids(state)
        base = fast_copy(state)
        if self.fair:
            determinize(base, seat, rng)
            rules.legal_ids(base)  # once, for every trial copy below
        scored = []
        for order, cid in enumerate(ids):
            trial = base if order == len(ids) - 1 else fast_copy(base)
            trial.apply(cid)
            trial = _finish_turn(trial, seat)
            scored.append((evaluate(trial, seat), -order, cid))
        scored.sort(reverse=True)
        return [(value, cid) for value, _, cid in scored]

    def choose(self, state: GameState, rng: random.Random) -> str:
        ids = _legal_ids(state)
        if len(ids) == 1:
            return ids[0]
        return self.rank(state, rng)[0][1]


def _greedy_turn(
    st: GameState, shortlist: list[str] | None = None, keep: int = 3
) -> tuple[GameState, list[str]]:
    """Play the current player's whole turn as the greedy would (no sampling).

    Returns the state after the turn and the first choices tried, best first. With a `shortlist`
    (that ranking from a sibling line of the search) only its first `keep` legal ids are tried:
    a reply that was best after one candidate is very likely best after the others too.
    """
    seat = st.current
    ids = _lookahead_ids(st) if st.stack and not st.over else []
    if not ids:
        return st, []
    if shortlist:
        legal = set(ids)
        tried = [cid for cid in shortlist if cid in legal][:keep]
        ids = tried or ids
    scored = []
    for order, cid in enumerate(ids):
        trial = st if order == len(ids) - 1 else fast_copy(st)  # `st` is consumed
        trial.apply(cid)
        trial = _finish_turn(trial, seat)
        scored.append((evaluate(trial, seat), -order, cid, trial))
    scored.sort(key=lambda row: row[:2], reverse=True)
    return scored[0][3], [row[2] for row in scored]


class SearchPolicy:
    """Sampled turn lookahead over the greedy's best choices (see the module doc).

    Each round samples the hidden information once (`determinize`) and, on that same sample, plays
    every candidate: the candidate, the rest of the turn (myopic default), then `horizon` more
    turns by everyone with the greedy's turn play (`horizon=None`: two full rounds, so the decider
    plays twice more), and scores the end with `evaluate`. The candidate with the best mean wins.
    Two rounds let a candidate show what it sets up for the turns after next: at 1 s per decision
    against the greedy, one round ahead won 19 of 30 two-player games, two rounds 28 of the same
    30 (the README's self-play command).

    budget_seconds: wall-clock budget per decision (ignored when `iterations` is given); at least
        one round is always played.
    iterations: a fixed number of rounds instead (reproducible on any machine).
    candidates: how many of the greedy's best choices are compared. Six, not four: a round
        costs about a fifth more (the extra candidates' rollout turns try only the shortlist),
        yet at 1 s per decision against the greedy six won 48 of 60 two-player games (seeds
        300-359) where four won 41 (the README's self-play figures).
    horizon: turns played after the decider's turn (None: two per player).
    rollout: "greedy" (each rollout turn as the greedy plays it) or "myopic" (cheaper, weaker).
    leaf_opponent_weight: `evaluate`'s opponent weight at the end of a rollout (None: WEIGHTS').
    reply_shortlist: in a round, the first candidate's rollout turns rank every first choice;
        the other candidates' same turns try only that ranking's `reply_shortlist` best (None:
        every choice, slower). This makes a round about twice as cheap, so more samples fit.
    """

    name = "search"

    def __init__(
        self,
        budget_seconds: float = 1.0,
        iterations: int | None = None,
        candidates: int = 6,
        horizon: int | None = None,
        rollout: str = "greedy",
        leaf_opponent_weight: float | None = None,
        reply_shortlist: int | None = 3,
    ) -> None:
        self.budget_seconds = budget_seconds
        self.iterations = iterations
        self.candidates = candidates
        self.horizon = horizon
        self.rollout = rollout
        self.leaf_opponent_weight = leaf_opponent_weight
        self.reply_shortlist = reply_shortlist
        self.greedy = GreedyPolicy()
        self.last_iterations = 0

    def choose(self, state: GameState, rng: random.Random) -> str:
        ids = _legal_ids(state)
        if len(ids) == 1:
            return ids[0]
        start = time.perf_counter()
        seat = _decider(state)
        ranked = self.greedy.rank(state, rng)
        arms = [cid for _, cid in ranked[: self.candidates]]
        prior = {cid: value for value, cid in ranked}
        if len(arms) == 1:
            return arms[0]
        horizon = 2 * len(state.players) if self.horizon is None else self.horizon
        totals = dict.fromkeys(arms, 0.0)
        rounds = 0
        while True:
            if self.iterations is not None:
                if rounds >= self.iterations:
                    break
            elif rounds and time.perf_counter() - start >= self.budget_seconds:
                break
            base = fast_copy(state)
            determinize(base, seat, rng)
            rules.legal_ids(base)  # once, for every candidate's copy below
            # the first candidate's ranking of each rollout turn, shortlisting the others' turns
            shortlists: list[list[str] | None] = [None] * horizon
            for cid in arms:
                trial = fast_copy(base)
                trial.apply(cid)
                trial = self._rollout(_finish_turn(trial, seat), shortlists)
                totals[cid] += evaluate(trial, seat, self.leaf_opponent_weight)
            rounds += 1
        self.last_iterations = rounds
        return max(arms, key=lambda cid: (totals[cid], prior[cid]))

    def _rollout(self, st: GameState, shortlists: list[list[str] | None]) -> GameState:
        """Play one turn per entry of `shortlists` (the horizon); fill the empty entries."""
        for turn, hint in enumerate(shortlists):
            if st.over:
                break
            if self.rollout != "greedy":
                st = _finish_turn(st, st.current)
                continue
            keep = self.reply_shortlist or 0
            st, tried = _greedy_turn(st, hint if keep else None, keep)
            if hint is None:
                shortlists[turn] = tried
        return st


# ======================================================================================
# Registry and the stand-in
# ======================================================================================

POLICIES: dict[str, type] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "search": SearchPolicy,
}


def get_policy(name: str, **kw: Any) -> Policy:
    """A policy by its stored name ("random", "greedy", "search"); keywords go to its constructor."""
    try:
        cls = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})") from None
    return cls(**kw)


def play_turn(state: GameState, policy: Policy, rng: random.Random, limit: int = 500) -> list[str]:
    """Play the current player's decisions, in place, until another player must decide or the game
    ends; return the choice ids applied (the stand-in for an absent player)."""
    if state.is_over:
        return []
    seat = state.current
    applied: list[str] = []
    while not state.is_over and state.current == seat and len(applied) < limit:
        choice = policy.choose(state, rng)
        state.apply(choice)
        applied.append(choice)
    return applied


# ======================================================================================
# Self-play
# ======================================================================================


@dataclass
class GameRecord:
    """One finished self-play game: the final state and what each seat's policy spent."""

    state: GameState
    policies: list[str]
    decisions: list[int]  # decisions taken per seat
    seconds: list[float]  # time spent choosing, per seat

    @property
    def total_decisions(self) -> int:
        return sum(self.decisions)


def policy_rng(seed: int, seat: int) -> random.Random:
    """The random stream of a seat's policy in the game of `seed` (reproducible self-play)."""
    return random.Random(f"ada-ai/{seed}/{seat}")


def selfplay_game(setup: Any, policies: list[Policy], max_decisions: int = 20000) -> GameRecord:
    """Play a whole game from `setup` with one policy per seat (seat 0 is the first player)."""
    from engine.rules import new_game

    st = new_game(setup)
    n = len(st.players)
    if len(policies) != n:
        raise ValueError(f"{n} seats need {n} policies, got {len(policies)}")
    rngs = [policy_rng(setup.seed, seat) for seat in range(n)]
    decisions = [0] * n
    seconds = [0.0] * n
    while not st.is_over:
        seat = st.current
        start = time.perf_counter()
        choice = policies[seat].choose(st, rngs[seat])
        seconds[seat] += time.perf_counter() - start
        decisions[seat] += 1
        st.apply(choice)
        if sum(decisions) > max_decisions:
            raise RuntimeError(
                f"game of seed {setup.seed} did not end in {max_decisions} decisions"
            )
    return GameRecord(st, [p.name for p in policies], decisions, seconds)
