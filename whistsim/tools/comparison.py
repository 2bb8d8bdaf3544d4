"""Two rule sets on the same deals: every figure under both, and the paired difference.

Game ``i`` of a run seeded ``seed`` is dealt from (seed, i) alone, so under two
rule sets with the same pack it is the same deal; the difference of a figure is
taken game by game (B minus A) and its 95% interval comes from those per-game
differences, which is far narrower than comparing two unpaired means.

The answer comes in three parts: the figures that changed (the 95% CI of B - A
excludes 0), those with no clear change, and those identical in every deal under
both rule sets (the change does not touch them, or the rules fix them), which are
summarised in one line.

The run is an experiment held in memory (:func:`two_cells`: rule set A, the
baseline, and B, one pair), played by the experiments' :class:`~whistsim.experiments.run.Run`
in parts of about half a second (:class:`Paced`), so that a stop or Ctrl-C keeps the deals played.

>>> import whistsim
>>> c = whistsim.compare("welsh", rules={}, vs={"scoring": "five_penalty"}, n=20_000, seed=1)
>>> c.summary()   # figure, unit, mean_a, mean_b, diff, ci_low, ci_high, n, verdict, meaning
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.figures import columns
from ..core.options import WhistsimError, alternatives, plural, written
from ..core.stats import TOO_SMALL_NOTE, Moments, has_interval
from ..core.strategy import StrategySpec, parse_spec
from ..core.tables import ci_text, estimate_of, share_columns
from ..games import get_game, seating
from ..games.runner import by_time, stop_on_sigint, threads

CHANGED, UNCLEAR, SAME = "changed", "no clear change", "identical"
SUMMARY_COLUMNS = ["figure", "unit", "mean_a", "mean_b", "diff", "ci_low", "ci_high", "n", "verdict", "meaning"]  # fmt: skip


@dataclass
class Comparison:
    """Rule sets A and B played on the same deals: per-figure means and paired differences."""

    game: str
    rules_a: Any
    rules_b: Any
    strategies: list[str]
    seed: int
    n: int
    figures: list[str]  # the columns measured under both, in declaration order
    units: dict[str, str]
    rates: set[str]  # the shares (whistsim.core.tables.is_share): their means' intervals are Wilson's
    a: Moments
    b: Moments
    diff: Moments
    interrupted: bool = False  # Ctrl-C: only the first ``n`` deals were played (under both)
    exact: frozenset[str] = frozenset()  # figures whose difference is constant by the rules (CI: "exact")
    change: str = ""  # the change from A to B in words: "five-penalty scoring against standard scoring"
    meanings: dict[str, str] | None = None  # each figure in words, from its declaration
    where: str | None = None  # the constraint every deal was dealt under (docs/deals.md)
    drawn_per_deal: float = 1.0  # deals drawn per deal played under A (the kernel's count)

    def verdict(self, name: str) -> str:
        """``changed`` (the CI of B - A excludes 0, or the rules fix a difference that is not 0),
        ``identical`` (B - A is 0 in every deal) or ``no clear change``."""
        d = self.diff.estimate(name)
        if self.diff.s2.get(name, None) == 0:  # a sum of squares of 0: every difference is 0
            return SAME
        if name in self.exact or (has_interval(d.n) and d.sd == 0):
            return CHANGED if d.mean != 0 else SAME
        low, high = self._ci(name)
        return CHANGED if (low > 0 or high < 0) else UNCLEAR

    def _ci(self, name: str) -> tuple[float, float]:
        d = self.diff.estimate(name)
        if name in self.exact:  # constant by the rules under both: known from one deal
            return d.mean, d.mean
        if not has_interval(d.n):
            return math.nan, math.nan  # one deal gives no interval, not a zero-width one
        if d.sd == 0 or not math.isfinite(d.sd):
            return d.mean, d.mean
        return d.low, d.high

    def ordered(self) -> list[str]:
        """The figures as the answer lists them: changed, no clear change, identical (each in
        declaration order)."""
        return [r[0] for r in self.rows()]

    def meaning(self, name: str) -> str:
        return (self.meanings or {}).get(name, name)

    def rows(self) -> list[list]:
        """One row per figure, in :meth:`ordered`'s order: figure, unit, mean_a, mean_b, diff,
        ci_low, ci_high, n, verdict, meaning."""
        out = []
        for name in self.figures:
            d = self.diff.estimate(name)
            low, high = self._ci(name)
            out.append([name, self.units[name], self.a.estimate(name).mean, self.b.estimate(name).mean, d.mean,
                        low, high, d.n, self.verdict(name), self.meaning(name)])  # fmt: skip
        rank = {CHANGED: 0, UNCLEAR: 1, SAME: 2}
        return sorted(out, key=lambda r: rank[r[8]])  # stable: declaration order within a verdict

    def summary(self):
        """A pandas DataFrame, every figure in the answer's order (changed, no clear change,
        identical): figure, unit, mean_a, mean_b, diff, ci_low, ci_high (of diff), n, verdict,
        meaning. A difference constant by the rules (:attr:`exact`) has ci_low = ci_high = diff;
        under two deals the bounds are NaN (one deal gives no interval)."""
        import pandas as pd

        return pd.DataFrame(self.rows(), columns=SUMMARY_COLUMNS)

    def means(self, which: str = "a"):
        """Each figure's mean and 95% CI under rule set ``a`` or ``b`` (shares: Wilson)."""
        import pandas as pd

        m = self.a if which == "a" else self.b
        rows = []
        for name in self.ordered():
            e = estimate_of(m, name, self.rates)
            rows.append([name, self.units[name], e.mean, e.sd, e.low, e.high, e.n])
        return pd.DataFrame(rows, columns=["figure", "unit", "mean", "sd", "ci_low", "ci_high", "n"])

    def to_json(self) -> dict:
        def num(x):
            return float(x) if isinstance(x, (int, float, np.floating)) and math.isfinite(x) else None

        figures = []
        for r in self.rows():
            row = dict(zip(SUMMARY_COLUMNS, r, strict=True))
            for k in ("mean_a", "mean_b", "diff", "ci_low", "ci_high"):
                row[k] = num(row[k])
            figures.append({**row, "n": int(row["n"]), "exact": r[0] in self.exact})
        g = get_game(self.game)
        out = {"game": self.game, "change": self.change, "rules_a": g.describe(self.rules_a),
               "rules_b": g.describe(self.rules_b), "strategies": self.strategies, "seed": self.seed, "n": self.n,
               "figures": figures}  # fmt: skip
        if self.where is not None:
            out.update({"where": self.where, "drawn_per_deal": self.drawn_per_deal})
        if not has_interval(self.n):
            out["note"] = TOO_SMALL_NOTE
        return out

    @property
    def unit(self) -> str:
        """What one paired unit is, as the game declares it: a deal, or (Oh Hell) a whole game."""
        return get_game(self.game).unit

    def title(self) -> str:
        """The change in words, with the game and the deals: a chart's title, a table's first line."""
        change = self.change[:1].upper() + self.change[1:]
        return f"{change}: {get_game(self.game).title}, {plural(self.n, 'paired ' + self.unit)}"

    def chart(self, path: str) -> None:
        """Each figure's paired difference with its 95% CI as a PNG: one panel per unit, each figure
        in words, the changed ones in colour; the identical ones are named under the title."""
        from matplotlib.figure import Figure  # not pyplot: a chart never changes the caller's backend

        from ..core.io import atomic_write

        rows = [r for r in self.rows() if r[8] != SAME]
        units = list(dict.fromkeys(r[1] for r in rows))
        same = len(self.figures) - len(rows)
        heights = [sum(r[1] == u for r in rows) + 1.2 for u in units] or [1.0]
        fig = Figure(figsize=(10, 0.32 * sum(heights) + 1.6))
        axes = fig.subplots(len(heights), 1, gridspec_kw={"height_ratios": heights}, squeeze=False)
        for ax, unit in zip(axes[:, 0], units, strict=False):
            mine = [r for r in rows if r[1] == unit]
            y = np.arange(len(mine))[::-1]
            for yi, (_, _, _, _, d, lo, hi, n, verdict, _) in zip(y, mine, strict=True):
                colour = "C3" if verdict == CHANGED else "grey"
                if has_interval(n) and math.isfinite(lo) and math.isfinite(hi):
                    ax.errorbar([d], [yi], xerr=[[d - lo], [hi - d]], fmt="o", color=colour, capsize=3)
                else:
                    ax.plot([d], [yi], "o", color=colour)
            ax.axvline(0, color="grey", lw=0.8)
            labels = [f"{textwrap.shorten(r[9], 55, placeholder='...')} ({r[0]})" for r in mine]
            ax.set_yticks(y, labels, fontsize=7)
            ax.set_ylim(-0.7, len(mine) - 0.3)
            ax.set_xlabel(f"B minus A, {unit}", fontsize=8)
            ax.tick_params(axis="x", labelsize=7)
        if not units:
            axes[0, 0].set_axis_off()
        ci = "95% CIs" if has_interval(self.n) else "no intervals (n too small)"
        notes = [f"B minus A on each {self.unit}, {ci}; in colour: the CI excludes 0"]
        if same:
            notes.append(f"{plural(same, 'figure')} identical in every {self.unit} under both, not drawn")
        fig.suptitle(f"{self.title()}\n" + "; ".join(notes), fontsize=9)
        fig.tight_layout()
        try:
            with atomic_write(path, "wb") as f:
                fig.savefig(f, format="png", dpi=120)
        except OSError as e:
            raise WhistsimError(f"cannot write {path}: {e.strerror}") from None


