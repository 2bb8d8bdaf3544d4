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
