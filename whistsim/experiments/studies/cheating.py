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

import numpy as np
import pandas as pd

from ...core.stats import Estimate, estimate
from ...core.strategy import parse_spec
from ...games import get_game
from ...harness import events as ev
from .. import cheaters as C
from ..results import (
    Analysis,
    Chart,
    ChartSeries,
    CoMoments,
    ExperimentResult,
    RatioShare,
    fmt_num,
    md_table,
)
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
        f"each verdict in the findings is the best of the {n} against those challengers, its "
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
    findings: list[str] = []
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
    why = measure_why(result, gs)
    tables = [("The best cheater against each challenge policy", md_table(pd.DataFrame(table)))]
    files, seats = [], []
    if why is not None:
        findings.append(why_finding(why))
        seats.append(why_seats(why))
        n = f"n={result.games:,} games each, replayed from their records"
        for i, r in enumerate(dict.fromkeys(why["rule"])):
            head = (f"Why the best cheater gains under {rule_words(r)}: his play against honest play on the same deals "
                    f"({n})") if i == 0 else (f"The same cheater under {rule_words(r)}, for contrast ({n}; a caught "
                    "hand, or a wrong challenger's, goes into the other player's hand, not onto his pile)")  # fmt: skip
            tables.append((head, md_table(why_table(why, r))))
        files.append((
            "why", "why the best cheater gains where he is caught most often: his points by where they came "
            "from, his passes, catches and hand sizes, and the other players' points, cheating and honest on "
            "the same deals (mean, 95% CI low and high, n games; count: the passes, catches or tricks a "
            "per-event figure is taken over)", why,
        ))  # fmt: skip
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
    method = [_tried(gs, result.games)]
    if why is not None:
        method.append(
            "Why the best cheater gains (the findings' last sentence and its tables, `tables/why.csv`): the "
            "cells "
            + ", ".join(f"`{result.spec.cell_label(c)}`" for _, c, _ in _why_cells(result, gs)[1])
            + " and "
            "their honest baselines were played again, the same seed and deals, every game recorded "
            "(docs/records.md) and followed move by move (`follow_game` in "
            "whistsim/experiments/studies/cheating.py); each replayed pile equals the one the engine scored, "
            "and each cell's mean points equal the study's."
        )
    return Analysis(findings[:6], charts, tables, appendix + seats, SHARES, files, method)


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


# ---- why: measured on the study's own deals, replayed from their records ---------------------------

WHY_CHUNK = 2000  # games recorded and replayed at a time: the records of a chunk are dropped after it
# Per game, from the cheater's seat: (key, words, unit). Each is measured playing honestly and cheating.
PER_GAME = [
    ("points", "his points", "points per game"),
    ("won", "points from tricks he wins in play", "points per game"),
    ("given", "points from tricks a wrong challenge gives him", "points per game"),
    ("kept", "points of the cards he keeps at the end", "points per game"),
    ("leads", "his leads", "per game"),
    ("unable", "his passes unable to follow", "per game"),
    ("wrong", "challenges of a pass he could not help (wrongly challenged)", "per game"),
    ("false", "his false passes", "per game"),
    ("caught", "his false passes caught", "per game"),
    ("lost", "points of the hands he loses when caught", "points per game"),
    ("left_points", "the player on his left: points", "points per game"),
    ("left_won", "the player on his left: points from tricks won in play", "points per game"),
    (
        "left_taken",
        "the player on his left: points of the cheater's caught hands he takes",
        "points per game",
    ),
    ("right_points", "the player on his right: points", "points per game"),
    ("right_won", "the player on his right: points from tricks won in play", "points per game"),
    (
        "right_taken",
        "the player on his right: points of the cheater's caught hands he takes",
        "points per game",
    ),
]
# Per event (key, words, unit, numerator, denominator, the events counted, a share?).
PER_EVENT = [
    ("hand_at_lead", "cards in his hand when another player leads", "cards", "lead_cards", "other_leads",
     "tricks", False),
    ("hand_at_unable", "cards in his hand when he passes unable to follow", "cards", "unable_cards", "unable",
     "passes", False),
    ("unable_challenged", "his passes unable to follow that are challenged", "%", "wrong", "unable", "passes",
     True),
    ("caught_cards", "cards in a hand he loses when caught", "cards", "caught_cards", "caught", "catches",
     False),
    ("caught_points", "points of a hand he loses when caught", "points", "lost", "caught", "catches", False),
    ("caught_stock", "catches while the stock lasts", "%", "caught_stock", "caught", "catches", True),
    ("caught_left", "catches by the player on his left", "%", "caught_left", "caught", "catches", True),
]  # fmt: skip
_TALLIES = sorted({k for k, *_ in PER_GAME} | {x for e in PER_EVENT for x in e[3:5]})


