"""How often the Ten of trumps is caught, by number of players and strength of play, and from whom.

A study of Scotch Whist played one deal at a time (experiments/scotch_ten.toml): it
reads ``tens_caught`` (0 or 1 a deal) and ``ten_lost_at[k]`` (the Ten was dealt to
the player k-th from the dealer's left and caught). The holder is equally likely to
be any seat (the shuffle is uniform and the whole pack is dealt), so the chance that
the Ten is caught when position k holds it is ``players * ten_lost_at[k]``.
"""

from __future__ import annotations

import math

from ...stats import Estimate, holm, p_two_sided
from ..reading import axis_values
from ..results import Analysis, Chart, ExperimentResult
from ..spec import fmt_value
from ._scotch import cells_where, line, pct, share

PLAYERS, SEATS = "rules.players", "seats.all"
BOOK = "heuristic"  # the strategy that follows Catch the Ten's advice


def _cell(result: ExperimentResult, p: int, s: str):
    found = cells_where(result, rules__players=p, seats__all=s)
    return found[0] if found else None


def _caught_given(result: ExperimentResult, cell, k: int) -> Estimate:
    """The chance the Ten is caught when position k was dealt it: players x P(dealt to k and caught)."""
    p = len(cell.players)
    e = share(result, cell, f"ten_lost_at[{k}]")
    return _Scaled(e, p)


class _Scaled(Estimate):
    """A share scaled by a constant (its Wilson bounds with it)."""

    def __init__(self, e: Estimate, k: float):
        super().__init__(e.mean * k, e.sd * k, e.n)
        self._e, self._k = e, k

    @property
    def low(self) -> float:
        return self._e.low * self._k

    @property
    def high(self) -> float:
        return self._e.high * self._k


