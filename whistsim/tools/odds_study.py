"""The ``game_odds`` study: how decisive is one deal, by target score, with and without honours?

For Whist to 5, 7 and 10 with honours on and off, and Scotch Whist with 4 players
(two sides) and 6 (three sides of two), heuristic players at every seat: the
chance of winning from every score (:mod:`whistsim.tools.odds`), the first deal's
figures (the dealer's side from 0-0, the side ahead after one deal, games over
in one deal), honours on against off on the same deals (paired; Holm over the
three targets), and a check of the method against whole games played on from a
few scores by the engine. Writes report.md, CSV tables and charts into one
folder, swapped in whole when everything is written.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.io import atomic_write
from ..core.stats import Z95, holm
from .odds import Solution, play_from, setting, solve, table

PLAYERS = "heuristic"
TARGETS = (5, 7, 10)


@dataclass(frozen=True)
class Spec:
    key: str
    label: str
    game: str
    kw: dict[str, Any]


def specs() -> list[Spec]:
    out = [
        Spec(f"whist_{t}_{'honours' if h else 'no_honours'}", f"Whist to {t}, honours {'on' if h else 'off'}",
             "whist", {"preset": "long", "rules": {"target": t, "honours": h}})
        for t in TARGETS
        for h in (True, False)
    ]  # fmt: skip
    out.append(Spec("scotch_4", "Scotch Whist, 4 players (2 sides)", "scotch", {"players": 4}))
    out.append(Spec("scotch_6", "Scotch Whist, 6 players (3 sides)", "scotch", {"players": 6}))
    return out


# Scores played on as whole games, against the method: (setting, score, dealer seat).
CHECKS = (
    ("whist_5_no_honours", (0, 0), 0),
    ("whist_5_no_honours", (3, 1), 1),
    ("whist_5_honours", (0, 0), 0),
    ("whist_10_honours", (0, 0), 0),
    ("whist_10_honours", (6, 2), 0),
    ("scotch_4", (0, 0), 0),
    ("scotch_4", (30, 20), 1),
    ("scotch_6", (0, 0, 0), 0),
)

END, TIE, LEAD = range(3)  # Solution.first_deal figures


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci(t: tuple[float, float, float]) -> str:
    return f"{pct(t[0])} (95% CI {100 * t[1]:.1f}-{100 * t[2]:.1f}%)"


def paired_difference(a: Solution, b: Solution, what: int) -> tuple[float, float, float, float]:
    """(a - b, low, high, two-sided p) of a first-deal figure, from the same bootstrap weights."""
    d = float(a.first[0, what] - b.first[0, what])
    reps = a.first_reps[:, 0, what] - b.first_reps[:, 0, what]
    se = float(np.std(reps[np.isfinite(reps)], ddof=1))
    if se == 0.0:
        return d, d, d, 0.0 if d else 1.0
    p = math.erfc(abs(d / se) / math.sqrt(2))
    return d, d - Z95 * se, d + Z95 * se, p


def _p(p: float) -> str:
    return "under 0.01%" if p < 1e-4 else f"{100 * p:.2g}%"


def _ordered(figs: list[tuple[float, float, float]]) -> int:
    """+1 when each figure is clearly above the next (95% CIs apart), -1 when clearly below, else 0."""
    pairs = list(zip(figs, figs[1:], strict=False))
    if all(a[1] > b[2] for a, b in pairs):
        return 1
    if all(a[2] < b[1] for a, b in pairs):
        return -1
    return 0


def run_study(
    out_dir: str | os.PathLike,
    *,
    n: int = 200_000,
    check_games: int = 20_000,
    seed: int = 1,
    boot: int = 200,
    boot_three_sides: int = 50,
    echo: Callable[[str], None] = print,
    progress: bool = False,
) -> Path:
    """Run every setting and the checks; write the folder; return its path. Each long stage says
    first how long it will take; ``progress``: a bar for each stage on standard error."""
    out = Path(out_dir)
    sols: dict[str, Solution] = {}
    for sp in specs():
        s = setting(sp.game, strategies=[PLAYERS], **sp.kw)
        b = boot if s.sides == 2 else boot_three_sides
        echo(f"== {sp.label}: {n:,} deals, {b} resamples")
        sols[sp.key] = solve(s, n, seed, boot=b, announce=True, progress=progress)  # a long one says so first
    checks = []
    for i, (key, score, dealer) in enumerate(CHECKS):
        sol = sols[key]
        played = play_from(sol.setting, score, dealer, check_games, seed + 1000 + i, progress=progress)
        direct = played.iloc[0]
        p, lo, hi = sol.chance(score, dealer, 0)
        checks.append({
            "setting": key, "score": "-".join(map(str, score)), "dealer": dealer,
            "dp": p, "dp_low": lo, "dp_high": hi, "games": check_games, "direct": direct["win"],
            "direct_low": direct["low"], "direct_high": direct["high"],
            "agree": bool(lo <= direct["high"] and direct["low"] <= hi),
        })  # fmt: skip
        echo(f"check {key} {score} dealer {dealer}: DP {pct(p)} vs games {pct(direct['win'])}")
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent if out.parent.exists() else None))
    try:
        _write(tmp, sols, checks, n=n, seed=seed, boot=boot, boot3=boot_three_sides, games=check_games)
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _swap(tmp: Path, out: Path) -> None:
    """Replace ``out`` by the finished folder ``tmp`` (never a half-written study)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(out, old)
    os.replace(tmp, out)
    os.chmod(out, 0o755)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