_ACTIONS: dict[str, int] = {}  # a move as records write it -> its action (the deal's parse, once each)


def follow_game(rec: dict, seat: int) -> dict[str, int]:
    """One Welsh Whist record stepped move by move through the game's engine (its deal at the table,
    :class:`~whistsim.games.welsh.table.WelshDeal`) and tallied from ``seat``'s side, every figure read
    from the events a move causes (harness/events.py) and the table it leaves: where every point of
    every pile came from (tricks won in play, tricks a wrong challenge gave, the last player's kept
    cards: the cards' values as the engine counts them, and every change of a pile's score must be
    those), the seat's caught hands each player took, its passes, catches and hand sizes (the keys of
    ``_TALLIES``, and ``pile`` per seat: each seat's points). ValueError: a move the engine refuses or
    by a seat not to move, moves after the deal ends or too few to end it; RuntimeError: a pile that
    changed where no tally can place it, or piles that are not the sum of their tallies."""
    game = get_game(rec["game"])
    rules = game.rules_from_record(rec["rules"])
    d = game.table(game, rules, {**rec, "moves": []}, 0)
    E, buf, table = d.E, d.buf, d.buf[0]["table"]
    s, hand_n = table["s"], table["hand_n"]  # views: the engine's state as each move leaves it
    # The deal's own step, its events read through views of the state's buffer: Deal.apply's
    # work per move without its Python records and tuples (the replay's cost is per move)
    step, ev_n, ev_rows = d.step_kernel.step, buf["ev_n"], buf["ev"][0]
    buf["ev_on"] = 1
    p = rules.players
    left, right = (seat + 1) % p, (seat - 1) % p
    won, given, kept, taken, piled = ([0] * p for _ in range(5))
    t = dict.fromkeys(_TALLIES, 0)
    pts = d.points()
    winner = -1  # the last trick's winner
    moves = rec["moves"]
    # names read once a game, not once a move
    S_PHASE, S_SEAT, OVER = E.S_PHASE, E.S_SEAT, E.OVER
    IN_CHALLENGE, CHALLENGE_SEAT = E.CHALLENGE, E.CHALLENGE_SEAT
    LEAD, FOLLOW, PASS, TRICK, CHALLENGE, KEEP = ev.LEAD, ev.FOLLOW, ev.PASS, ev.TRICK, ev.CHALLENGE, ev.KEEP
    for i, m in enumerate(moves):
        phase = s[S_PHASE]
        if phase == OVER:
            raise ValueError(f"the record's moves run on after the deal ends (move {i} of {len(moves)})")
        who, move = m.split(":", 1)
        if int(who) != s[S_SEAT]:
            raise ValueError(f"move {i} ({m}) is seat {s[S_SEAT]}'s to make")
        a = _ACTIONS.get(move)
        if a is None:
            a = _ACTIONS[move] = np.int64(d.parse(move))
        held = int(hand_n[seat])
        # before a challenge: the challenged seat's hand (cards, points), and whether the stock lasts
        before = None
        if phase == IN_CHALLENGE and a >= CHALLENGE_SEAT:
            q = int(a - CHALLENGE_SEAT)
            before = ({q: (int(hand_n[q]), d.hand_points(q))}, bool(s[E.S_TOP] < s[E.S_STOCK]))
        ev_n[0] = 0
        if step(buf, a) != 0:
            d.apply(a)  # refused, the deal unchanged: refused again, in the engine's words (IllegalMove)
        trick, challenge, keep = False, None, -1
        for kind, q, x, b in ev_rows[: ev_n[0]].tolist():
            if kind == LEAD and q == seat:
                t["leads"] += 1
            elif (kind == FOLLOW or kind == PASS) and q == seat:  # he answers another's lead: he is in play
                t["other_leads"] += 1
                t["lead_cards"] += held
                if kind == PASS:
                    t["false" if b else "unable"] += 1
                    if not b:
                        t["unable_cards"] += held
            elif kind == TRICK:
                trick, winner = True, q
            elif kind == CHALLENGE:
                challenge = (q, x, b)
            elif kind == KEEP:
                keep = q
        if not (trick or challenge or keep >= 0):
            continue
        now = d.points()
        delta = [x - y for x, y in zip(now, pts, strict=True)]
        pts = now
        if keep >= 0:
            k = d.kept_points()
            kept[keep] += k
            delta[keep] -= k
        if trick:  # its cards' points onto the winner's pile
            v = d.trick_points()
            won[winner] += v
            delta[winner] -= v
        if challenge is not None and before is not None:
            by, target, caught = challenge
            if caught:  # the caught hand goes to the challenger: into his hand, or onto his pile
                cards, points = before[0][target]
                if delta[by] not in (0, points):
                    raise RuntimeError(f"move {i}: a catch moved {delta[by]} points onto a pile, not its hand's "
                                       f"{points}")  # fmt: skip
                piled[by] += delta[by]
                delta[by] = 0
                if target == seat:
                    taken[by] += points
                    t["caught"] += 1
                    t["caught_cards"] += cards
                    t["lost"] += points
                    t["caught_stock"] += before[1]
                    t["caught_left"] += by == left
            else:  # a wrong challenge: the trick moves from its winner to the passer (Akagiri), or hands do
                v = d.trick_points()
                if delta[target] != -delta[winner] or delta[target] not in (0, v):
                    raise RuntimeError(f"move {i}: a wrong challenge moved {delta[target]} and {delta[winner]} "
                                       f"points, not the trick's {v}")  # fmt: skip
                given[target] += delta[target]
                won[winner] += delta[winner]
                delta[target] = delta[winner] = 0
                t["wrong"] += target == seat
        if any(delta):
            raise RuntimeError(f"move {i} ({m}) changed piles by {delta}, which no tally places")
    if s[E.S_PHASE] != E.OVER:
        raise ValueError(f"the record's {len(moves)} moves end before the deal does")
    pts = d.points()
    for q in range(p):  # every point of every pile placed: the tallies add up to the engine's score
        if pts[q] != won[q] + given[q] + kept[q] + piled[q]:
            raise RuntimeError(
                f"seat {q}'s pile scores {pts[q]}, its tallies {won[q] + given[q] + kept[q] + piled[q]}"
            )
    t.update(points=pts[seat], won=won[seat], given=given[seat], kept=kept[seat])
    t.update(left_points=pts[left], left_won=won[left], left_taken=taken[left])
    t.update(right_points=pts[right], right_won=won[right], right_taken=taken[right])
    t["pile"] = pts  # type: ignore[assignment]
    return t


