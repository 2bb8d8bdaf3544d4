"""Game odds: how decisive is one deal, by target score, with and without honours?

A study of Whist to 5, 7 and 10 with honours on and off, and of Scotch Whist
with 4 players (two sides) and 6 (three sides of two), rule-based players at
every seat (experiments/game_odds.toml: a ``game`` axis, each game with its
own cells). Its measure (``measure = "game_odds"``) replays each deal of a
chunk through the odds' kernel (whistsim.tools.odds.measure: deal ``i`` is
game ``i``'s first, seat ``i mod P`` leading) and records one figure a deal,
``outcome``: a joint code (:class:`~whistsim.experiments.results.Code`) of the
dealer's class and each side's points part by part, in count-out order; in a
cell compared with a baseline (honours off against on), the baseline's code
on the same deal beside it. The histograms of these codes merge chunk by
chunk, so the result depends on the seed and the games alone.

The reading turns each cell's histogram back into its deals (in the order of
their codes) and solves the odds from them (whistsim.tools.odds.solve_deals:
the table of every score, the first deal's figures and a Poisson bootstrap,
paired where a cell has a baseline: both are read from the same joint codes),
then plays whole games on from a few scores to check the method.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from ...core.options import WhistsimError
from ...core.stats import Z95, holm
from ...tools.odds import Setting, Solution, play_from, setting, solve_deals, table
from ...tools.odds import measure as measure_deals
from ..results import Analysis, Chart, ChartSeries, Code, ExperimentResult, md_table
from ..spec import Cell, Spec, SpecError

RECORDS = False
FIGURE_WORDS = {
    "outcome": ("a deal's outcome as one code: the dealer's side and each side's points part by part (beside "
                "it, with a baseline, the baseline's on the same deal); whole in histograms.csv, its mean says "
                "nothing", "code"),
}  # fmt: skip
TARGETS = (5, 7, 10)
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

# What the reading does besides the histograms: bootstrap resamples (two sides; three) and whole games per
# checked score. The defaults are the study's; `whistsim odds-study` sets them with :func:`options`.
OPTIONS: dict[str, Any] = {"boot": 200, "boot_three_sides": 50, "check_games": 20_000, "progress": False}


@contextlib.contextmanager
def options(**kw: Any) -> Iterator[None]:
    """The reading's options for the runs inside (``boot``, ``boot_three_sides``, ``check_games``, ``progress``)."""
    unknown = set(kw) - set(OPTIONS)
    if unknown:
        raise WhistsimError(f"game_odds: unknown option {sorted(unknown)[0]!r}")
    if kw.get("boot", 2) < 2 or kw.get("boot_three_sides", 2) < 2:
        raise WhistsimError("game_odds: expected at least 2 bootstrap resamples")
    if kw.get("check_games", 1) < 1:
        raise WhistsimError("game_odds: expected at least 1 checked game a score")
    old = dict(OPTIONS)
    OPTIONS.update(kw)
    try:
        yield
    finally:
        OPTIONS.clear()
        OPTIONS.update(old)


# ---- the cells -----------------------------------------------------------------------------


def key(spec: Spec, cell: Cell) -> str:
    """A cell's short name: ``whist_10_honours``, ``scotch_6``."""
    if spec.game_of(cell) == "whist":
        return f"whist_{cell.rules.target}_{'honours' if cell.rules.honours else 'no_honours'}"
    return f"{spec.game_of(cell)}_{cell.rules.players}"


def label(spec: Spec, cell: Cell) -> str:
    if spec.game_of(cell) == "whist":
        return f"Whist to {cell.rules.target}, honours {'on' if cell.rules.honours else 'off'}"
    sides = cell.rules.n_teams
    return f"Scotch Whist, {cell.rules.players} players ({sides} sides)"


_SETTINGS: dict[tuple, Setting] = {}


