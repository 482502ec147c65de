"""What goes wrong, and how the bot answers: each case gives a clear private answer or a logged
retry, and the game stays consistent (checked against a replay of the stored choices)."""

from __future__ import annotations

import logging
import random
from typing import Any

import discord
import pytest

from cogs import ui
from engine import replay
from offline.driver import custom_ids, decision_shown, texts

# Clicks acknowledged first and the turn message edited after (no time to answer with the
# message itself): the way in which a failed message edit or post is met.
ACKNOWLEDGE_FIRST = {"click_budget": 0.0}


async def consistent(table: Any, game: int) -> None:
    state, seq = await table.store.load_state(game)
    setup = await table.store.load_setup(game)
    assert replay(setup, [c.choice_id for c in await table.store.choices(game)]) == state
    assert (await table.store.verify_game(game)).ok


async def who_moves(table: Any, game: int) -> tuple[Any, Any, Any, int]:
    """(actor to move, another seated actor, state, seq)."""
    state, seq = await table.store.load_state(game)
    rec = await table.store.get_game(game)
    mover = table.by_id[rec.seat_at(state.decision.player).user_id]
    other = next(table.by_id[s.user_id] for s in rec.seats if s.user_id != mover.id)
    return mover, other, state, seq


async def press(actor: Any, msg: Any, cid: str) -> Any:
    """Click a button, or pick the first option of a select."""
    if cid.startswith("ada:s:"):
        return await actor.select(msg, [cid.split(":")[-1]], custom_id=cid)
    return await actor.click(msg, custom_id=cid)


def private_text(res: Any) -> str:
    assert res.acknowledged
    found = [texts(f) for f in res.followups if f.ephemeral]
    if res.response is not None and res.response.ephemeral:
        found.append(texts(res.response))
    assert found, f"no private answer in {res!r}"
    return "\n".join(found)


def first_choice(msg: Any) -> str:
    """The custom id of the first choice (or group) component of a turn message."""
    return next(i for i in custom_ids(msg) if i.split(":")[1] in ("c", "s", "g", "p"))