def replay_cell(spec, cell: Cell, seat: int, games: int, chunk: int = WHY_CHUNK) -> dict[str, np.ndarray]:
    """Play the cell's first ``games`` games again (the same seed and deals as the study's), record them and
    follow each record through the engine (:func:`follow_game`, which checks that each pile is the sum of
    its tallies): one array a tally, one value a game. Every replayed pile must equal the one the
    simulation scored, or the record and its replay disagree: RuntimeError."""
    from ...games.runner import run_games

    game = get_game(spec.game_of(cell))
    ids, params = cell.seating(game.name)
    program = None
    if cell.where is not None:
        from ...deals.constraints import compile_where

        program = compile_where(cell.where, game.name, cell.rules).program
    rows: list[dict[str, int]] = []
    for start in range(0, games, chunk):
        got: list = []
        run_games(game, cell.rules, ids, params, seed=spec.seed, n=min(chunk, games - start), start=start,
                  first=cell.first, chunk=chunk, log_games=chunk, on_batch=got.append, where=program)  # fmt: skip
        for b in got:
            for i in range(len(b.logs)):
                rec = game.make_record(cell.rules, b, i, spec.seed, list(cell.players))
                t = follow_game(rec, seat)
                if t.pop("pile") != rec["result"]["points"]:  # type: ignore[comparison-overlap]
                    raise RuntimeError(f"replaying game {b.start + i} of cell {cell.index} scored other points "
                                       "than the engine did")  # fmt: skip
                rows.append(t)
    return {k: np.array([r[k] for r in rows], dtype=np.int64) for k in _TALLIES}


