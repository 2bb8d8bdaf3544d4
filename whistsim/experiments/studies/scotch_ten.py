"""How often the Ten of trumps is caught, by number of players and strength of play, and from whom.

A study of Scotch Whist played one deal at a time (experiments/scotch_ten.toml): it
reads ``tens_caught`` (0 or 1 a deal) and ``ten_lost_at[k]`` (the Ten was dealt to
the player k-th from the dealer's left and caught). The holder is equally likely to
be any seat (the shuffle is uniform and the whole pack is dealt), so the chance that
the Ten is caught when position k holds it is ``players * ten_lost_at[k]``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...core.stats import Estimate, Share, holm, p_two_sided
from ..charts import from_run, players_of
from ..results import Analysis, Chart, ExperimentResult, fmt_num, md_table
from ..spec import fmt_value
from ..tools import axis_values, player_words
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
            f"Played by the book ({player_words(main)} players), the Ten of trumps is caught in "
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
                    f"On the same deals, {player_words(s)} players change how often the Ten is caught most with "
                    f"{big[0]} players, by {100 * big[1].mean:+.1f} percentage points (95% CI "
                    f"{100 * big[1].low:+.1f} to {100 * big[1].high:+.1f}, not adjusted, n={big[1].n:,} deals) "
                    f"against {player_words(str(base))} players; it is caught less often with {_counts(down)} "
                    f"players and more often with {_counts(up)} (each adjusted for the {len(diffs)} comparisons of "
                    "a player strength with random players on the same deals)."
                )
                continue
            # A strategy measured at one count (a search player): against the book's play too.
            c = _cell(result, big[0], s)
            vs = result.difference(c.index, "tens_caught", SEATS, main) if c is not None else None
            tail = (
                f", and by {100 * vs[0].mean:+.1f} percentage points (95% CI {100 * vs[0].low:+.1f} to "
                f"{100 * vs[0].high:+.1f}) against {player_words(main)} players"
                if vs is not None
                else ""
            )
            findings.append(
                f"Players who search sampled deals ({big[0]} players only) change how often the Ten is caught "
                f"by {100 * big[1].mean:+.1f} percentage points (95% CI {100 * big[1].low:+.1f} to "
                f"{100 * big[1].high:+.1f}, n={big[1].n:,} deals) against {player_words(str(base))} players{tail}."
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
            f"With {p4} {player_words(main)} players a Ten dealt to the dealer is caught "
            f"{_given(dealer, p4, 'the dealer')} of the time, against {_given(elder, p4, 'the elder hand')}; the "
            f"dealer's Ten is caught more often than the elder hand's with {_counts(worse)} players and less "
            f"often with {_counts(better)} (each adjusted for the {len(gaps)} comparisons of the dealer with the "
            "elder hand, one per player count)."
        )
        worst = []
        for p, c, _ in gaps:
            ests = [_caught_given(result, c, k) for k in range(p)]
            k = max(range(p), key=lambda i: ests[i].mean)
            worst.append((p, k, ests[k]))
        p_w, k_w, e_w = max(worst, key=lambda t: t[2].mean)
        findings.append(
            f"The most exposed holder is the {_position(k_w, p_w)} with {p_w} players: "
            f"a Ten dealt there is caught {_given(e_w, p_w, 'that seat')}."
        )
    # 4. Why: measured on recorded deals, at the counts where it is caught least and most.
    tables = []
    if by_p and lo[0] != hi[0]:
        why = measure_why(spec, counts, main, min(WHY_DEALS, result.games))
        findings.append(_why_sentence(why, lo[0], hi[0], main))
        tables.append((
            f"Why the Ten is caught: measured on {min(WHY_DEALS, result.games):,} recorded deals per player count "
            f"({player_words(main)} players; 95% intervals)", md_table(_why_table(why)),
        ))  # fmt: skip
    # Charts: by players; by holder's position; the paired change.
    ss = []
    for s in strategies:
        pts_ = [(p, share(result, c, "tens_caught")) for p in counts if (c := _cell(result, p, s))]
        if pts_:
            ss.append(line(f"{player_words(s)} players", [p for p, _ in pts_], [e for _, e in pts_], 100))
    if by_p:
        charts.append(
            Chart(
                "ten-caught-by-players",
                f"Played by the book the Ten of trumps is caught most often with {hi[0]} players "
                f"({100 * hi[1].mean:.0f}% of deals) and least with {lo[0]} ({100 * lo[1].mean:.0f}%)",
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
        held = sorted(round(result.games / p) for p, _, _ in gaps)
        charts.append(
            Chart(
                "ten-caught-by-holder",
                f"Who loses the Ten ({player_words(main)} players): most exposed is the {_position(k_w, p_w)} "
                f"with {p_w} players ({100 * e_w.mean:.0f}% of the Tens dealt there are caught)",
                "holder's turn position (1 = elder hand; the last is the dealer)",
                "% of the Tens dealt there that are caught (95% CI)",
                ss,
                n=f"n=about {held[0]:,} to {held[-1]:,} deals a point (the deals in which that seat held the "
                f"Ten: one in as many as there are players, of {result.games:,})",
                players=players_of([s for p, c, _ in gaps for s in c.players]) + " at every seat",
            )
        )
    if diffs:
        big = max(diffs, key=lambda t: abs(t[2].mean))
        ss = []
        for s in [x for x in strategies if x != fmt_value(base)]:
            mine = [(p, e) for p, s2, e in diffs if s2 == s]
            ss.append(line(f"{player_words(s)} players against {player_words(base)} ones", [p for p, _ in mine],
                           [e for _, e in mine], 100))  # fmt: skip
        less = sum(e.high < 0 for _, _, e in diffs)
        more = sum(e.low > 0 for _, _, e in diffs)
        how = ("less often" if less == len(diffs) else "more often" if more == len(diffs) else
               f"less often in {less} and more often in {more} of {len(diffs)} comparisons,")  # fmt: skip
        charts.append(
            Chart(
                "ten-caught-change",
                f"Players stronger than {player_words(base)} ones lose the Ten {how} than they do: by up to "
                f"{100 * abs(big[2].mean):.0f} percentage points ({big[0]} players, same deals)",
                "players",
                f"change against {player_words(base)} players: percentage points (95% CI)",
                ss,
                zero_line=True,
            )
        )
    return Analysis(findings, from_run(result, charts), tables)


def _given(e: Estimate, p: int, who: str) -> str:
    """A share of the deals in which ``who`` held the Ten, with that n (about one deal in ``p``)."""
    m, lo, hi = (100 * v for v in (e.mean, e.low, e.high))
    return (
        f"{m:.1f}% (95% CI {lo:.1f}–{hi:.1f}%, of the about {e.n / p:,.0f} deals in which {who} held it: "
        f"one in {p} of {e.n:,})"
    )


def _why_sentence(why: dict, few: int, many: int, main: str) -> str:
    a, b = why[many], why[few]
    n = a["against"].n
    return (
        f"Why more often with {many} players than with {few} (measured on {n:,} recorded deals of each, "
        f"{player_words(main)} players): the other sides hold {fmt_num(a['against'].mean)} of the four trumps "
        f"above the Ten (Jack, Ace, King, Queen) among the cards played in the same set, against "
        f"{fmt_num(b['against'].mean)}; at least one is against it in {pct(a['exposed'])} against "
        f"{pct(b['exposed'])}; when one is, the Ten is caught in {pct(a['caught_exposed'])} against "
        f"{pct(b['caught_exposed'])}; its holder has {fmt_num(a['guards'].mean)} other trumps against "
        f"{fmt_num(b['guards'].mean)}, and must play it on a trump lead as its last trump in "
        f"{pct(a['forced'])} against {pct(b['forced'])}."
    )


def _why_table(why: dict) -> pd.DataFrame:
    def ci(e: Estimate, scale: float = 100.0) -> str:
        return f"{fmt_num(scale * e.mean)} [{fmt_num(scale * e.low)}, {fmt_num(scale * e.high)}]"

    return pd.DataFrame([
        {"players": p, "higher trumps against it in its set (of 4)": ci(w["against"], 1.0),
         "at least one against it (% of deals)": ci(w["exposed"]),
         "caught when one is (% of those deals)": ci(w["caught_exposed"]),
         "deals with one against it": w["caught_exposed"].n,
         "holder's other trumps": ci(w["guards"], 1.0),
         "played on a trump lead as its last trump (% of deals)": ci(w["forced"]),
         "caught (% of deals)": ci(w["caught"]), "n (deals)": w["caught"].n}
        for p, w in why.items()
    ])  # fmt: skip


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


# ---- why: measured on recorded deals ------------------------------------------------------

_HIGHER = "JAKQ"  # the trumps above the Ten (the Jack is highest)
_TRUMP_ORDER, _PLAIN_ORDER = "6789TQKAJ", "6789TJQKA"
WHY_DEALS = 2000  # recorded deals per player count: about a second each


def _beats(card: str, best: str, trump: str, led: str) -> bool:
    if (card[1] == trump) != (best[1] == trump):
        return card[1] == trump
    if card[1] == trump:
        return _TRUMP_ORDER.index(card[0]) > _TRUMP_ORDER.index(best[0])
    return card[1] == led == best[1] and _PLAIN_ORDER.index(card[0]) > _PLAIN_ORDER.index(best[0])


def _ten_deal(rec: dict) -> dict[str, float]:
    """One recorded deal, from the Ten's side: the higher trumps against it in its set, the holder's other
    trumps, whether it was played on a trump lead as the holder's last trump, and whether it was caught."""
    trump, teams = rec["trump"][1], rec["rules"]["teams"]
    ten = "T" + trump
    hands, start = [], 0
    for hs in rec["hands"]:
        for seat, h in enumerate(hs):
            if ten in h:
                holder, hands, hand = seat, hs, h
        if not hands:
            start += sum(len(h) for h in hs)
    side = teams[holder]
    against = sum(
        c[1] == trump and c[0] in _HIGHER for seat, h in enumerate(hands) if teams[seat] != side for c in h
    )
    moves = [m.split(":") for m in rec["moves"]]
    at = next(i for i, (_, c) in enumerate(moves) if c == ten)
    k = sum(1 for h in hands if h)  # cards in a trick of this set
    first = start + (at - start) // k * k
    trick = moves[first : first + k]
    led = trick[0][1][1]
    win = trick[0]
    for m in trick[1:]:
        if _beats(m[1], win[1], trump, led):
            win = m
    played = {c for s, c in moves[start:at] if int(s) == holder}
    left = [c for c in hand if c[1] == trump and c not in played]
    return {
        "against": against,
        "guards": sum(c[1] == trump for c in hand) - 1,
        "forced": float(led == trump and trick[0][1] != ten and len(left) == 1),
        "caught": float(teams[int(win[0])] != side),
    }


