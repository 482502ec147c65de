"""Replaying a stored game to prove its rows (pure: no SQL, no event loop; runs in a thread).

The truth of a game is its setup and its live choices. ``replay_rows`` rebuilds the state from
them and checks, on the way, everything stored beside them: each choice was made by the seat
whose turn it was and is legal, the choice log's running digests (``choicelog``), the game's
log digest, the seat rows, and the snapshots. Any disagreement raises ``Corrupt`` with a reason
for an admin (it never quotes a choice or a card: reasons reach the log).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from engine import GameSetup, GameState, IllegalChoice, new_game
from engine.edition import EditionError, UnknownEdition

from . import choicelog, codec
from .backend import ChoiceRow, GameRow, SnapshotRow
from .common import Corrupt, setup_of
from .errors import EditionMissing
from .models import SeatRecord


@dataclass(frozen=True)
class Verified:
    """What a process knows to be true of a game: after ``seq`` live choices whose log digest
    is ``log_digest``, the state's digest is ``state_digest``."""

    seq: int
    log_digest: str
    state_digest: str
    to_move: int | None
    last_seat: int | None = None
    """The seat that made the last live choice, when known (a move can then be written without
    reading the game first: ``PlayMixin._prepared``)."""

    def matches(self, row: GameRow) -> bool:
        return self.seq == row.seq and self.log_digest == row.log_digest


@dataclass
class Replayed:
    state: GameState
    verified: Verified
    text: str
    """``state.to_json()`` of the final state."""
    fill_digests: list[tuple[int, str]] = field(default_factory=list)
    """Choice rows (id, digest) written before the log had digests."""
    seats_digest: str | None = None
    """The seats' digest, when they were checked (recorded for games from before it was)."""


def to_move(state: GameState) -> int | None:
    """``state.decision.player`` (None when there is no decision) without building the
    decision's choices: the engine's decision is always the current player's, on a pending step
    (a test holds the two equal along whole games)."""
    return None if state.over or not state.stack else state.current


def start_state(setup: GameSetup) -> GameState:
    """The game's first state, under the edition its setup names. An edition this bot does not
    have (or cannot load) raises EditionMissing: the game's rows are not damaged, so it is not
    Corrupt, and it plays again once the bot has that edition."""
    try:
        return new_game(setup)
    except (UnknownEdition, EditionError) as exc:
        raise EditionMissing(setup.edition) from exc


def seats_digest(seats: list[SeatRecord]) -> str:
    """SHA-256 of who plays each seat: user id, AI flag and policy, name, turn order (not the
    colour, which is only a look). Recorded when the game starts (``games.seats_digest``)."""
    rows = sorted(
        (s.join_order, s.user_id, bool(s.is_ai), s.ai_policy, s.name, s.turn_index) for s in seats
    )
    return codec.sha256("ada-seats-v1\n" + json.dumps(rows))


def seat_problem(
    seats: list[SeatRecord], names: list[str], recorded: str | None = None
) -> str | None:
    """Why the seat rows can't be the players of a game whose seats are ``names`` (in engine
    seat order), or None. Damaged seats leave a game stuck: nobody is found to move. With
    ``recorded`` (the game's ``seats_digest``), the rows must also be the ones the game
    started with: a changed user id would let another member read that hand and play it, a
    flipped AI flag let an AI play a person's seat."""
    if len(seats) != len(names):
        return f"the game has {len(names)} players but {len(seats)} seat rows"
    order = sorted(s.turn_index if isinstance(s.turn_index, int) else -1 for s in seats)
    if order != list(range(len(names))):
        return "the seat rows' turn order is damaged"
    for s in seats:
        assert s.turn_index is not None
        if s.name != names[s.turn_index]:
            return f"seat {s.turn_index}'s row names another player than the game's setup"
        if not s.is_ai and s.user_id is None:
            return f"seat {s.turn_index} is a person without a Discord user"
    if recorded is not None and seats_digest(seats) != recorded:
        return "the seat rows are not the ones the game started with (a player or an AI flag)"
    return None


