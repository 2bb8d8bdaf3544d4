"""Two rule sets on the same deals: every figure under both, and the paired difference.

Game ``i`` of a run seeded ``seed`` is dealt from (seed, i) alone, so under two
rule sets with the same pack it is the same deal; the difference of a figure is
taken game by game (B minus A) and its 95% interval comes from those per-game
differences, which is far narrower than comparing two unpaired means.

>>> import whistsim
>>> c = whistsim.compare("welsh", rules={}, vs={"scoring": "five_penalty"}, n=20_000, seed=1)
>>> c.summary()   # figure, unit, mean_a, mean_b, diff, ci_low, ci_high, n
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .figures import columns
from .games import get_game, seating
from .options import WhistsimError
from .runner import stop_on_sigint, threads, timed_run
from .stats import Moments, Share
from .strategy import StrategySpec, parse_spec


@dataclass
class Comparison:
    """Rule sets A and B played on the same deals: per-figure means and paired differences."""

    game: str
    rules_a: Any
    rules_b: Any
    strategies: list[str]
    seed: int
    n: int
    figures: list[str]  # the columns measured under both
    units: dict[str, str]
    rates: set[str]
    a: Moments
    b: Moments
    diff: Moments
    interrupted: bool = False  # Ctrl-C: only the first ``n`` deals were played (under both)
    exact: frozenset[str] = frozenset()  # figures whose difference is constant by the rules (CI: "exact")

    def summary(self):
        """A pandas DataFrame: figure, unit, mean_a, mean_b, diff, ci_low, ci_high, n (CI: of diff; a
        difference constant by the rules, as in :attr:`exact`, has ci_low = ci_high = diff)."""
        import pandas as pd

        return pd.DataFrame(self.rows(), columns=["figure", "unit", "mean_a", "mean_b", "diff", "ci_low",
                                                  "ci_high", "n"])  # fmt: skip

    def rows(self) -> list[list]:
        out = []
        for name in self.figures:
            d = self.diff.estimate(name)
            sd0 = d.sd == 0 or not math.isfinite(d.sd)
            low, high = (d.mean, d.mean) if sd0 else (d.low, d.high)
            out.append([name, self.units[name], self.a.estimate(name).mean, self.b.estimate(name).mean, d.mean,
                        low, high, d.n])  # fmt: skip
        return out

    def means(self, which: str = "a"):
        """Each figure's mean and 95% CI under rule set ``a`` or ``b`` (proportions: Wilson)."""
        import pandas as pd

        m = self.a if which == "a" else self.b
        rows = []
        for name in self.figures:
            e = m.estimate(name)
            e = Share.of(e) if name in self.rates else e
            rows.append([name, self.units[name], e.mean, e.sd, e.low, e.high, e.n])
        return pd.DataFrame(rows, columns=["figure", "unit", "mean", "sd", "ci_low", "ci_high", "n"])

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "rules_a": self.rules_a.describe(),
            "rules_b": self.rules_b.describe(),
            "strategies": self.strategies,
            "seed": self.seed,
            "n": self.n,
            "figures": [{**dict(zip(("figure", "unit", "mean_a", "mean_b", "diff", "ci_low", "ci_high", "n"), r,
                                    strict=True)), "exact": r[0] in self.exact} for r in self.rows()],
        }  # fmt: skip

    def chart(self, path: str) -> None:
        """Each figure's paired difference with its 95% CI, in its own unit, as a PNG."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from .io import atomic_write

        rows = self.rows()
        fig, ax = plt.subplots(figsize=(8, 0.35 * len(rows) + 1.5))
        y = np.arange(len(rows))[::-1]
        for yi, (_name, unit, _, _, d, lo, hi, _) in zip(y, rows, strict=True):
            ax.errorbar([d], [yi], xerr=[[d - lo], [hi - d]], fmt="o", color="C0", capsize=3)
            ax.annotate(f"{d:+.3g} {unit}", (d, yi), textcoords="offset points", xytext=(6, 4), fontsize=7)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(y, [r[0] for r in rows], fontsize=8)
        ax.set_xscale("symlog", linthresh=0.01)
        ax.set_xlabel("B minus A, game by game (each figure in its own unit), 95% CI")
        ax.set_title(f"{self.rules_b.describe()}\nminus {self.rules_a.describe()} (n={self.n:,})", fontsize=8)
        fig.tight_layout()
        try:
            with atomic_write(path, "wb") as f:
                fig.savefig(f, format="png", dpi=120)
        except OSError as e:
            raise WhistsimError(f"cannot write {path}: {e.strerror}") from None
        finally:
            plt.close(fig)


def compare(
    game: str = "welsh",
    *,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
    vs: dict[str, Any] | None = None,
    strategies: Iterable[str | StrategySpec] = ("random",),
    n: int = 100_000,
    seed: int = 0,
    first: int | str = "rotate",
    threads_: int | None = None,
    progress: bool = False,
) -> Comparison:
    """Play the same ``n`` deals under rule set A (``preset`` + ``rules``) and B (A's with
    ``vs`` applied on top), and compare every declared figure game by game.

    ``rules`` and ``vs`` map option keys to values, as ``--rule KEY=VALUE``
    (``{"revokes": True, "challenge": "parlett"}``). ``strategies``: one spec for
    all seats or one per seat (``"greedy"``, ``"cheater:rate=0.2,challenge=smart"``).
    With the same pack under both, game ``i`` is the same deal in A and B.

    >>> c = compare("welsh", vs={"scoring": "five_penalty"}, n=10_000)   # doctest: +SKIP
    >>> c.summary().set_index("figure").loc["points[0]", "diff"]         # doctest: +SKIP
    """
    from .api import _first_seat

    if n < 1:
        raise WhistsimError(f"n={n}: expected a number of games >= 1")
    g = get_game(game)
    ra = g.make_rules(preset, players, dict(rules or {}))
    rb = g.make_rules(preset, players, {**dict(rules or {}), **dict(vs or {})})
    specs = [s if isinstance(s, StrategySpec) else parse_spec(s) for s in strategies]
    pa, pb = g.players_of(ra), g.players_of(rb)
    ids_a, params_a = seating(game, specs, pa)
    ids_b, params_b = seating(game, specs, pb)
    names = [str(s) for s in (specs if len(specs) == pa else specs * pa)]
    f = _first_seat(first)
    import warnings

    from .advice import WhistsimWarning, ineffective

    given = {**dict(rules or {}), **dict(vs or {})}
    in_b = set(ineffective(game, rb, specs, given))
    for line in ineffective(game, ra, specs, given):  # no effect under either rule set: none to show
        if line in in_b:
            warnings.warn(line, WhistsimWarning, stacklevel=2)
    cols_a = [c for c in columns(g.figures, pa, g.sides_of(ra)) if g.figure(c).ratio is None]
    cols_b = set(columns(g.figures, pb, g.sides_of(rb)))
    shown = [c for c in cols_a if c in cols_b]
    units = {c: g.figure(c).unit for c in shown}
    rates = {c for c in shown if g.figure(c).rate}
    a, b, d = Moments(), Moments(), Moments()

    def play(start: int, k: int) -> None:
        ma = g.measure(g.play_batch(ra, ids_a, params_a, seed=seed, start=start, n=k, first=f), ra)
        mb = g.measure(g.play_batch(rb, ids_b, params_b, seed=seed, start=start, n=k, first=f), rb)
        for c in shown:
            xa, xb = np.asarray(ma[c], np.float64), np.asarray(mb[c], np.float64)
            a.add(c, xa)
            b.add(c, xb)
            d.add(c, xb - xa)

    with threads(threads_), stop_on_sigint() as stopped:
        for r_, ids_, params_ in ((ra, ids_a, params_a), (rb, ids_b, params_b)):
            g.play_batch(r_, ids_, params_, seed=seed, n=0, first=f)  # compile first: chunks are timed
        # a long comparison says so first, then shows a bar with its ETA
        done = timed_run(n, play, progress=progress, stop=stopped, unit="deal")
        interrupted = stopped()
    if interrupted and done == 0:
        raise KeyboardInterrupt
    # constant by the rules: the same rules (the same games, a difference of 0) or a figure fixed under both
    exact = frozenset(c for c in shown if ra == rb or (g.figure(c).is_exact(ra) and g.figure(c).is_exact(rb)))
    return Comparison(game, ra, rb, names, seed, done, shown, units, rates, a, b, d, interrupted, exact)


def format_comparison(c: Comparison) -> str:
    """The comparison table for the terminal."""
    rows = c.rows()
    w = max([6, *(len(r[0]) for r in rows)])
    u = max([4, *(len(r[1]) for r in rows)])
    lines = [f"A: {c.rules_a.describe()}", f"B: {c.rules_b.describe()}",
             f"players: {', '.join(f'{q}={s}' for q, s in enumerate(c.strategies))}; seed {c.seed}; the same "
             f"{c.n:,} deals under both, differences taken game by game", "",
             f"{'figure':<{w}} {'unit':<{u}} {'A':>10} {'B':>10} {'B - A':>10} {'95% CI of B - A':>24} {'n':>9}"]  # fmt: skip
    for name, unit, ma, mb, diff, lo, hi, n in rows:
        ci = "exact" if name in c.exact else f"[{lo:.4g}, {hi:.4g}]"
        lines.append(f"{name:<{w}} {unit:<{u}} {ma:>10.4g} {mb:>10.4g} {diff:>+10.4g} {ci:>24} {n:>9,}")
    return "\n".join(lines)


__all__ = ["Comparison", "compare", "format_comparison"]
