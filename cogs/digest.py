"""The game's log read as turns: what each player did, and what happened since a player's last turn.

The engine logs one line per event, each starting with the acting player's name, and every turn
opens with one of the engine's turn-start lines (a Workshop turn, an Actions turn, or no turn
possible). That is enough to cut the log into turns without storing anything more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine import GameState

#: How the engine's log line of a turn's first step begins (engine/turn.py ``resolve_turn``).
TURN_STARTS = ("Workshop turn:", "Actions turn:", "can take no turn")


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn as the log tells it."""

    seat: int
    round: int
    lines: tuple[str, ...]  # without the player's name


def _speaker(line: str, names: list[str]) -> tuple[int, str] | None:
    """(seat, text) of a log line spoken by a player; longest name first, as one may prefix another."""
    for seat in sorted(range(len(names)), key=lambda s: -len(names[s])):
        prefix = f"{names[seat]}: "
        if line.startswith(prefix):
            return seat, line[len(prefix) :]
    return None


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


#: How a logged event is said in a turn's short line (the full sentence stays in /ada log).
#: Patterns follow the engine's log sentences (engine/turn.py, engine/effects.py ``_say``).
COMPACT = [
    (
        re.compile(r"^Workshop turn: moves (\w+ \d) from space (\d) to space (\d)$"),
        r"Workshop: \1 from space \2 to \3",
    ),
    (re.compile(r"^Actions turn: uses (\w+ \d) for (.+)$"), r"\1 for \2"),
    (re.compile(r"^pushes out (\w+ \d) onto the (.+) bonus$"), r"pushed out \1 (\2)"),
    (re.compile(r"^plays ([^:]+?)( without its cost)?: .*$"), r"played \1\2"),
    (re.compile(r"^gains 1 Research on (.+) \(now (\d+)\)$"), r"Research on \1 → \2"),
    (re.compile(r"^gains an? (.+)$"), r"+1 \1"),
    (re.compile(r"^gains the reward of (.+)$"), r"reward of \1"),
    (re.compile(r"^gains (.+)$"), r"+\1"),
    (re.compile(r"^reaches a Breakthrough on ([^:]+): .*$"), r"Breakthrough on \1"),
    (re.compile(r"^takes the level (I+) advanced action$"), r"advanced action \1"),
    (re.compile(r"^travels to (.+) for £(\d+)$"), r"to \1 (£\2)"),
    (re.compile(r"^refills Workshop space (\d) and gains its bonus$"), r"refilled space \1"),
    (re.compile(r"^places a disc on (.+)$"), r"disc on \1"),
    (re.compile(r"^places Program '(.+)' on the (.+)$"), r"Program '\1' on the \2"),
]


def compact(line: str) -> str:
    """One logged event, said briefly."""
    text = line.rstrip(".")
    for pattern, replacement in COMPACT:
        if pattern.match(text):
            return pattern.sub(replacement, text)
    return text


def summary(turn: Turn, limit: int = 300) -> str:
    """The turn in one line: its events said briefly, repeated events counted once."""
    parts: list[str] = []
    for line in turn.lines:
        part = compact(line)
        if parts and parts[-1].split(" ×")[0] == part:
            count = int(parts[-1].split(" ×")[1]) + 1 if " ×" in parts[-1] else 2
            parts[-1] = f"{part} ×{count}"
        else:
            parts.append(part)
    return shorten("; ".join(parts), limit)


def shorten(text: str, limit: int) -> str:
    """Cut at a word boundary with an ellipsis; line breaks are kept."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"
