"""Leading high (Akagiri 1995): does it catch Tens and jokers, and is there little advantage in it?

A study of Welsh Whist (experiments/leading.toml): it names the Welsh figures it
reads, the leading seat's ``tt`` (Tens and Taffies won) and ``points``.
"""

from __future__ import annotations

from .. import verdicts as V
from ..reading import axis_values, find_axis, group_label, signed
from ..results import Analysis, ExperimentResult, fmt_num
from ..spec import fmt_value

LITTLE = 0.05  # "little advantage": under 5% of a player's fair share of the points


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
    leader = axis_values(spec, axis)[0]
    findings: list[str] = []
    head: list[str] = []
    for c in spec.cells:
        if fmt_value(c.value(axis)) != fmt_value(leader):
            continue
        rest = group_label(spec, c, {axis})
        catches, little = [], None
        parts = []
        for b in spec.baseline[axis]:
            tt = result.difference(c.index, f"tt[{seat}]", axis, b)
            pts = result.difference(c.index, f"points[{seat}]", axis, b)
            if tt is None or pts is None:
                continue
            catches.append(V.positive(tt[0]))
            parts.append(
                f"against {b}: {signed(tt[0], 'Tens and Taffies')} and {signed(pts[0], 'points per game')}"
            )
            if little is None:
                fair = result.estimate(c.index, "points_per_player").mean
                margin = LITTLE * fair
                little = (V.at_most(pts[0], margin), pts[0], margin, b)
        if not parts:
            continue
        findings.append(
            f"{rest}: seat {seat} as {leader}, paired on the same deals, " + "; ".join(parts) + "."
        )
        head.append(
            f'{rest}: "leading high while the stock lasts catches Tens and jokers" {V.combine(catches)} '
            f"(the {leader} against {', '.join(map(str, spec.baseline[axis]))})."
        )
        if little is not None:
            v, e, margin, b = little
            head.append(
                f'{rest}: "little advantage in leading" {v}: leading high changes seat {seat}\'s points by '
                f"{signed(e, 'points per game')} against the {b} (little: under {fmt_num(margin)}, 5% of a fair share)."
            )
    return Analysis(head + findings, [], [])
