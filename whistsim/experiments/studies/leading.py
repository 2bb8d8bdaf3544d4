"""Leading high (Akagiri 1995): does it catch Tens and jokers, and is there little advantage in it?

A study of Welsh Whist (experiments/leading.toml): it names the Welsh figures it
reads, the leading seat's ``tt`` (Tens and Taffies won), ``points`` and ``win``.
"""

from __future__ import annotations

from ...core.stats import Estimate
from .. import verdicts as V
from ..charts import from_run
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_num
from ..spec import fmt_value
from ..tools import axis_values, find_axis, fmt_share, group_label, series, signed

LITTLE = 0.05  # "little advantage": under 5% of a player's fair share of the points
PRESETS = {"parlett": "Parlett's rules", "akagiri": "Akagiri 1995's rules"}


def player(name: str) -> str:
    """``hoarder`` -> ``the hoarder``; ``greedy`` -> ``the greedy player``."""
    return f"the {name}" if name.endswith("er") else f"the {name} player"


def rules_words(text: str) -> str:
    """``preset parlett`` -> ``Parlett's rules``."""
    for k, v in PRESETS.items():
        if text.endswith(k):
            return v
    return text


def analyse(result: ExperimentResult) -> Analysis:
    """Akagiri 1995's two claims: leading high while the stock lasts catches Tens and jokers; little advantage in leading.

    The leading player is the swept seat's first value (the hunter); every baseline value is compared
    with it on the same deals; "little advantage" compares it with the first baseline (the non-leader).
    """
    spec = result.spec
    axis = find_axis(spec, lambda a: a.startswith("seats.") and len(a.split(".")) == 2)
    if axis is None or axis not in spec.baseline:
        return Analysis(["(the leading analysis needs a swept seat player with a baseline)"], [], [])
    seat = int(axis.split(".")[1]) if (axis.split(".")[1].isascii() and axis.split(".")[1].isdigit()) else 0
    leader = fmt_value(axis_values(spec, axis)[0])
    bases = [fmt_value(b) for b in spec.baseline[axis]]
    catch: list[str] = []
    little: list[str] = []
    wins: list[str] = []
    tt, pts, win = f"tt[{seat}]", f"points[{seat}]", f"win[{seat}]"
    for c in spec.cells:
        if fmt_value(c.value(axis)) != leader:
            continue
        where = rules_words(group_label(spec, c, {axis}))
        where = "" if where == "all cells" else f" with {where}"
        d_tt = [(b, result.difference(c.index, tt, axis, b)) for b in bases]
        d_tt = [(b, d[0]) for b, d in d_tt if d is not None]
        if d_tt:
            v = V.combine([V.positive(e) for _, e in d_tt])
            parts = " and ".join(f"by {signed(e, 'a game')} against {player(b)}" for b, e in d_tt)
            catch.append(
                f'"Leading high while the stock lasts catches Tens and jokers" {v}{where}: on the same deals '
                f"playing the {leader} changes the Tens and Taffies seat {seat} wins {parts}."
            )
        d_pts = result.difference(c.index, pts, axis, bases[0])
        if d_pts is not None:
            e = d_pts[0]
            margin = LITTLE * result.estimate(c.index, "points_per_player").mean
            v = V.at_most(e, margin)
            little.append(
                f'"Little advantage in leading" {v}{where}: leading high changes seat {seat}\'s score by '
                f"{signed(e, 'points per game')} against {player(bases[0])} on the same deals (little: under "
                f"+{fmt_num(margin)}, 5% of a fair share)."
            )
        base_cell = next(
            (b for b in spec.cells if fmt_value(b.value(axis)) == bases[0]
             and all(fmt_value(b.value(a)) == fmt_value(c.value(a)) for a in spec.axes if a != axis)), None,
        )  # fmt: skip
        if base_cell is not None:
            wins.append(
                f"Seat {seat} wins {fmt_share(result.reported(c.index, win))} as the {leader} and "
                f"{fmt_share(result.reported(base_cell.index, win))} as the {bases[0]}{where} (ties shared; "
                f"a fair share is {100 / len(c.players):.0f}%)."
            )
    findings = catch + little + wins[:1]
    return Analysis(findings, from_run(result, _charts(result, axis, seat, leader, bases)), [], wins[1:])


def _span(ys: list[float], v) -> str:
    """``42.13 to 42.35``, or one value when both ends read the same."""
    a, b = v(min(ys)), v(max(ys))
    return a if a == b else f"{a} to {b}"


def _charts(result: ExperimentResult, axis: str, seat: int, leader: str, bases: list[str]) -> list[Chart]:
    spec = result.spec
    xname = f"seat {seat} plays"
    charts: list[Chart] = []
    n = f"n={result.games:,} games per point"
    for f, verb, what, unit, ref in (
        (f"tt[{seat}]", "takes", "Tens and Taffies", "Tens and Taffies won per game", None),
        (f"points[{seat}]", "scores", "points", "points per game", "points_per_player"),
        (f"win[{seat}]", "wins", "games", "share of games won, ties shared", "fair"),
    ):
        ss = series(result, f, axis)
        if not ss:
            continue
        for s in ss:
            s.label = rules_words(s.label)
        lead = [y for s in ss for x, y in zip(s.x, s.y, strict=True) if fmt_value(x) == leader]
        other = [y for s in ss for x, y in zip(s.x, s.y, strict=True) if fmt_value(x) == bases[0]]
        if not lead or not other:
            continue
        v = (lambda y: f"{100 * y:.1f}%") if f.startswith("win") else fmt_num
        nums = f"{_span(lead, v)} against {_span(other, v)}"
        word = "fewer" if max(lead) < min(other) else "more" if min(lead) > max(other) else "about as many"
        unit_words = "of games" if f.startswith("win") else unit
        wilson = " (for a share of games)" if f.startswith("win") else ""
        title = f"The {leader} in seat {seat} {verb} {word} {what} than the {bases[0]}: {nums} {unit_words}"
        reference, ref_label = None, ""
        if ref == "fair":
            reference, ref_label = 1 / len(spec.cells[0].players), "a fair share of the games"
        elif ref is not None:
            reference = result.estimate(spec.cells[0].index, ref).mean
            ref_label = "a fair share of the points"
        charts.append(Chart(f"{f.split('[')[0]}-by-strategy", title, xname, f"seat {seat}'s {unit}", ss,
                            categorical=True, reference=reference, reference_label=ref_label,
                            caption=f"Error bars: 95% confidence intervals{wilson}; {n}."))  # fmt: skip
    # The paired change in Tens and Taffies, against each baseline player, per preset.
    ss = []
    for c in spec.cells:
        if fmt_value(c.value(axis)) != leader:
            continue
        s = ChartSeries(rules_words(group_label(spec, c, {axis})), [], [], [], [])
        for b in bases:
            d = result.difference(c.index, f"tt[{seat}]", axis, b)
            if d is None:
                continue
            e: Estimate = d[0]
            s.x.append(f"against {player(b)}")
            s.y.append(e.mean)
            s.low.append(e.low)
            s.high.append(e.high)
        if s.x:
            ss.append(s)
    if ss:
        worst = min(y for s in ss for y in s.y)
        charts.append(Chart("paired-tt-against-each-player",
                            f"On the same deals the {leader} takes fewer Tens and Taffies than either other "
                            f"player, up to {fmt_num(-worst)} a game fewer",
                            f"seat {seat} as the {leader}, compared with", "change in Tens and Taffies won per game",
                            ss, zero_line=True, categorical=True,
                            caption=f"Paired differences on the same deals; error bars: 95% confidence intervals; {n}."))  # fmt: skip
    return charts
