"""Scotch Whist's claims (Catch the Ten)."""

from __future__ import annotations

import math

from ..experiments import verdicts as V
from ..experiments.report import fmt_num
from ..games import get_game
from ..stats import Estimate
from . import Claim, ClaimResult, ClaimRun

# The illustrative hand at the end of Catch the Ten: Z deals and turns the eight of hearts; A, on the
# dealer's left, leads. Seats clockwise from the elder hand: A 0, Y 1, B 2, Z 3; sides A-B and Y-Z.
HANDS = [[
    "QD AC 7C 8S JD 7D AH 9H TC".split(),  # A
    "KD KC 9C JS 9S TS TD 6H TH".split(),  # Y
    "8D JC 6C KS AD QC 6D KH JH".split(),  # B
    "9D 8C 6S AS QS 7S QH 7H 8H".split(),  # Z
]]  # fmt: skip
# The source's table trick by trick, in play order (the winner of a trick leads the next).
MOVES = (
    "0:QD 1:KD 2:8D 3:9D  1:KC 2:JC 3:8C 0:AC  0:7C 1:9C 2:6C 3:6S  1:JS 2:KS 3:AS 0:8S  3:QS 0:JD 1:9S 2:AD "
    "3:7S 0:7D 1:TS 2:QC  1:TD 2:6D 3:QH 0:AH  0:9H 1:6H 2:KH 3:7H  2:JH 3:8H 0:TC 1:TH"
).split()


def worked_record() -> dict:
    rules = get_game("scotch").make_rules("scotch", 4, {})
    return {"game": "scotch", "rules": rules.to_record(), "dealer": 3, "hands": HANDS, "trump": "8H",
            "aside": None, "moves": MOVES}  # fmt: skip


def _worked_hand(ctx: ClaimRun) -> ClaimResult:
    result = get_game("scotch").replay(worked_record())
    honours, cards = result["honours"], result["cards"]
    v = V.HOLDS if honours[0] == 30 and cards[1] == 2 else V.FAILS
    note = (
        f"The source's hand replayed move by move through the rules engine: honours {honours} and cards {cards} "
        f"for sides A-B and Y-Z (points {result['points']}, tricks {result['tricks']}). One hand, exact."
    )
    return ClaimResult(CLAIMS_BY_ID["worked_hand"], "honours won by A-B in the replayed hand",
                       Estimate(float(honours[0]), 0.0, 1), v, note)  # fmt: skip


def _diff(a: Estimate, b: Estimate) -> Estimate:
    """b - a for independent estimates (different player counts cannot share deals)."""
    n = min(a.n, b.n)
    se = math.sqrt(a.half_width**2 + b.half_width**2) / 1.959963984540054 if n >= 2 else math.nan
    return Estimate(b.mean - a.mean, se * math.sqrt(n), n)


def _suit_round(ctx: ClaimRun) -> ClaimResult:
    res = ctx.run("suit_round", {
        "game": "scotch", "rules": {"unit": "deal"}, "seats": {"all": "heuristic"},
        "sweep": {"rules": {"players": "2..8"}}, "headline": ["round_twice"],
    })  # fmt: skip
    cells = sorted(res.spec.cells, key=lambda c: c.rules.players)
    ests = [res.estimate(c.index, "round_twice") for c in cells]
    steps = []
    for i in range(len(cells) - 1):
        d = _diff(ests[i], ests[i + 1])
        sv = V.not_positive(d) if d.sd > 0 else (V.HOLDS if d.mean <= 0 else V.FAILS)
        steps.append((cells[i].rules.players, cells[i + 1].rules.players, d, sv))
    v = V.combine([s[3] for s in steps])
    shares = ", ".join(
        f"{c.rules.players}: {fmt_num(100 * e.mean)}%" for c, e in zip(cells, ests, strict=True)
    )
    rises = [
        f"{a} to {b} players (+{fmt_num(100 * d.mean)} percentage points)"
        for a, b, d, sv in steps
        if sv == V.FAILS
    ]
    note = (f"Heuristic players, one deal each, 2 to 8 players: the share of deals in which a plain suit goes round "
            f"(everyone follows) twice in one set: {shares}. The claim holds if no step to more players raises it"
            + (f"; it rises from {'; '.join(rises)}." if rises else "."))  # fmt: skip
    return ClaimResult(CLAIMS_BY_ID["suit_round"], "deals in which a suit goes round twice, 2 players",
                       ests[0], v, note)  # fmt: skip


def _two_rounds(ctx: ClaimRun) -> ClaimResult:
    res = ctx.run("two_rounds", {
        "game": "scotch", "rules": {"players": 4, "unit": "deal"}, "seats": {"all": "heuristic"},
        "sweep": {"seats": {"0": {"two_rounds": [0, 1]}}}, "baseline": {"seats": {"0": {"two_rounds": 0}}},
        "headline": ["points_per_deal[0]"],
    })  # fmt: skip
    cell = res.cell(**{"seats.0.two_rounds": 1})
    e, _ = res.difference(cell.index, "points_per_deal[0]")  # type: ignore[misc]
    note = ("Four heuristic players in two pairs, one deal each; seat 0 follows the advice (with J A or A K of "
            "trumps lead two rounds at once) or not, the same deals either way: its side's points per deal, paired. "
            "Most deals give seat 0 neither holding, so the effect is diluted over all deals.")  # fmt: skip
    return ClaimResult(CLAIMS_BY_ID["two_rounds"], "side points per deal gained by leading two rounds",
                       e, V.positive(e), note)  # fmt: skip


CLAIMS = [
    Claim("worked_hand", "scotch", "the illustrative hand: A-B win 30 by honours, Y-Z 2 by cards", "Catch the Ten", _worked_hand),
    Claim("suit_round", "scotch", "the greater the number of players, the less chance that a suit will go round "
          "more than once", "Catch the Ten", _suit_round, ("heuristic",)),
    Claim("two_rounds", "scotch", "with J A or A K of trumps it is best to lead two rounds immediately", "Catch the Ten",
          _two_rounds, ("heuristic",)),
]  # fmt: skip
CLAIMS_BY_ID = {c.id: c for c in CLAIMS}
