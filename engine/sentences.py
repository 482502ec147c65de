"""The game log's sentences: every line the rules write, declared once as a template.

The log is stored with every game (in its snapshots and state digest), so its English text is a
format like the choice ids: a template here never changes its words. The rules write a line with
`common._say(st, SENTENCE, field=value, ...)` ("<player>: " is put before it), and anyone can read
a stored line back into its sentence and fields with `parse` (a translation says it again in
another language from them):

    TRAVELS.say(city="Leeds", cost=4)            # 'travels to Leeds for £4.'
    parse("travels to Leeds for £4.")            # (TRAVELS, {'city': 'Leeds', 'cost': '4'})

A field's name says what it holds (FIELD_PATTERNS: a die as "yellow 5", a number, an area or
track title, a Mill line, resources as "£3, 2 Coal", a Gear space as "row 1, gap 2"); any other
field is a name or a content text from the edition (a card, a city, an effect). Templates are
tried in the order of SENTENCES, the more specific first where two could read the same line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.vocabulary import AREA_TITLE, COLOUR_NAMES, LINE_NAMES, TRACK_NAMES

_AMOUNT_PART = r"(?:£\d+|\d+ (?:Coal|Brass|Book\(s\)|Innovation))"


def _alternatives(words: Any) -> str:
    return "(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + ")"


#: What a field of each name may hold (any other field: some text, matched as briefly as the
#: rest of the sentence allows).
FIELD_PATTERNS: dict[str, str] = {
    "die": _alternatives(COLOUR_NAMES.values()) + " [1-6]",
    "die2": _alternatives(COLOUR_NAMES.values()) + " [1-6]",
    "space": r"\d+",
    "to": r"\d+",
    "pips": r"\d+",
    "room": r"\d+",
    "cost": r"\d+",
    "level": r"\d+",
    "cap": r"\d+",
    "n": r"\d+",
    "players": r"\d+",
    "roman": r"I+",
    "area": _alternatives(AREA_TITLE.values()),
    "track": _alternatives(TRACK_NAMES.values()),
    "line": _alternatives(LINE_NAMES),
    "amount": f"{_AMOUNT_PART}(?:, {_AMOUNT_PART})*",
    "gear_space": r"(?:row|column) \d+, gap \d+",
}
_FIELD = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True, slots=True)
class Sentence:
    """One kind of log line: `text` is its English template (str.format fields)."""

    key: str
    text: str
    fields: tuple[str, ...] = field(init=False)
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = tuple(_FIELD.findall(self.text))
        pattern, pos = "", 0
        for m in _FIELD.finditer(self.text):
            pattern += re.escape(self.text[pos : m.start()])
            pattern += f"(?P<{m[1]}>{FIELD_PATTERNS.get(m[1], '.+?')})"
            pos = m.end()
        pattern += re.escape(self.text[pos:])
        object.__setattr__(self, "fields", names)
        object.__setattr__(self, "regex", re.compile(pattern))

    def say(self, **fields: Any) -> str:
        """The English line (the stored text)."""
        return self.text.format_map(fields)


# -- lines of no player (rules.py) ------------------------------------------------------------
SET_UP = Sentence("set_up", "Game set up for {players} players; {name} is the first player.")
GAME_OVER = Sentence("game_over", "The game is over.")

# -- a player's lines: turn.py, effects.py, rules.py (the player's name comes before) -------------
DRAFTS = Sentence("drafts", "drafts {card}.")
WORKSHOP_TURN = Sentence(
    "workshop_turn", "Workshop turn: moves {die} from space {space} to space {to}."
)
ACTIONS_TURN = Sentence("actions_turn", "Actions turn: uses {die} for {area}.")
NO_TURN_IDLE = Sentence(
    "no_turn_idle", "can take no turn and puts a die in the Mill without an action."
)
NO_TURN_PASS = Sentence("no_turn_pass", "can take no turn and passes.")
PUSHES_OUT = Sentence("pushes_out", "pushes out {die} onto the {bonus} bonus.")
REFILLS = Sentence("refills", "refills Workshop space {space} and gains its bonus.")
COAL_ADJUST = Sentence("coal_adjust", "spends 1 Coal to turn {die} into a {pips}.")
PLAYS_FREE = Sentence("plays_free", "plays {card} without its cost: {effect}")
PLAYS = Sentence("plays", "plays {card}: {effect}")
NINTH_DIE = Sentence("ninth_die", "places a 9th die in the Mill: the end of the game is triggered.")
ADVANCED = Sentence("advanced", "takes the level {roman} advanced action.")
PLACES_PROGRAM = Sentence("places_program", "places Program '{program}' on the {line}.")
GAINS_BOOK = Sentence("gains_book", "gains a Book.")
GAINS_ADDITION = Sentence("gains_addition", "gains an Addition Gear.")
GAINS_RESEARCH = Sentence("gains_research", "gains 1 Research on {track} (now {level}).")
GAINS_REWARD = Sentence("gains_reward", "gains the reward of {loc}.")
GAINS = Sentence("gains", "gains {amount}.")
GAINS_CARD = Sentence("gains_card", "gains {card}.")
TAKES_ASSIGNMENT = Sentence("takes_assignment", "takes the Assignment {assignment}.")
TRAVELS = Sentence("travels", "travels to {city} for £{cost}.")
MOVES_FREE = Sentence("moves_free", "moves free to {city}.")
MOVES_DISC = Sentence("moves_disc", "moves a disc from {loc} to {loc2}.")
MOVES_TO = Sentence("moves_to", "moves to {city}.")
ATTENDS = Sentence("attends", "attends Meeting room {room}.")
RECRUITS = Sentence("recruits", "recruits {card}.")
REMOVES_CARD = Sentence("removes_card", "removes {card} from the game.")
LECTURES = Sentence("lectures", "lectures at {loc} for {cost} Innovation.")
PLACES_DISC = Sentence("places_disc", "places a disc on {loc}.")
PUBLISHES = Sentence("publishes", "publishes in {area}.")
BUILDS = Sentence("builds", "builds {gear} at {gear_space}.")
STEAM = Sentence("steam", "advances Steam to level {level} (lines capped at {cap}).")
NO_DISC_BOXED = Sentence(
    "no_disc_boxed", "has no disc on the main board and removes a disc from the game."
)
SWAPS_DIE = Sentence("swaps_die", "swaps their {die} with {die2} from the Workshop.")
INNOVATION_TOP = Sentence(
    "innovation_top", "spends {n} Innovation at the top of the track for {bonus}."
)
BREAKTHROUGH = Sentence("breakthrough", "reaches a Breakthrough on {track}: {effect}.")
TRACK_TOP = Sentence(
    "track_top", "reaches the top of {track} and takes its Assignment Scoring token."
)
TAKES_MULTIPLIER = Sentence("takes_multiplier", "takes a Multiplier Gear.")
USES_DISPLAY = Sentence("uses_display", "uses the effect of {card} from the display.")
UPGRADES = Sentence("upgrades", "swaps a built Subtraction Gear for an Addition Gear.")
REMOVES_DISC = Sentence("removes_disc", "removes a disc from the player board.")

#: Every sentence, in the order `parse` tries them (a specific one before a general one that
#: could read the same line: "gains a Book." before "gains {amount}." before "gains {card}.").
SENTENCES: tuple[Sentence, ...] = tuple(
    v for v in list(globals().values()) if isinstance(v, Sentence)
)
BY_KEY: dict[str, Sentence] = {s.key: s for s in SENTENCES}
assert len(BY_KEY) == len(SENTENCES), "sentence keys are unique"


def parse(text: str) -> tuple[Sentence, dict[str, str]] | None:
    """The sentence and fields of a logged line (without its "<player>: "), or None for a
    line no rule writes."""
    for sentence in SENTENCES:
        m = sentence.regex.fullmatch(text)
        if m is not None:
            return sentence, m.groupdict()
    return None
