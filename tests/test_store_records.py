"""The bot remembers (issue 30), in the store: results, sums and ratings written by the game end's
own transaction, equal to a rebuild from scratch; AI seats unrated; ties; stand-in turns; time
away and privacy. On SQLite and PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from store import Store, StoreError
from store.tally import MODEL, Rating, rate
from store.testing import pick

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


async def finished_game(
    store: Store,
    rng: random.Random,
    *,
    users: list[int | None],
    guild_id: int = 1,
    at: datetime = T0,
    seed: int = 1,
    standin: int | None = None,
) -> int:
    """A game of these seats (None: an AI seat) played to its end with random choices, a
    minute a move from ``at``; ``standin``: a seat whose every turn a stand-in plays."""
    game = await store.create_game(guild_id, 10, users[0] or 1, {"players": len(users)}, now=at)
    for i, user in enumerate(users):
        if user is None:
            await store.add_seat(game, name=f"AI {i}", is_ai=True, ai_policy="random", now=at)
        else:
            await store.add_seat(game, name=f"member {user}", user_id=user, now=at)
    state = await store.start_game(game, seed, now=at)
    rec = await store.get_game(game)
    seq = 0
    while not state.is_over:
        at += timedelta(minutes=1)
        seat, choice = pick(state, rng)
        if standin is not None and rec.seat_at(seat).join_order == standin:
            await store.note_standin(game, seat, seq, now=at)
        state = await store.apply_choice(game, seq, seat, choice, now=at)
        seq += 1
    return game


def people_result(places: list[int], *, standins: list[int] | None = None, users=None):
    """A made-up finished game of people (users 1, 2, ... at these places)."""
    from store.tally import GameResult, SeatResult

    users = users or list(range(1, len(places) + 1))
    seats = tuple(
        SeatResult(
            turn_index=i,
            user_id=u,
            name=f"p{i}",
            place=p,
            won=p == 1 and i == places.index(1),
            score=100 - p,
            categories=(0,) * 11,
            turns=10,
            late_turns=0,
            standin_turns=(standins or [0] * len(places))[i],
            waits=(),
        )
        for i, (u, p) in enumerate(zip(users, places, strict=True))
    )
    return GameResult(1, 1, T0, seats)


class TestRatings:
    def test_a_tie_after_the_tie_breaks_rates_as_equal_ranks(self) -> None:
        after = rate(people_result([1, 1, 3]), {})
        assert after[1] == after[2]
        assert after[1].mu > after[3].mu

    def test_ai_seats_are_neither_rated_nor_rate(self) -> None:
        from dataclasses import replace

        game = people_result([1, 2, 3])
        with_ai = replace(game, seats=(replace(game.seats[0], user_id=None), *game.seats[1:]))
        after = rate(with_ai, {})
        assert set(after) == {2, 3}
        assert after == rate(people_result([1, 2], users=[2, 3]), {})  # as if the AI were absent

    def test_one_person_and_ais_is_not_rated(self) -> None:
        from dataclasses import replace

        game = people_result([2, 1])
        solo = replace(game, seats=(game.seats[0], replace(game.seats[1], user_id=None)))
        assert not solo.rated and rate(solo, {}) == {}

    def test_a_player_stand_ins_mostly_played_for_is_ranked_last(self) -> None:
        # README "Ratings": stand-ins played 6 of 10 turns, more than half: ranked last
        absent_winner = rate(people_result([1, 2, 3], standins=[6, 0, 0]), {})
        assert absent_winner[1].mu < absent_winner[3].mu
        assert absent_winner[2].mu > absent_winner[3].mu
        half = rate(people_result([1, 2, 3], standins=[5, 0, 0]), {})  # half is not more than half
        assert half[1].mu > half[2].mu

    def test_a_loss_never_lifts_the_ordinal(self) -> None:
        rng = random.Random(5)
        ratings = {u: Rating(MODEL.rating().mu, MODEL.rating().sigma) for u in range(1, 7)}
        for _ in range(400):
            users = rng.sample(range(1, 7), rng.randint(2, 4))
            places = list(range(1, len(users) + 1))
            rng.shuffle(places)
            after = rate(people_result(places, users=users), ratings)
            last = users[places.index(len(users))]
            assert after[last].ordinal <= ratings[last].ordinal
            ratings.update(after)


async def test_a_finished_game_leaves_results_sums_and_ratings(store: Store) -> None:
    rng = random.Random(2)
    game = await finished_game(store, rng, users=[11, 12, None], seed=3)
    entries, count = await store.history(1, 11)
    assert count == 1 and entries[0].game_id == game
    assert [p[1] for p in entries[0].players].count(None) == 1  # the AI seat is in the table
    state, _ = await store.load_state(game)
    from engine.scoring import final_scores

    totals = sorted(s["Total"] for s in final_scores(state))
    assert sorted(p[3] for p in entries[0].players) == totals
    stats = {s.user_id: s for s in await store.all_member_stats(1)}
    assert set(stats) == {11, 12}  # the AI has no row
    assert all(s.games == 1 and s.rated_games == 1 and s.rating is not None for s in stats.values())
    assert stats[11].turns > 5 and stats[11].late_turns == 0 and stats[11].standin_turns == 0
    profile = await store.profile(1, 11)
    assert profile is not None and profile.median_wait == 60.0  # a move a minute
    assert await store.profile(1, 99) is None and await store.profile(2, 11) is None


async def test_a_game_of_one_person_and_ais_is_not_rated(store: Store) -> None:
    await finished_game(store, random.Random(3), users=[11, None], seed=4)
    (stats,) = await store.all_member_stats(1)
    assert stats.games == 1 and stats.rated_games == 0 and stats.rating is None
    assert await store.leaderboard(1) == []


async def test_rebuilt_from_scratch_equals_the_game_ends(store: Store) -> None:
    """Many generated games, in two servers, with AI seats and a stand-in: the sums and ratings
    the game ends wrote are exactly those a rebuild from the stored games computes."""
    rng = random.Random(7)
    tables = [
        ([11, 12], 1, None),
        ([12, 13, None], 1, None),
        ([11, 13, 14], 1, 2),
        ([11, 12, 13, 14], 1, None),
        ([21, 22], 2, None),
        ([11, 12], 1, 1),
        ([13, None, 11], 1, None),
        ([22, 21, None, None], 2, None),
    ]
    at = T0
    for k, (users, guild, standin) in enumerate(tables):
        await finished_game(store, rng, users=users, guild_id=guild, at=at, seed=k, standin=standin)
        at += timedelta(days=1)
    before = {g: await store.all_member_stats(g) for g in (1, 2)}
    history = [await store.history(1, u, limit=50) for u in (11, 12, 13, 14)]
    assert await store.rebuild_records() == len(tables)
    assert {g: await store.all_member_stats(g) for g in (1, 2)} == before
    assert [await store.history(1, u, limit=50) for u in (11, 12, 13, 14)] == history
    assert await store.rebuild_records(2) == 2
    assert await store.all_member_stats(2) == before[2]
    by_user = {s.user_id: s for s in before[1]}
    assert by_user[11].games == 5 and by_user[11].rated_games == 5
    assert by_user[11].standin_turns == 0 and by_user[14].standin_turns > 0
    assert by_user[14].standin_games == 1
    board = await store.leaderboard(1)
    assert [s.rating.ordinal for s in board] == sorted(
        (s.rating.ordinal for s in board), reverse=True
    )


async def test_hidden_members_are_on_no_leaderboard(store: Store) -> None:
    await finished_game(store, random.Random(4), users=[11, 12], seed=5)
    assert {s.user_id for s in await store.leaderboard(1)} == {11, 12}
    await store.set_hidden(11, True, now=T0)
    assert {s.user_id for s in await store.leaderboard(1)} == {12}
    assert set(await store.reliability(1, [11, 12])) == {12}
    await store.set_hidden(11, False, now=T0)
    assert {s.user_id for s in await store.leaderboard(1)} == {11, 12}


async def test_time_away(store: Store) -> None:
    assert await store.away_until(11, T0) is None
    with pytest.raises(StoreError, match="past"):
        await store.set_away(11, T0 - timedelta(days=1), now=T0)
    assert (await store.member_record(11)).away_until is None  # nothing changed
    await store.set_away(11, T0 + timedelta(days=3), now=T0)
    assert await store.away_until(11, T0) == T0 + timedelta(days=3)
    assert await store.away_until(11, T0 + timedelta(days=4)) is None  # over by itself
    await store.set_away(11, None, now=T0)
    assert await store.away_until(11, T0) is None
    assert await store.max_away_days(1) == 30
    await store.set_max_away_days(1, 10, now=T0)
    assert await store.max_away_days(1) == 10 and await store.max_away_days(2) == 30


async def test_the_maintenance_command_rebuilds_the_records(db_location: str, store: Store) -> None:
    from store.cli import rebuild_records

    await finished_game(store, random.Random(6), users=[11, 12], seed=6)
    before = await store.all_member_stats(1)
    assert await rebuild_records(db_location) == 1
    assert await rebuild_records(db_location, 2) == 0  # another server: nothing there
    assert await store.all_member_stats(1) == before


async def test_games_ending_at_once_lose_no_sums(store: Store) -> None:
    """Two games of one server with a member in common, played at the same time to their ends:
    each end counts once in that member's sums (the rows are locked in one order)."""
    import asyncio
    from dataclasses import replace

    await asyncio.gather(
        finished_game(store, random.Random(8), users=[11, 12], seed=8),
        finished_game(store, random.Random(9), users=[13, 12], seed=9),
    )
    incremental = {s.user_id: replace(s, rating=None) for s in await store.all_member_stats(1)}
    assert incremental[12].games == 2 and incremental[11].games == 1
    await store.rebuild_records()
    rebuilt = {s.user_id: replace(s, rating=None) for s in await store.all_member_stats(1)}
    assert rebuilt == incremental  # the ratings may differ only by which game counted first