def _value_words(key: str, value: Any) -> str:
    """One option's value in words: ``scoring five_penalty`` -> "five-penalty scoring"."""
    if isinstance(value, bool):
        return f"{'with' if value else 'without'} {key}"
    if isinstance(value, str):
        return f"no {key}" if value == "none" else f"{value.replace('_', '-')} {key}"
    return f"{key} {written(value)}"


def change_words(ra: dict[str, Any], rb: dict[str, Any], preset_a: str, preset_b: str) -> str:
    """What B changes from A (each as a record writes its rules), in words: "five-penalty scoring
    against standard scoring"."""
    keys = [k for k in ra if ra[k] != rb.get(k)]
    a_words = alternatives([_value_words(k, ra[k]) for k in keys], last="and") if keys else ""
    b_words = alternatives([_value_words(k, rb[k]) for k in keys], last="and") if keys else ""
    if preset_a != preset_b:
        a_words = f"the {preset_a} preset" + (f" ({a_words})" if a_words else "")
        b_words = f"the {preset_b} preset" + (f" ({b_words})" if b_words else "")
    return f"{b_words} against {a_words}"


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
    where: str | None = None,
    stop: Callable[[], bool] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Comparison:
    """Play the same ``n`` deals under rule set A (``preset`` + ``rules``) and B (A's with
    ``vs`` applied on top), and compare every declared figure game by game.

    ``rules`` and ``vs`` map option keys to values, as ``--rule KEY=VALUE``
    (``{"revokes": True, "challenge": "parlett"}``). ``vs`` may name a preset
    (``{"preset": "akagiri"}``): B is then that preset with A's player count, A's
    ``rules`` and the rest of ``vs`` on top. B must differ from A. ``strategies``:
    one spec for all seats or one per seat (``"greedy"``,
    ``"cheater:rate=0.2,challenge=smart"``). With the same pack under both, game
    ``i`` is the same deal in A and B; ``where`` deals only deals that meet a constraint
    (docs/deals.md), the same under both when the rules deal the same pack.

    ``stop()``, asked after each chunk of deals as Ctrl-C is, ends the run early: the answer is
    of the deals played (``interrupted``). ``on_progress(done)`` is called with 0 once both rule
    sets and the players are checked (before any kernel is compiled), then after each chunk with
    the deals played under both so far.

    >>> c = compare("welsh", vs={"scoring": "five_penalty"}, n=200, seed=1)
    >>> "total_points" in set(c.summary()["figure"])   # every figure under A and B, and B - A
    True
    """
    from ..api import _first_seat

    if n < 1:
        raise WhistsimError(f"n={n}: expected a number of games >= 1")
    g = get_game(game)
    rules, vs = dict(rules or {}), dict(vs or {})
    if not vs:
        raise WhistsimError("compare needs rule set B: give --vs KEY=VALUE, e.g. --vs scoring=five_penalty")
    if "preset" in rules:
        raise WhistsimError("rule set A's preset is --preset (preset=...), not --rule preset=...")
    asked = dict(vs)
    preset_a = preset or g.presets[0]
    preset_b = vs.pop("preset", preset_a)
    if not isinstance(preset_b, str):
        raise WhistsimError(f"--vs preset={preset_b!r}: expected a preset's name ({', '.join(g.presets)})")
    preset_b = preset_b.strip()
    ra = g.make_rules(preset_a, players, rules)
    rb = g.make_rules(preset_b, players, {**rules, **vs})
    if ra == rb:
        said = " --vs ".join(f"{k}={v}" for k, v in asked.items())
        raise WhistsimError(f"--vs {said} changes nothing: rule set B is rule set A ({g.describe(ra)})")
    specs = [s if isinstance(s, StrategySpec) else parse_spec(s) for s in strategies]
    pa, pb = g.players_of(ra), g.players_of(rb)
    seating(game, specs, pa)  # every seat's player checked before anything runs
    seating(game, specs, pb)
    names = [str(s) for s in (specs if len(specs) == pa else specs * pa)]
    f = _first_seat(first)
    import warnings

    from .advice import WhistsimWarning, ineffective

    given = {**rules, **vs}
    in_b = set(ineffective(game, rb, specs, given))
    for line in ineffective(game, ra, specs, given):  # no effect under either rule set: none to show
        if line in in_b:
            warnings.warn(line, WhistsimWarning, stacklevel=2)
    cols_a = [c for c in columns(g.figures, pa, g.sides_of(ra)) if g.figure(c).ratio is None]
    cols_b = set(columns(g.figures, pb, g.sides_of(rb)))
    shown = [c for c in cols_a if c in cols_b]
    units = {c: g.figure(c).unit for c in shown}
    constraint = None
    if where is not None:
        from ..deals.constraints import prepare

        constraint = prepare(where, game, ra, f, seed=seed)
        where = constraint.text
    names_b = [str(s) for s in (specs if len(specs) == pb else specs * pb)]
    spec = two_cells(game, ra, rb, names, names_b, n=n, seed=seed, first=f, where=where, figures=shown)
    if on_progress is not None:  # every value is checked: a caller may now say the run has started
        on_progress(0)
    from ..experiments.run import Run

    with threads(threads_), stop_on_sigint() as sigint:
        paced = Paced(sigint if stop is None else (lambda: sigint() or stop()), on_progress)
        result = Run(spec, write=False, progress=progress).play(paced)
        interrupted = paced.stopped
    done = result.games
    if interrupted and done == 0:
        raise KeyboardInterrupt
    tally = result.tally
    # constant by the rules: a figure fixed under both rule sets
    exact = frozenset(c for c in shown if g.figure(c).is_exact(ra) and g.figure(c).is_exact(rb))
    from ..experiments.figures import figure_name  # the figures' words, shared with reports

    meanings = {c: figure_name(game, c) for c in shown}
    drawn = (tally.drawn_per_deal(0) or 1.0) if constraint is not None else 1.0
    return Comparison(game, ra, rb, names, seed, done, shown, units, share_columns(g, shown), tally.cells[0],
                      tally.cells[1], tally.paired[0], interrupted, exact,
                      change_words(g.rules_record(ra), g.rules_record(rb), preset_a, preset_b),
                      meanings, where, drawn)  # fmt: skip


