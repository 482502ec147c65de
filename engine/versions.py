"""Rules versions: a game is played to the end under the rules it began with.

A stored game is its setup plus its list of choice ids, replayed through the engine. A change of
the rules would make an old game's choices mean something else (or nothing), so every change of
behaviour is named here with the first version that has it, and the engine asks `rule(st, name)`
where it behaves differently. `GameSetup.rules_version` defaults to the latest for a new game; a
setup stored without the field is version 1.

Version 1: the rules as first implemented (every game stored before versions existed).
Version 2: the rules audit of issue 20, each item checked against the rulebook text (README,
"Content and rule choices").
Version 3: after a tie for most discs in a Meeting room, every tied player gains a 1-point
Science Scoring token, as the rulebook says, even when the stack has run out (issue 31).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from engine.state import GameState

RULES_VERSIONS = (1, 2, 3)
LATEST_RULES = RULES_VERSIONS[-1]

# name -> (first version with the behaviour, what it is)
RULE_CHANGES: Final[dict[str, tuple[int, str]]] = {
    "objectives_at_once": (
        2,
        "an Objective is claimed as soon as a step completes it, not at the end of the turn",
    ),
    "study_cleanup_after_main_reward": (
        2,
        "Ada's Study: the rightmost Assignment leaves right after the main Study reward",
    ),
    "study_needs_a_program": (
        2,
        "Ada's Study may be chosen only when a Program tile can be taken",
    ),
    "meetings_remove_before_draw": (
        2,
        "Meetings: remove a Partner card to keep eight before drawing",
    ),
    "travel_stops_only_for_a_reward": (
        2,
        "Travel may not stop at a University that already holds your disc",
    ),
    "publish_disc_on_own_disc": (
        2,
        "Ada's Study Publish on a University puts the disc right on top of your own disc",
    ),
    "meetings_draw_is_optional": (
        2,
        "Meetings advanced level II: drawing the 2 cards is optional",
    ),
    "workshop_adjust_any_time": (
        2,
        "the Workshop Coal adjust is offered again late in the turn if the Workshop changed",
    ),
    "science_token_supply": (
        2,
        "Science Scoring tokens are a limited supply: a 2-point and three 1-point per Science",
    ),
    "two_discs_per_disc_space": (
        2,
        "the two-disc limit counts one disc space (a Meeting room space), not a whole room",
    ),
    "playing_a_card_reveals": (
        2,
        "playing or discarding a card from hand ends the undo window, as a draw does",
    ),
    "card_effect_before_discard": (
        2,
        "a played Partner card's effect resolves before the card is discarded",
    ),
    "no_pointless_decisions": (
        2,
        "a decision whose every answer ends in the same position is not asked (bench_decisions)",
    ),
    "meetings_tie_all_gain": (
        3,
        "Meetings scoring: all players tied for most discs in a room gain a 1-point token,"
        " even beyond the stack",
    ),
}


def rule(st: GameState, name: str) -> bool:
    """Whether the game in `st` plays by the named rule change (see RULE_CHANGES)."""
    return st.setup.rules_version >= RULE_CHANGES[name][0]
