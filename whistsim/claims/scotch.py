"""Scotch Whist's claims: Catch the Ten (docs/sources.md), quoted, read and measured."""

from __future__ import annotations

import math

import numpy as np

from ..core.stats import holm
from ..games import get_game
from .model import (
    FAILS,
    HOLDS,
    UNDECIDED,
    Claim,
    Figure,
    Outcome,
    Reading,
    above,
    family,
    fmt,
    fmt_figure,
    plain,
    with_lines,
    within,
)
from .run import ClaimRun
from .tricks import TRUMP_ORDER, moved_points, scotch_tricks, ten_events

SOURCE = "Catch the Ten"
PIMC = "pimc"  # the strongest Scotch Whist player at its default settings
SKILLS = ("heuristic", PIMC)

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


def _player(skill: str) -> str:
    return PIMC if skill == "pimc" else skill


def _deals(ctx: ClaimRun, skill: str, players: int = 4, strategies=None, rules=None, records: int = 0):
    # the search player is quick at single deals of Scotch Whist: half the deals of the rule-based players
    # (--n-search is for Welsh Whist and Whist, whose search players take far longer a game)
    n = ctx.n if skill == "heuristic" else max(2, ctx.n // 2)
    sim = ctx.simulate("scotch", n, records=n if records else 0, players=players,
                       rules={"unit": "deal", **(rules or {})}, strategies=strategies or [_player(skill)])  # fmt: skip
    return sim


# ---- the illustrative hand ---------------------------------------------------------------------------


def _worked(ctx: ClaimRun, skill: str) -> Outcome:
    r = get_game("scotch").replay(worked_record())
    ok = r["honours"][0] == 30 and r["cards"][1] == 2
    return Outcome(Figure.exactly(r["honours"][0]), HOLDS if ok else FAILS,
                   f"the hand replayed move by move through the rules engine: honours {r['honours']}, cards "
                   f"{r['cards']} for A-B and Y-Z (points {r['points']}, tricks {r['tricks']}).")  # fmt: skip


# ---- a suit going round twice --------------------------------------------------------------------

COUNTS = (4, 5, 6, 7, 8)  # the whole pack in play at once (2 and 3 players play separate hands)


def _suit_round(ctx: ClaimRun, skill: str) -> Outcome:
    figs = [Figure.share(int((b := _deals(ctx, skill, p).batch).game["round_twice"].astype(bool).sum()),
                         b.n) for p in COUNTS]  # fmt: skip
    rises = []  # p-values for "this step raises the share"
    for a, b in zip(figs, figs[1:], strict=False):
        d = b.mean - a.mean
        se = float(np.hypot(a.se, b.se)) if not (a.exact or b.exact) else 0.0
        rises.append(0.5 * math.erfc(d / se / math.sqrt(2)) if se > 0 else (0.0 if d > 0 else 1.0))
    first, last = figs[0], figs[-1]
    drop = Figure(first.mean - last.mean, first.low - last.high, first.high - last.low, min(first.n, last.n))
    rise_shown = any(p < 0.05 for p in holm(rises))
    v = FAILS if rise_shown else HOLDS if drop.low > 0 else UNDECIDED
    detail = ("share of deals in which a plain suit went round twice, " + ", ".join(
        f"{p} players: {fmt_figure(f)}" for p, f in zip(COUNTS, figs, strict=True))
        + f"; one deal per game, {plain(_player(skill))}, seed {ctx.seed}. Shown: 4 players minus 8 "
        "(from the far ends of the two 95% intervals: a cautious interval).")  # fmt: skip
    return Outcome(drop, v, detail)


# ---- the two-rounds advice and the tenace ----------------------------------------------------------


def _holding(rec: dict, want: list[set[str]], without: dict[frozenset, str]) -> bool:
    trump = rec["trump"][1]
    hand = {c for s in rec["hands"] for c in s[0]} if len(rec["hands"]) > 1 else set(rec["hands"][0][0])
    ranks = {c[0] for c in hand if c[1] == trump}
    for w in want:
        if w <= ranks and without.get(frozenset(w), "") not in ranks:
            return True
    return False


def _advice(on_spec: str, off_spec: str, want: list[set[str]], without: dict[frozenset, str], words: str):
    """Seat 0 playing ``on_spec`` against ``off_spec`` (heuristic's parameters, e.g. ``two_rounds=1``), in
    the deals that gave it the holding; ``words``: the two ways of playing, for the report."""

    def run(ctx: ClaimRun, skill: str) -> Outcome:
        opp = _player(skill)
        on = _deals(ctx, skill, strategies=[f"heuristic:{on_spec}", opp, opp, opp], records=1)
        off = _deals(ctx, skill, strategies=[f"heuristic:{off_spec}", opp, opp, opp])
        mask = np.array([_holding(r, want, without) for r in on.records])
        d = on.batch.side["points"][:, 0].astype(float) - off.batch.side["points"][:, 0]
        f = Figure.of(d[mask])
        return Outcome(f, above(f, 0.0), f"{int(mask.sum()):,} of {len(mask):,} deals gave seat 0 the holding; "
                       f"seat 0 {words} (heuristic:{on_spec} against heuristic:{off_spec}), the others "
                       f"{plain(opp)}, 4 players in pairs, the same deals, seed {ctx.seed}.")  # fmt: skip

    return run


def _ten_to_partner(players: int):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        opp = _player(skill)
        on = _deals(ctx, skill, players, strategies=["heuristic:ten_to_partner=1"] + [opp] * (players - 1))
        off = _deals(ctx, skill, players, strategies=["heuristic:ten_to_partner=0"] + [opp] * (players - 1))
        d = on.batch.side["points"][:, 0].astype(float) - off.batch.side["points"][:, 0]
        f = Figure.of(d)
        return Outcome(f, above(f, 0.0), f"seat 0 heuristic with ten_to_partner on or off, the others {plain(opp)}, "
                       f"{players} players in pairs, the same deals, seed {ctx.seed}.")  # fmt: skip

    return run


def _count_high(share: float):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        b = _deals(ctx, skill).batch
        hi = b.side["cards"].max(1) >= 10
        f = Figure.share(int(hi.sum()), len(hi))
        return Outcome(f, above(f, share), f"4 players in pairs, {plain(_player(skill))}, one deal per game, "
                       f"seed {ctx.seed}.")  # fmt: skip

    return run


# ---- the Ten and the Jack, trick by trick ---------------------------------------------------------


def _events(ctx: ClaimRun, skill: str) -> list[dict[str, bool]]:
    # records are followed in Python: a few thousand suffice
    n = ctx.followed(_deals(ctx, skill).batch.n, 5000)
    sim = ctx.simulate("scotch", n, records=n, players=4, rules={"unit": "deal"}, strategies=[_player(skill)])
    return [ten_events(r) for r in sim.records]


def _event(name: str, least: float):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        ev = _events(ctx, skill)
        hits = sum(e[name] for e in ev)
        f = Figure.share(hits, len(ev))
        if least >= 1.0:
            v = HOLDS if hits == len(ev) else FAILS  # the share keeps its Wilson CI: the deals are a sample
        else:
            v = above(f, least)
        return Outcome(f, v, f"4 players in pairs, {plain(_player(skill))}, one deal per game, each deal "
                             f"followed trick by trick from its record, seed {ctx.seed}.")  # fmt: skip

    return run


# ---- taking up the wrong hand ---------------------------------------------------------------------


def _trumps(hand: list[str], trump: str) -> int:
    return sum(c[1] == trump for c in hand)


def _exchange(kind: str):
    """Two players: the elder hand (seat 0) plays its hands in another order; every deal is played out twice
    by the same players with the same random streams, as dealt and with the hands exchanged."""
    from .playout import exchange_hands, play_deal

    def run(ctx: ClaimRun, skill: str) -> Outcome:
        n = ctx.followed(_deals(ctx, skill).batch.n, 5000)
        players = [_player(skill)]
        sim = ctx.simulate("scotch", n, records=n, players=2, rules={"unit": "deal"}, strategies=players)
        gains, changed = [], 0
        for i, rec in enumerate(sim.records):
            if kind == "blind":
                other = 1
            else:  # take up first the hand with the most trumps (the first of equals)
                mine = [s[0] for s in rec["hands"]]
                counts = [_trumps(h, rec["trump"][1]) for h in mine]
                other = counts.index(max(counts))
            if other == 0:
                gains.append(0.0)
                continue
            changed += 1
            a = play_deal(rec, players, ctx.seed, i)["points"][0]
            b = play_deal(exchange_hands(rec, 0, 0, other), players, ctx.seed, i)["points"][0]
            gains.append(float(b - a))
        f = Figure.of(np.array(gains))
        return Outcome(f, within(f, -0.5, 0.5), f"2 players, {plain(_player(skill))}, both, one deal per game; seat 0's "
                       f"hands exchanged in {changed:,} of {n:,} deals; seat 0's points per deal with the exchange "
                       f"minus as dealt, the same deals and random streams, seed {ctx.seed}.")  # fmt: skip

    return run


# ---- counting out ------------------------------------------------------------------------------------


def _count_out(ctx: ClaimRun, skill: str) -> Outcome:
    """The source's example, through the engine's count-out: A (seat 0) wants 4, B 10, C 16 of 41; the deal
    gives A 4 by cards and B the Jack (11); the Ten goes to C, or to B."""
    from ..games.dealt.engine import P_CARDS, P_JACK, P_TEN, count_out
    from ..games.dealt.kernels import new_state

    rules = get_game("scotch").make_rules("scotch", 3, {})

    def winner(ten_to: int) -> int:
        buf = new_state(rules)
        g = buf[0]
        g["core"]["table"]["score"][:3] = [37, 31, 25]
        ten = [0, 0, 0]
        ten[ten_to] = 10
        for row, pts in ((P_CARDS, [4, 0, 0]), (P_JACK, [0, 11, 0]), (P_TEN, ten)):
            g["core"]["result"][row][:3] = pts
        return int(count_out(g["core"], 2, g["order"]))

    to_c, to_b = winner(2), winner(1)
    ok = to_c == 0 and to_b == 1
    return Outcome(Figure.exactly(float(to_c == 0)), HOLDS if ok else FAILS,
                   f"three players each for himself, dealer C: with the Ten given to C the winner is seat "
                   f"{to_c} (A); given to B, seat {to_b} (B). Exact, through the engine's count-out.")  # fmt: skip


# ---- the worked hand's reasoning, step by step, with the open-hand solver -------------------------

# A 0, Y 1, B 2, Z 3: sides A-B (0) and Y-Z (1). Trick k's plays are moves 4(k-1) .. 4k-1.
TRUMP_TEN = "TH"


def _swap(record: dict, *pairs: tuple[str, str]) -> dict:
    """The record with each pair of cards exchanged between the hands that hold them."""
    hands = [list(h) for h in record["hands"][0]]
    for a, b in pairs:
        ha = next(h for h in hands if a in h)
        hb = next(h for h in hands if b in h)
        ha[ha.index(a)], hb[hb.index(b)] = b, a
    return {**record, "hands": [hands]}


def _at(record: dict, n: int) -> dict:
    return {**record, "moves": record["moves"][:n]}


def _solve(record: dict) -> dict:
    from ..solver import solve_record

    return solve_record(record, moves=True)


def _margins(record: dict, n: int) -> tuple[int, dict[str, int], list[str]]:
    """(seat to play, each legal card's open-hand margin for A-B, the best cards) after ``n`` moves."""
    out = _solve(_at(record, n))
    return out["seat"], {m["card"]: m["margin"] for m in out["moves"]}, out["best"]


def _lines(record: dict, choose) -> list[dict]:
    """Every way the deal can end from ``record``'s moves on: at each turn ``choose(record, seat, legal,
    best)`` gives the cards to follow (one for a player playing his best, all for one whose play is free)."""
    out = _solve(record)
    if "moves" not in out:
        return [record]
    legal = [m["card"] for m in out["moves"]]
    done = []
    for card in choose(record, out["seat"], legal, out["best"]):
        done += _lines({**record, "moves": [*record["moves"], f"{out['seat']}:{card}"]}, choose)
    return done


def _ten_side(record: dict) -> int:
    """The side that won the Ten of trumps in a finished deal."""
    teams = record["rules"]["teams"]
    for t in scotch_tricks(record):
        if any(c == TRUMP_TEN for _, c in t.plays):
            return teams[t.winner]
    return -1


def _trick3(ctx: ClaimRun, skill: str) -> Outcome:
    """Trick 3: Z, fourth hand on clubs with none, discarded. With the Ten (exchanged for his 7 of trumps,
    the Ten's holder Y taking the 7) would trumping in with it have been his best card, saving it?"""
    rec = worked_record()
    seat, margins, best = _margins(_swap(rec, ("7H", TRUMP_TEN)), 11)
    played = rec["moves"][11].split(":")[1]
    gain = margins[played] - margins[TRUMP_TEN]  # Y-Z's points: A-B's margin falls by what Y-Z gain
    ok = seat == 3 and TRUMP_TEN in best
    return Outcome(Figure.exactly(gain), HOLDS if ok else FAILS,
                   f"with the Ten in Z's hand (for his 7 of trumps), at trick 3 his best cards, every hand open, "
                   f"are {', '.join(best)}; trumping in with the Ten {'gains' if gain >= 0 else 'costs'} Y-Z "
                   f"{abs(gain)} points against the {played} he played.")  # fmt: skip


def _dealt(seat: int, cards: set[str], name: str, holds: bool):
    """A fact of the hand as dealt: seat holds one of ``cards`` (``holds``) or none of them."""

    def run(ctx: ClaimRun, skill: str) -> Outcome:
        has = sorted(cards & set(HANDS[0][seat]))
        ok = bool(has) == holds
        return Outcome(Figure.exactly(float(ok)), HOLDS if ok else FAILS,
                       f"as dealt {name} holds {' and '.join(has) or 'none of ' + ', '.join(sorted(cards))}.")  # fmt: skip

    return run


def _trick5(ctx: ClaimRun, skill: str) -> Outcome:
    """Trick 5, the second round of spades: A, void, discarded. With the Ten (exchanged for his 9 of
    trumps, Y taking the 9) would trumping with it have been his best card, and made it?"""
    rec = worked_record()
    alt = _swap(rec, ("9H", TRUMP_TEN))
    seat, margins, best = _margins(alt, 17)
    played = rec["moves"][17].split(":")[1]
    gain = margins[TRUMP_TEN] - margins[played]
    line = _lines(_at({**alt, "moves": [*alt["moves"][:17], f"0:{TRUMP_TEN}"]}, 18),
                  lambda r, s, legal, b: b[:1])[0]  # fmt: skip
    made = _ten_side(line) == 0
    ok = seat == 0 and TRUMP_TEN in best and made
    return Outcome(Figure.exactly(gain), HOLDS if ok else FAILS,
                   f"with the Ten in A's hand (for his 9 of trumps), at trick 5 his best cards, every hand open, "
                   f"are {', '.join(best)}; trumping with the Ten {'gains' if gain >= 0 else 'costs'} A-B "
                   f"{abs(gain)} points against the {played} he played (0: as good), and then A-B "
                   f"{'win' if made else 'lose'} the Ten.")  # fmt: skip


def _trick7(ctx: ClaimRun, skill: str) -> Outcome:
    """Trick 7's inference: B must have the Jack or King of trumps, for with only the 7 and 6 he would have
    trumped in (at trick 6, fourth hand on spades with none) to make cards. Checked as dealt, and with B
    given the 7 and 6 (his King and Jack going to Y and Z, either way round)."""
    rec = worked_record()
    played = rec["moves"][23].split(":")[1]
    gains, where = [], []
    for pairs in ((("KH", "7H"), ("JH", "6H")), (("KH", "6H"), ("JH", "7H"))):
        seat, margins, best = _margins(_swap(rec, *pairs), 23)
        trumps = [c for c in best if c[1] == "H"]
        gain = max(margins[c] for c in margins if c[1] == "H") - margins[played]
        gains.append(gain if seat == 2 and trumps else -abs(gain))
        where.append(
            f"best cards {', '.join(best)}, trumping in gains A-B {gain} over the {played} he played"
        )
    ok = all(g > 0 for g in gains)
    return Outcome(Figure.exactly(min(gains)), HOLDS if ok else FAILS,
                   f"given only the 7 and 6 of trumps (King and Jack with Y and Z): {'; the other way round: '.join(where)}. "
                   "Shown: the smaller gain.")  # fmt: skip


def _trick8(kind: str):
    """Trick 8, A leading trumps: with the Jack, B catches the Ten whatever Y and Z play; without it (the
    Jack with Y or with Z), if Y does not play the Ten, B passing makes the last trick (four cards) with the
    King."""

    def run(ctx: ClaimRun, skill: str) -> Outcome:
        rec = worked_record()
        start = _at(rec, 29)  # A has led the 9 of trumps
        if kind == "jack":

            def choose(r, seat, legal, best):
                return legal if seat in (1, 3) else best[:1]  # Y and Z free, A and B their best

            ends = _lines(start, choose)
            hits = sum(_ten_side(e) == 0 for e in ends)
            return Outcome(Figure.exactly(hits / len(ends), len(ends)), HOLDS if hits == len(ends) else FAILS,
                           f"as dealt (B holds the Jack and King): every one of the {len(ends)} ways Y and Z "
                           f"can play from trick 8 on, A and B playing their best, every hand open: A-B catch the "
                           f"Ten in {hits}.")  # fmt: skip
        hits = total = 0
        per = []
        for who, pairs in (("Y", (("JH", "6H"),)), ("Z", (("JH", "7H"),))):  # the Jack with Y, or with Z
            h0, t0 = hits, total
            alt = _at(_swap(rec, *pairs), 29)

            def choose(r, seat, legal, best):
                n = len(r["moves"])
                if seat == 1:  # Y keeps the Ten at trick 8
                    return [c for c in legal if c != TRUMP_TEN or n > 31] or legal
                if seat == 3:
                    return legal
                if seat == 2 and n < 32:  # passing: B's lowest trump
                    return [min(legal, key=lambda c: TRUMP_ORDER.index(c[0]) if c[1] == "H" else -1)]
                return best[:1]

            for end in _lines(alt, choose):
                last = scotch_tricks(end)[-1]
                total += 1
                hits += last.winner == 2 and (2, "KH") in last.plays
            per.append(f"the Jack with {who}: {hits - h0} of {total - t0}")
        return Outcome(Figure.exactly(hits / total, total), HOLDS if hits == total else FAILS,
                       f"B without the Jack (it goes to Y for his 6 of trumps, or to Z for his 7): of the ways Y "
                       f"(not playing the Ten at trick 8) and Z can play, B playing low at trick 8 and then his "
                       f"best, B wins the last trick, four cards, with the King in {'; '.join(per)}. Where Z holds "
                       "the Jack and plays his 8 under A's 9, A wins trick 8 and Z's Jack takes the last trick.")  # fmt: skip

    return run


# ---- what the play moves between sides ------------------------------------------------------------

ELEMENTS = ("T", "cards", "J", "A", "K", "Q")
ELEMENT_WORDS = {"T": "the Ten", "cards": "cards", "J": "the Jack", "A": "the Ace", "K": "the King",
                 "Q": "the Queen"}  # fmt: skip


def _moved(ctx: ClaimRun, skill: str) -> tuple[dict[str, np.ndarray], int]:
    """Per deal, the points each element moved between sides through the play (4 players in pairs)."""
    n = ctx.followed(_deals(ctx, skill).batch.n, 5000)
    sim = ctx.simulate("scotch", n, records=n, players=4, rules={"unit": "deal"}, strategies=[_player(skill)])
    rows = [moved_points(r) for r in sim.records]
    return {k: np.array([r[k] for r in rows], float) for k in ELEMENTS}, n


def _paired_p(a: np.ndarray, b: np.ndarray) -> float:
    """One-sided p-value for "a's mean exceeds b's", paired per deal (normal approximation)."""
    d = a - b
    se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else 0.0
    if se == 0:
        return 0.0 if d.mean() > 0 else 1.0
    return 0.5 * math.erfc(d.mean() / se / math.sqrt(2))


def _elements(kind: str):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        m, n = _moved(ctx, skill)
        tops = ("T", "cards") if kind == "chief" else ("T",)
        rest = ("J", "A", "K", "Q")
        pos = [_paired_p(m[t], m[r]) for t in tops for r in rest]
        neg = [_paired_p(m[r], m[t]) for t in tops for r in rest]
        v = family(pos, neg)
        # shown: the smallest paired lead of a claimed element over another
        leads = [(Figure.of(m[t] - m[r]), t, r) for t in tops for r in rest]
        f, t, r = min(leads, key=lambda x: x[0].mean)
        means = "; ".join(f"{ELEMENT_WORDS[k]}: {fmt_figure(Figure.of(m[k]))}" for k in ELEMENTS)
        caught = Figure.share(int((m["T"] > 0).sum()), n)
        detail = (f"points per deal moved between the sides by the play: {means}. The Ten was caught (won by the "
                  f"side not dealt it) in {fmt_figure(caught)} of deals. p-values adjusted for the {len(pos)} "
                  f"comparisons made: {', '.join(fmt(x) for x in holm(pos))}. Shown: {ELEMENT_WORDS[t]} minus "
                  f"{ELEMENT_WORDS[r]}, the smallest lead. 4 players in pairs, {plain(skill)}, one deal per game, "
                  f"seed {ctx.seed}.")  # fmt: skip
        return Outcome(f, v, detail)

    return run


def _anxious(ctx: ClaimRun, skill: str) -> Outcome:
    """A side whose players play only to catch the Ten (overlooking cards), against the same side playing
    as the book advises, on the same deals."""
    opp = _player(skill)
    on = _deals(ctx, skill, strategies=["heuristic:ten_only=1", opp, "heuristic:ten_only=1", opp])
    off = _deals(ctx, skill, strategies=["heuristic", opp, "heuristic", opp])
    f = Figure.of(off.batch.side["points"][:, 0].astype(float) - on.batch.side["points"][:, 0])
    return Outcome(f, above(f, 0.0), f"side A-B playing as the book advises minus playing only to catch the Ten, "
                   f"the other side {plain(opp)}, 4 players in pairs, the same deals, seed {ctx.seed}.")  # fmt: skip


CLAIMS = [
    Claim("worked_hand", "scotch", SOURCE, "Illustrative Scotch Whist hand",
          "A-B win 30 by honours.\nY-Z win 2 by cards.", "the illustrative hand's score", (
              Reading("replay", "The hand, played as the table shows, scores as stated.",
                      "honours and cards of each side when the hand is replayed move by move.",
                      "holds when A-B have 30 by honours and Y-Z 2 by cards, exactly.", _worked, ("exact",),
                      unit="points by honours to A-B"),
          )),
    Claim("trick3_marked", "scotch", SOURCE, "Illustrative Scotch Whist hand, trick 3",
          "Trick 3. A returns the Club, reading B for the Q or no more. B still avoids the lead, and Z is marked "
          "as not having the trump Ten, or he would have saved it.",
          "trick 3: Z is marked as not having the Ten", (
              Reading("as_dealt", "The fact: Z does not hold the Ten.", "the hand as dealt.",
                      "holds when Z was not dealt the Ten; exact.", _dealt(3, {TRUMP_TEN}, "Z", False), ("exact",),
                      unit="the fact true (1) or not (0)"),
              Reading("open_hand", "The reason: Z, fourth hand on clubs with none, discarded; had he held the Ten "
                      "he would have trumped in with it and saved it.",
                      "the hand as dealt (does Z hold the Ten?), and the same deal with the Ten in Z's hand "
                      "(exchanged for his 7 of trumps): Z's best cards at trick 3 by the open-hand solver "
                      "(every hand seen, both sides playing their best for the deal's points).",
                      "holds when, given the Ten, trumping in with it is one of his best cards; exact.", _trick3,
                      ("exact",), line=0.0, unit="points to Y-Z for trumping in with the Ten, against his discard"),
          ), parts=True),
    Claim("trick5_second_round", "scotch", SOURCE, "Illustrative Scotch Whist hand, trick 5",
          "Trick 5. B throws ♢A to avoid the lead, knowing Y has the trump Ten; for A would have made it on the "
          "second round of Spades. A also marks it with Y, as B does not save it.",
          "trick 5: A would have made the Ten on the second round of spades", (
              Reading("open_hand", "A, void in spades on their second round, discarded; had he held the Ten he "
                      "would have trumped with it and made it.",
                      "the same deal with the Ten in A's hand (exchanged for his 9 of trumps): A's best cards at "
                      "trick 5 by the open-hand solver, and who wins the Ten if he trumps with it and both sides "
                      "then play their best.",
                      "holds when trumping with the Ten is one of A's best cards and A-B then win the Ten; "
                      "exact.", _trick5, ("exact",), line=0.0,
                      unit="points to A-B for trumping with the Ten, against his discard"),
          )),
    Claim("trick7_j_or_k", "scotch", SOURCE, "Illustrative Scotch Whist hand, trick 7",
          "A knows each player has two trumps left, and that as the turn-up is still with Z, B must have J or "
          "K; for if he held only 7 and 6 he would have trumped in to make cards.",
          "trick 7: B must have the Jack or King of trumps", (
              Reading("as_dealt", "The fact: B holds the Jack or King of trumps.", "the hand as dealt.",
                      "holds when B was dealt the Jack or the King of trumps; exact.",
                      _dealt(2, {"JH", "KH"}, "B", True), ("exact",), unit="the fact true (1) or not (0)"),
              Reading("open_hand", "The reason: with only the 7 and 6 he would have "
                      "trumped in (at trick 6, fourth hand on spades with none) to make cards, and he "
                      "discarded instead.",
                      "the hand as dealt (B's trumps), and the same deal with B given the 7 and 6 of trumps, "
                      "his King and Jack going to Y and Z (both ways round): B's best cards at trick 6 by the "
                      "open-hand solver.",
                      "holds when, with only the 7 and 6, trumping in is one of his best cards and gains over "
                      "his discard, both ways round; exact.", _trick7,
                      ("exact",), line=0.0, unit="points to A-B for trumping in, against his discard"),
          ), parts=True),
    Claim("trick8_catch", "scotch", SOURCE, "Illustrative Scotch Whist hand, trick 8",
          "Trick 8. A leads trumps. If Y does not play the Ten, and B has not the Jack, B must make four cards "
          "and the King by passing. If B has the Jack, he must catch the Ten, no matter how Y and Z play.",
          "trick 8: B makes four cards and the King, or catches the Ten", (
              Reading("with_jack", "If B has the Jack (as dealt), he catches the Ten whatever Y and Z play.",
                      "every way Y and Z can play from A's trump lead at trick 8 to the end, A and B playing "
                      "their best by the open-hand solver: who wins the Ten.",
                      "holds when A-B win the Ten in every one of those ways; exact.", _trick8("jack"),
                      ("exact",), line=1.0, unit="share of Y's and Z's ways of playing"),
              Reading("without_jack", "If Y does not play the Ten and B has not the Jack, B, passing (playing "
                      "low) at trick 8, makes four cards (the last trick) and the King.",
                      "the same deal with the Jack given to Y (for his 6 of trumps) or to Z (for his 7): every "
                      "way Y (keeping the Ten at trick 8) and Z can play, B playing low at trick 8 and then his "
                      "best: does B win the last trick with the King?",
                      "holds when he does in every one of those ways; exact.", _trick8("no_jack"), ("exact",),
                      line=1.0, unit="share of Y's and Z's ways of playing"),
          ), parts=True),
    Claim("chief_elements", "scotch", SOURCE, "Suggestions for good play",
          "The chief counting elements that are affected by the play being the trump Ten and the cards, it is "
          "usual to devote particular attention to winning them.",
          "the Ten and the cards are what the play affects most", (
              Reading("moved", "Of the points the play of a deal moves between the sides, the Ten of trumps "
                      "and the cards move more than any other honour (the Jack, Ace, King, Queen).",
                      "per deal, the points each element moved between the sides by the play: an honour's count "
                      "when the side not dealt it wins it, and the points for cards (all of them come from "
                      "play); 4 players in pairs, each deal followed trick by trick.",
                      "holds when both the Ten's and the cards' points per deal exceed each other honour's, "
                      "paired per deal, with p-values adjusted for the 8 comparisons made; fails when an honour "
                      "is shown to move more than either.", _elements("chief"), SKILLS, line=0.0,
                      unit="points per deal, the smaller lead over another honour"),
          ), needs=("heuristic", "pimc")),
    Claim("principal_object", "scotch", SOURCE, "Objects of the game",
          "[...] but any court card in trumps will win the Ten, so that one of the principal objects in Scotch "
          "Whist is to catch the ten.",
          "catching the Ten is a principal object", (
              Reading("moved", "Catching the Ten (winning it when the other side was dealt it) is worth more "
                      "to a side, deal by deal, than capturing any other honour.",
                      "per deal, the points each trump honour moved to the side not dealt it (as for "
                      "chief_elements).",
                      "holds when the Ten's points per deal exceed each other honour's, paired per deal, with "
                      "p-values adjusted for the 4 comparisons made; fails when one is shown to move more.",
                      _elements("principal"), SKILLS, line=0.0,
                      unit="points per deal, the Ten's smallest lead over another honour"),
          ), needs=("heuristic", "pimc")),
    Claim("anxious_lose", "scotch", SOURCE, "Suggestions for good play",
          "Many players, in their anxiety to catch the Ten, overlook the possibilities of their hands in making "
          "cards, the count for which often runs into high figures.",
          "players anxious to catch the Ten, overlooking cards, lose by it", (
              Reading("side", "The advice implied: a side that plays only to catch the Ten, overlooking what "
                      "its hands could make in cards, scores less than one that plays for both.",
                      "side A-B's points per deal playing as the book advises minus playing only to catch the "
                      "Ten, the other side the same in both, 4 players in pairs, paired on the same deals.",
                      "holds when the whole 95% CI is above 0; fails when it is at or below 0.", _anxious,
                      SKILLS, line=0.0, unit="points per deal"),
          ), needs=("heuristic", "pimc", "heuristic.ten_only")),
    Claim("suit_round", "scotch", SOURCE, "Suggestions for good play",
          "In calculating the probabilities of saving the Ten by trumping in, it must be remembered that the "
          "greater the number of players, the less chance there is that a suit will go round more than once, "
          "because there are only nine cards of each suit in play.",
          "more players, less chance a suit goes round twice", (
              Reading("whole_pack", "With the whole pack in play at once (4 to 8 players; with 2 and 3 the pack "
                      "is played in separate hands, which the reason given does not cover), the chance that a "
                      "plain suit goes round twice never rises with more players, and falls over the range.",
                      "the share of deals in which some plain suit is followed by everyone twice in one set.",
                      "holds when no step to one more player shows a rise (p-values adjusted for the four steps) and 4 "
                      "players' share is above 8 players'; fails when a rise is shown.", _suit_round, SKILLS,
                      unit="share of deals, 4 players minus 8"),
          ), needs=("heuristic", "pimc")),
    Claim("two_rounds", "scotch", SOURCE, "Suggestions for good play",
          "With J A of trumps, or A K, it is best to lead two rounds immediately; but with a tenace, such as J K, "
          "or A Q it is better to place the lead on your left if possible.",
          "lead two trump rounds with J A / A K; with a tenace place the lead left", (
              Reading("two_rounds", "First half: holding J A or A K of trumps, leading two rounds at once gains.",
                      "the side's points in deals where seat 0 was dealt J A or A K of trumps, seat 0 following "
                      "the advice (two_rounds=1) or not (0), paired on the same deals.",
                      "holds when the whole CI of the gain is above 0; fails when it is at or below 0.",
                      _advice("two_rounds=1", "two_rounds=0", [{"J", "A"}, {"A", "K"}], {},
                              "leading two rounds of trumps at once or not"), SKILLS,
                      unit="points per deal"),
              Reading("tenace", "Second half: holding a tenace (J K without A, or A Q without K), placing the "
                      "lead on the left gains.",
                      "the same, in deals where seat 0 was dealt J K without A or A Q without K of trumps: seat 0, "
                      "while it holds the tenace, keeping off the lead (not winning tricks that carry no points, "
                      "not cashing winners) and placing it on the left (never overtaking a card of the "
                      "left-hand opponent's that is winning the trick; leading low in a plain suit whose top "
                      "card it lacks, first one the left-hand opponent has shown out of), against seat 0 doing "
                      "neither.", "as for the first half.",
                      _advice("tenace=1,place_left=1", "tenace=0", [{"J", "K"}, {"A", "Q"}],
                              {frozenset({"J", "K"}): "A", frozenset({"A", "Q"}): "K"},
                              "keeping off the lead and placing it on the left, or doing neither"), SKILLS,
                      unit="points per deal"),
          ), parts=True, needs=("heuristic", "pimc", "heuristic.place_left")),
    Claim("ten_to_partner", "scotch", SOURCE, "Suggestions for good play",
          "The partnership games offer many fine opportunities for playing the Ten into the partner's hand, "
          "especially when it is probable that he has the best trump, or a better trump than the player on the "
          "left.", "play the Ten into partner's hand", (
              Reading("four", "In the four-player partnership game, playing the Ten into partner's hand gains.",
                      "the side's points per deal, seat 0 doing so (ten_to_partner=1) or not, 4 players.",
                      "holds when the whole CI of the gain is above 0; fails when it is at or below 0.",
                      _ten_to_partner(4), SKILLS, unit="points per deal"),
              Reading("six", "In the six-player game of three pairs it gains too.",
                      "the same with 6 players, three pairs.", "as for four.", _ten_to_partner(6), SKILLS,
                      unit="points per deal"),
          ), differ="It depends on the size of the partnership game.", needs=("heuristic", "pimc")),
    Claim("count_high", "scotch", SOURCE, "Suggestions for good play",
          "Many players, in their anxiety to catch the Ten, overlook the possibilities of their hands in making "
          "cards, the count for which often runs into high figures.", "the count for cards often runs high", (
              Reading("quarter", "\"High\" is as much as the Ten is worth (10); \"often\" is one deal in four.",
                      "the share of deals in which some side scores 10 or more for cards, 4 players in pairs.",
                      "holds when the share is above 0.25 with its whole 95% CI; fails when it is all below.",
                      _count_high(0.25), SKILLS, unit="share of deals"),
              Reading("half", "\"Often\" is in most deals.", "the same share.",
                      "holds when it is above 0.5 with its whole CI; fails when it is all below.",
                      _count_high(0.5), SKILLS, line=0.5, unit="share of deals"),
          ), differ="It depends on how often \"often\" is.", needs=("heuristic", "pimc")),
    Claim("jack_taken", "scotch", SOURCE, "Objects of the game",
          "The Jack of trumps, being the best, must be taken in by the player to whom it is dealt; but any court "
          "card in trumps will win the Ten, so that one of the principal objects in Scotch Whist is to catch the "
          "ten.", "the Jack of trumps is always taken by its holder", (
              Reading("every_deal", "The Jack of trumps is won by the player it was dealt to, in every deal.",
                      "the share of deals in which the trick holding the Jack of trumps is won by the seat "
                      "that was dealt it, 4 players, revokes forbidden.",
                      "holds when it is every deal measured; fails when one deal is an exception.",
                      _event("jack_kept", 1.0), SKILLS, unit="share of deals"),
          ), needs=("heuristic", "pimc")),
    Claim("save_ten", "scotch", SOURCE, "Suggestions for good play",
          "It sometimes happens that a player with the Ten may be fourth hand on a suit of which he has none; or "
          "he may catch the Ten with a small honour if it is used in trumping in.",
          "the Ten is sometimes saved fourth hand, sometimes caught trumping in", (
              Reading("saved", "First part: sometimes the Ten's holder, last to play to a plain suit he lacks, "
                      "trumps in with the Ten and saves it (\"sometimes\": at least one deal in a hundred).",
                      "the share of deals in which the Ten of trumps is played last to a trick of a plain suit "
                      "and its side wins that trick; 4 players in pairs.",
                      "holds when the share is above 0.01 with its whole 95% CI; fails when it is all below.",
                      _event("saved", 0.01), SKILLS, unit="share of deals"),
              Reading("caught", "Second part: sometimes the Ten, used in trumping in, is caught by a small "
                      "honour (the Ace, King or Queen of trumps: the source's \"cards or small honours\" are the "
                      "honours below the Jack) played after it.",
                      "the share of deals in which the Ten of trumps is played to a plain-suit trick it did "
                      "not lead and a later Ace, King or Queen of trumps of the other side wins the trick.",
                      "as for the first part.", _event("caught_trumping", 0.01), SKILLS, line=0.01,
                      unit="share of deals"),
          ), parts=True, needs=("heuristic", "pimc")),
    Claim("no_gain_exchange", "scotch", SOURCE, "Laws",
          "Some players think there should be some regulation for penalties in such cases as that of a player "
          "taking up the wrong hand, when two or more are dealt to each player; but as no advantage can be gained "
          "by the exchange, it is hard to see what right the adversary would have to impose a penalty.",
          "no advantage from taking up the wrong hand", (
              Reading("blind", "A player who takes up the wrong hand by mistake gains nothing.",
                      "with two players, the elder hand's points per deal when it plays its second hand first "
                      "and its first hand second, minus as dealt; the same deals played out twice.",
                      "holds when the whole CI lies within ±0.5 points per deal; fails when it lies outside.",
                      _exchange("blind"), SKILLS, unit="points per deal"),
              Reading("chosen", "Even a player who looks at the hands and takes up the best one first gains "
                      "nothing.", "the same, the elder hand taking up first the hand with the most trumps.",
                      "as for the mistake.", _exchange("chosen"), SKILLS, line=0.0, unit="points per deal"),
          ), differ="It depends on whether the exchange is a mistake or a choice made after seeing the hands.",
          needs=("heuristic", "pimc")),
    Claim("count_out", "scotch", SOURCE, "Suggestions for good play",
          "A wants 4 points to win; B wants 10; and C wants 16. If A can see his way to win the game by cards or "
          "small honours, he should take the first opportunity of giving C the Ten [...] As the Ten counts "
          "first, cards and honours next, B may be shut out, even if he has the Jack.",
          "giving C the Ten shuts B out", (
              Reading("order", "Under the count-out order, A winning by cards beats B holding the Jack when C, "
                      "not B, takes the Ten.", "the winner of the example deal through the count-out order.",
                      "holds when A wins with the Ten given to C and B wins with it given to B. (This checks "
                      "the counting the advice rests on; no whistsim player plays the tactic itself.)",
                      _count_out, ("exact",), unit="A wins (1) or not (0)"),
          )),
]  # fmt: skip
# the value each claim's first reading compares its figure with, for the chart
CLAIMS = with_lines(
    CLAIMS,
    {
        "worked_hand": 30,
        "suit_round": 0.0,
        "two_rounds": 0.0,
        "ten_to_partner": 0.0,
        "count_high": 0.25,
        "jack_taken": 1.0,
        "save_ten": 0.01,
        "no_gain_exchange": 0.0,
        "count_out": 1.0,
    },
)
CLAIMS_BY_ID = {c.id: c for c in CLAIMS}

# Assertions of the source about play or balance that are not measured, and why.
NOT_MEASURED = [
    (SOURCE, "Suggestions for good play",
     "The high cards in the plain suits are capable of being very skilfully managed in this matter of placing "
     "the lead.", "",
     "No whistsim player manages its plain-suit high cards to place the lead in general; the tenace reading of "
     "two_rounds measures placing the lead on the left while holding a trump tenace."),
    (SOURCE, "Methods of cheating",
     "When only one pack is used, the greek can often succeed in dealing himself the Jack of trumps", "",
     "Sleights of the deal are outside the model: every deck is shuffled by the random stream."),
    (SOURCE, "Illustrative Scotch Whist hand",
     "Trick 1. Y plays King second hand, hoping it will be taken by the Ace, so that he may become third or "
     "fourth player, and perhaps save his Ten.", "",
     "The commentary explains the players' reasons in one hand; the hand's score is checked (worked_hand) and "
     "saving the Ten by trumping in is measured (save_ten)."),
]  # fmt: skip
