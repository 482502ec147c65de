"""Final scoring in the scorepad's eleven categories, and the three tie-breaks."""

from __future__ import annotations

from functools import cache, lru_cache

from engine.common import university_prestige
from engine.edition import Edition
from engine.mill import LINE_DICE, line_value, mill_key, program_met
from engine.state import GameState, PlayerState
from engine.versions import rule

CATEGORIES = [
    "Objectives",
    "Travel",
    "Lectures",
    "Meetings",
    "Partners",
    "Programs",
    "Lines",
    "Gears",
    "Innovation",
    "Assignment tokens",
    "Leftovers",
]


def objectives(st: GameState, seat: int) -> int:
    total = 0
    for a, obj in enumerate(st.objectives):
        for who, slot in st.objective_discs[a]:
            if who == seat:
                total += st.edition.objective[obj][slot]
    return total


def travel(st: GameState, seat: int) -> int:
    """University Prestige once per University, plus 2 per disc stacked on each of your discs."""
    total = 0
    for city, stack in st.university_discs.items():
        if seat in stack:
            total += university_prestige(st, city)
            for i, who in enumerate(stack):
                if who == seat:
                    total += 2 * (len(stack) - 1 - i)
    return total


@cache
def _lecture_level(key: str) -> int:
    return int(key.split(":")[1])  # keys are "lecture index:level"


def lectures(st: GameState, seat: int) -> int:
    """Each level row goes to the most discs in it; tied players each score half."""
    if not any(seat in seats for seats in st.lectures.values()):
        return 0
    by_level: dict[int, dict[int, int]] = {}  # level -> seat -> discs in that row
    for key, seats in st.lectures.items():
        if seats:
            counts = by_level.setdefault(_lecture_level(key), {})
            for s in seats:
                counts[s] = counts.get(s, 0) + 1
    total = 0
    for level, counts in by_level.items():
        if counts.get(seat):
            best = max(counts.values())
            if counts[seat] == best:
                tied = sum(1 for c in counts.values() if c == best)
                prestige = st.edition.lecture_majority[level]
                total += prestige if tied == 1 else prestige // 2
    return total


def science_tokens(st: GameState, seat: int) -> dict[str, int]:
    """Science Scoring tokens held at the end: room awards plus tokens gained by effects.

    A player holds at most one token per Science (actions-turn): the better one counts. Rules
    version 2 deals them from the limited stacks (`science_awards`).
    """
    if rule(st, "science_token_supply"):
        return dict(_dealt_science_tokens(st)[seat])
    tokens = dict(st.players[seat].science_tokens)
    for r, room in enumerate(st.rooms):
        discs = [s for space in room if space for s in space]
        if seat not in discs:
            continue
        counts = {s: discs.count(s) for s in discs}
        best = max(counts.values())
        leaders = [s for s, c in counts.items() if c == best]
        if len(leaders) == 1:
            value = 2 if leaders[0] == seat else 1
        else:
            value = 1 if seat in leaders else 0
        science = st.room_science[r]
        if value:
            tokens[science] = max(tokens.get(science, 0), value)
    return tokens


def science_awards(st: GameState) -> list[dict[str, int]]:
    """Every player's Science Scoring tokens at the end, dealt from the limited stacks.

    Rulebook, Components: "16 Science Scoring tokens (4 in each Science)", each stack a 2-point
    token over 1-point tokens. Effects take 1-point tokens during the game (see
    `common.science_ones_left`). Each room then awards its Science: a sole majority takes the
    2-point token (returning a 1-point token of that Science it holds: one token per Science),
    then the others with discs there (or, after a tie for most, the tied players) take a 1-point
    token each while the stack lasts, most discs in the room first, ties in turn order from the
    first player (the rulebook's last tie-break). A player already holding a token of that
    Science keeps it and takes none. When the stack is empty the rest take nothing.

    Rules version 3 (`meetings_tie_all_gain`): "If there is a tie for most discs, all tied
    players gain a 1 Science Scoring token" (rulebook, Science Scoring Tokens; the Spanish and
    Japanese texts agree), so after a tie every tied player gains one even when the stack has
    run out: the text names no limit there, and a four-way tie needs four tokens of a stack of
    three. Only the others of a sole majority are still dealt from what is left.
    """
    return [dict(tokens) for tokens in _dealt_science_tokens(st)]


def _dealt_science_tokens(st: GameState) -> tuple[tuple[tuple[str, int], ...], ...]:
    rooms = tuple(tuple(tuple(space) if space else () for space in room) for room in st.rooms)
    held = tuple(tuple(p.science_tokens.items()) for p in st.players)
    tie_all_gain = rule(st, "meetings_tie_all_gain")
    return _deal_science_tokens(st.edition, tie_all_gain, tuple(st.room_science), rooms, held)


