"""Move text and the move log, the same for every game.

A record's move is ``"<seat>:<action>"`` (records.md); the game says how its
actions read and print. The kernels log a move as ``seat * MOVE_SEAT + action``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .loop import MOVE_SEAT
from .replay import MoveError


def encode_move(seat: int, action: int) -> int:
    return seat * MOVE_SEAT + action


def decode_move(code: int) -> tuple[int, int]:
    return int(code) // MOVE_SEAT, int(code) % MOVE_SEAT


def move_texts(row: Iterable[int], action_name: Callable[[int], str]) -> list[str]:
    """Logged moves -> record moves."""
    out = []
    for code in row:
        seat, a = decode_move(code)
        out.append(f"{seat}:{action_name(a)}")
    return out


def parse_seat(text: str, players: int) -> int:
    """A seat number in ASCII digits below ``players``; ValueError otherwise."""
    s = text.strip()
    if not (s.isascii() and s.isdigit()) or int(s) >= players:
        raise ValueError(f"not a seat below {players}: {text!r}")
    return int(s)


def parse_moves(
    moves: Any, players: int, parse_action: Callable[[str], int], noun: str = "action"
) -> tuple[np.ndarray, np.ndarray, MoveError | None]:
    """Seats and actions of the moves up to the first unreadable one, and its error.

    Replay plays that prefix first, so an earlier illegal or extra move is the one
    reported. ``moves`` must be a list (the caller says so otherwise); ``noun`` names
    the game's actions in messages.
    """
    seats = np.zeros(len(moves), np.int64)
    actions = np.zeros(len(moves), np.int64)
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            return seats[:i], actions[:i], MoveError(i, f"move {m!r} is not a string")
        seat, sep, action = m.partition(":")
        try:
            if not sep:
                raise ValueError("no seat")
            q = parse_seat(seat, players)
        except ValueError:
            return (
                seats[:i],
                actions[:i],
                MoveError(i, f"move {m!r}: expected '<seat>:<{noun}>' with a seat below {players}"),
            )
        try:
            actions[i] = parse_action(action)
        except ValueError as e:
            return seats[:i], actions[:i], MoveError(i, f"move {m!r}: {e}")
        seats[i] = q
    return seats, actions, None