AXIS = "rule set"  # the study's one axis: A, the baseline, and B


def two_cells(game: str, ra: Any, rb: Any, players_a: list[str], players_b: list[str], *, n: int, seed: int,
              first: int, where: str | None, figures: list[str]):  # fmt: skip
    """The comparison as an experiment held in memory: two cells, rule set A (the baseline) and B, on
    the same deals (game i of both is dealt from (seed, i)), ``figures`` compared deal by deal."""
    from ..experiments.spec import DEFAULT_CHUNK, Cell, Pair, Spec

    g = get_game(game)
    cells = [Cell(i, ((AXIS, name),), rules, tuple(players), first, "game i of both from (seed, i)", where)
             for i, (name, rules, players) in enumerate((("A", ra, players_a), ("B", rb, players_b)))]  # fmt: skip
    return Spec("compare", game, n, seed, "rotate" if first < 0 else first, DEFAULT_CHUNK, {}, {}, [],
                {AXIS: ["A"]}, list(figures), [], {AXIS: AXIS}, None, f"{g.describe(rb)} against {g.describe(ra)}",
                "Which figures does the change from rule set A to B move, and by how much?", where=where,
                cells=cells, pairs=[Pair(1, 0, AXIS)], axes=[AXIS])  # fmt: skip


class Paced:
    """An executor of the experiments' runs (whistsim.experiments.run) that plays each chunk in the
    runner's parts of about half a second (runner.by_time), asking ``stop()`` and telling
    ``on_progress(deals done)`` between parts. A stop ends the run with the parts played: the last
    chunk is then a part of one, and :attr:`stopped` is set."""

    def __init__(self, stop: Callable[[], bool], on_progress: Callable[[int], None] | None = None) -> None:
        self.stop, self.on_progress, self.stopped = stop, on_progress, False

    def map(self, job: Any, chunks: Iterable[int], progress: Callable[[int], None] | None):
        from ..experiments.results import Tally
        from ..experiments.run import ChunkOut, play_chunk

        spec = job.spec
        for k in chunks:
            start, size = job.where(k)
            tally = Tally.empty(len(spec.cells), len(spec.pairs))

            def part(at: int, m: int, tally: Tally = tally, k: int = k) -> int:
                tally.merge(play_chunk(spec, k, at, m, threads=job.threads, on_cell=progress).tally)
                if self.on_progress is not None:
                    self.on_progress(at + m)
                return m

            end = by_time(start + size, part, start=start, stop=self.stop)
            tally.chunks = 1
            yield ChunkOut(k, tally)
            if end < start + size or self.stop():
                self.stopped = end < spec.n
                return


