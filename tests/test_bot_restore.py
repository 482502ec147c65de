"""Restoring a backup (issue 29): the bot notices at start that a game's thread is ahead of the
database, tells the thread once that the game was restored to move N, retires the controls of
the undone turns, and a button from after the backup says so (not "the game has moved on")."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from offline.driver import custom_ids, decision_shown, texts


def private_text(res: Any) -> str:
    found = [texts(f) for f in res.followups if f.ephemeral]
    if res.response is not None and res.response.ephemeral:
        found.append(texts(res.response))
    return "\n".join(found)


def restore_notes(table: Any, game: int) -> list[str]:
    return [m.content for m in table.thread(game).history() if "restored" in (m.content or "")]


@pytest.mark.parametrize("marks_written", [False, True])
async def test_a_restored_game_is_told_once_and_old_buttons_say_why(
    table: Any, make_bot: Any, db_path: Path, tmp_path: Path, marks_written: bool
) -> None:
    game = await table.new_game("alice", ("bob",))
    for _ in range(3):
        await table.move(game, lambda d: 0)
    _, backed_up_at = await table.store.load_state(game)
    if marks_written:  # a backup taken after a reminder round: it says the thread was current
        await table.env.bot.ada.games.flush_shown()
    backup = tmp_path / "backup.db"
    await table.store.backup(backup)
    for _ in range(4):  # moves the backup does not have
        await table.move(game, lambda d: 0)
    later = await table.turn_message(game)
    _, later_seq = await table.store.load_state(game)
    assert decision_shown(later, game) == later_seq > backed_up_at

    # the operator restores the backup: stop, copy it over the database, start
    await table.env.bot.close()
    for suffix in ("-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    shutil.copy(backup, db_path)
    await table.env.restart_bot(make_bot())

    assert (await table.store.load_state(game))[1] == backed_up_at
    notes = restore_notes(table, game)
    assert len(notes) == 1 and f"move {backed_up_at}" in notes[0], notes
    assert decision_shown(await table.turn_message(game), game) == backed_up_at
    later = table.message(table.thread(game), later.id)
    assert not any(
        cid.split(":")[1] in "csgpub" for cid in custom_ids(later)
    )  # its controls are gone
    # play goes on from the restored move, and a second start says nothing more
    await table.move(game, lambda d: 0)
    await table.env.bot.close()
    await table.env.restart_bot(make_bot())
    assert len(restore_notes(table, game)) == 1


async def test_a_button_from_after_the_backup(table: Any) -> None:
    """The button's move is ahead of the game: it was restored, not moved on."""
    from cogs.service import Oops

    game = await table.new_game("alice", ("bob",))
    rec = await table.store.get_game(game)
    state, seq = await table.store.load_state(game)
    mover_id = rec.seat_at(state.decision.player).user_id
    try:
        await table.env.bot.ada.games.check_turn(mover_id, rec, seq + 5)
    except Oops as exc:
        said = str(exc)
    else:
        raise AssertionError("no answer")
    assert "restored" in said and "moved on" not in said and f"move {seq}" in said


async def test_a_button_from_before_an_undo_still_says_moved_on(table: Any) -> None:
    """An undo also leaves a message ahead of the game (a private one, say): not a restore."""
    from cogs.service import Oops

    game = await table.new_game("alice", ("bob",))
    rec = await table.store.get_game(game)
    state, seq = await table.store.load_state(game)
    seat = state.decision.player
    state = await table.store.apply_choice(game, seq, seat, state.decision.choices[0].id)
    await table.store.undo(game, seq + 1, seat)
    try:
        await table.env.bot.ada.games.check_turn(rec.seat_at(seat).user_id, rec, seq + 1)
    except Oops as exc:
        said = str(exc)
    else:
        raise AssertionError("no answer")
    assert "moved on" in said and "restored" not in said
