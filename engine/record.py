"""A game's record: everything that determines a game (its setup, edition, rules version and
choices) as plain JSON data, and its replay to the final scores.

The bot's operator exports records (``python bot.py export GAME``), so do players once a game is
over (``/ada export``). ``python -m engine replay FILE`` replays one. A record may carry more
(who played which seat, the log in words, the final scores as the bot saw them): ``replay``
checks the final scores if they are there and ignores what it does not know.

The format is versioned (``FORMAT_VERSION``); a newer record is refused, saying so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from engine.rules import new_game
from engine.state import GameSetup, GameState, IllegalChoice

FORMAT: Final = "adas-dream-game-record"
FORMAT_VERSION: Final = 1


class RecordError(ValueError):
    """The record is not one this engine can replay (the message says why, in one line)."""


def make_record(
    setup: GameSetup, choices: Iterable[tuple[int, str]], **about: Any
) -> dict[str, Any]:
    """The record of a game: ``choices`` are (seat, choice id) in the order they were made;
    ``about`` adds facts for people (game number, dates, seats, log...), never needed to
    replay."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **about,
        "rules_version": setup.rules_version,
        "edition": setup.edition,
        "setup": setup.to_dict() | {"rules_version": setup.rules_version, "edition": setup.edition},
        "choices": [{"seat": seat, "choice": choice} for seat, choice in choices],
    }


def replay_record(record: Mapping[str, Any]) -> GameState:
    """Replay a record from its setup through every choice, checking each was made by the
    seat whose turn it was and, if the record states them, the final scores. Raises
    RecordError."""
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        raise RecordError("not an Ada's Dream game record")
    version = record.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise RecordError(
            f"the record is of format version {version!r}; this engine reads up to "
            f"{FORMAT_VERSION}: use a newer engine"
        )
    try:
        setup = GameSetup.from_dict(dict(record["setup"]))
        choices = [(int(c["seat"]), str(c["choice"])) for c in record["choices"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"the record's setup or choices are malformed ({exc})") from exc
    try:
        state = new_game(setup)
    except Exception as exc:  # an edition this engine lacks, say
        raise RecordError(f"cannot set the game up: {exc}") from exc
    for n, (seat, choice) in enumerate(choices):
        decision = state.decision
        if decision is None:
            raise RecordError(f"choice {n} comes after the end of the game")
        if decision.player != seat:
            raise RecordError(f"choice {n} is recorded for seat {seat}, but it was seat "
                              f"{decision.player}'s decision")  # fmt: skip
        try:
            state.apply(choice)
        except IllegalChoice as exc:
            raise RecordError(f"choice {n} ({choice!r}) is not legal there") from exc
    stated = record.get("final_scores")
    if stated is not None and (not state.is_over or stated != state.final_scores()):
        raise RecordError("the replay does not end with the final scores the record states")
    return state


def summary(state: GameState) -> list[str]:
    """Lines that say where a replayed game ended: the final scores, or the move it is at."""
    names = state.seat_names
    if not state.is_over:
        who = state.decision.player if state.decision else None
        waiting = names[who] if who is not None else "nobody"
        return [
            f"replayed {len(state.history)} choices: the game is not over ({waiting} to decide)"
        ]
    scores = state.final_scores()
    winner = state.winner()
    lines = [f"replayed {len(state.history)} choices: the game is over"]
    for seat, (name, row) in enumerate(zip(names, scores, strict=True)):
        mark = "  (winner)" if seat == winner else ""
        lines.append(f"  {name}: {row['Total']}{mark}")
    return lines
