"""Shared pieces of the rules: pushing steps, chance, displays, payments, and where the
discs on the main board are."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import filterfalse
from string import Formatter
from typing import TYPE_CHECKING, Any, Final

from engine import rng
from engine.choices import DisplayCard, Skip
from engine.sentences import Sentence
from engine.state import GameState, PlayerState
from engine.versions import rule
from engine.vocabulary import AREA_COLOUR, AREA_TITLE, AREAS

if TYPE_CHECKING:
    from engine.edition import Edition

Step = dict[str, Any]
# the ids of the legal choices, in a stable order (their labels: engine.labels, when shown)
Choices = list[str]
AUTO: Final = None  # returned by a choices_ function: resolve this step without asking
SKIP: Final = Skip.ID


def push(st: GameState, *steps: Step | str) -> None:
    """Push steps so that the first one given is resolved first."""
    if len(steps) == 1:  # (most often: every step of every turn comes here)
        step = steps[0]
        st.stack.append({"op": step} if isinstance(step, str) else dict(step))
        return
    append = st.stack.append
    for step in reversed(steps):
        append({"op": step} if isinstance(step, str) else dict(step))


def push_effect(st: GameState, effect: list[Step]) -> None:
    if effect:
        st.stack.append({"op": "run_effect", "steps": effect})


def reveal(st: GameState) -> None:
    """Hidden or random information came out: undo may not go back past this choice."""
    st.undo_floor = len(st.history)


# ======================================================================================
# Small helpers
# ======================================================================================


def say(st: GameState, sentence: Sentence, **fields: object) -> None:
    """Log a line of the player in turn: one of the log's sentences (engine.sentences)."""
    # the line `sentence.say` writes, by a writer made once per sentence (a line of most steps)
    write = _LINE_WRITERS.get(sentence.text) or _line_writer(sentence.text)
    st.log.append(write(st.players[st.current].name, fields))


LineWriter = Callable[[str, dict[str, object]], str]
_LINE_WRITERS: dict[str, LineWriter] = {}  # sentence text -> its writer


def _line_writer(text: str) -> LineWriter:
    """`(player name, fields) -> "<name>: " + text.format_map(fields)`, the same line, as one
    f-string: str.format_map reads the template anew at every line, an f-string is compiled once."""
    pieces = ['f"{name}: "']
    for literal, field, spec, conversion in Formatter().parse(text):
        pieces.append(repr(literal))
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            # a field str.format reads otherwise (none of the sentences has one): format_map
            pieces = ['f"{name}: {text.format_map(fields)}"']
            break
        pieces.append(f'f"{{fields[{field!r}]}}"')
    # the code is made from a sentence template only: its texts as literals, its field names
    writer: LineWriter = eval(f"lambda name, fields: {' '.join(pieces)}", {"text": text})
    _LINE_WRITERS[text] = writer
    return writer


def draw_die(st: GameState) -> str:
    st.rng, i = rng.below(st.rng, len(st.bag))
    st.bag[i], st.bag[-1] = st.bag[-1], st.bag[i]
    colour = st.bag.pop()
    st.rng, pips = rng.below(st.rng, 6)
    return f"{colour}{pips + 1}"


def draw_cards(st: GameState, p: PlayerState, n: int) -> int:
    drawn = 0
    for _ in range(n):
        if not p.deck:
            if not p.discard:
                break
            p.deck, p.discard = p.discard, []
            st.rng = rng.shuffle(st.rng, p.deck)
        p.hand.append(p.deck.pop())
        drawn += 1
    reveal(st)
    return drawn


def slide_and_refill(st: GameState, name: str, remove_rightmost: bool = False) -> None:
    """Remove the rightmost item (main actions only), slide the rest right, refill from the left."""
    display: list[str | None] = getattr(st, f"{name}_display")
    deck: list[str] = getattr(st, f"{name}_deck")
    if remove_rightmost and display[-1] is not None:
        display[-1] = None
    items = [x for x in display if x is not None]
    empty = len(display) - len(items)
    new: list[str | None] = [None] * empty + items
    for i in range(empty - 1, -1, -1):
        if deck:
            new[i] = deck.pop()
    display[:] = new
    if empty:
        reveal(st)


def can_pay(p: PlayerState, cost: dict[str, int]) -> bool:
    for k, v in cost.items():
        if getattr(p, k) < v:
            return False
    return True


def pay(p: PlayerState, cost: dict[str, int]) -> None:
    for k, v in cost.items():
        setattr(p, k, getattr(p, k) - v)


