"""Does cheating pay? The cheater's best response over the family of cheat policies, per rule and challengers.

A study of Welsh Whist's false passes (experiments/cheating.toml). Seat 0's whole player is swept over
the family of cheaters of :mod:`whistsim.experiments.cheaters` (honest first, the baseline), the other
seats' strength over the players that take every cheat policy; the study judges each challenge rule and
challenge policy by the cheater's best response (:func:`~whistsim.experiments.cheaters.best_response`),
as the claims do. It reads the cheater's ``points``, ``false_passes`` and ``catch_rate`` (a share of
false passes: Wilson's interval).
"""

from __future__ import annotations

import math

import pandas as pd

from ...core.stats import Estimate
from ...core.strategy import parse_spec
from ...games import get_game
from .. import cheaters as C
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, RatioShare, fmt_num, md_table
from ..spec import Cell, fmt_value
from ..tools import find_axis

SCORE = "points"  # per seat: the cheater's gain is its points against honest play on the same deals
SHARES = frozenset({"catch_rate"})  # challenges won over false passes: a share of false passes
UNIT = "points per game"
RULES = {
    "none": "no challenge rule",
    "parlett": "Parlett's challenge rule",
    "akagiri": "Akagiri 1995's challenge rule",
}
STRENGTH_WORDS = {
    "greedy": "players who follow simple rules",
    "counter": "players who count the cards",
}
VERDICT_WORDS = {
    C.PAYS: "cheating pays",
    C.HONEST_BEST: "honesty is the best response",
    C.SMALL: "no cheater gains as much as a point a game",
    C.UNDECIDED: "undecided at this n",
}


def rule_words(r: str) -> str:
    return RULES.get(r, f"the challenge rule '{r}'")


def strength_words(s: str) -> str:
    return STRENGTH_WORDS.get(s, f"{s} players")


def challenger_words(c: str) -> str:
    """What the honest players do ("-": no challenge policy given, each player's own default)."""
    return "challenge as they would by default" if c == "-" else C.challenger_words(c)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


class _Group:
    """The cells of one strength, rule and challenge policy: the cheaters' gains and their best response."""

    def __init__(self, strength: str, rule: str, challenge: str, gains: dict[str, tuple[Cell, Estimate]]):
        self.strength, self.rule, self.challenge = strength, rule, challenge
        self.cells = {p: c for p, (c, _) in gains.items()}
        self.best = C.best_response({p: e for p, (_, e) in gains.items()})

    @property
    def best_cell(self) -> Cell:
        return self.cells[self.best.policy]


def groups(result: ExperimentResult) -> list[_Group] | None:
    """Every (strength, rule, challenge policy) with its cheaters' paired gains; None: not this study's axes.

    The cheater is the seat whose player (``seats.K``) or cheat rate (``seats.K.cheat``) is swept against
    an honest baseline; his strength and policy are read from the cell's players."""
    spec = result.spec
    cheater = find_axis(spec, lambda a: a in spec.baseline and a.startswith("seats.")
                        and (a.count(".") == 1 or a.split(".")[-1] in get_game("welsh").cheat_params))  # fmt: skip
    if cheater is None or not cheater.split(".")[1].isdigit():
        return None
    seat = int(cheater.split(".")[1])
    rule = find_axis(spec, lambda a: a == "rules.challenge")
    pts = f"{SCORE}[{seat}]"
    found: dict[tuple[str, str, str], dict[str, tuple[Cell, Estimate]]] = {}
    for c in spec.cells:
        strength, cheat = C.policy_of(c.players[seat])
        d = result.difference(c.index, pts, cheater)
        if cheat == C.HONEST or d is None:
            continue
        r = fmt_value(c.value(rule)) if rule else str(spec.rules.get("challenge", "none"))
        other = parse_spec(c.players[(seat + 1) % len(c.players)])
        ch = fmt_value(other.params.get("challenge", "-")) if r != "none" else "-"
        found.setdefault((strength, r, ch), {})[cheat] = (c, d[0])
    return [_Group(s, r, ch, g) for (s, r, ch), g in found.items()]


def _gain(b: C.BestResponse) -> str:
    """The best response's gain, its interval widened for the cheaters tried."""
    v = b.value
    sign = "+" if v.mean > 0 else ""
    return (f"{sign}{fmt_num(v.mean)} {UNIT} (95% CI {fmt_num(v.low)} to {fmt_num(v.high)}, widened for the "
            f"{b.tried} tried; n={v.n:,} games)")  # fmt: skip


