"""What an experiment keeps of its games: summaries that merge chunk by chunk.

A :class:`Tally` holds, per cell, streaming moments of every figure, co-moments
for ratio figures and integer histograms; per paired comparison, moments of
the per-game differences. Merging tallies in chunk order gives the same
floating-point result however the chunks were computed (one process, a
resumed run or a Dask cluster). Tallies round-trip through JSON exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..stats import Estimate, Moments


class CoMoments:
    """Streaming means and (co)variances of a pair (x, y): for ratios of means."""

    __slots__ = ("n", "mx", "my", "cxx", "cyy", "cxy")

    def __init__(
        self,
        n: int = 0,
        mx: float = 0.0,
        my: float = 0.0,
        cxx: float = 0.0,
        cyy: float = 0.0,
        cxy: float = 0.0,
    ):
        self.n, self.mx, self.my, self.cxx, self.cyy, self.cxy = n, mx, my, cxx, cyy, cxy

    @classmethod
    def of(cls, x: np.ndarray, y: np.ndarray) -> CoMoments:
        x = np.asarray(x, np.float64)
        y = np.asarray(y, np.float64)
        if x.size == 0:
            return cls()
        mx, my = float(x.mean()), float(y.mean())
        dx, dy = x - mx, y - my
        return cls(x.size, mx, my, float(dx @ dx), float(dy @ dy), float(dx @ dy))

    def merge(self, o: CoMoments) -> None:
        if o.n == 0:
            return
        if self.n == 0:
            self.n, self.mx, self.my, self.cxx, self.cyy, self.cxy = o.n, o.mx, o.my, o.cxx, o.cyy, o.cxy
            return
        n = self.n + o.n
        dx, dy = o.mx - self.mx, o.my - self.my
        f = self.n * o.n / n
        self.cxx += o.cxx + dx * dx * f
        self.cyy += o.cyy + dy * dy * f
        self.cxy += o.cxy + dx * dy * f
        self.mx += dx * o.n / n
        self.my += dy * o.n / n
        self.n = n

    def ratio(self) -> Estimate:
        """mean(y) / mean(x) with a delta-method sd: the CI is mean ± t * sd / sqrt(n)."""
        if self.n < 2 or self.mx == 0:
            return Estimate(math.nan, math.nan, self.n)
        r = self.my / self.mx
        var = (self.cyy - 2 * r * self.cxy + r * r * self.cxx) / (self.n - 1)
        return Estimate(r, math.sqrt(max(var, 0.0)) / abs(self.mx), self.n)

    def to_json(self) -> list:
        return [self.n, self.mx, self.my, self.cxx, self.cyy, self.cxy]

    @classmethod
    def from_json(cls, v: list) -> CoMoments:
        return cls(int(v[0]), *map(float, v[1:]))


def moments_to_json(m: Moments) -> dict[str, list]:
    return {k: [m.n[k], m.mean[k], m.m2[k]] for k in m.n}


def moments_from_json(d: dict[str, list]) -> Moments:
    m = Moments()
    for k, (n, mean, m2) in d.items():
        m.n[k], m.mean[k], m.m2[k] = int(n), float(mean), float(m2)
    return m


def merge_hist(into: dict[int, int], other: dict[int, int]) -> None:
    for v, c in other.items():
        into[v] = into.get(v, 0) + c


def hist_of(x: np.ndarray) -> dict[int, int]:
    values, counts = np.unique(np.rint(np.asarray(x)).astype(np.int64), return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts, strict=True)}


@dataclass
class Tally:
    """Summaries of some chunks of an experiment (all of it once every chunk is merged)."""

    cells: list[Moments]
    ratios: list[dict[str, CoMoments]]
    hists: list[dict[str, dict[int, int]]]
    paired: list[Moments]
    games: int = 0  # games per cell
    chunks: int = 0
    extra: dict = field(default_factory=dict)

    @classmethod
    def empty(cls, n_cells: int, n_pairs: int) -> Tally:
        return cls([Moments() for _ in range(n_cells)], [{} for _ in range(n_cells)],
                   [{} for _ in range(n_cells)], [Moments() for _ in range(n_pairs)])  # fmt: skip

    def merge(self, o: Tally) -> None:
        for a, b in zip(self.cells, o.cells, strict=True):
            a.merge(b)
        for a, b in zip(self.ratios, o.ratios, strict=True):
            for k, v in b.items():
                a.setdefault(k, CoMoments()).merge(v)
        for a, b in zip(self.hists, o.hists, strict=True):
            for k, v in b.items():
                merge_hist(a.setdefault(k, {}), v)
        for a, b in zip(self.paired, o.paired, strict=True):
            a.merge(b)
        self.games += o.games
        self.chunks += o.chunks

    def estimate(self, cell: int, figure: str) -> Estimate:
        if figure in self.ratios[cell]:
            return self.ratios[cell][figure].ratio()
        return self.cells[cell].estimate(figure)

    def to_json(self) -> dict:
        return {
            "games": self.games,
            "chunks": self.chunks,
            "cells": [moments_to_json(m) for m in self.cells],
            "ratios": [{k: v.to_json() for k, v in r.items()} for r in self.ratios],
            "hists": [
                {k: [[v, c] for v, c in sorted(h.items())] for k, h in hs.items()} for hs in self.hists
            ],
            "paired": [moments_to_json(m) for m in self.paired],
        }

    @classmethod
    def from_json(cls, d: dict) -> Tally:
        return cls(
            [moments_from_json(m) for m in d["cells"]],
            [{k: CoMoments.from_json(v) for k, v in r.items()} for r in d["ratios"]],
            [{k: {int(v): int(c) for v, c in h} for k, h in hs.items()} for hs in d["hists"]],
            [moments_from_json(m) for m in d["paired"]],
            int(d["games"]),
            int(d["chunks"]),
        )