# ---- writing -----------------------------------------------------------------------------


def _summary_rows(sols: dict[str, Solution]) -> list[dict[str, Any]]:
    labels = {sp.key: sp.label for sp in specs()}
    rows = []
    for key, sol in sols.items():
        k = sol.setting.sides
        zero = (0,) * k
        win = sol.chance(zero, 0, 0)
        lead = sol.first_deal(0, LEAD)
        end = sol.first_deal(0, END)
        tie = sol.first_deal(0, TIE)
        one = sol.chance((1,) + (0,) * (k - 1), 1, 0)  # side 0 leads 1-0, the next seat deals
        rows.append({
            "setting": key, "label": labels[key], "target": sol.setting.target, "sides": k,
            "n_deals": sol.n, "boot": sol.boot,
            "dealer_side_wins": win[0], "dealer_side_wins_low": win[1], "dealer_side_wins_high": win[2],
            "leader_wins": lead[0], "leader_wins_low": lead[1], "leader_wins_high": lead[2],
            "over_in_one_deal": end[0], "over_in_one_deal_low": end[1], "over_in_one_deal_high": end[2],
            "tied_after_one_deal": tie[0], "tied_low": tie[1], "tied_high": tie[2],
            "one_point_lead_wins": one[0], "one_point_lead_wins_low": one[1], "one_point_lead_wins_high": one[2],
        })  # fmt: skip
    return rows


def _write(d: Path, sols, checks, *, n, seed, boot, boot3, games) -> None:
    import pandas as pd

    summary = pd.DataFrame(_summary_rows(sols))
    check = pd.DataFrame(checks)
    with atomic_write(d / "summary.csv") as f:
        summary.to_csv(f, index=False, float_format="%.5f")
    with atomic_write(d / "check.csv") as f:
        check.to_csv(f, index=False, float_format="%.5f")
    for key, sol in sols.items():
        df = table(sol)
        if sol.setting.sides > 2:  # 41^3 scores x 3 dealers is too big to keep: side 2 at 0, seat 0 dealing
            df = df[(df["dealer"] == 0) & (df["score_2"] == 0)]
        with atomic_write(d / f"table_{key}.csv") as f:
            df.to_csv(f, index=False, float_format="%.5f")
    diffs = {
        t: paired_difference(sols[f"whist_{t}_honours"], sols[f"whist_{t}_no_honours"], LEAD) for t in TARGETS
    }
    adjusted = dict(zip(TARGETS, holm([diffs[t][3] for t in TARGETS]), strict=True))
    honours = pd.DataFrame([
        {"target": t, "leader_wins_change": diffs[t][0], "low": diffs[t][1], "high": diffs[t][2],
         "p": diffs[t][3], "p_adjusted": adjusted[t]}
        for t in TARGETS
    ])  # fmt: skip
    with atomic_write(d / "honours.csv") as f:
        honours.to_csv(f, index=False, float_format="%.6g")
    charts = _charts(d, sols, summary)
    text = _report(sols, summary, check, diffs, adjusted, charts, n=n, seed=seed, boot=boot, boot3=boot3,
                   games=games)  # fmt: skip
    with atomic_write(d / "report.md") as f:
        f.write(text)


