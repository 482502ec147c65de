"""The game's log read as turns: what each player did, and what happened since a player's last turn.

The engine logs one line per event, each starting with the acting player's name, and every turn
opens with one of the engine's turn-start lines (a Workshop turn, an Actions turn, or no turn
possible). That is enough to cut the log into turns without storing anything more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cogs.text import escape_names
from engine import GameState
from engine.vocabulary import LINE_NAMES
from i18n import ENGLISH, N_, Lang
from i18n import game as words

#: How the engine's log line of a turn's first step begins (engine/turn.py ``resolve_turn``).
TURN_STARTS = ("Workshop turn:", "Actions turn:", "can take no turn")


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn as the log tells it."""

    seat: int
    round: int
    lines: tuple[str, ...]  # without the player's name
    at: tuple[int, ...] = ()  # each line's index in the game's log


_speaker = words.speaker


def turns(state: GameState) -> list[Turn]:
    """Every turn begun so far, in order (the one being played is last, possibly still open)."""
    names = state.seat_names
    players = len(names)
    out: list[Turn] = []
    seat: int | None = None
    lines: list[str] = []
    at: list[int] = []
    count = 0

    def close() -> None:
        if seat is not None:
            out.append(Turn(seat, 1 + (count - 1) // players, tuple(lines), tuple(at)))

    for index, line in enumerate(state.log):
        spoken = _speaker(line, names)
        if spoken is None:
            continue  # setup and end-of-game lines belong to no turn
        who, text = spoken
        if text.startswith(TURN_STARTS):
            close()
            seat, lines, at, count = who, [], [], count + 1
        if seat is not None:
            lines.append(text)
            at.append(index)
    close()
    return out


def since_last_turn(state: GameState, seat: int) -> list[Turn]:
    """The turns played since ``seat``'s last finished turn (the whole interval, any length).

    Called while ``seat`` is deciding: their own turn in progress is not included.
    """
    done = turns(state)
    if done and done[-1].seat == seat and state.current == seat:
        done = done[:-1]  # the turn being played now
    last = max((i for i, t in enumerate(done) if t.seat == seat), default=-1)
    return done[last + 1 :]


def current_turn(state: GameState) -> Turn | None:
    """The turn in progress, if the current player has already done something in it."""
    done = turns(state)
    if done and done[-1].seat == state.current and not state.is_over:
        return done[-1]
    return None


def last_turn_of(state: GameState, seat: int) -> Turn | None:
    return next((t for t in reversed(turns(state)) if t.seat == seat), None)


#: How a logged event is said in a turn's short line (the full sentence stays in /ada log), by
#: the sentence the engine logged it with (engine/sentences.py), with the same fields: a short
#: phrase in the past tense, without the player's name (the line names them once).
SHORT = {
    "drafts": N_("drafted {card}"),
    "workshop_turn": N_("Workshop: moved {die} from space {space} to {to}"),
    "actions_turn": N_("used {die} for {area}"),
    "no_turn_idle": N_("could take no turn: put a die in the Mill"),
    "no_turn_pass": N_("could take no turn: passed"),
    "pushes_out": N_("pushed out {die}"),
    "refills": N_("refilled space {space}"),
    "coal_adjust": N_("spent 1 Coal to turn {die} into a {pips}"),
    "plays_free": N_("played {card} free"),
    "plays": N_("played {card}"),
    "ninth_die": N_("placed a 9th die in the Mill: the end of the game is triggered"),
    "advanced": N_("took advanced action {roman}"),
    "places_program": N_("placed Program '{program}' on the {line}"),
    "gains_book": N_("+1 Book"),
    "gains_addition": N_("+1 Addition Gear"),
    "gains_research": N_("Research on {track} → {level}"),
    "gains_reward": N_("took the reward of {loc}"),
    "gains": N_("+{amount}"),
    "gains_card": N_("took {card}"),
    "takes_assignment": N_("took the Assignment {assignment}"),
    "travels": N_("travelled to {city} (£{cost})"),
    "moves_free": N_("moved free to {city}"),
    "moves_disc": N_("moved a disc from {loc} to {loc2}"),
    "moves_to": N_("moved to {city}"),
    "attends": N_("attended Meeting room {room}"),
    "recruits": N_("recruited {card}"),
    "removes_card": N_("removed {card} from the game"),
    "lectures": N_("lectured at {loc} ({cost} Innovation)"),
    "places_disc": N_("placed a disc on {loc}"),
    "publishes": N_("published in {area}"),
    "builds": N_("built {gear} at {gear_space}"),
    "steam": N_("raised Steam to level {level}"),
    "no_disc_boxed": N_("had no disc on the main board: removed one from the game"),
    "swaps_die": N_("swapped {die} for {die2} from the Workshop"),
    "innovation_top": N_("spent {n} Innovation at the top of the track"),
    "breakthrough": N_("Breakthrough on {track}"),
    "track_top": N_("reached the top of {track} (its Assignment Scoring token)"),
    "takes_multiplier": N_("took a Multiplier Gear"),
    "uses_display": N_("used {card} from the display"),
    "upgrades": N_("turned a Subtraction Gear into an Addition Gear"),
    "removes_disc": N_("removed a disc from the player board"),
}

#: Two events said as one (the second names the same place as the first: each name once).
TRAVELS_AND_DISC = N_("travelled to {city} (£{cost}) and placed a disc there")
MOVES_TO_AND_DISC = N_("moved to {city} and placed a disc there")
RESEARCH_STEPS = N_("Research on {track} +{n} → {level}")
#: A Lecture space of the Institution the turn already named (a long name said once).
SAME_INSTITUTION = N_("level {level} of the same Institution")
#: What the log leaves out, told from the edition and the game's choices: money paid, a
#: Meeting's cost, and how many cards were drawn (never which: a hand is hidden).
PLAYS_PAYING = N_("played {card} (£{cost})")
ATTENDS_PAYING = N_("attended Meeting room {room} ({cost})")


def _drew(tr: Lang, n: int) -> str:
    return tr.n_("drew {n} card", "drew {n} cards", n)


def _resources(tr: Lang, gained: dict[str, int]) -> str:
    """'+£2, 1 Coal, 2 Books' (resources gained in a row said once, plurals by the catalog)."""
    return tr._("+{amount}", amount=words.amount(tr, gained))


@dataclass(slots=True)
class _Event:
    key: str  # the sentence's key ("" for a line no rule writes)
    fields: dict[str, str]
    text: str  # the logged line, without its speaker
    at: int  # its index in the game's log (-1: not known)
    said: dict[str, str] = field(default_factory=dict)  # fields said otherwise than logged


def _name_once(tr: Lang, e: _Event, institution: str) -> str:
    """Say a Lecture space of the Institution the turn named last as "level 2 of the same
    Institution"; return the Institution named now."""
    for name in ("loc", "loc2"):
        where, _, level = e.fields.get(name, "").rpartition(", level ")
        if where and level.isdigit():
            if where == institution:
                e.said[name] = tr._(SAME_INSTITUTION, level=level)
            institution = where
    return institution


def _facts(state: GameState | None) -> dict[int, dict[str, Any]]:
    """What the log of a game leaves out, by the index of the log line it belongs to, read from
    the game's choices: how a Meeting room was paid ("room:<r>:<pay>"), and the display slot
    of a card a Meeting recruited ("card:<slot>": its slot sets how many cards it draws).

    A decision with one choice is taken without being stored, so not every line has its
    choice: a line is told only when every way of pairing the stored choices with the lines
    (in order, each choice one its line could have come from) pairs it with the same choice;
    otherwise nothing is told rather than a guess."""
    if state is None:
        return {}
    rooms: list[tuple[int, int]] = []  # (log index, room) of each "attends" line
    taken: list[tuple[int, int | None]] = []  # a card from the display: (log index, room)
    room = 0
    for at, line in enumerate(state.log):
        if ": attends Meeting room " in line:
            room = int(line.rstrip(".").rsplit(" ", 1)[1])
            rooms.append((at, room))
        elif ": recruits " in line or ": gains " in line:
            spoken = _speaker(line, state.seat_names)
            parsed = words._parse(spoken[1]) if spoken else None
            if parsed is not None and parsed[0].key == "recruits":
                taken.append((at, room))  # the card under the room or to its right
            elif parsed is not None and parsed[0].key == "gains_card":
                taken.append((at, None))  # any card of the display
    pays = [c.split(":") for c in state.history if _ATTEND.fullmatch(c)]
    slots = [int(c[5:]) for c in state.history if _DISPLAY_CARD.fullmatch(c)]
    out: dict[int, dict[str, Any]] = {}
    same_room = _only_pairing(
        [r for _, r in rooms], [int(r) + 1 for _, r, _ in pays], lambda line, r: line == r
    )
    for k, j in same_room.items():
        out[rooms[k][0]] = {"pay": pays[j][2]}
    in_reach = _only_pairing(
        [r for _, r in taken], slots, lambda line, slot: line is None or slot >= line - 1
    )
    for k, j in in_reach.items():
        if taken[k][1] is not None:
            out.setdefault(taken[k][0], {})["slot"] = slots[j]
    return out


def _only_pairing(lines: list[Any], chosen: list[Any], fits: Any) -> dict[int, int]:
    """{line: choice} for the choices that every order-keeping pairing of choices with lines
    they fit puts on the same line: the earliest and the latest line a choice can take (each
    found by taking lines greedily from one end) are the same."""
    earliest: list[int] = []
    k = 0
    for choice in chosen:
        while k < len(lines) and not fits(lines[k], choice):
            k += 1
        if k == len(lines):
            return {}  # these choices are not these lines: say nothing
        earliest.append(k)
        k += 1
    latest = [0] * len(chosen)
    k = len(lines) - 1
    for j in reversed(range(len(chosen))):
        while not fits(lines[k], chosen[j]):
            k -= 1
        latest[j] = k
        k -= 1
    return {earliest[j]: j for j in range(len(chosen)) if earliest[j] == latest[j]}


_ATTEND = re.compile(r"room:\d+:(?:money|innovation)")
_DISPLAY_CARD = re.compile(r"card:\d+")


def _events(turn: Turn) -> list[_Event]:
    out = []
    for i, line in enumerate(turn.lines):
        parsed = words._parse(line)
        at = turn.at[i] if i < len(turn.at) else -1
        if parsed is None:
            out.append(_Event("", {}, line, at))
        else:
            out.append(_Event(parsed[0].key, parsed[1], line, at))
    return out


def phrases(turn: Turn, tr: Lang = ENGLISH, state: GameState | None = None) -> list[str]:
    """The turn's events as short phrases in the language, in order: resources gained in a row
    said once, Research steps on one track counted, a disc placed where the player just went
    said with the move, what was paid and how many cards were drawn where the log does not say.
    (``state``: the game, needed for any language but English and for what the log leaves out.)"""
    events = _events(turn)
    facts = _facts(state) if state is not None else {}
    out: list[str] = []
    die: str | None = None  # the die pushed out this turn: a Partner may cost its pips in £
    institution = ""  # where the turn lectured
    i = 0
    while i < len(events):
        e = events[i]
        nxt = events[i + 1] if i + 1 < len(events) else None
        if e.key in ("gains", "gains_book"):
            gained: dict[str, int] = {}
            while i < len(events) and events[i].key in ("gains", "gains_book"):
                amount = events[i].fields.get("amount", "1 Book(s)")
                for kind, n in words._amount_of(amount).items():
                    gained[kind] = gained.get(kind, 0) + n
                i += 1
            out.append(_resources(tr, gained))
            continue
        if e.key == "gains_research":
            n = 1
            while (
                i + n < len(events)
                and events[i + n].key == "gains_research"
                and events[i + n].fields["track"] == e.fields["track"]
            ):
                n += 1
            last = events[i + n - 1]
            if n == 1:
                out.append(_say(tr, state, SHORT["gains_research"], e))
            else:
                out.append(_say(tr, state, RESEARCH_STEPS, last, n=str(n)))
            i += n
            continue
        disc_here = (
            nxt is not None
            and nxt.key == "places_disc"
            and nxt.fields["loc"] in (e.fields.get("city"), e.fields.get("loc"))
        )
        if e.key == "pushes_out":
            die = e.fields["die"]
        institution = _name_once(tr, e, institution)
        if e.key == "travels" and disc_here:
            out.append(_say(tr, state, TRAVELS_AND_DISC, e))
            i += 2
            continue
        if e.key == "moves_to" and disc_here:
            out.append(_say(tr, state, MOVES_TO_AND_DISC, e))
            i += 2
            continue
        if e.key == "lectures" and disc_here:  # the Lecture space is where the disc goes
            out.append(_say(tr, state, SHORT["lectures"], e))
            i += 2
            continue
        if e.key == "attends":
            if (
                nxt is not None
                and nxt.key == "places_disc"
                and nxt.fields["loc"].endswith(f"room {e.fields['room']}")
            ):
                i += 1  # the disc goes in the room attended
            pay = facts.get(e.at, {}).get("pay")
            if pay is not None and state is not None:
                room = state.edition.meeting_rooms[int(e.fields["room"]) - 1]
                cost = words.amount(tr, {pay: room[pay]})
                out.append(_say(tr, state, ATTENDS_PAYING, e, cost=cost))
            else:
                out.append(_say(tr, state, SHORT["attends"], e))
            i += 1
            continue
        said = _phrase(tr, state, e, die, facts.get(e.at, {}))
        out.append(said)
        i += 1
    return out


def _phrase(
    tr: Lang,
    state: GameState | None,
    e: _Event,
    die: str | None,
    fact: dict[str, Any],
) -> str:
    """One event said on its own (with what it paid or drew, where the log leaves that out)."""
    if not e.key or e.key not in SHORT:
        if not e.key or state is None:
            return e.text.rstrip(".")
        return words.sentence(tr, state, e.text).rstrip(".。")
    said = _say(tr, state, SHORT[e.key], e)
    if state is None:
        return said
    card = _card(state, e.fields["card"]) if e.key == "plays" else None
    if card is not None and die is not None:
        if state.edition.partner[card]["need"]["kind"] == "money":  # £ = the active die's pips
            said = _say(tr, state, PLAYS_PAYING, e, cost=die.split()[-1])
    drawn = _cards_drawn(state, e, fact)
    if drawn:
        said = tr._("{event}, {drew}", event=said, drew=_drew(tr, drawn))
    return said


def _card(state: GameState, name: str) -> str | None:
    """A Partner card's id by its name (the log names cards)."""
    return next((c for c, info in state.edition.partner.items() if info["name"] == name), None)


def _cards_drawn(state: GameState, e: _Event, fact: dict[str, Any]) -> int:
    """How many Partner cards the event's effect draws (not logged: which cards is secret);
    ``fact``: what the game's choices tell of the event (``_facts``)."""
    ed = state.edition
    effect: list[dict[str, Any]] = []
    f = e.fields
    if e.key in ("pushes_out", "innovation_top"):
        effect = next(
            (b["effect"] for b in ed.workshop_bonuses.values() if b["text"] == f["bonus"]), []
        )
    elif e.key == "refills":
        effect = ed.workshop_bonuses[state.workshop_bonus[int(f["space"]) - 1]]["effect"]
    elif e.key == "places_program":
        effect = ed.program_spaces[LINE_NAMES.index(f["line"])]["effect"]
    elif e.key == "breakthrough":
        effect = next(
            (b["effect"] for b in ed.breakthrough.values() if b["text"] == f["effect"]), []
        )
    elif e.key in ("plays", "plays_free", "uses_display"):
        card = _card(state, f["card"])
        effect = ed.partner[card]["effect"] if card is not None else []
    elif e.key == "recruits" and "slot" in fact:
        return int(ed.meeting_rooms[fact["slot"]]["draw"])
    return sum(int(step.get("n", 0)) for step in effect if step.get("op") == "draw")


def _say(tr: Lang, state: GameState | None, template: str, e: _Event, **more: str) -> str:
    """A phrase template filled with a logged event's fields said in the language."""
    if tr.code == "en" or state is None:
        values = dict(e.fields)
    else:
        values = words.log_fields(tr, state, e.fields)
    return tr._(template, **{**values, **e.said, **more})


def compact(line: str, tr: Lang = ENGLISH, state: GameState | None = None) -> str:
    """One logged event (without its speaker), said briefly in the language (``state``: the
    game, needed for any language but English to name its places and content)."""
    assert tr.code == "en" or state is not None, "a translation needs the game's state"
    return " · ".join(phrases(Turn(-1, 0, (line,)), tr, state))


def summary(
    turn: Turn, limit: int = 3000, tr: Lang = ENGLISH, state: GameState | None = None
) -> str:
    """The turn in one line: its events said briefly, a repeated event counted once. Past
    ``limit`` characters whole phrases are left out from the end, and the line says how many
    (it is never cut inside a phrase)."""
    parts: list[str] = []
    for part in phrases(turn, tr, state):
        if parts and parts[-1].split(" ×")[0] == part:
            count = int(parts[-1].split(" ×")[1]) + 1 if " ×" in parts[-1] else 2
            parts[-1] = f"{part} ×{count}"
        else:
            parts.append(part)
    sep = tr._("; ")
    text = sep.join(parts)
    kept = len(parts)
    while len(text) > limit and kept > 1:
        kept -= 1
        more = tr.n_("and {n} more event", "and {n} more events", len(parts) - kept)
        text = sep.join([*parts[:kept], more])
    return escape_names(text, state.seat_names) if state is not None else text
