"""An AI stand-in plays an absent player's turn: only when asked, never by itself, and only once
that player has been reminded and a grace period has passed (issues 6 and 19)."""

from __future__ import annotations

from typing import Any

from offline.driver import texts
from tests.test_bot_errors import private_text
from tests.test_bot_reminders import HOUR, dms, wait


async def absent_player(table: Any, game: int) -> tuple[str, int, int]:
    """(member name, seat index, sequence number) of the player whose turn it is."""
    state, seq = await table.store.load_state(game)
    rec = await table.store.get_game(game)
    seat = rec.seat_at(state.decision.player)
    name = next(n for n, m in table.members.items() if m.id == seat.user_id)
    return name, state.current, seq


async def test_no_stand_in_without_being_asked(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    _, _, seq = await absent_player(table, game)
    await wait(table.env, 30 * HOUR)  # reminders, the grace passes, but nobody moves for the player
    _, after = await table.store.load_state(game)
    assert after == seq


async def test_not_before_a_reminder_and_a_grace_period(table: Any) -> None:
    game = await table.new_game("alice", ("bob", "carol"))
    absent, _, seq = await absent_player(table, game)
    asker = "carol" if absent != "carol" else "bob"
    # the creator may not skip anyone the moment their turn starts (nor can a 2-player opponent)
    res = await table.alice.slash(table.thread(game), "ada standin")
    if absent != "alice":
        assert "hasn't been reminded" in private_text(res)
    await wait(table.env, 12.5 * HOUR)  # the first reminder is sent at 12 h
    assert dms(table.members[absent])
    res = await table.members[asker].slash(table.thread(game), "ada standin")
    assert "was reminded; a stand-in can be asked" in private_text(res)
    assert (await table.store.load_state(game))[1] == seq


async def test_the_creator_asks_after_the_grace_and_the_absent_player_is_told(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    absent, seat, seq = await absent_player(table, game)
    asker = "bob" if absent == "alice" else "alice"
    await wait(table.env, 24.5 * HOUR)  # reminded at 12 h, then the 12 h grace
    # the creator asks; or, if the creator is the absent one, bob's vote is the majority
    res = await table.members[asker].slash(table.thread(game), "ada standin")
    assert "played" in private_text(res)
    state, new_seq = await table.store.load_state(game)
    assert new_seq > seq and state.current != seat  # the whole turn, then the next player
    note = next(texts(m) for m in table.thread(game).history() if "stand-in played" in texts(m))
    assert "Workshop" in note or "uses" in note  # what was played, not only that it was
    told = [d for d in dms(table.members[absent]) if "stand-in played your turn" in d]
    assert len(told) == 1
    assert (await table.store.verify_game(game)).ok


async def test_the_absent_player_may_ask_at_once(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    absent, _, seq = await absent_player(table, game)
    res = await table.members[absent].slash(table.thread(game), "ada standin")
    assert "played" in private_text(res)
    assert (await table.store.load_state(game))[1] > seq


async def test_other_players_vote_by_majority(table: Any) -> None:
    game = await table.new_game("alice", ("bob", "carol", "dave"))
    absent, _, seq = await absent_player(table, game)
    voters = [n for n in ("bob", "carol", "dave") if n != absent]  # not the creator
    await wait(table.env, 24.5 * HOUR)
    res = await table.members[voters[0]].slash(table.thread(game), "ada standin")
    assert "Vote recorded: 1 of 2" in private_text(res)
    res = await table.members[voters[0]].slash(table.thread(game), "ada standin")
    assert "Vote recorded: 1 of 2" in private_text(res)  # one vote per player
    _, still = await table.store.load_state(game)
    assert still == seq
    res = await table.members[voters[1]].slash(table.thread(game), "ada standin")
    assert "played" in private_text(res)
    _, done = await table.store.load_state(game)
    assert done > seq


async def test_a_game_can_set_its_own_grace(table: Any) -> None:
    game = await table.new_game("alice", ("bob",), standin_hours=2)
    absent, _, seq = await absent_player(table, game)
    asker = "bob" if absent == "alice" else "alice"
    await wait(table.env, 14.5 * HOUR)  # reminded at 12 h, 2 h grace
    res = await table.members[asker].slash(table.thread(game), "ada standin")
    assert "played" in private_text(res)


async def test_an_outsider_cannot_ask(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    _, _, seq = await absent_player(table, game)
    res = await table.dave.slash(table.thread(game), "ada standin")
    assert "Only players" in private_text(res)
    _, after = await table.store.load_state(game)
    assert after == seq


async def test_players_who_left_the_server_do_not_count_in_the_majority(table: Any) -> None:
    """Issue 33: a voter who had left the server still counted, so the others could never
    reach the majority."""
    game = await table.new_game("alice", ("bob", "carol", "dave"))
    absent, _, seq = await absent_player(table, game)
    voter = next(n for n in ("bob", "carol", "dave") if n != absent)
    for name in table.members:
        if name not in (absent, voter):
            table.guild.remove_member(table.members[name])
    await wait(table.env, 24.5 * HOUR)
    res = await table.members[voter].slash(table.thread(game), "ada standin")
    assert "played" in private_text(res)  # alone in the server with the absent player: 1 of 1
    assert (await table.store.load_state(game))[1] > seq
