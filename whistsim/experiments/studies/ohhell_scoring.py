"""Which scoring lets skill show most at Oh Hell (experiments/ohhell_scoring.toml, ohhell_scoring_pimc.toml).

A study of Oh Hell: one seat's player is swept, a weaker player (its baseline, the player of every
other seat) against a stronger one, under each scoring (``rules.scoring``, with baselines so that
every scoring is paired with every other on the same deals). It names the figures it reads: the
seat's ``win`` (its share of the win), ``edge`` (its points less the others' average), ``points``
and ``made``. With the first player rotating, the weaker player wins a fair share (one over the
players) in expectation; the stronger seat's gain over the weaker table on the same deals is its
skill. The verdict on which scoring shows skill most rests on the paired differences of the
stronger seat's wins between scorings, adjusted (Holm) for the number of those comparisons.
"""

from __future__ import annotations

import pandas as pd

from ...core.stats import Share, holm, p_two_sided
from ..charts import from_run
from ..results import Analysis, Chart, ExperimentResult, fmt_num, md_table
from ..spec import fmt_value
from ..tools import find_axis, player_words
from ._ohhell import pct, pp, pts, scoring_short, scoring_words
from ._scotch import line
from ._tools import fmt_p

SCORING = "rules.scoring"
ALPHA = 0.05