def _grouped(names: list[str]) -> str:
    """``["cards_won[0]", "cards_won[1]", "turns"]`` -> "cards_won[0-1], turns"."""
    groups: dict[str, list[str]] = {}
    for c in names:
        base, _, index = c.partition("[")
        groups.setdefault(base, []).append(index.rstrip("]"))
    out = []
    for base, idx in groups.items():
        if idx == [""]:
            out.append(base)
        elif len(idx) == 1:
            out.append(f"{base}[{idx[0]}]")
        else:
            out.append(f"{base}[{idx[0]}-{idx[-1]}]")
    return ", ".join(out)


def format_comparison(c: Comparison) -> str:
    """The comparison for the terminal, read as an answer: the change in words; the figures that
    changed beyond their 95% CI, in words with units; those with no clear change; one line for
    those identical in every deal."""
    rows = c.rows()
    u = c.unit
    g = get_game(c.game)
    lines = [c.title(), f"A: {g.describe(c.rules_a)}", f"B: {g.describe(c.rules_b)}",
             f"players: {', '.join(f'{q}={s}' for q, s in enumerate(c.strategies))}; seed {c.seed}; the same "
             f"{plural(c.n, u)} under both, each figure's difference (B - A) taken {u} by {u}"]  # fmt: skip
    if c.where is not None:
        lines.append(f"dealt under: {c.where} ({c.drawn_per_deal:,.2f} deals drawn per deal played)")
    if not has_interval(c.n):
        lines.append(f"one {u} gives no interval: every 95% CI below is 'n too small'")
    shown = [r for r in rows if r[8] != SAME]
    wa = max([6, *(len(f"{r[2]:.4g} -> {r[3]:.4g}") for r in shown)])
    wu = max([4, *(len(r[1]) for r in shown)])
    head = f"  {'B - A':>10} {'95% CI of B - A':>22}  {'A -> B':>{wa}}  {'unit':<{wu}}  figure"
    unclear = (
        "No clear change: the 95% CI of B - A includes 0" if has_interval(c.n) else "Differing (no interval)"
    )
    for verdict, heading in ((CHANGED, "Changed: the 95% CI of B - A excludes 0"), (UNCLEAR, unclear)):
        mine = [r for r in shown if r[8] == verdict]
        if not mine:
            continue
        lines += ["", f"{heading} ({plural(len(mine), 'figure')}):", head]
        for name, unit, ma, mb, diff, lo, hi, n, _, meaning in mine:
            if name in c.exact:
                ci = "exact"
            elif has_interval(n) and lo == hi == diff:
                ci = f"in every {u}"
            else:
                ci = ci_text(lo, hi, n)
            ab = f"{ma:.4g} -> {mb:.4g}"
            lines.append(f"  {diff:>+10.4g} {ci:>22}  {ab:>{wa}}  {unit:<{wu}}  {meaning} ({name})")
    same = [r[0] for r in rows if r[8] == SAME]
    if same:
        lines += ["", f"Identical in every {u} under both ({plural(len(same), 'figure')}): {_grouped(same)}"]
    tested = len(shown)
    if tested and has_interval(c.n):
        lines.append(f"Of {plural(tested, 'figure')} that differ in some {u}, about {0.05 * tested:.1f} "
                     "would show a change at 95% by chance alone.")  # fmt: skip
    return "\n".join(lines)


__all__ = ["Comparison", "compare", "change_words", "format_comparison"]