def check_snapshot(snap: SnapshotRow, want_digest: str) -> None:
    """The snapshot's text is intact and is the state that replays to ``want_digest``."""
    text = snap.state
    if not (isinstance(text, str) and codec.sha256(text) == snap.digest):
        try:
            codec.decode(text)
        except Exception as exc:
            raise Corrupt(
                f"the snapshot for seq {snap.seq} is unreadable ({type(exc).__name__})"
            ) from exc
        raise Corrupt(f"the snapshot for seq {snap.seq} does not match its stored digest")
    if snap.digest != want_digest:
        raise Corrupt(
            f"the snapshot for seq {snap.seq} differs from the state rebuilt from seed + choices"
        )


def replay_rows(
    game: GameRow,
    choices: list[ChoiceRow],
    seats: list[SeatRecord] | None,
    snapshots: dict[int, SnapshotRow],
    *,
    start: tuple[Verified, GameState] | None = None,
    all_snapshots: bool = False,
    rebuilt: list[tuple[int, str, str]] | None = None,
) -> Replayed:
    """Rebuild ``game`` from its setup and ``choices`` (from seq 0, or from a state this process
    verified before: ``start``, with ``choices`` from its seq on) and check it (see module doc).

    Checks the snapshot at ``game.seq`` always, and every other snapshot given when
    ``all_snapshots``; the seats when given. Raises Corrupt. Does not change ``start``'s state.
    With ``rebuilt``, an older snapshot that fails its check (one no move or undo reads: they
    read the latest) is not a reason to stop the game: its rebuilt (seq, text, digest) is
    appended there instead, for the caller to write.
    """
    seq = game.seq
    if not isinstance(seq, int) or seq < 0:
        raise Corrupt("unreadable seq (the game's move count)")
    if game.setup is None:
        raise Corrupt("the game has no setup")
    if start is None:
        state = start_state(setup_of(game))
        first, log_digest = 0, choicelog.start_digest(game.setup)
        if seats is not None:
            problem = seat_problem(seats, state.seat_names, game.seats_digest)
            if problem:
                raise Corrupt(problem)
    else:
        known, known_state = start
        state, first, log_digest = codec.copy(known_state), known.seq, known.log_digest
        if seats is not None:
            problem = seat_problem(seats, state.seat_names, game.seats_digest)
            if problem:
                raise Corrupt(problem)
    if [c.seq for c in choices] != list(range(first, first + len(choices))):
        raise Corrupt("the live choices are not numbered 0..n-1")
    if first + len(choices) != seq:
        raise Corrupt(f"games.seq is {seq} but {first + len(choices)} choices are stored")
    fill: list[tuple[int, str]] = []
    for c in choices:
        if all_snapshots and c.seq in snapshots:
            text, digest = codec.encode(state)
            try:
                check_snapshot(snapshots[c.seq], digest)
            except Corrupt:
                if rebuilt is None:
                    raise
                rebuilt.append((c.seq, text, digest))
        decision = state.decision
        if decision is None or decision.player != c.seat:
            raise Corrupt(f"choice {c.seq} was made by the wrong seat")
        try:
            state.apply(c.choice_id)
        except IllegalChoice as exc:
            raise Corrupt(f"choice {c.seq} is illegal on replay") from exc
        except Exception as exc:  # the engine choked on stored data: say so, quote nothing
            raise Corrupt(f"choice {c.seq} cannot be replayed ({type(exc).__name__})") from exc
        log_digest = choicelog.next_digest(log_digest, c.seq, c.seat, c.choice_id)
        if c.digest is None:
            fill.append((c.id, log_digest))
        elif c.digest != log_digest:
            raise Corrupt(f"the choice log is damaged at choice {c.seq} (its digest differs)")
    if game.log_digest is not None and game.log_digest != log_digest:
        if choicelog.changed_mark(game.log_digest):  # migration 15's triggers said so
            raise Corrupt(f"the choice log was {game.log_digest} after it was written")
        raise Corrupt("the choice log does not end where the game's log digest says")
    text, digest = codec.encode(state)
    if seq not in snapshots:
        raise Corrupt(f"the latest snapshot (seq {seq}) is missing")
    check_snapshot(snapshots[seq], digest)
    last_seat = choices[-1].seat if choices else (start[0].last_seat if start else None)
    verified = Verified(seq, log_digest, digest, to_move(state), last_seat)
    return Replayed(state, verified, text, fill, seats_digest(seats) if seats else None)