def analyse(result: ExperimentResult) -> Analysis:
    """Per scoring: the stronger seat's wins and points edge; which scoring shows skill most."""
    spec = result.spec
    axis = find_axis(spec, lambda a: a.startswith("seats.") and a.count(".") == 1)
    if axis is None or axis not in spec.baseline or SCORING not in spec.axes:
        return Analysis(["(the ohhell_scoring analysis needs a swept seat player with a baseline, and a "
                         "rules.scoring sweep)"], [], [])  # fmt: skip
    key = axis.split(".")[1]
    seat = int(key) if key.isascii() and key.isdigit() else 0
    win, edge, points, made = f"win[{seat}]", f"edge[{seat}]", f"points[{seat}]", f"made[{seat}]"
    weak = fmt_value(spec.baseline[axis][0])
    rows = []
    for c in spec.cells:
        if fmt_value(c.value(axis)) == weak:
            continue
        d = result.difference(c.index, win, axis, weak)
        if d is None:
            continue
        base = d[1]
        rows.append({
            "cell": c, "base": base, "scoring": c.rules.scoring, "strong": fmt_value(c.value(axis)),
            "form": form(c.rules), "players": c.rules.players, "win": Share.of(result.estimate(c.index, win)),
            "gain": d[0], "edge": result.estimate(c.index, edge), "points": result.estimate(c.index, points),
            "ppp": result.estimate(c.index, "points_per_player"),
            "made": result.estimate(c.index, made), "made_weak": result.estimate(base.index, made),
        })  # fmt: skip
    if not rows:
        return Analysis(["(no stronger player has a weaker baseline on the same deals)"], [], [])
    p = rows[0]["players"]
    fair = 1 / p
    strong, weak_w = player_words(rows[0]["strong"]), player_words(weak)
    who = f"one {strong} player among {p - 1} {weak_w} players"
    forms = list(dict.fromkeys(r["form"] for r in rows))
    # The scorings compared with one another, game form by game form: the stronger seat's wins, paired.
    comps = []
    for r in rows:
        for s_base in spec.baseline.get(SCORING, []):
            s_base = fmt_value(s_base)
            if s_base == r["scoring"]:
                continue
            d = result.difference(r["cell"].index, win, SCORING, s_base)
            if d is not None:
                comps.append(
                    {"form": r["form"], "a": r["scoring"], "b": s_base, "d": d[0], "p": p_two_sided(d[0])}
                )
    for c, a in zip(comps, holm([c["p"] for c in comps]), strict=True):
        c["adj"] = a
    nc = len(comps)
    per = f", {nc // len(forms)} for each form of the game" if len(forms) > 1 else ""
    fam = f"adjusted for the {nc} comparisons of the scorings with one another{per}"
    findings: list[str] = []

    # 1-2. The verdict, game form by game form: which scoring lets skill show most.
    for f in forms:
        mine = [r for r in rows if r["form"] == f]
        best = max(mine, key=lambda r: r["win"].mean)
        worst = min(mine, key=lambda r: r["win"].mean)
        rivals = {r["scoring"] for r in mine if r["scoring"] != best["scoring"]}
        clear_over = {
            c["b"] if c["a"] == best["scoring"] else c["a"]
            for c in comps
            if c["form"] == f and c["adj"] < ALPHA and _winner(c) == best["scoring"]
        }
        sb = scoring_words(best["scoring"])
        if rivals and clear_over == rivals:
            verdict = f"skill shows most under {sb}, clearly more than under every other scoring"
        elif clear_over:
            verdict = (f"skill shows most under {sb}, clearly more than under "
                       f"{' and '.join(scoring_words(x) for x in sorted(clear_over))}, and not told apart from "
                       f"{' or '.join(scoring_words(x) for x in sorted(rivals - clear_over))}")  # fmt: skip
        else:
            verdict = f"skill shows most under {sb}, though not clearly more than under any other scoring"
        findings.append(
            f"Over {f}, {verdict} ({fam}): {who} wins {pct(best['win'])} of games under it, against "
            f"{pct(worst['win'])} under {scoring_words(worst['scoring'])}; a fair share is {100 * fair:.0f}%."
        )
    # 3. The comparisons, each with its interval.
    parts = [
        f'"{scoring_short(c["a"])}" minus "{scoring_short(c["b"])}"'
        + (f" over {c['form']}" if len(forms) > 1 else "")
        + f", {pp(c['d'])}"
        + (", told apart from 0" if c["adj"] < ALPHA else ", not told apart from 0")
        for c in comps
    ]
    if parts:
        findings.append(
            f"On the same deals, the {strong} player's share of games won changes between scorings by: "
            + "; ".join(parts)
            + f" ({fam})."
        )
    # 4. Its edge in points, in each scoring's own points (the first game form).
    f0 = forms[0]
    findings.append(
        f"Over {f0}, its edge in points over the average of the other players, in each scoring's own points: "
        + ", ".join(
            f"{pts(r['edge'], 'points', signed=True)} under {scoring_words(r['scoring'])} (where a player "
            f"scores {fmt_num(r['ppp'].mean)} points a game on average)"
            for r in rows
            if r["form"] == f0
        )
        + "."
    )
    # 5. Bids made: the play itself.
    r0 = rows[0]
    mine = [r for r in rows if r["form"] == f0]
    same = all(len({round(r[k].mean, 12) for r in mine}) == 1 for k in ("made", "made_weak"))
    findings.append(
        (f"Over {f0} the {strong} player makes {pct(r0['made'], 'games')} of its bids and the {weak_w} player "
         f"in its seat {pct(r0['made_weak'], 'games')}, the same under every scoring since these players bid "
         "and play the same whatever the scoring: only what a made or missed bid is worth changes.")
        if same
        else (f"Over {f0} the {strong} player makes "
              + ", ".join(f"{pct(r['made'], 'games')} of its bids under {scoring_words(r['scoring'])}" for r in mine)
              + f"; the {weak_w} player in its seat {pct(r0['made_weak'], 'games')} under "
              f"{scoring_words(r0['scoring'])}.")
    )  # fmt: skip
    tables = [_table(rows, comps, strong, weak_w, forms)]
    return Analysis(findings[:6], _charts(result, rows, strong, weak_w, fair, forms), tables, findings[6:])


def form(rules) -> str:
    """The game form in words: the full schedule, or a single hand."""
    sizes = rules.sizes()
    if len(sizes) == 1:
        return f"a single hand of {sizes[0]} cards"
    return f"a full game of {len(sizes)} rounds"


