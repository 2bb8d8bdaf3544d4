"""What a batch of simulated games returns, for every game: plain arrays."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .options import WhistsimError


@dataclass
class Batch:
    """Per-game results of games ``start .. start + n - 1``.

    ``seat`` columns are ``[n, players]`` (or ``[n, sides]`` for the dealt
    games' ``side`` columns); ``game`` columns are ``[n]``. ``logs`` holds the
    encoded decisions of the first games, when asked for, for records.
    """

    start: int
    seat: dict[str, np.ndarray]
    game: dict[str, np.ndarray]
    side: dict[str, np.ndarray] = field(default_factory=dict)
    logs: list[np.ndarray] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(next(iter(self.game.values())))

    @staticmethod
    def concat(parts: list[Batch]) -> Batch:
        first = parts[0]
        return Batch(
            first.start,
            {k: np.concatenate([p.seat[k] for p in parts]) for k in first.seat},
            {k: np.concatenate([p.game[k] for p in parts]) for k in first.game},
            {k: np.concatenate([p.side[k] for p in parts]) for k in first.side},
            [log for p in parts for log in p.logs],
        )


def check_batch_args(seed: int, first: int, players: int) -> None:
    """What every game's ``play_batch`` refuses: a seed out of range, a first seat that is not there."""
    if not 0 <= seed < 2**63:
        raise WhistsimError(f"seed {seed}: expected an integer from 0 to 2**63-1")
    if first >= players:
        raise WhistsimError(f"first seat {first}: there are only {players} seats")
