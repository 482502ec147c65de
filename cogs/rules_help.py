"""The rules summary for the decision in front of a player (``/ada rules``).

The text itself lives with the engine (engine.help), next to the rules it summarises.
"""

from __future__ import annotations

from engine import GameState
from engine.help import RULES_SUMMARY, rules_for


def rules_text(state: GameState) -> str:
    dec = state.decision
    if dec is None:
        return "The game is over: see `/ada final` for the scorepad."
    name = state.players[dec.player].name
    text = f"**{name}: {dec.prompt}**\n{rules_for(dec.kind, state.edition)}"
    if dec.optional:
        text += "\nThis decision is optional: you may skip it."
    if dec.kind in RULES_SUMMARY and dec.kind != "turn":
        text += "\n\n_Your turn in short_: " + rules_for("turn").split("\n")[0]
    return text
