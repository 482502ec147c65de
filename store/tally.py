"""What a finished game leaves behind, and the ratings: plain, deterministic functions of the
stored game (its final state, seats and choice log), shared by the game end's own transaction
and by the command that rebuilds every record from scratch (``store/records.py``).

Places follow the rulebook's end of game ("The player with the most Prestige is declared the
winner ... the tied player who has built the most gears wins. If still tied, the tied player with
the highest total value of dice in their Mill area wins. If that's still a tie the player closest
to the player with the first player token in a clockwise order wins."): places are ordered by
Prestige, gears built and Mill dice; players still tied after those share a place (the last
tie-break, seat order, names the winner but says nothing about skill). ``won`` is the rules'
winner, all tie-breaks included.

Ratings: openskill's Plackett-Luce model, per server. A game is rated when at least two people
played it; AI seats are left out (they are not rated and do not rate anyone). A player whose
turns were played by AI stand-ins for more than half of their turns (``ABSENT_SHARE``) is ranked
last, tied with any other such player, whatever the final score (Board Game Arena ranks a player
who abandoned or was expelled last in the same way); the others are ranked among themselves by
their places.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from statistics import median

from openskill.models import PlackettLuce

from engine import GameState
from engine.scoring import CATEGORIES, final_scores, winner

from .models import SeatRecord

ABSENT_SHARE = 0.5
"""A player whose turns stand-ins played for more than this share is ranked last."""

PROVISIONAL_GAMES = 5
"""Fewer rated games than this: the rating is marked provisional."""

MODEL = PlackettLuce(limit_sigma=True)
"""``limit_sigma``: sigma never grows, so a loss can't raise the ordinal by making the rating
less certain."""


@dataclass(frozen=True)
class Move:
    """One live choice of the log, as the records need it."""

    seq: int
    seat: int
    at: datetime


@dataclass(frozen=True)
class SeatResult:
    turn_index: int
    user_id: int | None
    name: str
    place: int
    won: bool
    score: int
    categories: tuple[int, ...]
    turns: int
    late_turns: int
    standin_turns: int
    waits: tuple[int, ...]
    """Seconds from the start of each of the seat's turns to its first move."""

    @property
    def is_person(self) -> bool:
        return self.user_id is not None

    @property
    def absent(self) -> bool:
        """Stand-ins played more than ``ABSENT_SHARE`` of this player's turns."""
        return self.turns > 0 and self.standin_turns > ABSENT_SHARE * self.turns


@dataclass(frozen=True)
class GameResult:
    game_id: int
    guild_id: int
    finished_at: datetime
    seats: tuple[SeatResult, ...]

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def people(self) -> list[SeatResult]:
        return [s for s in self.seats if s.is_person]

    @property
    def rated(self) -> bool:
        return len(self.people) >= 2


def places(state: GameState) -> tuple[list[int], int]:
    """Each seat's place (1 = first; ties after Prestige, gears and Mill dice share one) and
    the rules' winner."""
    scores = final_scores(state)

    def key(seat: int) -> tuple[int, int, int]:
        p = state.players[seat]
        built = sum(1 for g in p.gears if g)
        dice = sum(int(d[1]) for d in p.mill if d)
        return (-scores[seat]["Total"], -built, -dice)

    keys = [key(s) for s in range(len(state.players))]
    return [1 + sum(1 for k in keys if k < mine) for mine in keys], winner(state)


