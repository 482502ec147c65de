"""An AI stand-in plays an absent player's turn: only when asked, never by itself (issue 6)."""

from __future__ import annotations

from typing import Any

from tests.test_bot_errors import private_text
from tests.test_bot_reminders import HOUR, wait


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
    await wait(table.env, 72 * HOUR)  # days pass: reminders, but nobody moves for the player
    _, after = await table.store.load_state(game)
    assert after == seq


async def test_the_creator_asks_and_the_stand_in_plays_one_turn(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    _, seat, seq = await absent_player(table, game)
    res = await table.alice.slash(table.thread(game), "ada standin")
    assert res.ephemeral and "played" in private_text(res)
    state, new_seq = await table.store.load_state(game)
    assert new_seq > seq and state.current != seat  # the whole turn, then the next player
    assert any("stand-in" in (m.content or "") for m in table.thread(game).history())
    assert (await table.store.verify_game(game)).ok


async def test_other_players_vote_by_majority(table: Any) -> None:
    game = await table.new_game("alice", ("bob", "carol", "dave"))
    absent, _, seq = await absent_player(table, game)
    voters = [n for n in ("bob", "carol", "dave") if n != absent]  # not the creator
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


async def test_an_outsider_cannot_ask(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    _, _, seq = await absent_player(table, game)
    res = await table.dave.slash(table.thread(game), "ada standin")
    assert "Only players" in private_text(res)
    _, after = await table.store.load_state(game)
    assert after == seq
