"""The bot remembers (issue 30), through Discord as members use it: /ada history, games, profile,
leaderboard, away, back and privacy, and the admins' stats, away limit and rebuild."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import discord

from offline.driver import texts
from store.testing import pick
from tests.test_bot_errors import private_text
from tests.test_bot_reminders import HOUR, dms, to_move, wait


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


async def test_history_pages(table: Any, monkeypatch: Any) -> None:
    import sys

    # a game a page: two pages (the module the bot loaded as its extension)
    monkeypatch.setattr(sys.modules["cogs.records"], "PAGE", 1)
    games = await two_finished_games(table)
    res = await table.alice.slash(table.channel, "ada records history")
    page = res.response
    assert "page 1 of 2" in texts(page) and f"#{games[1]}" in texts(page)
    res = await table.alice.click(page, custom_id=f"ada:h:{table.alice.id}:1")
    page = res.response or page
    shown = texts(next(m for m in table.channel.history(viewer=table.alice) if m.id == page.id))
    assert "page 2 of 2" in shown and f"#{games[0]}" in shown
    await table.alice.slash(table.channel, "ada records profile", hidden=True)
    res = await table.bob.slash(table.channel, "ada records history", member=table.alice)
    assert "keeps their profile private" in private_text(res)


# -- time away ---------------------------------------------------------------------------------


def day_after(days: int) -> str:
    """The date ``days`` from now, as /ada away takes it."""
    return (discord.utils.utcnow() + timedelta(days=days)).date().isoformat()


async def test_time_away_pauses_reminders_and_the_stand_in(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, other = await to_move(table, game)
    res = await mover.slash(table.channel, "ada away", until=day_after(2))
    assert "You are away until" in private_text(res)
    assert "is away until" in texts(await table.turn_message(game))  # the table sees it
    res = await other.slash(table.channel, "ada games")
    assert "away until" in private_text(res)
    await wait(table.env, 30 * HOUR)  # no reminder while away, and no stand-in
    assert dms(mover) == []
    res = await other.slash(table.thread(game), "ada standin")
    assert "is away until" in private_text(res)
    _, seq = await table.store.load_state(game)
    assert seq == 0
    await wait(table.env, 50 * HOUR)  # back (the third day has begun): reminded again
    assert len(dms(mover)) == 1 and "your turn" in dms(mover)[0]


async def test_back_early_and_bad_dates(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, _ = await to_move(table, game)
    for until, said in (
        ("tomorrow", "YYYY-MM-DD"),
        (day_after(-1), "already past"),
        (day_after(40), "at most 30 days"),
    ):
        res = await mover.slash(table.channel, "ada away", until=until)
        assert said in private_text(res)
        assert await table.store.away_until(mover.id, table.env.bot.ada.games.now()) is None
    res = await mover.slash(table.channel, "ada away")
    assert "You are not away" in private_text(res)
    await mover.slash(table.channel, "ada away", until=day_after(3))
    assert "is away until" in texts(await table.turn_message(game))
    res = await mover.slash(table.channel, "ada away")
    assert "Welcome back" in private_text(res)
    assert "is away until" not in texts(await table.turn_message(game))
    await wait(table.env, 12.5 * HOUR)  # reminded after the usual delay, not at the old date
    assert len(dms(mover)) == 1


async def test_an_admin_sets_the_longest_absence(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, _ = await to_move(table, game)
    assert "ada-admin away-limit" not in mover.available_commands(table.channel)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    res = await admin.slash(table.channel, "ada-admin away-limit", days=60)
    assert "up to 60 days" in private_text(res)
    res = await mover.slash(table.channel, "ada away", until=day_after(40))
    assert "You are away until" in private_text(res)
    res = await admin.slash(table.channel, "ada-admin away-limit", days=1)
    assert "up to 1 day." in private_text(res)  # a real plural, not "1 days"
    res = await mover.slash(table.channel, "ada away", until=day_after(3))
    assert "at most 1 day." in private_text(res)


async def test_several_games_due_come_as_one_reminder(table: Any) -> None:
    waiting = []
    for _ in range(3):
        game = await table.new_game("alice", ("bob",))
        state, _ = await table.store.load_state(game)
        rec = await table.store.get_game(game)
        waiting.append(rec.seat_at(state.decision.player).user_id)
    await wait(table.env, 12.5 * HOUR)
    for name in ("alice", "bob"):
        member = table.members[name]
        n = waiting.count(member.id)
        sent = dms(member)
        if n > 1:
            assert len(sent) == 1 and f"{n} games of Ada's Dream are waiting for you" in sent[0]
        elif n == 1:
            assert len(sent) == 1 and "your turn" in sent[0]


async def test_admins_see_server_stats_and_rebuild_the_records(table: Any) -> None:
    await two_finished_games(table)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    res = await admin.slash(table.channel, "ada-admin stats")
    text = private_text(res)
    assert "2 finished games" in text and "2 players (1 game)" in text
    assert "3 players (1 game)" in text
    before = await table.store.all_member_stats(table.guild.id)
    res = await admin.slash(table.channel, "ada-admin rebuild-records")
    assert "from 2 finished games" in private_text(res)
    assert await table.store.all_member_stats(table.guild.id) == before


async def test_lobbies_show_how_members_finish_games(table: Any) -> None:
    await two_finished_games(table)
    await table.carol.slash(table.channel, "ada records profile", hidden=True)
    game = await table.new_game("alice", ("bob", "carol", "dave"), start=False)
    lobby = texts(await table.lobby_message(game))
    lines = {
        name: next(li for li in lobby.splitlines() if f"{name} (" in li) for name in table.members
    }
    assert "on time 100%" in lines["alice"] and "0 games left" in lines["alice"]
    assert "on time" in lines["bob"]
    assert "on time" not in lines["carol"]  # hid their profile
    assert "on time" not in lines["dave"]  # no finished game yet