def cost_text(cost: dict[str, int]) -> str:
    names = {"coal": " Coal", "brass": " Brass", "books": " Book(s)", "innovation": " Innovation"}
    return ", ".join(
        f"£{v}" if k == "money" else f"{v}{names.get(k, ' ' + k)}" for k, v in cost.items()
    )


def discard_from_hand(p: PlayerState, card: str) -> None:
    p.hand.remove(card)
    p.discard.append(card)


def shown(st: GameState) -> None:
    """A card from the hand was shown (played, discarded face up, named as removed): in rules
    version 2 undo may not take it back, as everyone has seen it."""
    if rule(st, "playing_a_card_reveals"):
        reveal(st)


def play_from_hand(st: GameState, card: str) -> None:
    """Play a Partner card from the hand: its effect resolves, then it is discarded (rulebook,
    Workshop turn: "Resolve the effect shown on any played Partner card and discard it"). Until
    then it is in play (`PlayerState.played`), so a draw cannot reshuffle it back. Rules
    version 1 discarded it first."""
    p = st.players[st.current]
    if rule(st, "card_effect_before_discard"):
        p.hand.remove(card)
        p.played.append(card)
        push(st, {"op": "discard_played", "card": card})
    else:
        discard_from_hand(p, card)
    push_effect(st, st.edition.partner[card]["effect"])
    shown(st)


def partner_name(st: GameState, card: str) -> str:
    return st.edition.partner[card]["name"]


def open_gear_spaces(p: PlayerState) -> list[int]:
    if not may_build(p):
        return []
    return [i for i, g in enumerate(p.gears) if g is None]


def may_build(p: PlayerState) -> bool:
    """Whether a Gear space is open: empty, and its disc gone (a Gear for each disc taken)."""
    gears = p.gears
    return 12 - (len(gears) - gears.count(None)) - p.discs > 0 and None in gears


def gain_innovation(st: GameState, p: PlayerState, n: int) -> None:
    top = st.edition.innovation_max
    before = p.innovation
    p.innovation = min(top, p.innovation + n)
    if before < top and p.innovation == top:
        push(st, "innovation_top")


def research_level(st: GameState, p: PlayerState, area: str) -> int:
    """0, 1 or 2: the advanced action level reached on the area's Research track."""
    lvl = p.research[AREA_COLOUR[area]]
    first, second = st.edition.research_track["advanced"]
    return 2 if lvl >= second else 1 if lvl >= first else 0


def own_dice(p: PlayerState) -> list[tuple[str, str]]:
    """(location, die) for every die on the player board: 's<i>' Store, 'm<i>' Mill."""
    out = [(f"s{i}", d) for i, d in enumerate(p.store) if d]
    out += [(f"m{i}", d) for i, d in enumerate(p.mill) if d]
    return out


def set_own_die(p: PlayerState, where: str, die: str) -> None:
    (p.store if where[0] == "s" else p.mill)[int(where[1:])] = die


def where_name(where: str) -> str:
    i = int(where[1:])
    return f"Store slot {i + 1}" if where[0] == "s" else f"Mill row {i // 3 + 1} col {i % 3 + 1}"


# -- discs on the main board -----------------------------------------------------------


def loc_name(st: GameState, loc: str) -> str:
    kind, _, rest = loc.partition(":")
    if kind == "uni":
        return st.edition.city[rest]["name"]
    if kind == "room":
        return f"Meeting room {int(rest) + 1}"
    if kind == "lec":
        i, level = rest.split(":")
        return f"{st.edition.institutions[int(i)]['name']}, level {level}"
    return f"the {AREA_TITLE[AREAS[int(rest)]]} Objective"


def discs_at(st: GameState, loc: str) -> list[int]:
    kind, _, rest = loc.partition(":")
    if kind == "uni":
        return st.university_discs[rest]
    if kind == "room":
        return [s for space in st.rooms[int(rest)] if space for s in space]
    if kind == "lec":
        return st.lectures.get(rest, [])
    return [entry[0] for entry in st.objective_discs[int(rest)]]


def own_board_discs(st: GameState, seat: int) -> list[str]:
    """Locations (not Objectives) holding at least one of the seat's discs, in a stable order."""
    out = [f"uni:{c}" for c in st.edition.university_cities if seat in st.university_discs[c]]
    out += [f"room:{r}" for r in range(4) if seat in discs_at(st, f"room:{r}")]
    out += [f"lec:{key}" for key in sorted(st.lectures) if seat in st.lectures[key]]
    return out


