"""Trump length in Whist: how often the side holding k trumps wins the deal, played and open-handed.

A study of Whist (experiments/trump_length.toml): single deals dealt under the constraint
``side0.trumps == k`` (k from 1 to 13; the direct method deals even 13 at once) and
``sideN.honours == 3`` or ``== 4``, seat 0 dealing every deal (``first = 1``), each played by
heuristic players and by pimc players at every seat. Side 0, the dealer's side, holds the turned
trump, so it holds 1 to 13 trumps and the other side the rest, 0 to 12: each cell gives the chance
of both. It reads the Whist figures ``more_tricks[t]`` and ``more_points[t]``. Beside the play, the
open-hand value: the first ``SOLVED`` deals of each constraint (the same deals the players got: a
deal depends on the seed, the game index and the constraint alone) solved before any card is
played (``whistsim.solver.solve_record``): each side's tricks under perfect play by all four.
"""

from __future__ import annotations

import functools
import re

import numpy as np

from ...core.stats import Estimate, Share, estimate
from ..results import Analysis, Chart, ExperimentResult
from ._whist import find, pct_series, share

WHERE, SEATS = "where", "seats.all"
WHO = {"heuristic": "rule-based players (heuristic)", "pimc": "players who search sampled deals"}


def _who(p: str) -> str:
    """A player in words a card player knows."""
    return WHO.get(p, p)


SOLVED = 40  # deals solved open-handed per constraint (every length: 40 take about a second)
LENGTH = re.compile(r"^side0\.trumps == (\d+)$")
HONOURS = re.compile(r"^side(\d)\.honours == (\d)$")


@functools.lru_cache(maxsize=64)  # a report reads the analysis more than once: solve once
def open_hand(where: str, seed: int, first: int, n: int = SOLVED) -> tuple[np.ndarray, float]:
    """Side 0's open-hand tricks in each of the first ``n`` deals under ``where``, and the deals
    drawn per deal dealt."""
    import whistsim
    from whistsim.solver import solve_record

    sim = whistsim.simulate(
        "whist", n=n, seed=seed, rules={"unit": "deal"}, records=n, where=where, first=first
    )
    tricks = []
    for rec in sim.records:
        start = {k: v for k, v in rec.items() if k != "result"}
        start["moves"] = []
        tricks.append(solve_record(start)["tricks"][0])
    return np.array(tricks, np.float64), sim.drawn_per_deal


def dealt(where: str, seed: int, first: int, n: int = SOLVED) -> float:
    """The deals drawn per deal dealt under ``where``, over its first ``n`` deals."""
    import whistsim

    return whistsim.simulate(
        "whist", n=n, seed=seed, rules={"unit": "deal"}, where=where, first=first
    ).drawn_per_deal


def _fmt(e: Estimate | None) -> str:
    if e is None:
        return "–"
    if isinstance(e, Share):
        return f"{100 * e.mean:.1f}% ({100 * e.low:.1f}–{100 * e.high:.1f})"
    return f"{e.mean:.2f} ({e.low:.2f}–{e.high:.2f})"


def _pc(e: Estimate) -> str:
    return f"{100 * e.mean:.0f}% ({100 * e.low:.0f}–{100 * e.high:.0f}%)"


