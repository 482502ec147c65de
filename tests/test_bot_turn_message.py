"""The turn message as a player reads it (issue 18): top to bottom, line breaks kept, what
happened since your last turn, old turns shrunk to a record, and the polish items, each checked
through Discord as members would meet them."""

from __future__ import annotations

import random
from typing import Any

from cogs import digest, ui
from cogs.text import clean_name, one_line, shorten
from engine import sentences
from offline.driver import custom_ids, texts
from tests.test_bot_errors import private_text

#: The fields of a logged event that its short phrase names (others are counted or merged:
#: resources gained in a row, Research steps, a bonus told by what it gave).
NAMED = {"die", "die2", "card", "city", "loc", "loc2", "area", "track", "room", "program"}
NAMED |= {"assignment", "gear", "gear_space", "space", "roman"}


async def play_until(
    table: Any, game: int, rng: random.Random, done: Any, limit: int = 400
) -> None:
    for _ in range(limit):
        state, _ = await table.store.load_state(game)
        if done(state):
            return
        await table.move(game, lambda d: rng.randrange(len(d.choices)))
    raise AssertionError("the position was not reached")


def name_of(table: Any, rec: Any, seat: int) -> str:
    return rec.seat_at(seat).name


class TestTurnMessage:
    async def test_reads_top_to_bottom_with_line_breaks(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob", "carol"))
        rng = random.Random(3)
        await play_until(table, game, rng, lambda st: st.round >= 2 and st.decision.kind == "turn")
        state, seq = await table.store.load_state(game)
        rec = await table.store.get_game(game)
        msg = await table.turn_message(game)
        text = texts(msg)
        lines = text.split("\n")
        # whose turn and what they must decide, in one line under the title
        assert lines[0].startswith(f"### Game #{game} · round {state.round}")
        assert (
            lines[1] == f"{ui.mention_of(rec.seat_at(state.current))}: **{state.decision.prompt}**"
        )
        # then what happened, one line per turn, then the picture and the controls
        assert "**Since " in text and text.index("**Since ") > text.index(lines[1])
        assert all(line.startswith("• **") for line in text.split("**Since ")[1].split("\n")[1:3])
        assert "Decision " not in text  # no engine bookkeeping in the message

    async def test_digest_covers_every_move_since_the_players_last_turn(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob", "carol"))
        rng = random.Random(11)
        await play_until(table, game, rng, lambda st: st.round >= 3 and st.decision.kind == "turn")
        state, _ = await table.store.load_state(game)
        me = state.seat_names[state.current]
        # independently of the bot's code: the log lines after my last line
        last = max(i for i, line in enumerate(state.log) if line.startswith(f"{me}: "))
        since = [line.split(": ", 1)[1] for line in state.log[last + 1 :] if ": " in line]
        assert len(since) >= 4
        text = texts(await table.turn_message(game))
        said = text.split(f"**Since {me}'s last turn**")[1]
        for line in since:  # every event, said briefly: what it names is named
            parsed = sentences.parse(line)
            assert parsed is not None, line
            for name, value in parsed[1].items():
                if name in NAMED:
                    assert value in said, (line, name)
        others = {n for n in state.seat_names if n != me}
        assert all(f"**{n}**" in said for n in others)

    async def test_old_turn_messages_become_a_one_line_record(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        rng = random.Random(5)
        first = await table.turn_message(game)
        state, _ = await table.store.load_state(game)
        first_player = state.current
        await play_until(table, game, rng, lambda st: st.current != first_player)
        state, _ = await table.store.load_state(game)
        old = table.message(table.thread(game), first.id)
        record = texts(old)
        assert record.startswith(f"-# Round 1 · **{state.seat_names[first_player]}**: ")
        opening = next(
            ln for ln in state.log if ln.startswith(f"{state.seat_names[first_player]}: ")
        )
        assert digest.compact(opening.split(": ", 1)[1]) in record  # e.g. "Workshop: blue 4 ..."
        assert not custom_ids(old) and not old.attachments
        assert record.count("\n") <= 1 and "Your turn" not in record
        # the new turn message is the only one with controls
        with_controls = [m for m in table.thread(game).history() if custom_ids(m)]
        assert [m.id for m in with_controls] == [(await table.turn_message(game)).id]

    async def test_a_decision_about_the_hand_comes_privately_without_an_extra_click(
        self, table: Any
    ) -> None:
        game = await table.new_game("alice", ("bob",))
        rng = random.Random(8)
        for _ in range(300):
            state, seq = await table.store.load_state(game)
            res = await table.move(game, lambda d: rng.randrange(len(d.choices)))
            after, new_seq = await table.store.load_state(game)
            if after.decision and after.decision.private and after.current == state.current:
                break
        else:
            raise AssertionError("no private decision right after a click")
        sent = [f for f in res.followups if f.ephemeral]
        assert sent, "the private choices were not sent with the click's answer"
        ids = custom_ids(sent[-1])
        assert any(i.startswith(f"ada:c:{game}:{new_seq}:") for i in ids)
        assert "Your hand" in texts(sent[-1]) and "\n" in texts(sent[-1])


class TestPolish:
    async def test_ai_seats_are_marked_once(self, table: Any) -> None:
        res = await table.alice.slash(table.channel, "ada new", players=2, ai=1)
        assert res.acknowledged
        game = max(g.id for g in await table.store.games_in_channel(table.channel.id))
        lobby = await table.lobby_message(game)
        assert "(AI) (AI)" not in lobby.embeds[0].description
        assert "Babbage (AI)" in lobby.embeds[0].description
        await table.alice.click(lobby, custom_id=f"ada:l:start:{game}")
        for m in table.thread(game).history():
            assert "(AI) (AI)" not in texts(m)

    async def test_a_full_lobby_asks_for_start_and_offers_no_seat(self, table: Any) -> None:
        """Issue 28: a full lobby said "Waiting for players" and still showed Join."""
        game = await table.new_game("alice", ("bob",), start=False, players=2)
        lobby = await table.lobby_message(game)
        assert "Waiting for players" not in lobby.embeds[0].description
        assert "**Start**" in lobby.embeds[0].description
        ids = custom_ids(lobby)
        assert f"ada:l:join:{game}" not in ids and f"ada:l:ai:{game}" not in ids
        assert {f"ada:l:start:{game}", f"ada:l:leave:{game}", f"ada:l:cancel:{game}"} <= set(ids)
        await table.bob.click(lobby, custom_id=f"ada:l:leave:{game}")  # a seat is free again
        lobby = await table.lobby_message(game)
        assert "Waiting for players" in lobby.embeds[0].description
        assert f"ada:l:join:{game}" in custom_ids(lobby)
        # full from the start: the creator and an AI in two seats
        res = await table.carol.slash(table.channel, "ada new", players=2, ai=1)
        assert res.acknowledged
        game = max(g.id for g in await table.store.games_in_channel(table.channel.id))
        lobby = await table.lobby_message(game)
        assert "Waiting for players" not in lobby.embeds[0].description
        assert f"ada:l:join:{game}" not in custom_ids(lobby)

    async def test_once_the_end_is_triggered_the_headlines_say_final_round(
        self, table: Any
    ) -> None:
        """Issue 28. Rulebook, "End Game and Final Scoring": the end of the game is triggered
        when a player places their 9th die into the Mill area; play continues until all players
        have had the same number of turns. The turns left are the final round, and each turn
        message's headline says so."""
        game = await table.new_game("alice", ("bob",))
        rng = random.Random(8)
        headlines: list[tuple[bool, str]] = []
        for _ in range(2000):
            state, _ = await table.store.load_state(game)
            if state.decision is None:
                break
            head = texts(await table.turn_message(game)).split("\n")[0]
            headlines.append((state.end_triggered, head))
            await table.move(game, lambda d: rng.randrange(len(d.choices)))
        else:
            raise AssertionError("the game did not end")
        assert any(triggered for triggered, _ in headlines)
        for triggered, head in headlines:
            assert ("final round" in head) == triggered, head

    async def test_ai_policy_offers_its_choices_in_every_language(self, table: Any) -> None:
        """Issue 28: /ada new's ai_policy offered nothing, so players had to type a name."""
        from engine.ai import POLICIES

        commands = table.env.backend.visible_commands(
            user_id=table.alice.id, channel_id=table.channel.id
        )
        ada = next(c for c in commands if c["name"] == "ada")
        new = next(o for o in ada["options"] if o["name"] == "new")
        option = next(o for o in new["options"] if o["name"] == "ai_policy")
        offered = option.get("choices") or []
        assert sorted(c["value"] for c in offered) == sorted(POLICIES)
        for choice in offered:  # localised like the other options
            names = choice.get("name_localizations") or {}
            assert names.get("es-ES") and names.get("ja"), choice
            assert names["es-ES"] != choice["name"] or names["ja"] != choice["name"]
        res = await table.alice.slash(table.channel, "ada new", players=2, ai=1, ai_policy="search")
        assert res.acknowledged
        game = max(g.id for g in await table.store.games_in_channel(table.channel.id))
        assert [s.ai_policy for s in (await table.store.get_game(game)).seats if s.is_ai] == [
            "search"
        ]

    async def test_lobby_names_its_creator_not_an_id(self, table: Any) -> None:
        game = await table.new_game("alice", (), start=False, players=2)
        footer = (await table.lobby_message(game)).embeds[0].description
        assert f"user {table.alice.id}" not in footer and f"<@{table.alice.id}>" in footer

    async def test_commands_in_the_games_own_thread_say_why_not(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        thread = table.thread(game)
        res = await table.alice.slash(thread, "ada final")
        assert "still being played" in private_text(res)
        res = await table.alice.slash(thread, "ada start")
        assert "already started" in private_text(res)
        res = await table.alice.slash(thread, "ada cancel")
        assert "cancelled" in private_text(res)
        for command in ("ada undo", "ada rules", "ada refresh"):
            res = await table.alice.slash(thread, command)
            assert "was cancelled" in private_text(res), command
        res = await table.alice.slash(thread, "ada play", choice="1")
        assert "was cancelled" in private_text(res)
        assert "can't tell which game" not in private_text(res)

    async def test_after_the_end(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        rec = await table.store.get_game(game)
        await table.store.repair_game(game)  # (a no-op: the game is healthy)
        state, seq = await table.store.load_state(game)
        # play the whole game quickly through the store, then ask in the thread
        rng = random.Random(2)
        while not state.is_over:
            seat = state.decision.player
            state = await table.store.apply_choice(
                game, seq, seat, rng.choice(state.decision.choices).id
            )
            seq += 1
        thread = table.thread(game)
        for command, options in (
            ("ada undo", {}),
            ("ada rules", {}),
            ("ada play", {"choice": "1"}),
        ):
            res = await table.alice.slash(thread, command, **options)
            assert "is over" in private_text(res) and "/ada final" in private_text(res), command
        res = await table.alice.slash(thread, "ada score")
        text = private_text(res)
        assert "final score" in text and "so far" not in text
        assert rec.id == game

    async def test_typing_a_move_out_of_turn_says_whose_turn_it_is(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        state, _ = await table.store.load_state(game)
        rec = await table.store.get_game(game)
        waiting = rec.seat_at(state.current)
        other = table.bob if waiting.user_id == table.alice.id else table.alice
        res = await other.slash(table.thread(game), "ada play", choice="no such move")
        assert "not your turn" in private_text(res) and waiting.name in private_text(res)

    def test_events_are_said_briefly(self) -> None:
        turn = digest.Turn(
            0,
            2,
            (
                "Workshop turn: moves grey 5 from space 5 to space 6.",
                "pushes out grey 5 onto the Gain 1 Research on any track bonus.",
                "gains 1 Research on Ada's Study (now 1).",
                "plays Richard Sheepshanks: Gain 1 Research on any track",
                "gains a Book.",
                "gains a Book.",
            ),
        )
        # short past-tense phrases; the bonus is told by what it gave; Books gained in a row
        # said once, with the plural
        assert digest.summary(turn) == (
            "Workshop: moved grey 5 from space 5 to 6; pushed out grey 5; Research on Ada's "
            "Study → 1; played Richard Sheepshanks; +2 Books"
        )
        assert digest.compact("travels to Leeds for £4.") == "travelled to Leeds (£4)"
        assert digest.compact("an event no rule knows.") == "an event no rule knows"

    def test_text_keeps_line_breaks_and_cuts_at_words(self) -> None:
        text = "What just happened\n• alice moved\n\n**Your turn**: pick one"
        assert shorten(text, 200) == text  # under the limit nothing changes
        cut = shorten("word " * 100, 50)
        assert len(cut) <= 50 and cut.endswith("…")
        assert one_line("a\nb   c", 10) == "a b c"

    def test_display_names_are_cleaned(self) -> None:
        assert clean_name("\u202eevil\u200b") == "evil"
        family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
        name = clean_name(family * 20)
        assert len(name) <= 32 and name == family * (len(name) // len(family))
        assert clean_name("\u200b\u200d") == "player"


class TestUpgrade:
    async def test_a_turn_message_from_the_previous_version_is_taken_over(
        self, table: Any, make_bot: Any
    ) -> None:
        """Games in progress when the bot is upgraded have an embed-style turn message with
        plain button rows: the next move turns it into the new message (or its record)."""
        import discord

        game = await table.new_game("alice", ("bob",))
        state, seq = await table.store.load_state(game)
        thread = table.env.bot.get_channel(table.thread(game).id)
        view = discord.ui.View(timeout=None)
        for i, c in enumerate(state.decision.choices[:5]):
            view.add_item(
                discord.ui.Button(label=c.label[:80], custom_id=ui.cid_choice(game, seq, i))
            )
        view.add_item(discord.ui.Button(label="Next ▶", custom_id=ui.cid_page(game, seq, 1)))
        view.stop()
        old = await thread.send(
            content="it's your turn",
            embeds=[discord.Embed(title=f"Game #{game} · round 1")],
            view=view,
        )
        await table.env.bot.ada.games.flush_shown()  # (what the bot has not written yet first)
        await table.store.record_message(game, "turn", thread.id, old.id, seq)
        await table.env.bot.close()  # the upgraded bot starts with this message on record
        await table.env.restart_bot(make_bot())
        mover = table.by_id[(await table.store.get_game(game)).seat_at(state.current).user_id]
        legacy = table.message(table.thread(game), old.id)
        res = await mover.click(legacy, custom_id=ui.cid_choice(game, seq, 0))
        assert res.acknowledged
        now = table.message(table.thread(game), old.id)
        assert not now.embeds and not now.content  # a Components V2 message now
        assert "### Game" in texts(now) or texts(now).startswith("-# Round")
        assert (await table.store.load_state(game))[1] == seq + 1
