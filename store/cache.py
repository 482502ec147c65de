"""What this process has verified (issue 19: never build on a state not verified since start-up).

A game is verified once per process, by replaying its setup and choices (``verify.replay_rows``).
After that the store keeps what it verified, and every move it applies extends it, so a move
costs no parse and no replay. An entry is used only while the game's row still says the same
``(seq, log_digest)``: a move by another process, an undo, or a restore changes the row and the
game is verified again (from the entry onwards when the log still runs through it).

States are kept for the ``max_states`` most recently used games (about 20-75 KiB each); the
``Verified`` facts, a few dozen bytes, for ``FACTS_PER_STATE`` times as many (a game whose facts
were let go is verified again on its next load). A game that ends is let go (``forget``). Thread-safe: the store uses it from
the event loop, replays run in worker threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from engine import GameState

from .verify import Verified

FACTS_PER_STATE = 20


class VerifiedGames:
    def __init__(self, max_states: int = 2000) -> None:
        self._facts: OrderedDict[int, Verified] = OrderedDict()
        self._max_facts = max(1, max_states) * FACTS_PER_STATE
        self._states: OrderedDict[int, tuple[Verified, GameState]] = OrderedDict()
        self._max = max_states
        self._lock = threading.Lock()

    def fact(self, game_id: int) -> Verified | None:
        with self._lock:
            return self._facts.get(game_id)

    def __len__(self) -> int:
        """Games whose state is held."""
        with self._lock:
            return len(self._states)

    def state(self, game_id: int, verified: Verified) -> GameState | None:
        """The kept state for exactly ``verified`` (not to be changed: copy it first)."""
        with self._lock:
            entry = self._states.get(game_id)
            if entry is None or entry[0] != verified:
                return None
            self._states.move_to_end(game_id)
            return entry[1]

    def put(self, game_id: int, verified: Verified, state: GameState | None) -> None:
        """Remember a verified state (which nobody changes afterwards)."""
        with self._lock:
            self._facts[game_id] = verified
            self._facts.move_to_end(game_id)
            while len(self._facts) > self._max_facts:
                self._facts.popitem(last=False)
            self._states.pop(game_id, None)
            if state is not None and self._max > 0:
                self._states[game_id] = (verified, state)
                while len(self._states) > self._max:
                    self._states.popitem(last=False)

    def forget(self, game_id: int) -> None:
        with self._lock:
            self._facts.pop(game_id, None)
            self._states.pop(game_id, None)

    def __contains__(self, game_id: int) -> bool:
        with self._lock:
            return game_id in self._facts
