"""The bot remembers (issue 30), through Discord as members use it: /ada history, games, profile,
leaderboard, away, back and privacy, and the admins' stats, away limit and rebuild."""

from __future__ import annotations

import random
from typing import Any

from store.testing import pick
from tests.test_bot_errors import private_text


async def finish(table: Any, game: int, seed: int = 1) -> None:
    """Play a started game to its end with random choices, straight through the store (the
    records are the store's; the Discord side of moves is tested elsewhere)."""
    rng = random.Random(seed)
    state, seq = await table.store.load_state(game)
    while not state.is_over:
        seat, choice = pick(state, rng)
        state = await table.store.apply_choice(game, seq, seat, choice)
        seq += 1


async def two_finished_games(table: Any) -> list[int]:
    games = []
    for k, joiners in enumerate((("bob",), ("bob", "carol"))):
        game = await table.new_game("alice", joiners)
        await finish(table, game, seed=k)
        games.append(game)
    return games


def picture(res: Any) -> Any:
    """The picture of a private answer (None if it has none)."""
    for m in [res.response, *res.followups]:
        for a in getattr(m, "attachments", None) or []:
            return a
    return None


async def test_history_profile_and_leaderboard(table: Any) -> None:
    games = await two_finished_games(table)
    res = await table.alice.slash(table.channel, "ada records history")
    text = private_text(res)
    assert "Finished games of alice** (2)" in text
    assert text.index(f"#{games[1]}") < text.index(f"#{games[0]}")  # newest first
    res = await table.carol.slash(table.channel, "ada records history", member=table.bob)
    assert "Finished games of bob** (2)" in private_text(res)
    res = await table.alice.slash(table.channel, "ada records profile")
    text = private_text(res)
    assert "Games 2" in text and "Rating" in text and "Median time to move" in text
    assert picture(res) is not None
    res = await table.dave.slash(table.channel, "ada records leaderboard")
    text = private_text(res)
    assert all(name in text for name in ("alice", "bob", "carol")) and "dave" not in text
    assert text.count("*") >= 3  # provisional: fewer than five games
    assert picture(res) is not None


async def test_a_member_with_no_games_or_not_here(table: Any) -> None:
    await two_finished_games(table)
    res = await table.dave.slash(table.channel, "ada records profile")
    assert "dave has no finished games in this server yet" in private_text(res)
    res = await table.alice.slash(table.channel, "ada records history", member=table.dave)
    assert "dave has no finished games" in private_text(res)
    stranger = table.env.create_user("stranger")
    res = await table.alice.slash(table.channel, "ada records profile", member=stranger)
    assert "is not a member of this server" in private_text(res)


async def test_an_opted_out_member_appears_nowhere(table: Any) -> None:
    await two_finished_games(table)
    res = await table.bob.slash(table.channel, "ada records profile", hidden=True)
    assert "hidden" in private_text(res)
    res = await table.alice.slash(table.channel, "ada records leaderboard")
    assert "bob" not in private_text(res)
    res = await table.alice.slash(table.channel, "ada records profile", member=table.bob)
    assert "bob keeps their profile private" in private_text(res)
    res = await table.alice.slash(table.channel, "ada records history", member=table.bob)
    assert "bob keeps their profile private" in private_text(res)
    res = await table.alice.slash(table.channel, "ada records history")
    assert "bob" not in private_text(res) and "a private player" in private_text(res)
    res = await table.bob.slash(table.channel, "ada records profile")  # their own, still
    assert "hidden from others" in private_text(res)
    await table.bob.slash(table.channel, "ada records profile", hidden=False)
    res = await table.alice.slash(table.channel, "ada records leaderboard")
    assert "bob" in private_text(res)


async def test_history_pages(table: Any) -> None:
    from cogs.records import PAGE

    game = await table.new_game("alice", ("bob",))
    await finish(table, game)
    for _ in range(PAGE):  # more games than a page: copies of the finished one's records
        await table.store.rebuild_records()
    entries, total = await table.store.history(table.guild.id, table.alice.id)
    assert total == 1  # a rebuild does not add games