def measure_why(spec, counts: list[int], main: str, deals: int = WHY_DEALS) -> dict[int, dict[str, Estimate]]:
    """Per player count, from ``deals`` recorded deals played by ``main`` players under the spec's rules:
    ``against`` (higher trumps other sides hold in the Ten's set), ``exposed`` (at least one), ``caught``,
    ``caught_exposed`` (caught, of the deals with one against it), ``guards`` (the holder's other trumps)
    and ``forced`` (the Ten played on a trump lead as the holder's last trump)."""
    from ...api import simulate

    rules = {k: v for k, v in spec.rules.items() if k not in ("preset", "players")}
    out = {}
    for p in counts:
        sim = simulate("scotch", n=deals, seed=spec.seed, preset=spec.rules.get("preset"), players=p,
                       rules=rules | {"unit": "deal"}, strategies=[main], records=deals, threads=1)  # fmt: skip
        rows = [_ten_deal(r) for r in sim.records]
        col = {key: np.array([r[key] for r in rows], dtype=float) for key in rows[0]}
        exposed = col["against"] > 0
        out[p] = {
            "against": _est(col["against"]),
            "exposed": Share.of(_est(exposed.astype(float))),
            "caught": Share.of(_est(col["caught"])),
            "caught_exposed": Share.of(
                _est(col["caught"][exposed]) if exposed.any() else Estimate(0.0, 0.0, 0)
            ),
            "guards": _est(col["guards"]),
            "forced": Share.of(_est(col["forced"])),
        }
    return out


def _est(x: np.ndarray) -> Estimate:
    return Estimate(float(x.mean()), float(x.std(ddof=1)) if len(x) > 1 else float("nan"), len(x))