async def test_not_your_turn_and_outsider(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, other, state, seq = await who_moves(table, game)
    msg = await table.turn_message(game)
    cid = first_choice(msg)
    res = await press(other, msg, cid)
    assert "not your turn" in private_text(res)
    res = await press(table.carol, msg, cid)
    assert "not playing" in private_text(res)
    assert (await table.store.load_state(game))[1] == seq
    # the turn message was not touched
    assert first_choice(await table.turn_message(game)) == cid
    await consistent(table, game)


async def test_illegal_and_stale_slash_options(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, other, state, seq = await who_moves(table, game)
    thread = table.thread(game)
    offered = await mover.autocomplete(thread, "ada play", "choice", "")
    assert offered and all(c["value"].startswith(f"#{seq}:") for c in offered)
    assert len(offered) == min(25, len(state.decision.choices))
    theirs = await other.autocomplete(thread, "ada play", "choice", "")
    assert "not your turn" in theirs[0]["name"]
    res = await mover.slash(thread, "ada play", choice="fly to the moon")
    assert "not a legal choice" in private_text(res)
    res = await other.slash(thread, "ada play", choice=f"#{seq}:0")
    assert "not your turn" in private_text(res)
    res = await mover.slash(thread, "ada play", choice=f"#{seq}:0")
    assert "Played" in private_text(res)
    res = await mover.slash(thread, "ada play", choice=f"#{seq}:0")  # the same offer again
    assert "out of date" in private_text(res)
    assert (await table.store.load_state(game))[1] == seq + 1
    await consistent(table, game)


async def test_double_click_applies_once(table: Any) -> None:
    import asyncio

    game = await table.new_game("alice", ("bob",))
    mover, _other, state, seq = await who_moves(table, game)
    games = table.env.bot.ada.games
    rec = await table.store.get_game(game)
    results = await asyncio.gather(  # two clicks arriving together, as Discord may deliver them
        games.play(mover.id, rec, seq, idx=0),
        games.play(mover.id, rec, seq, idx=0),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and "out of date" in str(errors[0])
    assert (await table.store.load_state(game))[1] == seq + 1
    await consistent(table, game)


@pytest.mark.parametrize("bot_options", [ACKNOWLEDGE_FIRST])
async def test_rest_failure_is_retried_then_reported(
    table: Any, bot_options: dict[str, Any], caplog: Any
) -> None:
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(1)
    # one failure: logged and retried, the turn message is up to date
    table.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=1)
    table.env.inject_error("POST", "/channels/*/messages", status=500, times=1)
    with caplog.at_level(logging.INFO, logger="cogs.service"):  # a retry that works: INFO
        await table.move(game, lambda d: 0)
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    assert any("retry" in r.getMessage() for r in caplog.records)
    state, seq = await table.store.load_state(game)
    assert decision_shown(await table.turn_message(game), game) == seq
    # persistent failure: the move is kept, the player is told privately
    old = await table.turn_message(game)
    table.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=None)
    table.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    res = await table.move(game, lambda d: 0)
    assert "counted" in private_text(res)
    table.env.backend.faults.clear()
    state, seq2 = await table.store.load_state(game)
    assert seq2 == seq + 1
    # the old buttons are now stale: a click points to the current turn
    mover = table.by_id[(await table.store.get_game(game)).seat_at(state.decision.player).user_id]
    stale_cid = first_choice(old)
    stale_holder = next(m for m in table.members.values() if m.id != 0)
    for actor in (mover, stale_holder):
        res = await press(actor, old, stale_cid)
        text = private_text(res)
        assert "out of date" in text or "not your turn" in text or "not playing" in text
    res = await mover.slash(table.thread(game), "ada refresh")
    assert "Posted" in private_text(res)
    assert decision_shown(await table.turn_message(game), game) == seq2
    table.env.errors  # noqa: B018 - the failures above were expected and handled
    await consistent(table, game)


async def test_channel_the_bot_cannot_post_in(table: Any) -> None:
    locked = table.guild.create_text_channel(
        "locked",
        overwrites={
            table.env.bot.user: discord.PermissionOverwrite(
                send_messages=False, create_public_threads=False
            )
        },
    )
    res = await table.alice.slash(locked, "ada new", players=2)
    text = private_text(res)
    assert "I need the permissions" in text and "Create Public Threads" in text
    assert await table.store.games_in_channel(locked.id) == []


async def test_member_who_left_the_server(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, other, state, seq = await who_moves(table, game)
    table.guild.remove_member(mover)
    msg = await table.turn_message(game)
    res = await press(other, msg, first_choice(msg))
    assert "not your turn" in private_text(res)
    # the creator (or an admin) can end the game for everyone
    creator = table.alice if mover is not table.alice else None
    if creator is None:  # alice left: a server admin cancels
        admin_role = table.guild.create_role(
            "Admins", permissions=discord.Permissions(manage_guild=True)
        )
        creator = table.guild.add_member(table.env.create_user("admin"), roles=[admin_role])
    res = await creator.slash(table.thread(game), "ada cancel", game=game)
    assert "cancelled" in private_text(res)
    assert (await table.store.get_game(game)).status == "cancelled"
    assert not custom_ids(await table.turn_message(game))
    await consistent(table, game)


async def test_lobby_rights_leave_and_start(table: Any) -> None:
    game = await table.new_game("alice", ("bob",), start=False)
    lobby = await table.lobby_message(game)
    res = await table.bob.click(lobby, custom_id=f"ada:l:start:{game}")
    assert "Only the game's creator" in private_text(res)
    res = await table.bob.click(lobby, custom_id=f"ada:l:cancel:{game}")
    assert "Only the game's creator" in private_text(res)
    res = await table.bob.click(lobby, custom_id=f"ada:l:leave:{game}")
    assert "You left" in private_text(res)
    res = await table.alice.click(lobby, custom_id=f"ada:l:start:{game}")
    assert "at least 2" in private_text(res)
    res = await table.carol.slash(table.thread(game), "ada join")
    assert "You joined" in private_text(res)
    res = await table.carol.slash(table.thread(game), "ada join")
    assert "already in this game" in private_text(res)
    lobby = await table.lobby_message(game)
    assert "carol" in lobby.embeds[0].description
    res = await table.alice.click(lobby, custom_id=f"ada:l:start:{game}")
    assert (await table.store.get_game(game)).status == "active"
    res = (
        await table.dave.click(lobby, custom_id=f"ada:l:join:{game}")
        if (await table.lobby_message(game)).components
        else None
    )
    assert res is None  # the lobby's buttons are gone once the game started


async def test_several_games_at_once_and_one_user_in_two(table: Any) -> None:
    g1 = await table.new_game("alice", ("bob",))
    g2 = await table.new_game("carol", ("alice",))
    assert g1 != g2
    # outside a thread, alice must say which game
    res = await table.alice.slash(table.channel, "ada hand")
    assert "several games" in private_text(res)
    res = await table.alice.slash(table.thread(g2), "ada hand")
    assert "Partner cards" in private_text(res)
    res = await table.alice.slash(table.channel, "ada score", game=g1)
    assert "score so far" in private_text(res)
    res = await table.bob.slash(table.channel, "ada games")
    text = private_text(res)
    assert f"#{g1}" in text and f"#{g2}" in text


async def test_undo_within_the_turn(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(4)
    for _ in range(60):
        state, seq = await table.store.load_state(game)
        if state.can_undo():
            break
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    else:
        raise AssertionError("no undoable position reached")
    mover, other, state, seq = await who_moves(table, game)
    msg = await table.turn_message(game)
    res = await other.click(msg, custom_id=ui.cid_undo(game, seq))
    assert "not your turn" in private_text(res)
    res = await mover.click(msg, custom_id=ui.cid_undo(game, seq))
    assert res.acknowledged
    state2, seq2 = await table.store.load_state(game)
    assert seq2 == seq - 1
    assert state2 == replay(await table.store.load_setup(game), state.history[:-1])
    assert "taken back" in texts(await table.turn_message(game))
    await consistent(table, game)


async def test_private_decisions_stay_private(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(8)
    for _ in range(200):
        state, seq = await table.store.load_state(game)
        if ui.is_private(state):
            break
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    else:
        raise AssertionError("no private decision reached")
    mover, other, state, seq = await who_moves(table, game)
    msg = await table.turn_message(game)
    ids = custom_ids(msg)
    assert ui.cid_private(game, seq) in ids
    assert not any(i.startswith(("ada:c:", "ada:s:", "ada:g:")) for i in ids)
    public = texts(msg)
    for c in state.decision.choices:
        if c.id not in ("skip", "done"):
            assert c.label not in public
    assert state.decision.prompt not in public  # "You may play a Partner card…" says too much
    res = await other.click(msg, custom_id=ui.cid_private(game, seq))
    assert "not your turn" in private_text(res)
    res = await mover.click(msg, custom_id=ui.cid_private(game, seq))
    assert "Your hand" in private_text(res)
    res = await other.click(msg, custom_id=ui.cid_hand(game))
    text = private_text(res)
    assert "Your hand" in text or "empty" in text
    # the other player's ephemeral hand is not in the thread for the mover
    seen = [texts(m) for m in table.thread(game).history(viewer=mover)]
    assert text not in seen


async def test_many_choices_come_in_groups(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    rng = random.Random(6)
    for _ in range(300):
        state, seq = await table.store.load_state(game)
        direct, groups = ui.choice_layout(state)
        if len(groups) > 1 and not state.decision.private:
            break
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    else:
        raise AssertionError("no decision with grouped choices")
    mover, other, state, seq = await who_moves(table, game)
    msg = await table.turn_message(game)
    ids = custom_ids(msg)
    assert [ui.cid_group(game, seq, k) for k in range(len(groups))] == [
        i for i in ids if i.startswith("ada:g:")
    ]
    res = await other.click(msg, custom_id=ui.cid_group(game, seq, 0))
    assert "not your turn" in private_text(res)
    assert custom_ids(await table.turn_message(game)) == ids
    k = max(range(len(groups)), key=lambda k: len(groups[k].indexes))
    res = await mover.click(msg, custom_id=ui.cid_group(game, seq, k))
    assert res.acknowledged
    opened = await table.turn_message(game)
    assert ui.cid_back(game, seq) in custom_ids(opened)
    res = await mover.click(opened, custom_id=ui.cid_back(game, seq))
    assert custom_ids(await table.turn_message(game)) == ids
    res = await mover.click(await table.turn_message(game), custom_id=ui.cid_group(game, seq, k))
    pick = groups[k].indexes[-1]
    await press(
        mover,
        await table.turn_message(game),
        next(
            i
            for i in custom_ids(await table.turn_message(game))
            if i == ui.cid_choice(game, seq, pick) or i.startswith(f"ada:s:{game}:{seq}:")
        ),
    )
    state2, seq2 = await table.store.load_state(game)
    assert seq2 == seq + 1


async def test_information_commands(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    thread = table.thread(game)
    for cmd, expect in [
        ("ada board", "round"),
        ("ada mill", "Mill of"),
        ("ada score", "Objectives"),
        ("ada log", "last moves"),
        ("ada rules", "Workshop turn"),
        ("ada hand", "hand"),
        ("ada help", "Ada's Dream"),
    ]:
        res = await table.bob.slash(thread, cmd)
        assert res.acknowledged and res.ephemeral, cmd
        assert expect.lower() in private_text(res).lower(), cmd
    res = await table.bob.slash(thread, "ada mill", player="nobody")
    assert "No player" in private_text(res)
    res = await table.bob.slash(thread, "ada final")
    assert "still being played" in private_text(res)


@pytest.mark.parametrize("bot_options", [ACKNOWLEDGE_FIRST])
async def test_restart_brings_a_stale_turn_message_up_to_date(
    table: Any, bot_options: dict[str, Any], make_bot: Any
) -> None:
    game = await table.new_game("alice", ("bob",))
    table.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=None)
    table.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    res = await table.move(game, lambda d: 0)
    assert "counted" in private_text(res)
    table.env.backend.faults.clear()
    _, seq = await table.store.load_state(game)
    assert decision_shown(await table.turn_message(game), game) == seq - 1
    await table.env.bot.close()
    await table.env.restart_bot(make_bot())
    assert decision_shown(await table.turn_message(game), game) == seq
    await table.move(game, lambda d: 0)  # and the game goes on from the new message
    table.env.errors  # noqa: B018 - the failures above were expected and handled
    await consistent(table, game)
