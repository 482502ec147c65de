"""Fair play under faults and abuse, round 2 (issue 33): each test reproduces a finding of the
second review (it failed before its fix) and shows the fixed behaviour."""

from __future__ import annotations

from typing import Any

from cogs.text import clean_name, escape, unescape
from offline.driver import texts
from tests.test_bot_errors import private_text

# The review's nicknames: a masked link, a timestamp, a command and a channel mention, emphasis.
LINK = "[gift](https://x.co/nitro)"
MENTIONS = "<t:0:R> </ada new:1> <#1>"
EMPHASIS = "**b** __u__ ||s||"


class TestNames:
    def test_escape_shows_the_exact_examples_as_typed(self) -> None:
        assert escape(LINK) == r"\[gift\]\(https\://x.co/nitro\)"
        assert escape(MENTIONS) == r"\<t\:0\:R\> \</ada new\:1\> \<\#1\>"
        assert escape(EMPHASIS) == r"\*\*b\*\* \_\_u\_\_ \|\|s\|\|"
        for name in (LINK, MENTIONS, EMPHASIS, "a\\b", "Zoë 🦊"):
            assert unescape(escape(name)) == name
        assert escape("Zoë 🦊") == "Zoë 🦊"  # nothing to escape: unchanged

    def test_a_line_break_in_a_name_is_a_space(self) -> None:
        assert clean_name("Ann\nBob") == "Ann Bob"
        assert clean_name("Ann\r\n\tBob") == "Ann Bob"

    async def test_names_are_not_markdown_in_the_lobby_or_the_turn(self, table: Any) -> None:
        members = [
            table.guild.add_member(table.env.create_user(f"m{i}"), nick=nick)
            for i, nick in enumerate((LINK, MENTIONS, EMPHASIS))
        ]
        res = await members[0].slash(table.channel, "ada new", players=3)
        assert "is set up" in private_text(res)
        game = max(g.id for g in await table.store.games_in_channel(table.channel.id))
        lobby = await table.lobby_message(game)
        for m in members[1:]:
            await m.click(lobby, custom_id=f"ada:l:join:{game}")
        lobby = await table.lobby_message(game)
        shown = texts(lobby)
        for name in (LINK, MENTIONS, EMPHASIS):
            assert escape(name) in shown and name not in shown
        await members[0].click(lobby, custom_id=f"ada:l:start:{game}")
        headline = texts(await table.turn_message(game)).split("\n")[0]
        rec = await table.store.get_game(game)
        state, _ = await table.store.load_state(game)
        deciding = rec.seat_at(state.decision.player).name
        assert escape(deciding) in headline and deciding not in headline