class Why:
    """The cheater of one cell against honest play on the same deals, under one rule: per game and per
    event (per pass, per catch), each with its 95% interval and n; :meth:`frame` is the table."""

    def __init__(self, rule: str, honest: dict[str, np.ndarray], cheat: dict[str, np.ndarray]):
        self.rule, self.honest, self.cheat = rule, honest, cheat
        self.games = len(cheat["points"])

    def per_game(self, key: str, play: str) -> Estimate:
        """``play``: "honest", "cheat" or "change" (cheating minus honest, game by game on the same deals)."""
        if play == "change":
            return estimate(self.cheat[key] - self.honest[key])
        return estimate((self.honest if play == "honest" else self.cheat)[key])

    def per_event(self, key: str, play: str) -> Estimate:
        _, _, _, num, den, _, is_share = next(e for e in PER_EVENT if e[0] == key)
        t = self.honest if play == "honest" else self.cheat
        e = CoMoments.of(t[den], t[num]).ratio()
        return RatioShare.of(e) if is_share else e

    def events(self, key: str, play: str) -> int:
        den = next(e for e in PER_EVENT if e[0] == key)[4]
        return int((self.honest if play == "honest" else self.cheat)[den].sum())

    def frame(self, strength: str, challenge: str) -> pd.DataFrame:
        """One row per figure and way of playing: the players' strength, rule and challenge policy, the figure
        (key, words, unit), play (honest, cheat or change), mean, low, high, n (games), and what a per-event
        figure is counted over (events) and how many (count)."""
        out = []

        def row(key: str, words: str, unit: str, play: str, e: Estimate, events: str = "", count: int = 0):
            scale = 100.0 if unit == "%" else 1.0
            out.append({
                "players": strength, "rule": self.rule, "challenge": challenge, "figure": key, "words": words,
                "unit": unit, "play": play, "mean": scale * e.mean, "low": scale * e.low, "high": scale * e.high,
                "n": e.n, "events": events, "count": count,
            })  # fmt: skip

        for key, words, unit in PER_GAME:
            for play in ("honest", "cheat", "change"):
                row(key, words, unit, play, self.per_game(key, play))
        for key, words, unit, _, _, what, _ in PER_EVENT:
            for play in ("honest", "cheat"):
                row(key, words, unit, play, self.per_event(key, play), what, self.events(key, play))
        return pd.DataFrame(out)


class _Row:
    """One figure of the why table, as the CSV holds it."""

    def __init__(self, r: pd.Series):
        self.mean, self.low, self.high = float(r["mean"]), float(r["low"]), float(r["high"])
        self.n, self.count, self.pct = int(r["n"]), int(r["count"]), r["unit"] == "%"

    def num(self, x: float) -> str:
        return f"{x:.1f}%" if self.pct else fmt_num(x)

    def ci(self) -> str:
        return f"95% CI {self.num(self.low)} to {self.num(self.high)}"

    def value(self) -> str:
        return self.num(self.mean)

    def signed(self) -> str:
        return ("+" if self.mean > 0 else "") + self.value()

    def bracket(self) -> str:
        return f"{self.num(self.mean)} [{self.num(self.low)}, {self.num(self.high)}]".replace("%", "")


def _at(df: pd.DataFrame, rule: str, figure: str, play: str) -> _Row:
    hit = df[(df["rule"] == rule) & (df["figure"] == figure) & (df["play"] == play)]
    if len(hit) != 1:
        raise KeyError(f"the why table has {len(hit)} rows for {rule}, {figure}, {play}")
    return _Row(hit.iloc[0])


# The cheater's own pile, by where its points came from: their changes add up to his gain.
SOURCES = {
    "given": "the tricks a wrong challenge gives him",
    "won": "the tricks he wins in play",
    "kept": "the cards he keeps at the end",
}


