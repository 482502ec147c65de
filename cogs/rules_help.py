"""The rules summary for the decision in front of a player (``/ada rules``).

The text itself lives with the engine (engine.help), next to the rules it summarises; the
catalogs translate its templates, the edition's numbers filled in.
"""

from __future__ import annotations

from cogs.text import escape
from engine import GameState
from engine.help import RULES_SUMMARY, summary
from i18n import Lang
from i18n import game as words


def rules_text(state: GameState, tr: Lang) -> str:
    dec = state.decision
    if dec is None:
        return tr._("The game is over: see `/ada final` for the scorepad.")
    name = escape(state.players[dec.player].name)
    text = f"**{name}: {words.prompt(tr, dec)}**\n" + summary(dec.kind).render(state.edition, tr._)
    if dec.optional:
        text += "\n" + tr._("This decision is optional: you may skip it.")
    if dec.kind in RULES_SUMMARY and dec.kind != "turn":
        turn = summary("turn").render(state.edition, tr._).split("\n")[0]
        text += "\n\n" + tr._("_Your turn in short_: {text}", text=turn)
    return text