# Cached because lookahead scores states whose rooms and tokens are those of the state before
# (most choices change neither) thousands of times per decision: three whole games asked for
# 184 different deals, 166,000 times.
@lru_cache(maxsize=1024)
def _deal_science_tokens(
    ed: Edition,
    tie_all_gain: bool,
    room_science: tuple[str, ...],
    rooms: tuple[tuple[tuple[int, ...], ...], ...],
    tokens: tuple[tuple[tuple[str, int], ...], ...],
) -> tuple[tuple[tuple[str, int], ...], ...]:
    held = [dict(mine) for mine in tokens]
    stack_ones = ed.science_token_stack.count(1)
    taken_by_effects: dict[str, int] = {}  # as common.science_ones_left counts them
    for mine in held:
        for science in mine:
            taken_by_effects[science] = taken_by_effects.get(science, 0) + 1
    for r, room in enumerate(rooms):
        counts: dict[int, int] = {}
        for space in room:
            for s in space:
                counts[s] = counts.get(s, 0) + 1
        if not counts:
            continue
        science = room_science[r]
        ones = stack_ones - taken_by_effects.get(science, 0)
        best = max(counts.values())
        leaders = [s for s, c in counts.items() if c == best]
        claimants = sorted(counts, key=lambda s: (-counts[s], s))
        if len(leaders) == 1:
            leader = leaders[0]
            if held[leader].get(science) == 1:
                ones += 1
            held[leader][science] = 2
            claimants.remove(leader)
        else:
            claimants = sorted(leaders)
            if tie_all_gain:
                for s in claimants:
                    held[s].setdefault(science, 1)
                continue
        for s in claimants:
            if ones and science not in held[s]:
                held[s][science] = 1
                ones -= 1
    return tuple(tuple(mine.items()) for mine in held)


def meetings(st: GameState, seat: int) -> int:
    partner = st.edition.partner
    held = [partner[c]["science"] for c in st.players[seat].supply()]
    if not held:
        return 0  # a token scores per Partner of its Science
    tokens = science_tokens(st, seat)
    return sum(value * held.count(science) for science, value in tokens.items())


def partners(st: GameState, seat: int) -> int:
    partner = st.edition.partner
    return sum(partner[c]["prestige"] for c in st.players[seat].supply())


def programs(st: GameState, seat: int) -> int:
    return _mill_categories(st, st.players[seat])[0]


def lines(st: GameState, seat: int) -> int:
    return _mill_categories(st, st.players[seat])[1]


def gears(st: GameState, seat: int) -> int:
    return -st.edition.gear_missing_penalty * st.players[seat].gears.count(None)


def _mill_categories(st: GameState, p: PlayerState) -> tuple[int, int]:
    """Programs and Lines of a player's Mill."""
    return _mill_categories_of(st.edition, *mill_key(p))


# Cached because lookahead scores the same few Mills thousands of times per decision (the
# edition is part of the key: an Edition hashes by identity, and never changes).
@lru_cache(maxsize=65536)
def _mill_categories_of(
    ed: Edition,
    mill: tuple[str | None, ...],
    gear_spaces: tuple[str | None, ...],
    tiles: tuple[str | None, ...],
    steam: int,
) -> tuple[int, int]:
    program_total = 0
    for line, tile in enumerate(tiles):
        dice = [mill[i] for i in LINE_DICE[line]]
        if tile and None not in dice and program_met(ed.program[tile]["criteria"], dice):  # type: ignore[arg-type]
            program_total += ed.program[tile]["prestige"]
    cap = ed.steam_track[steam]["cap"]
    values = [line_value(mill, gear_spaces, line) for line in range(6)]  # type: ignore[arg-type]
    return program_total, sum(min(v, cap) for v in values if v is not None)


def innovation(st: GameState, seat: int) -> int:
    return st.edition.innovation_prestige.get(st.players[seat].innovation, 0)


def assignment_tokens(st: GameState, seat: int) -> int:
    p = st.players[seat]
    return sum(value * len(p.assignments[c]) for c, value in p.assignment_tokens.items())


def leftovers(st: GameState, seat: int) -> int:
    p = st.players[seat]
    return p.books + (p.money + p.coal + p.brass) // 10


_SCORERS = [
    objectives,
    travel,
    lectures,
    meetings,
    partners,
    programs,
    lines,
    gears,
    innovation,
    assignment_tokens,
    leftovers,
]


def total(st: GameState, seat: int) -> int:
    """The scorepad total of one player (the score so far), without the column."""
    return sum(fn(st, seat) for fn in _SCORERS)


def score(st: GameState, seat: int) -> dict[str, int]:
    """The scorepad column of one player, with a 'Total'. Valid at any time (the score so far)."""
    row = {name: fn(st, seat) for name, fn in zip(CATEGORIES, _SCORERS, strict=True)}
    row["Total"] = sum(row.values())
    return row


def final_scores(st: GameState) -> list[dict[str, int]]:
    return [score(st, seat) for seat in range(len(st.players))]


def ranking(st: GameState) -> list[int]:
    """Seats from winner down: Prestige, then gears built, then Mill dice total, then the seat
    closest to the first player clockwise (seat 0 is the first player)."""
    scores = final_scores(st)

    def key(seat: int) -> tuple[int, int, int, int]:
        p = st.players[seat]
        built = sum(1 for g in p.gears if g)
        dice = sum(int(d[1]) for d in p.mill if d)
        return (-scores[seat]["Total"], -built, -dice, seat)

    return sorted(range(len(st.players)), key=key)


def winner(st: GameState) -> int:
    return ranking(st)[0]
