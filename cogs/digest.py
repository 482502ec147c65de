"""The game's log read as turns: what each player did, and what happened since a player's last turn.

The engine logs one line per event, each starting with the acting player's name, and every turn
opens with one of the engine's turn-start lines (a Workshop turn, an Actions turn, or no turn
possible). That is enough to cut the log into turns without storing anything more.
"""

from __future__ import annotations

from dataclasses import dataclass

from cogs.text import escape_names
from engine import GameState, sentences
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


_speaker = words.speaker


def turns(state: GameState) -> list[Turn]:
    """Every turn begun so far, in order (the one being played is last, possibly still open)."""
    names = state.seat_names
    players = len(names)
    out: list[Turn] = []
    seat: int | None = None
    lines: list[str] = []
    count = 0

    def close() -> None:
        if seat is not None:
            out.append(Turn(seat, 1 + (count - 1) // players, tuple(lines)))

    for line in state.log:
        spoken = _speaker(line, names)
        if spoken is None:
            continue  # setup and end-of-game lines belong to no turn
        who, text = spoken
        if text.startswith(TURN_STARTS):
            close()
            seat, lines, count = who, [], count + 1
        if seat is not None:
            lines.append(text)
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
#: the sentence the engine logged it with (engine/sentences.py); the same fields.
SHORT = {
    "workshop_turn": N_("Workshop: {die} from space {space} to {to}"),
    "actions_turn": N_("{die} for {area}"),
    "pushes_out": N_("pushed out {die} ({bonus})"),
    "plays": N_("played {card}"),
    "plays_free": N_("played {card} without its cost"),
    "gains_research": N_("Research on {track} → {level}"),
    "gains_book": N_("+1 Book"),
    "gains_addition": N_("+1 Addition Gear"),
    "gains_reward": N_("reward of {loc}"),
    "gains": N_("+{amount}"),
    "gains_card": N_("+{card}"),
    "breakthrough": N_("Breakthrough on {track}"),
    "advanced": N_("advanced action {roman}"),
    "travels": N_("to {city} (£{cost})"),
    "refills": N_("refilled space {space}"),
    "places_disc": N_("disc on {loc}"),
    "places_program": N_("Program '{program}' on the {line}"),
}


def compact(line: str, tr: Lang = ENGLISH, state: GameState | None = None) -> str:
    """One logged event (without its speaker), said briefly in the language (``state``: the
    game, needed for any language but English to name its places and content)."""
    parsed = sentences.parse(line)
    if parsed is None:
        return line.rstrip(".")
    said, fields = parsed
    short = SHORT.get(said.key)
    if tr.code == "en":
        return short.format(**fields) if short else line.rstrip(".")
    assert state is not None, "a translation needs the game's state"
    if short:
        return words.sentence(tr, state, line, template=short)
    return words.sentence(tr, state, line).rstrip(".。")


def summary(
    turn: Turn, limit: int = 300, tr: Lang = ENGLISH, state: GameState | None = None
) -> str:
    """The turn in one line: its events said briefly, repeated events counted once."""
    parts: list[str] = []
    for line in turn.lines:
        part = compact(line, tr, state)
        if parts and parts[-1].split(" ×")[0] == part:
            count = int(parts[-1].split(" ×")[1]) + 1 if " ×" in parts[-1] else 2
            parts[-1] = f"{part} ×{count}"
        else:
            parts.append(part)
    text = shorten(tr._("; ").join(parts), limit)
    return escape_names(text, state.seat_names) if state is not None else text


def shorten(text: str, limit: int) -> str:
    """Cut at a word boundary with an ellipsis; line breaks are kept."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"