def _dealer_minus_elder(result: ExperimentResult, cell) -> Estimate:
    """P(dealer's Ten caught) - P(elder hand's Ten caught), given who holds it, per deal."""
    p = len(cell.players)
    a = result.estimate(cell.index, f"ten_lost_at[{p - 1}]").mean
    b = result.estimate(cell.index, "ten_lost_at[0]").mean
    n = result.estimate(cell.index, "ten_lost_at[0]").n
    # The two events exclude each other in a deal: var(x - y) = a + b - (a - b)^2.
    return Estimate(p * (a - b), p * math.sqrt(max(a + b - (a - b) ** 2, 0.0)), n)


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    if PLAYERS not in spec.axes or SEATS not in spec.axes:
        return Analysis(["(the scotch_ten analysis needs sweeps over rules.players and seats.all)"], [], [])
    counts = sorted(axis_values(spec, PLAYERS))
    strategies = [str(s) for s in axis_values(spec, SEATS)]
    main = BOOK if BOOK in strategies else strategies[-1]
    findings: list[str] = []
    charts: list[Chart] = []

    # 1. How often, by number of players.
    by_p = [(p, share(result, c, "tens_caught")) for p in counts if (c := _cell(result, p, main))]
    if by_p:
        lo = min(by_p, key=lambda t: t[1].mean)
        hi = max(by_p, key=lambda t: t[1].mean)
        four = dict(by_p).get(4)
        findings.append(
            f"Played by the book ({main} players), the Ten of trumps is caught in "
            + (f"{pct(four)} with four players; " if four is not None else "")
            + f"least often with {lo[0]} players, {pct(lo[1])}, and most often with {hi[0]} players, {pct(hi[1])}."
        )
    # 2. Stronger players against random ones, on the same deals (Holm over the player counts).
    base = spec.baseline.get(SEATS, [None])[0]
    diffs = []
    for p in counts:
        for s in strategies:
            c = _cell(result, p, s)
            if c is None or s == fmt_value(base):
                continue
            d = result.difference(c.index, "tens_caught", SEATS)
            if d is not None:
                diffs.append((p, s, d[0]))
    if diffs:
        adj = holm([p_two_sided(e) for _, _, e in diffs])
        for s in [x for x in strategies if x != fmt_value(base)]:
            mine = [(p, e, a) for (p, s2, e), a in zip(diffs, adj, strict=True) if s2 == s]
            if not mine:
                continue
            down = [p for p, e, a in mine if e.mean < 0 and a < 0.05]
            up = [p for p, e, a in mine if e.mean > 0 and a < 0.05]
            big = max(mine, key=lambda t: abs(t[1].mean))
            if len(mine) > 1:
                findings.append(
                    f"On the same deals, {s} players change how often the Ten is caught by "
                    f"{100 * big[1].mean:+.1f} percentage points with {big[0]} players (95% CI "
                    f"{100 * big[1].low:+.1f} to {100 * big[1].high:+.1f}, n={big[1].n:,} deals) against {base} "
                    f"players; it is caught less often with {_counts(down)} players and more often with "
                    f"{_counts(up)} (Holm over the {len(diffs)} paired tests)."
                )
                continue
            # A strategy measured at one count (a search player): against the book's play too.
            c = _cell(result, big[0], s)
            vs = result.difference(c.index, "tens_caught", SEATS, main) if c is not None else None
            tail = (
                f", and by {100 * vs[0].mean:+.1f} percentage points (95% CI {100 * vs[0].low:+.1f} to "
                f"{100 * vs[0].high:+.1f}) against {main} players"
                if vs is not None
                else ""
            )
            findings.append(
                f"Players who search sampled deals ({s}, {big[0]} players only) change how often the Ten is caught "
                f"by {100 * big[1].mean:+.1f} percentage points (95% CI {100 * big[1].low:+.1f} to "
                f"{100 * big[1].high:+.1f}, n={big[1].n:,} deals) against {base} players{tail}."
            )
    # 3. Who was holding it.
    gaps = []
    for p in counts:
        c = _cell(result, p, main)
        if c is None:
            continue
        gaps.append((p, c, _dealer_minus_elder(result, c)))
    if gaps:
        adj = holm([p_two_sided(e) for _, _, e in gaps])
        four = next(((p, c) for p, c, _ in gaps if p == 4), (gaps[0][0], gaps[0][1]))
        p4, c4 = four
        dealer, elder = _caught_given(result, c4, p4 - 1), _caught_given(result, c4, 0)
        worse = [p for (p, _, e), a in zip(gaps, adj, strict=True) if e.mean > 0 and a < 0.05]
        better = [p for (p, _, e), a in zip(gaps, adj, strict=True) if e.mean < 0 and a < 0.05]
        findings.append(
            f"With {p4} {main} players a Ten dealt to the dealer is caught {pct(dealer, 'deals', 1.0)} of the "
            f"time, against {pct(elder)} when the elder hand holds it; the dealer's Ten is caught more often "
            f"than the elder hand's with {_counts(worse)} players and less often with {_counts(better)} (Holm over "
            f"{len(gaps)} player counts)."
        )
        worst = []
        for p, c, _ in gaps:
            ests = [_caught_given(result, c, k) for k in range(p)]
            k = max(range(p), key=lambda i: ests[i].mean)
            worst.append((p, k, ests[k]))
        p_w, k_w, e_w = max(worst, key=lambda t: t[2].mean)
        findings.append(
            f"The most exposed holder is the {_position(k_w, p_w)} with {p_w} players: "
            f"a Ten dealt there is caught {pct(e_w)}."
        )
    # Charts: by players; by holder's position; the paired change.
    ss = []
    for s in strategies:
        pts_ = [(p, share(result, c, "tens_caught")) for p in counts if (c := _cell(result, p, s))]
        if pts_:
            ss.append(line(f"{s} players", [p for p, _ in pts_], [e for _, e in pts_], 100))
    if by_p:
        charts.append(
            Chart(
                "ten-caught-by-players",
                f"The Ten of trumps is caught in {100 * lo[1].mean:.0f}% to {100 * hi[1].mean:.0f}% of deals "
                f"({main} players), least with {lo[0]} players",
                "players",
                "% of deals the Ten is caught (95% CI, within the marks)",
                ss,
            )
        )
    if gaps:
        ss = []
        for p, c, _ in gaps:
            ests = [_caught_given(result, c, k) for k in range(p)]
            ss.append(line(f"{p} players", list(range(1, p + 1)), ests, 100))
        charts.append(
            Chart(
                "ten-caught-by-holder",
                f"Who loses the Ten ({main} players): most exposed is the {_position(k_w, p_w)} "
                f"with {p_w} players ({100 * e_w.mean:.0f}% of the Tens dealt there are caught)",
                "holder's turn position (1 = elder hand; the last is the dealer)",
                "% of the Tens dealt there that are caught (95% CI)",
                ss,
            )
        )
    if diffs:
        big = max(diffs, key=lambda t: abs(t[2].mean))
        ss = []
        for s in [x for x in strategies if x != fmt_value(base)]:
            mine = [(p, e) for p, s2, e in diffs if s2 == s]
            ss.append(line(f"{s} minus {base}", [p for p, _ in mine], [e for _, e in mine], 100))
        charts.append(
            Chart(
                "ten-caught-change",
                f"Stronger play changes how often the Ten is caught by up to {100 * abs(big[2].mean):.0f} "
                "percentage points (same deals)",
                "players",
                f"change against {base} players: percentage points (95% CI)",
                ss,
                zero_line=True,
            )
        )
    return Analysis(findings, charts, [])


def _counts(ps: list[int]) -> str:
    if not ps:
        return "none"
    return ", ".join(str(p) for p in ps[:-1]) + (" and " if len(ps) > 1 else "") + str(ps[-1])


def _position(k: int, p: int) -> str:
    if k == p - 1:
        return "dealer"
    if k == 0:
        return "elder hand"
    return f"{_ordinal(k + 1)} player from the dealer's left"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
