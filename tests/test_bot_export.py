"""``/ada export`` (issue 30): a finished game's record as a file, replayable by
``python -m engine replay FILE`` to the same final scores, its log in the member's language; a
game in play is refused (its record would reveal hidden cards), as are other servers' games."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import engine.__main__ as engine_cli
from offline.driver import texts


def answer(res: Any) -> str:
    found = [texts(f) for f in res.followups if f.ephemeral]
    if res.response is not None and res.response.ephemeral:
        found.append(texts(res.response))
    return "\n".join(found)


def files(res: Any) -> list[Any]:
    """The files of the private answer (a deferred answer's follow-up becomes its response)."""
    messages = [res.response, *res.followups] if res.response is not None else res.followups
    return [a for m in messages for a in m.attachments]


async def finished_game(table: Any, guild_id: int | None = None) -> int:
    """A game of alice and bob played to its end through the store (fast: no clicks)."""
    store = table.store
    game = await store.create_game(
        guild_id or table.guild.id, table.channel.id, table.alice.id, {"players": 2}
    )
    for name in ("alice", "bob"):
        await store.add_seat(game, name=name, user_id=table.members[name].id)
    state = await store.start_game(game, 11)
    rng, seq = random.Random(5), 0
    while not state.is_over:
        d = state.decision
        state = await store.apply_choice(game, seq, d.player, rng.choice(d.choices).id)
        seq += 1
    return game


async def test_export_replays_to_the_final_scores(table: Any, tmp_path: Any) -> None:
    game = await finished_game(table)
    res = await table.bob.slash(table.channel, "ada export", game=game)
    assert res.ephemeral and f"#{game}" in answer(res)
    [attachment] = files(res)
    assert attachment.filename == f"adas-dream-game-{game}.json"
    data = await attachment.read()
    record = json.loads(data)
    state, _ = await table.store.load_state(game)
    assert record["final_scores"] == state.final_scores()
    assert record["edition"] and record["rules_version"] and record["language"] == "en"
    assert len(record["log"]) == len(state.log) and "user_id" not in json.dumps(record["seats"])
    path = tmp_path / "game.json"
    path.write_bytes(data)
    out = io.StringIO()
    assert engine_cli.main(["replay", str(path), "--json"], out=out) == 0
    assert json.loads(out.getvalue())["final_scores"] == state.final_scores()


async def test_the_log_comes_in_the_members_language(table: Any) -> None:
    game = await finished_game(table)
    await table.alice.slash(table.channel, "ada language", language="es")
    res = await table.alice.slash(table.channel, "ada export", game=game)
    [attachment] = files(res)
    record = json.loads(await attachment.read())
    res_en = await table.bob.slash(table.channel, "ada export", game=game)
    [attachment_en] = files(res_en)
    english = json.loads(await attachment_en.read())
    assert record["language"] == "es" and record["log"] != english["log"]
    assert record["choices"] == english["choices"]  # the same game, told in another language
    assert "partida" in answer(res).lower()


async def test_a_game_in_play_is_not_exported(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    res = await table.alice.slash(table.channel, "ada export", game=game)
    said = answer(res)
    assert "still being played" in said and "hidden" in said
    assert not files(res)


async def test_other_servers_and_unknown_games(table: Any) -> None:
    elsewhere = table.env.create_guild("Elsewhere")
    game = await finished_game(table, guild_id=elsewhere.id)
    res = await table.alice.slash(table.channel, "ada export", game=game)
    assert "not in this server" in answer(res)
    res = await table.alice.slash(table.channel, "ada export", game=9999)
    assert "no game #9999" in answer(res).lower()
    assert not files(res)