def odds_setting(spec: Spec, cell: Cell) -> Setting:
    """The cell's rules and players as the odds take them: whole games to the target (the cell plays
    single deals: ``unit = "deal"``)."""
    k = (spec.fingerprint(), cell.index)
    if k not in _SETTINGS:
        if cell.where is not None:
            raise SpecError("game_odds: deals dealt under a constraint are not measured by this study")
        preset, players = spec.rules.get("preset"), spec.rules.get("players")
        rules = {k: v for k, v in spec.rules.items() if k not in ("preset", "players")}
        for axis, v in cell.coords:
            if axis.startswith("rules."):
                name = axis.split(".", 1)[1]
                if name == "preset":
                    preset = v
                elif name == "players":
                    players = v
                else:
                    rules[name] = v
        rules["unit"] = "game"
        _SETTINGS[k] = setting(spec.game_of(cell), preset=preset, players=players, rules=rules,
                               strategies=list(cell.players))  # fmt: skip
    return _SETTINGS[k]


def _base(spec: Spec, cell: Cell) -> Cell | None:
    """The cell this one is compared with on the same deals (its first baseline), if any."""
    return next((spec.cells[p.base] for p in spec.pairs if p.cell == cell.index), None)


# ---- the measure: one joint code a deal ------------------------------------------------------

_DEALS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}  # this chunk's deals by cell: a baseline's are reused