def why_finding(df: pd.DataFrame) -> str:
    """The finding that says why the cheater of the why table gains, from that table alone (its first rule
    explained, a second rule, if any, the contrast)."""
    rules = list(dict.fromkeys(df["rule"]))
    rule, strength, challenge = rules[0], str(df["players"].iloc[0]), str(df["challenge"].iloc[0])

    def g(figure: str, play: str = "cheat", r: str = rule) -> _Row:
        return _at(df, r, figure, play)

    gain = g("points", "change")
    parts = sorted(SOURCES, key=lambda k: -abs(g(k, "change").mean))
    sources = ", ".join(f"{SOURCES[k]} {g(k, 'change').signed()} ({g(k, 'change').ci()})" for k in parts)
    false, caught = g("false"), g("caught")
    cards, points, stock = g("caught_cards"), g("caught_points"), g("caught_stock")
    lead, lead0 = g("hand_at_lead"), g("hand_at_lead", "honest")
    unable, unable0, chal = g("unable"), g("unable", "honest"), g("unable_challenged")
    given, given0 = g("given"), g("given", "honest")
    afresh = stock.mean > 50  # most catches leave him to draw a new hand from the stock
    text = (
        f"Why the best cheater gains under {rule_words(rule)} among {strength_words(strength)} when the "
        f"others {challenger_words(challenge)} (measured on the same n={gain.n:,} deals, each game played again "
        f"and followed card by card from its record): of his {false.value()} false passes a game "
        f"({false.ci()}) {caught.value()} are caught ({caught.ci()}), and each catch empties his hand onto the "
        f"pile of the trick's winner, {cards.value()} cards ({cards.ci()}) worth {points.value()} points "
        f"({points.ci()}; n={points.count:,} catches); {'but ' if afresh else ''}{stock.value()} of catches "
        f"({stock.ci()}) come while the stock lasts"
        + (", so that he plays on from cards drawn afresh" if afresh else "")
        + f": he holds {lead.value()} cards when "
        f"another player leads ({lead.ci()}; n={lead.count:,} tricks), against {lead0.value()} playing honestly "
        f"({lead0.ci()}); he passes unable to follow {unable.value()} times a game ({unable.ci()}) against "
        f"{unable0.value()} ({unable0.ci()}), {chal.value()} of those passes are challenged ({chal.ci()}; "
        f"n={chal.count:,} passes), and a wrong challenge gives him the trick: such tricks bring him "
        f"{given.value()} points a game ({given.ci()}) against {given0.value()} ({given0.ci()}); his points by "
        f"where they come from, against playing honestly on the same deals: {sources}; {gain.signed()} {UNIT} "
        f"in all ({gain.ci()})"
    )
    if len(rules) > 1:
        other = rules[1]
        twin, twin_given = g("points", "change", other), g("given", "cheat", other)
        text += (
            f"; under {rule_words(other)}, where a wrong challenge gives the passer the challenger's hand "
            f"instead of the trick ({twin_given.value()} points a game from such tricks), the same cheater's "
            f"points change by {twin.signed()} {UNIT} ({twin.ci()})"
        )
    return text + "."


def why_seats(df: pd.DataFrame) -> str:
    """Who pays for the cheater's gain, from the why table alone: the players on his left and right."""
    rule = str(df["rule"].iloc[0])

    def g(figure: str, play: str = "cheat") -> _Row:
        return _at(df, rule, figure, play)

    left, right = g("left_points", "change"), g("right_points", "change")
    most, least = (("right", right), ("left", left)) if right.mean < left.mean else (("left", left),
                                                                                      ("right", right))  # fmt: skip
    share = g("caught_left")
    return (
        f"Who pays for it under {rule_words(rule)} (the same n={left.n:,} deals): the player on his {most[0]} "
        f"changes by {most[1].signed()} {UNIT} ({most[1].ci()}), the player on his {least[0]} by "
        f"{least[1].signed()} ({least[1].ci()}). A caught hand goes to the trick's winner, the player on his "
        f"left in {share.value()} of catches ({share.ci()}; n={share.count:,} catches): the player "
        f"on his left takes {fmt_num(g('left_taken').mean)} points a game of the cheater's hands "
        f"({g('left_taken').ci()}), the player on his right {fmt_num(g('right_taken').mean)} "
        f"({g('right_taken').ci()}); in play the player on his left wins {g('left_won', 'change').signed()} "
        f"points a game against honest play ({g('left_won', 'change').ci()}), the player on his right "
        f"{g('right_won', 'change').signed()} ({g('right_won', 'change').ci()})."
    )


