"""Replay's verdicts, the same for every game: a record judged move by move.

The game reads a record into a state set up at the deal's start, its seats and
actions (:func:`whistsim.harness.moves.parse_moves`); the shared loop
(``replay_moves`` in the game's rules kernel) plays them; :func:`verdict` turns
what it returns into a :class:`MoveError` naming the move and the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np

from ..core.options import WhistsimError
from .build import kernel
from .loop import REPLAY_DONE, REPLAY_EXTRA, REPLAY_SHORT, REPLAY_WRONG_SEAT


class RecordError(WhistsimError):
    """A record that cannot be judged at all: bad JSON, missing or unknown fields, a wrong deck."""


class MoveError(WhistsimError):
    """A record whose move ``index`` is illegal (``index == len(moves)``: the moves stop early)."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


def verdict(
    status: int,
    i: int,
    detail: int,
    moves: list,
    bad: MoveError | None,
    engine_errors: dict[int, str],
    *,
    short: str,
    turn: str,
    what: str = "",
) -> None:
    """Turn ``replay_moves``' (status, move index, detail) into a MoveError; return if it replayed.

    ``bad`` is the first unreadable move: the moves before it were legal, so it is
    an extra move after the deal ended, or the error itself. ``short`` and ``turn``
    say who is owed a move, in the game's own words.
    """
    if bad is not None:
        if status == REPLAY_DONE:
            raise MoveError(bad.index, f"move {moves[bad.index]!r} comes after the deal ended")
        if status == REPLAY_SHORT:
            raise bad
    if status == REPLAY_DONE:
        return
    if status == REPLAY_SHORT:
        raise MoveError(i, f"the moves stop before the deal ends (seat {detail} {short})")
    if status == REPLAY_EXTRA:
        raise MoveError(i, f"move {moves[i]!r} comes after the deal ended")
    if status == REPLAY_WRONG_SEAT:
        raise MoveError(i, f"move {moves[i]!r} is out of turn: seat {detail} {turn}")
    suffix = f" ({what})" if what else ""
    raise MoveError(i, f"move {moves[i]!r} is illegal: {engine_errors[status]}{suffix}")


def replay_moves(
    parts: ModuleType,
    buf: np.ndarray,
    seats: np.ndarray,
    actions: np.ndarray,
    moves: list,
    bad: MoveError | None,
    *,
    short: str,
    turn: str,
    describe: Callable[[int], str] | None = None,
) -> None:
    """Play a record's moves from the deal's start in ``buf`` by the game's rules
    (``parts``: its kernel parts module); a MoveError names the first bad one."""
    status, i, detail = kernel(parts, None).replay_moves(buf, seats, actions)
    what = describe(int(actions[i])) if describe is not None and status > 0 else ""
    verdict(status, i, detail, moves, bad, parts.ENGINE_ERRORS, short=short, turn=turn, what=what)


def step(parts: ModuleType, buf: np.ndarray, action: int) -> int:
    """Check and, if legal, apply one move; returns the engine's error code (0: done)."""
    return int(kernel(parts, None).step(buf, np.int64(action)))