def _deals(spec: Spec, cell: Cell, start: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    k = (spec.fingerprint(), cell.index, start, n)
    if k not in _DEALS:
        if len(_DEALS) > 2 * len(spec.cells):
            _DEALS.clear()
        _DEALS[k] = measure_deals(odds_setting(spec, cell), n, spec.seed, start=start)
    return _DEALS[k]


def width(s: Setting) -> int:
    """Bytes in one code: the dealer's class, then each side's points part by part."""
    return 1 + len(s.parts) * s.sides


def encode(s: Setting, parts: np.ndarray, dealer: np.ndarray) -> list[int]:
    """Each deal as one integer, one byte a value (little-endian: the dealer's class lowest)."""
    if (parts < 0).any() or (parts > 255).any():
        raise WhistsimError("game_odds: a part of a deal scored under 0 or over 255 points")
    rows = np.concatenate([(dealer % s.period)[:, None], parts.reshape(len(parts), -1)], axis=1)
    raw, w = rows.astype(np.uint8).tobytes(), width(s)
    return [int.from_bytes(raw[i * w : (i + 1) * w], "little") for i in range(len(parts))]


def decode(s: Setting, codes: list[int], shift: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(parts ``[n, parts, sides]``, dealer class ``[n]``) of codes, read from byte ``shift`` on."""
    w = width(s)
    raw = b"".join(((c >> (8 * shift)) & ((1 << (8 * w)) - 1)).to_bytes(w, "little") for c in codes)
    rows = np.frombuffer(raw, np.uint8).reshape(len(codes), w).astype(np.int16)
    return rows[:, 1:].reshape(len(codes), len(s.parts), s.sides), rows[:, 0].astype(np.int64)


def measure(spec: Spec, cell: Cell, batch: Any, records: list[dict] | None) -> dict[str, np.ndarray]:
    """Per deal: its outcome code, and beside it (shifted up by a code's width) its baseline's."""
    s = odds_setting(spec, cell)
    codes = encode(s, *_deals(spec, cell, batch.start, batch.n))
    base = _base(spec, cell)
    if base is not None:
        b = odds_setting(spec, base)
        if width(b) != width(s):
            raise SpecError(
                f"game_odds: cell '{spec.cell_label(cell)}' and its baseline count different parts"
            )
        shift = 8 * width(s)
        codes = [c | (bc << shift) for c, bc in zip(codes, encode(b, *_deals(spec, base, batch.start, batch.n)),
                                                     strict=True)]  # fmt: skip
    return {"outcome": np.array([Code(c) for c in codes], dtype=object)}


# ---- the reading: the odds solved from the merged histograms ---------------------------------


def _expand(hist: dict[int, int]) -> list[int]:
    """A histogram's deals, in the order of their codes."""
    out: list[int] = []
    for c in sorted(hist):
        out += [c] * hist[c]
    return out


def solutions(result: ExperimentResult) -> dict[str, Solution]:
    """Every cell's odds, by its key: each solved from its deals, a cell and its baseline on the same
    deals in the same order (so their resamples are paired)."""
    spec = result.spec
    deals: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    aligned: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # a baseline's deals, in its partner's order
    for c in spec.cells:
        s = odds_setting(spec, c)
        hist = result.tally.hists[c.index]["outcome"]
        codes = _expand(hist)
        deals[c.index] = decode(s, codes)
        base = _base(spec, c)
        if base is not None and base.index not in aligned:
            shift = width(s)
            own: dict[int, int] = {}
            for code, count in hist.items():
                own[code >> (8 * shift)] = own.get(code >> (8 * shift), 0) + count
            if own != result.tally.hists[base.index]["outcome"]:
                raise WhistsimError(f"game_odds: the deals of '{spec.cell_label(c)}' are not its baseline's")
            aligned[base.index] = decode(odds_setting(spec, base), codes, shift)
    out = {}
    for c in spec.cells:
        s = odds_setting(spec, c)
        parts, dealer = aligned.get(c.index, deals[c.index])
        boot = OPTIONS["boot"] if s.sides == 2 else OPTIONS["boot_three_sides"]
        out[key(spec, c)] = solve_deals(s, parts, dealer, spec.seed, boot=boot, progress=OPTIONS["progress"])
    return out


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


def summary(sols: dict[str, Solution]) -> dict[str, dict[str, tuple[float, float, float]]]:
    """Per rule set: the chance the dealer's side wins from 0-0, that the side ahead after deal 1 wins,
    that deal 1 ends the game or leaves a tie, that a one-point lead wins; each with its 95% CI."""
    rows = {}
    for k, sol in sols.items():
        sides = sol.setting.sides
        rows[k] = {
            "dealer_side_wins": sol.chance((0,) * sides, 0, 0),
            "leader_wins": sol.first_deal(0, LEAD),
            "over_in_one_deal": sol.first_deal(0, END),
            "tied_after_one_deal": sol.first_deal(0, TIE),
            "one_point_lead_wins": sol.chance((1,) + (0,) * (sides - 1), 1, 0),  # the next seat deals
        }
    return rows


def checks(sols: dict[str, Solution], seed: int, games: int) -> list[dict[str, Any]]:
    """Whole games played on from each checked score by the engine, beside the computed chance."""
    out = []
    for i, (k, score, dealer) in enumerate(CHECKS):
        sol = sols[k]
        direct = play_from(sol.setting, score, dealer, games, seed + 1000 + i, progress=OPTIONS["progress"])
        direct = direct.iloc[0]
        p, lo, hi = sol.chance(score, dealer, 0)
        out.append({
            "setting": k, "score": "-".join(map(str, score)), "dealer": dealer, "dp": (p, lo, hi),
            "direct": (float(direct["win"]), float(direct["low"]), float(direct["high"])), "games": games,
            "agree": bool(lo <= direct["high"] and direct["low"] <= hi),
        })  # fmt: skip
    return out


def findings(s: dict, labels: dict, check: list[dict], diffs: dict, adjusted: dict, n: int) -> list[str]:
    nn = f"n = {n:,} measured deals per rule set"
    lead = {t: s[f"whist_{t}_honours"]["leader_wins"] for t in TARGETS}
    dealer = {t: s[f"whist_{t}_honours"]["dealer_side_wins"] for t in TARGETS}
    over = {t: s[f"whist_{t}_honours"]["over_in_one_deal"] for t in TARGETS}
    over_off5 = s["whist_5_no_honours"]["over_in_one_deal"]
    how = {
        1: "one deal decides more the shorter the game",
        -1: "one deal decides more the longer the game",
        0: "the three are not clearly in order of the game's length (95% CIs overlap)",
    }[_ordered([lead[t] for t in TARGETS])]
    out = [
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
    out.append(
        f"{head} {', '.join(parts[:-1])} and {parts[-1]}: {told}, adjusted for the {len(TARGETS)} comparisons "
        f"of honours on with off, one per target (chance by luck alone, adjusted: {chances}; the 95% CIs are "
        f"not adjusted) ({nn}, paired)."
    )  # fmt: skip
    out.append(
        f"One deal ends {ci(over[5])} of Whist games to 5 with honours against {ci(over_off5)} without, "
        f"and with honours {ci(over[7])} of games to 7 and {ci(over[10])} to 10 ({nn})."
    )
    out.append(
        f"From 0-0 the dealer's side wins {ci(dealer[5])} of Whist games to 5, {ci(dealer[7])} to 7 and "
        f"{ci(dealer[10])} to 10 (honours on, {nn})."
    )
    sc4, sc6 = s["scotch_4"]["leader_wins"], s["scotch_6"]["leader_wins"]
    out.append(
        f"In Scotch Whist to 41 the side ahead after the first deal wins {ci(sc4)} of games with 4 players "
        f"and {ci(sc6)} with 6 players in three sides (where an even chance is 33%); ties after one deal, "
        f"{ci(s['scotch_4']['tied_after_one_deal'])} with 4, are left out ({nn})."
    )
    agree = sum(c["agree"] for c in check)
    verb = "agree" if agree == len(check) else "agree only in part"
    w = next(c for c in check if c["setting"] == "whist_10_honours" and c["score"] == "6-2")
    out.append(
        f"The computed chances {verb} with whole games played on from the same scores: at {agree} of "
        f"{len(check)} checked scores the two 95% CIs overlap (n = {w['games']:,} games each), e.g. from 6-2 in "
        f"Whist to 10 the side on 6 wins {ci(w['dp'])} as computed and {ci(w['direct'])} of games played."
    )
    return out


def charts(sols: dict[str, Solution], s: dict, labels: dict, n: int) -> list[Chart]:
    """The side ahead after deal 1, by target and honours (and Scotch Whist); three heat maps."""
    players = "rule-based players (heuristic) at every seat"
    data = []
    for h, name in ((True, "honours on"), (False, "honours off")):
        keys = [f"whist_{t}_{'honours' if h else 'no_honours'}" for t in TARGETS]
        data.append(ChartSeries(f"Whist, {name}", [f"Whist to {t}" for t in TARGETS],
                                [100 * s[k]["leader_wins"][0] for k in keys],
                                [100 * s[k]["leader_wins"][1] for k in keys],
                                [100 * s[k]["leader_wins"][2] for k in keys]))  # fmt: skip
    sc = ChartSeries("Scotch Whist to 41", [], [], [], [])
    for i, k in enumerate(("scotch_4", "scotch_6")):
        sc.x.append(f"Scotch, {4 + 2 * i} players")
        for col, j in ((sc.y, 0), (sc.low, 1), (sc.high, 2)):
            col.append(100 * s[k]["leader_wins"][j])
    data.append(sc)
    w5, w10 = s["whist_5_honours"]["leader_wins"][0], s["whist_10_honours"]["leader_wins"][0]
    out = [Chart(
        "leader_wins",
        f"The side ahead after the first deal wins {pct(w5)} of Whist games to 5 points but {pct(w10)} of "
        "games to 10 (honours on)",
        "game and target score (points)", "chance that the side ahead after deal 1 wins (%)", data, kind="bars",
        categorical=True, n=f"n={n:,} deals a rule set", players=players,
        caption="Error bars: 95% confidence intervals (bootstrap over the measured deals). An even chance is 50% "
                "with two sides, 33% with three.",
    )]  # fmt: skip
    for k in ("whist_10_honours", "whist_5_no_honours", "scotch_4"):
        sol = sols[k]
        T = sol.setting.target
        rows = table(sol, dealer=0)
        p00 = sol.chance((0, 0), 0, 0)[0]
        lead = sol.chance((T - 1, 0), 0, 0)[0]
        series = []
        for b in range(T):
            r = rows[(rows["score_1"] == b) & np.isfinite(rows["win_0"])].sort_values("score_0")
            series.append(ChartSeries(f"side 1 on {b}", [int(v) for v in r["score_0"]],
                                      [float(v) for v in 100 * r["win_0"]],
                                      [float(v) for v in 100 * r["win_0_low"]],
                                      [float(v) for v in 100 * r["win_0_high"]]))  # fmt: skip
        widest = float((rows["win_0_high"] - rows["win_0_low"]).max()) * 50
        out.append(Chart(
            f"heatmap_{k}",
            f"{labels[k]}: side 0 (seat 0 deals next) wins {pct(p00)} of games from 0-0 and {pct(lead)} from "
            f"{T - 1}-0",
            "side 1's score (points)", "side 0's score (points)", series, kind="heatmap",
            caption=f"Colour and numbers: side 0's chance of winning (%), by the two sides' scores; the 95% CIs "
                    f"are too narrow to draw (at most ±{widest:.1f} percentage points) and are listed, cell by "
                    "cell, in the chart's data beside it.",
            n=f"n={sol.n:,} measured deals", players=players, value_label="chance that side 0 wins the game (%)",
        ))  # fmt: skip
    return out


METHOD = (
    "- **Measure.** Each deal of a cell (deal i: seat i mod P leads, so each seat deals equally often) is "
    "played through the engine's game kernel (`whistsim.tools.odds`), and each side's points are kept part by "
    "part in the engine's count-out order (Whist: revoke penalty, tricks, honours; Scotch Whist: the Ten, "
    "cards, A, K, Q, the Jack; within a part, sides in turn from the dealer's left), as one code a deal whose "
    "histogram merges chunk by chunk. The same seed gives the same deals under every Whist rule set, so "
    "honours on and off are compared on the same deals.\n"
    "- **Solve.** The chance that each side wins from every score and dealer follows exactly by dynamic "
    "programming over the measured joint distribution of a deal's parts, one distribution per dealer side "
    "(deals are independent given the dealer; the players never look at the score); count-out near the "
    "target is resolved part by part, as the engine does.\n"
    "- **Intervals.** Poisson bootstrap over the measured deals ({boot} resamples; {boot3} for the three-side "
    "game), each solved again; 95% CI = estimate +- 1.96 bootstrap SE on the logit scale. Honours on minus "
    "off: the same resampling weights for both (paired: each deal's two outcomes are kept together), normal "
    "interval, Holm over the three targets.\n"
    "- **Terms.** *The side ahead after the first deal*: the side with the most points after deal 1 (the "
    "winner, if deal 1 ends the game); deals that leave the top sides tied are left out. *Dealer's side*: seat "
    "0 deals the first deal. *One-point lead*: side 0 on 1, the others on 0, seat 1 dealing.\n"
    "- **Check.** From {checks} scores, {games:,} whole games each played on by the engine (the dealt "
    "kernel's start score), on other seeds; Wilson 95% CIs; agreement = the two intervals overlap.\n"
    "- The whole table of a rule set, every score and dealer: `whistsim odds --game whist --rule target=7 "
    "--strategy heuristic` (Scotch Whist: `--game scotch --players 6`)."
)


def tables(
    s: dict, labels: dict, check: list[dict], diffs: dict, adjusted: dict, n: int
) -> list[tuple[str, str]]:
    import pandas as pd

    results = pd.DataFrame([{
        "rule set": labels[k], "dealer's side wins from 0-0": ci(r["dealer_side_wins"]),
        "side ahead after deal 1 wins": ci(r["leader_wins"]), "over in one deal": ci(r["over_in_one_deal"]),
        "tied after one deal": ci(r["tied_after_one_deal"]), "one-point lead wins": ci(r["one_point_lead_wins"]),
    } for k, r in s.items()])  # fmt: skip
    note = f"\n\nn = {n:,} deals per rule set. Scotch Whist to 41, 6 players: side 0 is seat 0's pair."
    against = pd.DataFrame([{
        "rule set": labels[c["setting"]], "score": c["score"], "dealer seat": c["dealer"],
        "computed: side 0 wins": ci(c["dp"]), "games played: side 0 wins": f"{ci(c['direct'])} (n = {c['games']:,})",
        "intervals overlap": "yes" if c["agree"] else "NO",
    } for c in check])  # fmt: skip
    honours = pd.DataFrame([{
        "target": t, "change in the chance that the side ahead after deal 1 wins (percentage points)":
            f"{100 * diffs[t][0]:+.2f} [{100 * diffs[t][1]:+.2f}, {100 * diffs[t][2]:+.2f}]",
        "chance by luck alone": _p(diffs[t][3]), "adjusted for the 3 targets": _p(adjusted[t]),
    } for t in TARGETS])  # fmt: skip
    return [
        ("Results", md_table(results) + note),
        ("The method against whole games", md_table(against)),
        ("Honours on against off, on the same deals", md_table(honours)),
    ]  # fmt: skip


def files(
    sols: dict[str, Solution], s: dict, check: list[dict], diffs: dict, adjusted: dict
) -> list[tuple[str, str, Any]]:
    """The study's own CSV files: the figures per rule set, every rule set's table of chances, the
    method check, honours."""
    import pandas as pd

    figures = pd.DataFrame([{"setting": k, **{f"{name}{end}": v[i] for name, v in r.items()
                                             for i, end in enumerate(("", "_low", "_high"))}}
                            for k, r in s.items()])  # fmt: skip
    out = [("figures", "the figures above per rule set (`setting`), each with its 95% CI (`_low`, `_high`).",
            figures.round(5))]  # fmt: skip
    for k in sorted(sols, key=_order):
        df = table(sols[k])
        kept = "every score and dealer"
        if (
            sols[k].setting.sides > 2
        ):  # 41^3 scores x 3 dealers is too big to keep: side 2 at 0, seat 0 dealing
            df = df[(df["dealer"] == 0) & (df["score_2"] == 0)]
            kept = "seat 0 dealing, side 2 on 0 (`whistsim odds --game scotch --players 6` gives it all)"
        out.append((f"table_{k}", f"the chance of each side from every score, {kept} (`dealer`: the seat "
                    "dealing next; `win_S`, `win_S_low`, `win_S_high`).", df.round(5)))  # fmt: skip
    flat = pd.DataFrame([{
        "setting": c["setting"], "score": c["score"], "dealer": c["dealer"], "dp": c["dp"][0], "dp_low": c["dp"][1],
        "dp_high": c["dp"][2], "games": c["games"], "direct": c["direct"][0], "direct_low": c["direct"][1],
        "direct_high": c["direct"][2], "agree": c["agree"],
    } for c in check])  # fmt: skip
    out.append(
        ("check", "the method against whole games: computed (`dp`) and played (`direct`).", flat.round(5))
    )
    honours = pd.DataFrame([{
        "target": t, "leader_wins_change": diffs[t][0], "low": diffs[t][1], "high": diffs[t][2],
        "p": diffs[t][3], "p_adjusted": adjusted[t],
    } for t in TARGETS])  # fmt: skip
    out.append(("honours", "honours on against off, per target: the change in the chance that the side ahead "
                "after the first deal wins, its 95% CI, and the chance by luck alone (`p`; `p_adjusted` for "
                "the three targets).", honours))  # fmt: skip
    return out


# The last reading: solving and checking take a while, and a run's result is read more than once.
_READ: dict[str, Analysis] = {}


def analyse(result: ExperimentResult) -> Analysis:
    """The odds of every cell: findings, the tables of figures and checks, the charts."""
    spec = result.spec
    keys = {key(spec, c): c for c in spec.cells}
    need = {f"whist_{t}_{h}" for t in TARGETS for h in ("honours", "no_honours")} | {"scotch_4", "scotch_6"}
    if not need <= set(keys) or result.games < 2:
        return Analysis(["(the odds study needs every rule set of its spec: Whist to 5, 7 and 10 with honours on "
                         "and off, Scotch Whist with 4 and 6 players)"], [], [])  # fmt: skip
    digest = hashlib.sha256(repr((spec.fingerprint(), sorted(OPTIONS.items()), result.tally.to_json()["hists"]))
                            .encode()).hexdigest()  # fmt: skip
    if digest in _READ:
        return _READ[digest]
    sols = solutions(result)
    labels = {k: label(spec, c) for k, c in keys.items()}
    figs = summary(sols)
    s = {k: figs[k] for k in sorted(sols, key=_order)}
    check = checks(sols, spec.seed, OPTIONS["check_games"])
    diffs = {
        t: paired_difference(sols[f"whist_{t}_honours"], sols[f"whist_{t}_no_honours"], LEAD) for t in TARGETS
    }
    adjusted = dict(zip(TARGETS, holm([diffs[t][3] for t in TARGETS]), strict=True))
    n = result.games
    method = METHOD.format(boot=OPTIONS["boot"], boot3=OPTIONS["boot_three_sides"], checks=len(check),
                           games=OPTIONS["check_games"])  # fmt: skip
    out = Analysis(findings(s, labels, check, diffs, adjusted, n), charts(sols, s, labels, n),
                   tables(s, labels, check, diffs, adjusted, n), files=files(sols, s, check, diffs, adjusted),
                   method=[line.removeprefix("- ") for line in method.strip().split("\n")])  # fmt: skip
    _READ.clear()
    _READ[digest] = out
    return out


def _order(k: str) -> tuple:
    """Whist by target, honours on first; then Scotch Whist by players."""
    parts = k.split("_")
    return (0, int(parts[1]), parts[2] != "honours") if parts[0] == "whist" else (1, int(parts[1]), False)