def _tried(gs: list[_Group], games: int) -> str:
    """Which cheaters were tried, in words: the whole family of cheaters.py, or each one tried."""
    tried = list(dict.fromkeys(p for g in gs for p in g.best.raw))
    n = len(tried)
    strengths = list(dict.fromkeys(g.strength for g in gs))
    who = ("One player cheats against two honest players of his own strength ("
           + " and ".join(strength_words(s) for s in strengths) + ")")  # fmt: skip
    if set(tried) == set(C.FAMILY):
        rates = [p for p in C.RATES if p != "smart"]
        what = (
            f"as each of {n} cheaters in turn: one who passes falsely at a fixed share of his chances ("
            + ", ".join(rates)
            + "), one who does so only to keep a Ten or a Taffy off a trick he cannot win, and "
            f"{n - len(C.RATES)} who choose their moment: by the cards left in their hand (at most "
            + ", ".join(str(h) for h in C.HANDS if h < 13)
            + ", or any), by what following would hand over (any card, or a Ten or a Taffy) and by what a "
            "catch would cost them (nothing, a tenth or three tenths of their hand)"
        )
    else:
        what = f"as each of {n} cheaters in turn: one who " + "; one who ".join(C.words(p) for p in tried)
    return (
        f"{who}, {what}, each on the same n={games:,} deals as the honest player he is compared with; "
        f"each verdict below is the best of the {n} against those challengers, its "
        f"interval widened for picking the best of {n}, and the table names each best cheater."
    )


def _rule_finding(rule: str, strength: str, gs: list[_Group]) -> str:
    """Under one rule, among one strength: each challenge policy's verdict and its best cheater."""
    order = {c: i for i, c in enumerate(C.CHALLENGERS)}
    parts = []
    for g in sorted(gs, key=lambda g: order.get(g.challenge, len(order))):
        who = "the best cheater" if g.best.value.mean > 0 else "the least costly cheater"
        parts.append(
            f"when the others {challenger_words(g.challenge)}, {VERDICT_WORDS[g.best.verdict]}: "
            f"{_gain(g.best)} for {who}, one who {C.words(g.best.policy)}"
        )
    return f"Under {rule_words(rule)}, among {strength_words(strength)}: " + "; ".join(parts) + "."


def analyse(result: ExperimentResult) -> Analysis:
    """The cheater's best response per strength, challenge rule and challenge policy."""
    gs = groups(result)
    if not gs:
        return Analysis(["(the cheating analysis needs seat 0's player swept over cheaters, honest as the baseline)"],
                        [], [])  # fmt: skip
    strengths = list(dict.fromkeys(g.strength for g in gs))
    rules = list(dict.fromkeys(g.rule for g in gs))
    findings = [_tried(gs, result.games)]
    none = [g for g in gs if g.rule == "none"]
    if none:
        pays = all(g.best.verdict == C.PAYS for g in none)
        findings.append(
            ("With no challenge rule cheating pays: " if pays else "With no challenge rule cheating does not "
             "clearly pay at every strength: ")
            + "; ".join(
                f"among {strength_words(g.strength)}, "
                + ("" if pays else f"{VERDICT_WORDS[g.best.verdict]}: ")
                + f"the best cheater (one who {C.words(g.best.policy)}) gains {_gain(g.best)} over playing "
                "the same deals honestly"
                for g in none
            )
            + "."
        )  # fmt: skip
    for r in rules:
        if r == "none":
            continue
        for s in strengths:
            mine = [g for g in gs if g.rule == r and g.strength == s]
            if mine:
                findings.append(_rule_finding(r, s, mine))
    table = []
    for g in gs:
        caught = RatioShare.of(result.estimate(g.best_cell.index, "catch_rate"))
        table.append({
            "players": strength_words(g.strength), "challenge rule": rule_words(g.rule),
            "the others": challenger_words(g.challenge) if g.rule != "none" else "–",
            "cheaters tried": g.best.tried,
            "the best cheater": f"one who {C.words(g.best.policy)}",
            f"his gain ({UNIT}) [95% CI widened for the cheaters tried]":
                f"{fmt_num(g.best.value.mean)} [{fmt_num(g.best.value.low)}, {fmt_num(g.best.value.high)}]",
            "n (games)": f"{g.best.value.n:,}",
            "his false passes caught (%) [95% CI]":
                f"{100 * caught.mean:.1f} [{100 * caught.low:.1f}, {100 * caught.high:.1f}]"
                if g.rule != "none" and math.isfinite(caught.mean) else "–",
            "verdict": VERDICT_WORDS[g.best.verdict],
        })  # fmt: skip
    charts = _charts(result, gs, strengths)
    m = max(g.best.tried for g in gs)
    appendix = [
        "Every gain is the cheater's points minus the same seat's points playing honestly, game by game on "
        f"the same deals; n={result.games:,} games for each cheater in each setting. The best cheater's "
        "interval runs from the highest lower end to the highest upper end of the cheaters' 95% intervals, "
        f"each widened for the {m} tried (each at 1 - 0.05/{m}): it covers the best cheater's true gain with "
        "at least 95% confidence, however the best was picked. A cure needs every cheater shown below "
        f"{fmt_num(C.MARGIN)} point a game (1.4% of a fair share of 72). The claims (results/claims.md: "
        "`easy_to_cheat`, `parlett_cures`) judge by the same best response (whistsim/experiments/cheaters.py)."
    ]
    return Analysis(
        findings[:6],
        charts,
        [("The best cheater against each challenge policy", md_table(pd.DataFrame(table)))],
        appendix,
        SHARES,
    )