def _charts(d: Path, sols, summary) -> list[tuple[str, str, str]]:
    """The study's charts, drawn and checked by the experiments' framework (each with its data beside it)."""
    from ..experiments.charts import draw
    from ..experiments.results import Chart, ChartSeries

    files = []
    s = summary.set_index("setting")
    n_deals = int(s["n_deals"].iloc[0])
    players = "rule-based players (heuristic) at every seat"
    # 1. The side ahead after one deal, by target, honours on and off.
    data = []
    for h, name in ((True, "honours on"), (False, "honours off")):
        keys = [f"whist_{t}_{'honours' if h else 'no_honours'}" for t in TARGETS]
        data.append(ChartSeries(f"Whist, {name}", [f"Whist to {t}" for t in TARGETS],
                                [float(100 * s.loc[k, "leader_wins"]) for k in keys],
                                [float(100 * s.loc[k, "leader_wins_low"]) for k in keys],
                                [float(100 * s.loc[k, "leader_wins_high"]) for k in keys]))  # fmt: skip
    sc = ChartSeries("Scotch Whist to 41", [], [], [], [])
    for i, key in enumerate(("scotch_4", "scotch_6")):
        sc.x.append(f"Scotch, {4 + 2 * i} players")
        sc.y.append(float(100 * s.loc[key, "leader_wins"]))
        sc.low.append(float(100 * s.loc[key, "leader_wins_low"]))
        sc.high.append(float(100 * s.loc[key, "leader_wins_high"]))
    data.append(sc)
    w5, w10 = s.loc["whist_5_honours", "leader_wins"], s.loc["whist_10_honours", "leader_wins"]
    title = (
        f"The side ahead after the first deal wins {pct(w5)} of Whist games to 5 points but "
        f"{pct(w10)} of games to 10 (honours on)"
    )
    caption = (
        "Error bars: 95% confidence intervals (bootstrap over the measured deals). An even chance is 50% with "
        "two sides, 33% with three."
    )
    chart = Chart("leader_wins", title, "game and target score (points)",
                  "chance that the side ahead after deal 1 wins (%)", data, kind="bars", categorical=True,
                  caption=caption, n=f"n={n_deals:,} deals a rule set", players=players)  # fmt: skip
    draw(chart, d / "leader_wins.png")
    files.append(("leader_wins.png", title, _drawn_caption(d / "leader_wins.json")))
    # 2. Heat maps: the whole table for three settings (each cell's CI is in its table_*.csv).
    for key in ("whist_10_honours", "whist_5_no_honours", "scotch_4"):
        sol = sols[key]
        T = sol.setting.target
        df = table(sol, dealer=0)
        p00 = sol.chance((0, 0), 0, 0)[0]
        lead = sol.chance((T - 1, 0), 0, 0)[0]
        label = s.loc[key, "label"]
        title = (
            f"{label}: side 0 (seat 0 deals next) wins {pct(p00)} of games from 0-0 and {pct(lead)} "
            f"from {T - 1}-0"
        )
        rows = df[df["dealer"] == 0]
        data = []
        for b in range(T):
            r = rows[(rows["score_1"] == b) & np.isfinite(rows["win_0"])].sort_values("score_0")
            data.append(ChartSeries(f"side 1 on {b}", [int(v) for v in r["score_0"]],
                                    [float(v) for v in 100 * r["win_0"]], [float(v) for v in 100 * r["win_0_low"]],
                                    [float(v) for v in 100 * r["win_0_high"]]))  # fmt: skip
        widest = float((rows["win_0_high"] - rows["win_0_low"]).max()) * 50
        caption = (
            f"Colour and numbers: side 0's chance of winning (%), by the two sides' scores; the 95% CIs are "
            f"too narrow to draw (at most ±{widest:.1f} percentage points) and are listed in table_{key}.csv."
        )
        chart = Chart(f"heatmap_{key}", title, "side 1's score (points)", "side 0's score (points)", data,
                      kind="heatmap", caption=caption, n=f"n={sol.n:,} measured deals", players=players,
                      value_label="chance that side 0 wins the game (%)")  # fmt: skip
        draw(chart, d / f"heatmap_{key}.png")
        files.append((f"heatmap_{key}.png", title, _drawn_caption(d / f"heatmap_{key}.json")))
    return files


def _drawn_caption(side: Path) -> str:
    import json

    return json.loads(side.read_text(encoding="utf-8"))["caption"]