def put_disc(st: GameState, seat: int, loc: str, stack: bool = False) -> None:
    """Place a disc; stack=True puts it on top of the seat's own disc there (Ada's Study Publish)."""
    kind, _, rest = loc.partition(":")
    if kind == "uni":
        discs = st.university_discs[rest]
        if stack and rule(st, "publish_disc_on_own_disc"):
            # "place it on top of a disc of your colour" (rulebook, Ada's Study Publish): right
            # above your own disc, under any discs placed on it since.
            discs.insert(len(discs) - discs[::-1].index(seat), seat)
        else:
            discs.append(seat)
    elif kind == "room":
        room = st.rooms[int(rest)]
        own = [space for space in room if space == [seat]] if stack else []
        if own:
            own[0].append(seat)
        else:
            room[room.index(None)] = [seat]
    elif kind == "lec":
        st.lectures.setdefault(rest, []).append(seat)
    else:
        a = int(rest)
        if st.objective_first_round[a] is None:
            st.objective_first_round[a] = st.round
        slot = "high" if st.objective_first_round[a] == st.round else "low"
        st.objective_discs[a].append([seat, slot])


def take_disc(st: GameState, seat: int, loc: str) -> None:
    kind, _, rest = loc.partition(":")
    if kind == "uni":
        stack = st.university_discs[rest]
        del stack[len(stack) - 1 - stack[::-1].index(seat)]
    elif kind == "room":
        room = st.rooms[int(rest)]
        for i, space in enumerate(room):
            if space and seat in space:
                space.remove(seat)
                if not space:
                    room[i] = None
                return
    elif kind == "lec":
        st.lectures[rest].remove(seat)
        if not st.lectures[rest]:
            del st.lectures[rest]


def lecture_cost(st: GameState, seat: int, level: int) -> int:
    """Level cost plus every lower level down to your highest Lecture disc (rulebook, Institution)."""
    return lecture_costs(st, seat)[level]


def lecture_costs(st: GameState, seat: int) -> dict[int, int]:
    """What a Lecture at each level costs the seat (see lecture_cost), all levels at once: the
    edition's table for the seat's highest Lecture disc (read it, never change it)."""
    level = st.edition.lecture_level
    highest = 1  # (the table's row for no Lecture disc yet)
    found = False
    for k, seats in st.lectures.items():
        if seat in seats and (not found or level[k] > highest):
            highest, found = level[k], True
    return st.edition.lecture_costs_over[highest]


def empty_lectures(st: GameState) -> list[tuple[int, int]]:
    """(Institution, level) of each Lecture space no disc is on, in the edition's order."""
    keys, space = _lecture_spaces(st.edition)
    return list(map(space.__getitem__, filterfalse(st.lectures.__contains__, keys)))


@cache
def _lecture_spaces(ed: Edition) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """The edition's Lecture spaces: their keys in order, and each key's (Institution, level)
    (so that the empty ones are listed without a Python loop: asked at most turns)."""
    return [key for key, _, _ in ed.lecture_spaces], {
        key: (i, lvl) for key, i, lvl in ed.lecture_spaces
    }


def take_display_card(st: GameState, choice: str) -> str:
    """The Partner card of the display slot a choice names, taken into the hand of the player in
    turn (the slot left empty for the refill)."""
    (slot,) = DisplayCard.decode(choice)
    card = st.partner_display[slot]
    assert card is not None
    st.partner_display[slot] = None
    st.players[st.current].hand.append(card)
    return card


def open_rooms(st: GameState) -> list[int]:
    return [r for r in range(4) if None in st.rooms[r]]


def free_universities(st: GameState, seat: int) -> list[str]:
    return [c for c in st.edition.university_cities if seat not in st.university_discs[c]]


def university_prestige(st: GameState, city: str) -> int:
    if city in st.universities:
        return st.edition.university_tile[st.universities[city]]["prestige"]
    return st.edition.city[city].get("prestige", 0)


def science_ones_left(st: GameState, science: str) -> int:
    """1-point Science Scoring tokens of a Science still in its stack (rules version 2): three,
    less those effects gave out (a player holds at most one token per Science)."""
    taken = sum(1 for p in st.players if science in p.science_tokens)
    return st.edition.science_token_stack.count(1) - taken


def city_reward(st: GameState, city: str) -> tuple[list[Step], str]:
    if city in st.universities:
        tile = st.edition.university_tile[st.universities[city]]
        return tile["reward"], tile["text"]
    info = st.edition.city[city]
    return info.get("reward") or [], info.get("text", "")


def need_text(card: dict[str, Any]) -> str:
    need = card["need"]
    if need["kind"] == "value":
        return "needs a " + " or ".join(str(v) for v in need["values"])
    return "active die -1" if need["kind"] == "minus1" else "£ = active die"