def _charts(result: ExperimentResult, gs: list[_Group], strengths: list[str]) -> list[Chart]:
    charts: list[Chart] = []
    n = f"n={result.games:,} games a point for each of the cheaters tried"
    present = [g.challenge for g in gs if g.rule != "none"]
    challengers = [c for c in dict.fromkeys([*C.CHALLENGERS, *present]) if c in present and c != "never"]
    rules = [r for r in dict.fromkeys(g.rule for g in gs) if r != "none"]
    tried = max(g.best.tried for g in gs)
    for s in strengths:
        series = []
        for r in rules:
            pts = {
                g.challenge: g.best
                for g in gs
                if g.rule == r and g.strength == s and g.challenge in challengers
            }
            xs = [c for c in challengers if c in pts]
            if not xs:
                continue
            series.append(ChartSeries(
                _cap(rule_words(r)), [challenger_words(c) for c in xs], [pts[c].value.mean for c in xs],
                [pts[c].value.low for c in xs], [pts[c].value.high for c in xs],
            ))  # fmt: skip
        if not series:
            continue
        mine = [g for g in gs if g.strength == s and g.rule != "none" and g.challenge in challengers]
        pays = [g for g in mine if g.best.verdict == C.PAYS]
        cured = [g for g in mine if g.best.cured]
        if cured and pays:
            title = (
                f"Among {strength_words(s)}, challenging can cure cheating, but not every way: the best "
                f"cheater still gains against {len(pays)} of {len(mine)} rule and policy pairs"
            )
        elif cured:
            title = f"Among {strength_words(s)}, every challenge policy tried keeps every cheater under a point a game"
        elif pays and len(pays) == len(mine):
            title = (
                f"Among {strength_words(s)}, the best cheater gains whatever the challenge rule and policy"
            )
        else:
            title = f"Among {strength_words(s)}, no challenge policy is shown to cure cheating at this n"
        never = [g for g in gs if g.strength == s and g.challenge == "never"]
        caption = (
            f"Each point: the best of the {tried} cheaters against those challengers; its bar: the 95% interval "
            f"widened for picking the best of {tried}. Dotted line: a point a game, the most a cured cheater may gain. "
            "Not drawn: players who never challenge, against whom the best cheater gains as much as with no "
            "rule ("
            + ", ".join(f"{fmt_num(g.best.value.mean)} {UNIT} under {rule_words(g.rule)}" for g in never)
            + ")."
        )  # fmt: skip
        charts.append(Chart(
            f"best-cheater-{s}", title, "what the honest players do",
            f"the best cheater's gain over honest play on the same deals ({UNIT})", series,
            zero_line=True, categorical=True, caption=caption, reference=C.MARGIN,
            reference_label="a point a game", n=n,
            players=f"{strength_words(s)} (rule-based) at every seat; one of them cheats",
        ))  # fmt: skip
    # How often the best cheater is caught.
    series = []
    for s in strengths:
        for r in rules:
            mine = {
                g.challenge: g for g in gs if g.rule == r and g.strength == s and g.challenge in challengers
            }
            xs = [c for c in challengers if c in mine]
            pts = [RatioShare.of(result.estimate(mine[c].best_cell.index, "catch_rate")) for c in xs]
            keep = [(c, e) for c, e in zip(xs, pts, strict=True) if math.isfinite(e.mean) and e.n > 0]
            if keep:
                series.append(ChartSeries(
                    f"{_cap(rule_words(r))}, {strength_words(s)}", [challenger_words(c) for c, _ in keep],
                    [100 * e.mean for _, e in keep], [100 * e.low for _, e in keep], [100 * e.high for _, e in keep],
                ))  # fmt: skip
    if series:
        top = max(
            ((sr.label, x, y) for sr in series for x, y in zip(sr.x, sr.y, strict=True)), key=lambda t: t[2]
        )
        charts.append(Chart(
            "best-cheater-caught",
            f"The best cheater is caught in up to {top[2]:.0f}% of his false passes",
            "what the honest players do", "share of the best cheater's false passes caught (%)", series,
            categorical=True, n=n,
            players=" or ".join(strength_words(s) for s in strengths) + " (rule-based) at every seat; one cheats",
            caption="Each point: the cheater who gains most against those challengers (the best of the "
                    f"{tried}); error bars: 95% confidence intervals."
        ))  # fmt: skip
    return charts


def honest_best(result: ExperimentResult) -> dict[tuple[str, str, str], C.BestResponse]:
    """Each (strength, rule, challenge policy)'s best response: the verdicts the findings give."""
    return {(g.strength, g.rule, g.challenge): g.best for g in groups(result) or []}