def game_result(
    game_id: int,
    guild_id: int,
    state: GameState,
    seats: Iterable[SeatRecord],
    moves: Sequence[Move],
    started_at: datetime,
    finished_at: datetime,
    reminded: set[tuple[int, int]],
    standins: set[int],
) -> GameResult:
    """The record of a finished game. ``moves``: its live choices by seq; ``reminded``: (user id,
    seq) of every reminder that was sent; ``standins``: seqs a stand-in played. A turn is a run
    of consecutive choices of one seat; it is late if the player was reminded during it, and a
    stand-in's if a stand-in made any of its choices."""
    by_seat = {s.turn_index: s for s in seats if s.turn_index is not None}
    place, first = places(state)
    scores = final_scores(state)
    turns: dict[int, list[tuple[int, int, int]]] = {}  # seat -> (wait, late, standin) per turn
    start = 0
    while start < len(moves):
        seat = moves[start].seat
        end = start
        while end + 1 < len(moves) and moves[end + 1].seat == seat:
            end += 1
        run = range(moves[start].seq, moves[end].seq + 1)
        since = moves[start - 1].at if start else started_at
        user = by_seat[seat].user_id if seat in by_seat else None
        wait = max(0, int((moves[start].at - since).total_seconds()))
        late = any((user, q) in reminded for q in run) if user is not None else False
        stood_in = any(q in standins for q in run)
        turns.setdefault(seat, []).append((wait, int(late), int(stood_in)))
        start = end + 1
    out = []
    for index in range(len(state.players)):
        rec = by_seat.get(index)
        mine = turns.get(index, [])
        is_person = rec is not None and not rec.is_ai and rec.user_id is not None
        out.append(
            SeatResult(
                turn_index=index,
                user_id=rec.user_id if is_person and rec is not None else None,
                name=rec.name if rec is not None else state.seat_names[index],
                place=place[index],
                won=index == first,
                score=scores[index]["Total"],
                categories=tuple(scores[index][c] for c in CATEGORIES),
                turns=len(mine),
                late_turns=sum(t[1] for t in mine),
                standin_turns=sum(t[2] for t in mine),
                waits=tuple(t[0] for t in mine if not t[2]),
            )
        )
    return GameResult(game_id, guild_id, finished_at, tuple(out))


# -------------------------------------------------------------------- ratings and sums


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def new_rating() -> Rating:
    r = MODEL.rating()
    return Rating(r.mu, r.sigma)


def rate(game: GameResult, before: Mapping[int, Rating]) -> dict[int, Rating]:
    """The people's ratings after a rated game (``before``: their ratings so far; missing ones
    start fresh). Empty for an unrated game."""
    if not game.rated:
        return {}
    people = game.people
    last = max(s.place for s in people) + 1
    ranks = [last if s.absent else s.place for s in people]
    teams = []
    for s in people:
        assert s.user_id is not None
        r = before.get(s.user_id) or new_rating()
        teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma)])
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    out = {}
    for s, team in zip(people, after, strict=True):
        assert s.user_id is not None
        out[s.user_id] = Rating(team[0].mu, team[0].sigma)
    return out


@dataclass(frozen=True)
class MemberStats:
    """A member's sums in one server (a ``member_stats`` row)."""

    guild_id: int
    user_id: int
    games: int = 0
    wins: int = 0
    expected_wins: float = 0.0
    score_sum: int = 0
    best_score: int | None = None
    categories: tuple[int, ...] = field(default_factory=lambda: (0,) * len(CATEGORIES))
    turns: int = 0
    late_turns: int = 0
    standin_turns: int = 0
    standin_games: int = 0
    rated_games: int = 0
    rating: Rating | None = None

    @property
    def provisional(self) -> bool:
        return self.rated_games < PROVISIONAL_GAMES

    def plus(self, game: GameResult, seat: SeatResult, rating: Rating | None) -> MemberStats:
        """These sums with one more finished game (``rating``: the one after it, if rated)."""
        return replace(
            self,
            games=self.games + 1,
            wins=self.wins + int(seat.won),
            expected_wins=self.expected_wins + 1 / game.players,
            score_sum=self.score_sum + seat.score,
            best_score=seat.score if self.best_score is None else max(self.best_score, seat.score),
            categories=tuple(a + b for a, b in zip(self.categories, seat.categories, strict=True)),
            turns=self.turns + seat.turns,
            late_turns=self.late_turns + seat.late_turns,
            standin_turns=self.standin_turns + seat.standin_turns,
            standin_games=self.standin_games + int(seat.standin_turns > 0),
            rated_games=self.rated_games + int(rating is not None),
            rating=rating or self.rating,
        )


def add_game(stats: Mapping[int, MemberStats], game: GameResult) -> dict[int, MemberStats]:
    """The people's sums and ratings after ``game`` (``stats``: theirs so far, by user id; missing
    ones start at zero). The game end's transaction and the rebuild both go through here, so
    both give the same numbers."""
    before = {u: s.rating for u, s in stats.items() if s.rating is not None}
    ratings = rate(game, before)
    out = {}
    for seat in game.people:
        assert seat.user_id is not None
        now = stats.get(seat.user_id) or MemberStats(game.guild_id, seat.user_id)
        out[seat.user_id] = now.plus(game, seat, ratings.get(seat.user_id))
    return out


def median_wait(waits: Iterable[int]) -> float | None:
    values = list(waits)
    return float(median(values)) if values else None
