"""Short rules summaries, keyed by decision kind, for a player who asks "what are the rules here?".

The text follows the rulebook (../shared/rules/rulebook.en.txt); designed numbers come from the
game's edition (a summary that quotes them is a function of the edition).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.edition import Edition, default_edition_name, edition


def _same(text: str) -> str:
    return text


@dataclass(frozen=True, slots=True)
class Listed:
    """A field of a summary that lists values of the edition: each item said with `template`,
    joined with `sep` ("room 1 £1 or 1 Innovation, room 2 ...")."""

    template: str
    items: tuple[dict[str, Any], ...]
    sep: str = ", "

    def render(self, translate: Callable[[str], str] = _same) -> str:
        return translate(self.sep).join(translate(self.template).format(**i) for i in self.items)


@dataclass(frozen=True, slots=True)
class Summary:
    """A rules summary: an English template and, when it quotes the edition's numbers, the
    function that gives its fields (so a translation says the same numbers)."""

    text: str
    fields: Callable[[Edition], dict[str, Any]] | None = None

    def render(self, ed: Edition, translate: Callable[[str], str] = _same) -> str:
        """The summary in English, or in a language: ``translate`` gives a template's
        translation (the same fields)."""
        values = {
            k: v.render(translate) if isinstance(v, Listed) else v
            for k, v in (self.fields(ed) if self.fields else {}).items()
        }
        return translate(self.text).format(**values) if values else translate(self.text)


_TURN = Summary(
    "On your turn take ONE of two turn types.\n"
    "• Workshop turn (needs an empty Store slot): pick a Workshop die and move it 1 space clockwise "
    "(1 Coal: one more space). It pushes out a die of equal or lower value in the space it lands "
    "in: that die is your active die. Gain that space's bonus; if a space is now empty, refill it "
    "with 3 rolled dice and gain its bonus too. The die goes to your Store; you may play one "
    "Partner card whose requirement the die meets; then each Assignment in the die's colour "
    "column gives 1 Research of that colour (grey dice trigger none). Once per turn, at any point "
    "of it, 1 Coal may adjust any Workshop die by 1 pip.\n"
    "• Actions turn: put a Store die into your Mill and take the main action of its colour "
    "(purple Ada's Study, blue Travel, yellow Meetings, green Institutions; grey = any), then the "
    "advanced action if your Research on that track reached level I or II.\n"
    "Then Publish in that area (1 Book) or Build one Gear, or neither. Hand limit 5 at the end."
)

_MEET_ROOM = Summary(
    "Meetings: place a disc in the top-left empty space of a room, paying its cost: {rooms}. "
    "Then take a Partner from the slot under that room or any slot to its right, remove a card "
    "to keep eight, and draw the cards shown under its slot (2, 1, 1, 0). At the end the "
    "room's majority takes its 2-point Science token, other players there a 1-point token, "
    "while the stack lasts (a 2-point and three 1-point tokens per Science).",
    lambda ed: {
        "rooms": Listed(
            "room {n} £{money} or {innovation} Innovation",
            tuple(
                {"n": i + 1, "money": r["money"], "innovation": r["innovation"]}
                for i, r in enumerate(ed.meeting_rooms)
            ),
        )
    },
)

_STEAM = Summary(
    "Steam caps what each complete Mill line can score: {levels}. Advancing may cost Coal as "
    "printed on the track.",
    lambda ed: {
        "levels": Listed(
            "level {n}: {cap}",
            tuple({"n": i, "cap": lvl["cap"]} for i, lvl in enumerate(ed.steam_track)),
        )
    },
)

_RESEARCH = Summary(
    "Research moves your marker up a track: advanced level I at {first}, level II at {second}, "
    "Breakthroughs at {breakthroughs}, and the top ({top}) takes an Assignment Scoring token "
    "(2 for the first player, then 1) that scores per Assignment in that colour's column.",
    lambda ed: {
        "first": ed.research_track["advanced"][0],
        "second": ed.research_track["advanced"][1],
        "breakthroughs": Listed(
            "{n}", tuple({"n": n} for n in ed.research_track["breakthroughs"]), " and "
        ),
        "top": ed.research_track["top"],
    },
)


RULES_SUMMARY: dict[str, Summary | str] = {
    "turn": _TURN,
    "ws_push": (
        "The moving die pushes out one die of equal or lower value from the space it ends in. "
        "The pushed die becomes your active die and goes to the bonus space. You may spend 1 Coal "
        "(once per turn) to adjust a die by 1 pip, e.g. to make a die pushable."
    ),
    "ws_adjust": (
        "Once per Workshop turn, at any point of it, you may spend 1 Coal to adjust any Workshop "
        "die by 1 pip. Not used yet? You are asked again later in the turn if the Workshop changed."
    ),
    "partner_play": (
        "Play up to one Partner card from hand. A value requirement needs the active die to show "
        "that value; '-1' cards reduce the active die by 1 (not a 1); '£' cards cost £ equal to "
        "the active die. The card's effect resolves, then it goes to your discard pile."
    ),
    "mill_place": (
        "The active die goes into any empty slot of your 3x3 Mill. A line (row or column) with 3 "
        "dice and 2 Gears scores at the end, computed left to right / top to bottom (2+3x5 = 25), "
        "capped by your Steam. Programs on a line score if its 3 dice meet them. The 9th die in "
        "a Mill triggers the end of the game."
    ),
    "study_program": (
        "Ada's Study: take one Program tile and place it on an empty Program space (you gain the "
        "space's bonus), then take one Study reward: a Book, an Addition Gear, or an Assignment. "
        "After taking the Program the rightmost Program leaves the game; after the Study reward the "
        "rightmost Assignment does (once per action); the displays slide right and refill. You "
        "may choose Ada's Study only if you can take a Program."
    ),
    "study_reward": (
        "Study rewards: 1 Book, 1 Addition Gear, or 1 Assignment card. Advanced level I: a second, "
        "different reward; level II: all three."
    ),
    "take_assignment": (
        "An Assignment gives its effect at once, then goes into a matching column under your "
        "board. Some need you to discard Partner cards. On Workshop turns each Assignment in the "
        "collected die's colour column gives 1 Research."
    ),
    "travel_move": (
        "Travel: move to another city paying £1 per road, £2 per rail, £4 per ferry on the way. "
        "A Small City gives its reward; a University gives its reward and takes one of your discs "
        "on top of any others there (each disc scores 2 for every disc above it). You may not stop "
        "at a University that already holds your disc (passing through is fine). Advanced: move free to the next Small City "
        "(level I) or up to 2 Small Cities away (level II)."
    ),
    "move_small": "Move free to a Small City (Universities on the way are skipped) and gain its reward.",
    "meet_room": _MEET_ROOM,
    "meet_card": (
        "Take a Partner card from the slot under your room or to its right; remove a card to keep "
        "eight, then draw as shown under its slot."
    ),
    "may_draw": "Meetings advanced level II: you may draw 2 cards, then play a card without its cost.",
    "keep_eight": "You always have exactly 8 Partner cards: remove one from your hand or discard pile.",
    "lecture": (
        "Institutions: place a disc on an empty Lecture space (levels 2-6), paying Innovation: the "
        "level's cost (2 and 3: 1, 4 and 5: 2, 6: 3) plus every lower level down to your highest "
        "Lecture disc. Gain the space's reward. At the end each level's row scores 8/6/4/2/2 for "
        "the most discs (ties share half). Advanced: the reward of an unoccupied lower space in "
        "the same Institution (I) or any Institution (II)."
    ),
    "lower_space": "Gain the reward of one unoccupied lower Lecture space (the Analytical Society always counts).",
    "publish_or_build": (
        "End of turn: spend 1 Book to Publish in the area of your main action (Workshop: +1 Steam; "
        "Ada's Study: stack a disc on one of yours and take that area's level I advanced action; "
        "Travel: change your dice by up to 4 pips; Meetings: take a Multiplier Gear; Institutions: "
        "swap a die of yours with a Workshop die) OR build one Gear paying its cost into an open "
        "Gear space (a space whose disc has left your board)."
    ),
    "gear_place": "Gears go on open Gear spaces of your Mill; every unbuilt space costs 2 Prestige at the end.",
    "hand_limit": "At the end of your turn discard down to five cards.",
    "innovation_top": "Innovation never exceeds 6. Reaching the top you may spend 2 for any Workshop bonus.",
    "program_place": "Place the Program beside a line of your Mill; you gain that space's bonus at once.",
    "steam": _STEAM,
    "discard": "Discard a card from your hand to your discard pile.",
    "research": _RESEARCH,
    "play_free": "You may play a card from your hand without paying its cost or meeting its requirement.",
    "place_disc": (
        "With no disc left on your board, you may move one of your discs already on the main board "
        "to the new space (not one that meets the Objective you are claiming)."
    ),
}


def summary(kind: str) -> Summary:
    """The rules summary of a decision kind (the turn overview for any other)."""
    text = RULES_SUMMARY.get(kind, _TURN)
    return text if isinstance(text, Summary) else Summary(text)


def rules_for(kind: str, ed: Edition | None = None) -> str:
    """The rules summary for a decision kind (falls back to the turn overview), with the numbers
    of the game's edition (`state.edition`; default: the edition new games take)."""
    return summary(kind).render(ed or edition(default_edition_name()))
