"""What every game gives the rest of whistsim: the seam between games and tools.

A game module builds one :class:`Game`; the batch runner, records, replay,
show, experiments and the CLI use nothing else of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..batch import Batch
from ..options import WhistsimError


class RecordError(WhistsimError):
    """A record that cannot be judged at all: bad JSON, missing or unknown fields, a wrong deck."""


# Statuses a game's replay kernel returns beside its engine's error codes (> 0).
REPLAY_DONE, REPLAY_WRONG_SEAT, REPLAY_SHORT, REPLAY_EXTRA = 0, -1, -2, -3


class MoveError(WhistsimError):
    """A record whose move ``index`` is illegal (``index == len(moves)``: the moves stop early)."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


@dataclass(frozen=True)
class Game:
    name: str  # as in records: "welsh", "scotch", "whist"
    title: str
    presets: tuple[str, ...]  # preset names; the first is the default
    options: tuple  # the rule options (options.Option)
    # (preset, players, overrides: dict[str, str]) -> rules
    make_rules: Callable[..., Any]
    rules_from_record: Callable[[dict], Any]
    # (rules, ids, params, seed=, start=, n=, first=, log_games=) -> Batch
    play_batch: Callable[..., Batch]
    # (rules, batch, i, seed, strategies) -> record i, for i < len(batch.logs): a logged
    # game (welsh) or a logged deal (scotch, whist: every deal of the logged games, in order)
    make_record: Callable[..., dict]
    # record dict -> result dict; raises RecordError / MoveError
    replay: Callable[[dict], dict]
    # record dict -> text for people
    narrate: Callable[[dict], str]
    # (batch, rules) -> {figure name: per-game values} for summaries
    figures: Callable[[Batch, Any], dict[str, np.ndarray]]
    players_of: Callable[[Any], int]


def raise_replay_error(
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
    """Turn a replay kernel's (status, move index, detail) into a MoveError; return if it replayed.

    ``bad`` is the first unreadable move: the moves before it were legal, so it is
    an extra move after the deal ended, or the error itself. ``short`` and ``turn``
    say who is owed a move, for the game's own wording.
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