def _winner(c: dict) -> str:
    """The scoring under which the stronger seat won more, of a comparison's two."""
    return c["a"] if c["d"].mean > 0 else c["b"]


def _table(rows: list[dict], comps: list[dict], strong: str, weak: str, forms: list[str]) -> tuple[str, str]:
    df = pd.DataFrame(
        [
            {
                "game": r["form"],
                "scoring": scoring_words(r["scoring"]),
                f"{strong} player's games won (%) [95% CI]":
                    f"{100 * r['win'].mean:.1f} [{100 * r['win'].low:.1f}, {100 * r['win'].high:.1f}]",
                f"change against a {weak} player, same deals (percentage points) [95% CI]":
                    f"{100 * r['gain'].mean:+.1f} [{100 * r['gain'].low:+.1f}, {100 * r['gain'].high:+.1f}]",
                "edge over the others' average (points per game) [95% CI]":
                    f"{fmt_num(r['edge'].mean)} [{fmt_num(r['edge'].low)}, {fmt_num(r['edge'].high)}]",
                "points per player (points per game)": r["ppp"].mean,
                "n (games)": r["gain"].n,
            }
            for r in rows
        ]
    )  # fmt: skip
    out = md_table(df)
    if comps:
        dc = pd.DataFrame(
            [
                {
                    "game": c["form"],
                    "scoring": scoring_words(c["a"]),
                    "against": scoring_words(c["b"]),
                    f"change in the {strong} player's games won (percentage points) [95% CI]":
                        f"{100 * c['d'].mean:+.1f} [{100 * c['d'].low:+.1f}, {100 * c['d'].high:+.1f}]",
                    f"chance by luck alone, adjusted for the {len(comps)} comparisons": fmt_p(c["adj"]),
                    "n (games)": c["d"].n,
                }
                for c in comps
            ]
        )  # fmt: skip
        out += "\n\nThe scorings against one another, on the same deals:\n\n" + md_table(dc)
    return (f"The {strong} player's wins and points under each scoring", out)


def _charts(result, rows, strong, weak, fair, forms) -> list[Chart]:
    xs = list(dict.fromkeys(scoring_short(r["scoring"]) for r in rows))
    best = max(rows, key=lambda r: r["win"].mean)
    worst = min(rows, key=lambda r: r["win"].mean)
    many = len(forms) > 1

    def at(r):
        return f"under {scoring_short(r['scoring'])}" + (f" over {r['form']}" if many else "")

    won = [line(f, [scoring_short(r["scoring"]) for r in rows if r["form"] == f],
                [r["win"] for r in rows if r["form"] == f], 100) for f in forms]  # fmt: skip
    f0 = forms[0]
    mine = [r for r in rows if r["form"] == f0]
    top = max(mine, key=lambda r: r["edge"].mean)
    charts = [
        Chart(
            "games-won",
            f"One {strong} player among {weak} players wins most {at(best)} ({100 * best['win'].mean:.1f}% of "
            f"games) and least {at(worst)} ({100 * worst['win'].mean:.1f}%)",
            "scoring", f"games won by the {strong} player (%)", won,
            kind="bars", categorical=True, reference=100 * fair, reference_label="a fair share",
            caption="Error bars: 95% confidence intervals.",
        ),
        Chart(
            "edge-over-others",
            f"Over {f0} the {strong} player's edge in points is largest under {scoring_short(top['scoring'])} "
            f"({fmt_num(top['edge'].mean)} points a game), each scoring in its own points",
            "scoring", "the player's points less the others' average (points per game)",
            [line(f"one {strong} player among {weak} players", xs, [r["edge"] for r in mine])],
            kind="bars", categorical=True, caption="Error bars: 95% confidence intervals.",
        ),
    ]  # fmt: skip
    return from_run(result, charts)