def why_table(df: pd.DataFrame, rule: str) -> pd.DataFrame:
    """The why table of one rule for the report: one row a figure, honest, cheating and the change."""
    mine = df[df["rule"] == rule]
    rows = []
    for figure in dict.fromkeys(mine["figure"]):
        f = mine[mine["figure"] == figure]
        first = f.iloc[0]

        def cell(play: str, f: pd.DataFrame = f) -> str:
            hit = f[f["play"] == play]
            if hit.empty or not math.isfinite(float(hit["mean"].iloc[0])):
                return "–"
            return _Row(hit.iloc[0]).bracket()

        events = str(first["events"]) if isinstance(first["events"], str) else ""
        counts = {p: int(f[f["play"] == p]["count"].iloc[0]) for p in ("honest", "cheat")}
        rows.append({
            "figure": f"{first['words']} ({first['unit']})",
            "playing honestly [95% CI]": cell("honest"),
            "the cheater [95% CI]": cell("cheat"),
            "change on the same deals [95% CI]": cell("change"),
            "n": f"{int(first['n']):,} games" + (
                f"; {counts['honest']:,} and {counts['cheat']:,} {events}" if events else ""),
        })  # fmt: skip
    return pd.DataFrame(rows)


def _why_cells(
    result: ExperimentResult, gs: list[_Group]
) -> tuple[_Group, list[tuple[str, Cell, Cell]]] | None:
    """The group to explain (under Akagiri's rule, the challengers against whom the best cheater still pays
    though caught most often), and the cells to replay: (rule, his cell, its honest baseline) under that
    rule and, for contrast, the same players under Parlett's rule."""
    spec = result.spec
    base = {p.cell: p.base for p in spec.pairs}

    def caught(g: _Group) -> float:
        e = result.estimate(g.best_cell.index, "catch_rate").mean
        return e if math.isfinite(e) else -1.0

    paying = [g for g in gs if g.rule == "akagiri" and g.challenge != "never" and g.best.verdict == C.PAYS
              and g.best_cell.index in base and g.best_cell.rules.scoring == "standard"]  # fmt: skip
    if not paying:
        return None
    g = max(paying, key=caught)
    cells = [("akagiri", g.best_cell, spec.cells[base[g.best_cell.index]])]
    rule = find_axis(spec, lambda a: a == "rules.challenge")
    for c in spec.cells:
        if (
            rule
            and c.players == g.best_cell.players
            and fmt_value(c.value(rule)) == "parlett"
            and c.index in base
        ):
            cells.append(("parlett", c, spec.cells[base[c.index]]))
    return g, cells


def measure_why(result: ExperimentResult, gs: list[_Group]) -> pd.DataFrame | None:
    """The why table (see :class:`Why`), replayed from the study's own deals; None: nothing to explain."""
    found = _why_cells(result, gs)
    if found is None:
        return None
    g, cells = found
    seat = int(
        find_axis(result.spec, lambda a: a in result.spec.baseline and a.startswith("seats.")).split(".")[1]
    )
    frames = []
    for rule, cheat, honest in cells:
        t = {c.index: replay_cell(result.spec, c, seat, result.games) for c in (honest, cheat)}
        for c in (honest, cheat):  # the replayed games are the study's own: the very same points
            mine, theirs = t[c.index]["points"].mean(), result.estimate(c.index, f"{SCORE}[{seat}]").mean
            if not math.isclose(mine, theirs, rel_tol=1e-12, abs_tol=1e-9):
                raise RuntimeError(
                    f"the replayed games of cell {c.index} score {mine} points, the study {theirs}"
                )
        frames.append(Why(rule, t[honest.index], t[cheat.index]).frame(g.strength, g.challenge))
    return pd.concat(frames, ignore_index=True)