def analyse(result: ExperimentResult) -> Analysis:
    """The chance of winning the deal by trump length, for each player, beside the open-hand value."""
    spec = result.spec
    players = [p for p in ("heuristic", "pimc") if any(c.value(SEATS) == p for c in spec.cells)]
    lengths = sorted({int(m.group(1)): w for c in spec.cells if (m := LENGTH.match(str(c.value(WHERE) or ""))) for w in [c.value(WHERE)]}.items())  # fmt: skip
    honours = sorted({(int(m.group(1)), int(m.group(2))): c.value(WHERE) for c in spec.cells if (m := HONOURS.match(str(c.value(WHERE) or "")))}.items())  # fmt: skip
    if not lengths or not players or spec.first != 1:
        return Analysis(
            ["(the trump-length study needs side0.trumps == k cells, seats.all and first = 1)"], [], []
        )
    first = int(spec.first)

    def won(where: str, player: str, side: int, figure: str = "more_tricks") -> Share | None:
        c = find(result, {WHERE: where, SEATS: player})
        return None if c is None else share(result, c.index, f"{figure}[{side}]")

    # the side holding k trumps: the dealer's (side 0, k from 1) and the other (side 1, k = 13 - side 0's)
    dealer = {p: [(k, won(w, p, 0)) for k, w in lengths] for p in players}
    other = {p: sorted((13 - k, won(w, p, 1)) for k, w in lengths) for p in players}
    solved = {w: open_hand(w, spec.seed, first) for _, w in lengths + honours}
    oh_dealer = [(k, Share.of(estimate((solved[w][0] >= 7).astype(float)))) for k, w in lengths]
    oh_other = sorted((13 - k, Share.of(estimate((solved[w][0] <= 6).astype(float)))) for k, w in lengths)
    oh_tricks = [(k, estimate(solved[w][0])) for k, w in lengths]

    def half(points: list[tuple[int, Estimate | None]]) -> int | None:
        return next((k for k, e in points if e is not None and e.mean >= 0.5), None)

    findings: list[str] = []
    crossing = "; ".join(
        f"with {_who(p)} from {half(dealer[p])} trumps (the dealer's side) and {half(other[p])} (the other side)"
        for p in players
    )
    findings.append(
        "The side holding more of the 13 trumps usually wins the deal (seven tricks or more): it wins most "
        f"deals {crossing} (n={spec.n:,} deals a length). Open-handed (n={SOLVED} deals a length), from "
        f"{half(oh_dealer)} and {half(oh_other)}."
    )
    d7 = {p: dict(dealer[p]).get(7) for p in players}
    o7 = {p: dict(other[p]).get(7) for p in players}
    findings.append(
        "With 7 trumps the dealer's side wins "
        + ", ".join(f"{_pc(d7[p])} of deals with {_who(p)}" for p in players if d7[p] is not None)
        + "; the other side, which leads first, "
        + ", ".join(f"{_pc(o7[p])}" for p in players if o7[p] is not None)
        + f" (n={spec.n:,} deals each, 95% CIs)."
    )
    ends = []
    for p in players:
        d, o = dict(dealer[p]), dict(other[p])
        if d.get(13) is not None and o.get(0) is not None and d.get(1) is not None:
            ends.append(
                f"{_who(p)}: {100 * d[13].mean:.1f}% with all 13, {100 * d[1].mean:.1f}% with only the turned trump, "
                f"{100 * o[0].mean:.1f}% with none"
            )
    if ends:
        findings.append(
            "At the extremes, dealt directly under the constraint (one draw a deal): "
            + "; ".join(ends)
            + f" (n={spec.n:,} deals each)."
        )
    if len(players) == 2:
        gaps = [
            (k, a.mean - b.mean)
            for (k, a), (_, b) in zip(dealer[players[1]], dealer[players[0]], strict=True)
            if a is not None and b is not None
        ]
        big = max(gaps, key=lambda x: abs(x[1]))
        findings.append(
            f"The players matter less than the cards: {_who(players[1])} against {_who(players[0])} move the dealer's "
            f"side's chance by at most {100 * abs(big[1]):.1f} percentage points (at {big[0]} trumps), while one "
            "trump more moves it by up to "
            f"{100 * max(abs(b.mean - a.mean) for (_, a), (_, b) in zip(dealer[players[0]], dealer[players[0]][1:], strict=False)):.0f} percentage points (n={spec.n:,} deals a length)."
        )
    if honours:
        parts = []
        for (side, h), w in honours:
            for p in players:
                t, q = won(w, p, side), won(w, p, side, "more_points")
                if t is not None and q is not None:
                    who = "dealer's side" if side == 0 else "other side"
                    parts.append(
                        f"with {h} honours the {who} wins {_pc(t)} on tricks and {_pc(q)} on points ({_who(p)})"
                    )
        findings.append(
            "A side dealt three or four of A K Q J of trumps wins most deals: "
            + "; ".join(parts)
            + f" (n={spec.n:,} deals each; points: tricks above six, plus 2 or 4 for honours; a tie counts "
            "for neither)."
        )
    lines = [
        "| trumps | "
        + " | ".join(f"dealer's side, {_who(p)} | other side, {_who(p)}" for p in players)
        + " | open hand: dealer's side | open hand: other side |",
        "|" + "---|" * (1 + 2 * len(players) + 2),
    ]
    d_oh, o_oh = dict(oh_dealer), dict(oh_other)
    for k in range(14):
        cells = []
        for p in players:
            cells += [_fmt(dict(dealer[p]).get(k)), _fmt(dict(other[p]).get(k))]
        lines.append(f"| {k} | " + " | ".join(cells) + f" | {_fmt(d_oh.get(k))} | {_fmt(o_oh.get(k))} |")
    table = (
        f"The share of deals the side holding k trumps won on tricks (seven or more): n={spec.n:,} deals "
        f"each played, {SOLVED} each solved open-handed (95% CIs; –: no such deal). The dealer's side "
        "holds the turned trump (1 to 13); the other side leads first (0 to 12).\n\n" + "\n".join(lines)
    )
    rows = ["| dealt | " + " | ".join(f"{_who(p)}: tricks | {_who(p)}: points" for p in players) + " | open hand: side 0's tricks | drawn per deal |",
            "|" + "---|" * (2 + 2 * len(players) + 1)]  # fmt: skip
    for _, w in lengths + honours:
        side = int(w[4])
        cells = []
        for p in players:
            cells += [_fmt(won(w, p, side)), _fmt(won(w, p, side, "more_points"))]
        got = solved.get(w)
        oh = "–" if got is None else _fmt(estimate(got[0]))
        drawn = got[1] if got is not None else dealt(w, spec.seed, first)
        rows.append(f"| {w} | " + " | ".join(cells) + f" | {oh} | {drawn:,.2f} |")
    per_cell = (
        "Each constraint's cell: the share of deals the constrained side won on tricks and on points, its "
        "open-hand tricks for side 0 (mean, t interval) and the deals drawn per deal dealt (1: the direct "
        "method).\n\n" + "\n".join(rows)
    )
    series = []
    for p in players:
        series.append(pct_series(f"dealer's side, {_who(p)}", dealer[p]))
        series.append(pct_series(f"other side, {_who(p)}", other[p]))
    series.append(pct_series("dealer's side, open hand", oh_dealer))
    series.append(pct_series("other side, open hand", oh_other))
    charts = [
        Chart(
            "trump-length-wins-the-deal",
            f"The side holding {half(dealer[players[0]])} or more of the 13 trumps wins most deals, "
            "played or open-handed",
            "trumps held by the side (of 13)",
            "deals the side won on tricks: % (95% CI)",
            series,
        ),
        Chart(
            "open-hand-tricks",
            "Side 0's open-hand tricks grow with its trumps",
            "trumps held by side 0, the dealer's side (of 13)",
            "side 0's open-hand tricks, as % of the 13 (95% CI)",
            [
                pct_series(
                    "open hand: side 0's tricks",
                    [(k, Estimate(e.mean / 13, e.sd / 13, e.n)) for k, e in oh_tricks],
                )
            ],
        ),
    ]
    return Analysis(findings, charts, [("The side holding k trumps", table), ("Each constraint", per_cell)])