def _report(sols, summary, check, diffs, adjusted, charts, *, n, seed, boot, boot3, games) -> str:
    s = summary.set_index("setting")

    def fig(key: str, col: str) -> tuple[float, float, float]:
        return s.loc[key, col], s.loc[key, f"{col}_low"], s.loc[key, col + "_high"]

    def tied(key: str) -> tuple[float, float, float]:
        return s.loc[key, "tied_after_one_deal"], s.loc[key, "tied_low"], s.loc[key, "tied_high"]

    nn = f"n = {n:,} measured deals per rule set"
    lead = {t: fig(f"whist_{t}_honours", "leader_wins") for t in TARGETS}
    dealer = {t: fig(f"whist_{t}_honours", "dealer_side_wins") for t in TARGETS}
    over = {t: fig(f"whist_{t}_honours", "over_in_one_deal") for t in TARGETS}
    over_off5 = fig("whist_5_no_honours", "over_in_one_deal")
    order = _ordered([lead[t] for t in TARGETS])
    how = {
        1: "one deal decides more the shorter the game",
        -1: "one deal decides more the longer the game",
        0: "the three are not clearly in order of the game's length (95% CIs overlap)",
    }[order]
    findings = [
        f"The side ahead after the first deal goes on to win {ci(lead[5])} of Whist games to 5, "
        f"{ci(lead[7])} to 7 and {ci(lead[10])} to 10 (honours on, rule-based players (heuristic), {nn}): "
        f"{how}.",
    ]
    sig = [t for t in TARGETS if adjusted[t] < 0.05]
    parts = [
        f"{100 * diffs[t][0]:+.1f} percentage points at {t} (95% CI {100 * diffs[t][1]:+.1f} to "
        f"{100 * diffs[t][2]:+.1f})"
        for t in TARGETS
    ]
    if len(sig) == len(TARGETS) and all(diffs[t][0] > 0 for t in TARGETS):
        head = "Honours make one deal more decisive: on the same deals they raise the leader's chance by"
    elif len(sig) == len(TARGETS) and all(diffs[t][0] < 0 for t in TARGETS):
        head = "Honours make one deal less decisive: on the same deals they lower the leader's chance by"
    else:
        head = "On the same deals, honours change the leader's chance by"
    told = (
        "each told apart from 0"
        if len(sig) == len(TARGETS)
        else f"told apart from 0 at {len(sig)} of {len(TARGETS)}"
    )
    chances = ", ".join(_p(adjusted[t]) for t in TARGETS)
    findings.append(
        f"{head} {', '.join(parts[:-1])} and {parts[-1]}: {told}, adjusted for the {len(TARGETS)} comparisons "
        f"of honours on with off, one per target (chance by luck alone, adjusted: {chances}; the 95% CIs are "
        f"not adjusted) ({nn}, paired)."
    )
    findings.append(
        f"One deal ends {ci(over[5])} of Whist games to 5 with honours against {ci(over_off5)} without, "
        f"and with honours {ci(over[7])} of games to 7 and {ci(over[10])} to 10 ({nn})."
    )
    findings.append(
        f"From 0-0 the dealer's side wins {ci(dealer[5])} of Whist games to 5, {ci(dealer[7])} to 7 and "
        f"{ci(dealer[10])} to 10 (honours on, {nn})."
    )
    sc4, sc6 = fig("scotch_4", "leader_wins"), fig("scotch_6", "leader_wins")
    findings.append(
        f"In Scotch Whist to 41 the side ahead after the first deal wins {ci(sc4)} of games with 4 players "
        f"and {ci(sc6)} with 6 players in three sides (where an even chance is 33%); ties after one deal, "
        f"{ci(tied('scotch_4'))} with 4, "
        f"are left out ({nn})."
    )
    agree = int(check["agree"].sum())
    verb = "agree" if agree == len(check) else "agree only in part"
    w = check[(check["setting"] == "whist_10_honours") & (check["score"] == "6-2")].iloc[0]
    findings.append(
        f"The computed chances {verb} with whole games played on from the same scores: at {agree} of "
        f"{len(check)} checked scores the two 95% CIs overlap (n = {games:,} games each), e.g. from 6-2 in "
        f"Whist to 10 the side on 6 wins {pct(w['dp'])} as computed (95% CI "
        f"{100 * w['dp_low']:.1f}-{100 * w['dp_high']:.1f}%) and {pct(w['direct'])} of games played (95% CI "
        f"{100 * w['direct_low']:.1f}-{100 * w['direct_high']:.1f}%)."
    )
    from ..experiments.report import HOW_TO_READ

    lines = ["# Game odds: how decisive is one deal?", "", HOW_TO_READ, "", "## Findings", ""]
    lines += [f"{i + 1}. {f}" for i, f in enumerate(findings)]
    lines += ["", "## What was run", ""]
    lines += [
        f"`whistsim odds-study --n {n} --seed {seed} --boot {boot} --boot-three-sides {boot3} "
        f"--check-games {games}` "
        f"(the Makefile's `experiments` target). Every seat plays the `{PLAYERS}` strategy; revokes are off.",
        "",
        f"- **Measure.** {n:,} single deals per rule set (deal i: seat i mod P leads, so each seat deals "
        "equally often), played through the engine's game kernel; each side's points are kept part by part "
        "in the engine's count-out order (Whist: revoke penalty, tricks, honours; Scotch Whist: the Ten, "
        "cards, A, K, Q, the Jack; within a part, sides in turn from the dealer's left). The same seed gives "
        "the same deals under every Whist rule set, so honours on and off are compared on the same deals.",
        "- **Solve.** The chance that each side wins from every score and dealer follows exactly by dynamic "
        "programming over the measured joint distribution of a deal's parts, one distribution per dealer "
        "side (deals are independent given the dealer; the players never look at the score); count-out near "
        "the target is resolved part by part, as the engine does.",
        f"- **Intervals.** Poisson bootstrap over the measured deals ({boot} resamples; {boot3} for the "
        "three-side game), each solved again; 95% CI = estimate +- 1.96 bootstrap SE on the logit scale. "
        "Honours on minus off: the same resampling weights for both (paired), normal interval, Holm over "
        "the three targets (`honours.csv`).",
        "- **Terms.** *The side ahead after the first deal*: the side with the most points after deal 1 "
        "(the winner, if deal 1 ends the game); deals that leave the top sides tied are left out. *Dealer's "
        "side*: seat 0 deals the first deal. *One-point lead*: side 0 on 1, the others on 0, seat 1 dealing.",
        f"- **Check.** From {len(check)} scores, {games:,} whole games each played on by the engine (the "
        "dealt kernel's start score), on other seeds; Wilson 95% CIs; agreement = the two intervals overlap.",
        "",
        "## Results",
        "",
        "| rule set | dealer's side wins from 0-0 | side ahead after deal 1 wins | over in one deal | "
        "one-point lead wins |",
        "|---|---|---|---|---|",
    ]
    for key in s.index:
        lines.append(
            f"| {s.loc[key, 'label']} | {ci(fig(key, 'dealer_side_wins'))} | {ci(fig(key, 'leader_wins'))} | "
            f"{ci(fig(key, 'over_in_one_deal'))} | {ci(fig(key, 'one_point_lead_wins'))} |"
        )
    lines += [
        "",
        f"n = {n:,} deals per rule set. Scotch Whist to 41, 6 players: side 0 is seat 0's pair.",
        "",
    ]
    lines += ["### The method against whole games", "", "| rule set | score | dealer seat | computed: side 0 wins | "
              "games played: side 0 wins | intervals overlap |", "|---|---|---|---|---|---|"]  # fmt: skip
    for _, r in check.iterrows():
        lines.append(
            f"| {s.loc[r['setting'], 'label']} | {r['score']} | {r['dealer']} | "
            f"{ci((r['dp'], r['dp_low'], r['dp_high']))} | {ci((r['direct'], r['direct_low'], r['direct_high']))} "
            f"(n = {r['games']:,}) | {'yes' if r['agree'] else 'NO'} |"
        )
    lines += ["", "## Charts", ""]
    for name, title, caption in charts:
        lines += [f"![{title}]({name})", "", f"*{caption}*", ""]
    lines += [
        "## Files",
        "",
        "- `summary.csv`: the figures above, per rule set, with 95% CIs.",
        "- `check.csv`: the method against whole games.",
        "- `honours.csv`: honours on against off, per target: the change in the chance that the side ahead "
        "after the first deal wins, its 95% CI, and the chance by luck alone (`p`; `p_adjusted` for the three "
        "targets).",
        "- `table_*.csv`: the chance of each side from every score (`dealer`: the seat dealing next; "
        "`win_S`, `win_S_low`, `win_S_high`). For 6-player Scotch Whist only seat 0 dealing with side 2 "
        "on 0 is kept; `whistsim odds --game scotch --players 6 --strategy heuristic` gives it all.",
        "- `*.png`, each with the data it draws beside it in `*.json` (a heat map: one series per score of "
        "side 1, with each cell's 95% CI).",
        "",
    ]
    return "\n".join(lines)


__all__ = ["run_study", "specs", "CHECKS"]
