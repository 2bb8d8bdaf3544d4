"""Scotch Whist's claims: Catch the Ten (docs/sources.md), quoted, read and measured."""

from __future__ import annotations

import math

import numpy as np

from ..games import get_game
from . import (
    FAILS,
    HOLDS,
    UNDECIDED,
    Claim,
    ClaimRun,
    Figure,
    Outcome,
    Reading,
    above,
    fmt_figure,
    holm,
    with_lines,
    within,
)
from .tricks import ten_events

SOURCE = "Catch the Ten"
PIMC = "pimc:worlds=4"
SKILLS = ("heuristic", "pimc")

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
    # pimc is quick at single deals of Scotch Whist: half the deals of the rule-based players
    n = ctx.n if skill == "heuristic" else max(ctx.games(skill), ctx.n // 2)
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
        + f"; one deal per game, {_player(skill)} players, seed {ctx.seed}. Shown: 4 players minus 8 "
        "(a difference of Wilson intervals, conservative).")  # fmt: skip
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


def _advice(param: str, want: list[set[str]], without: dict[frozenset, str]):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        opp = _player(skill)
        on = _deals(ctx, skill, strategies=[f"heuristic:{param}=1", opp, opp, opp], records=1)
        off = _deals(ctx, skill, strategies=[f"heuristic:{param}=0", opp, opp, opp])
        mask = np.array([_holding(r, want, without) for r in on.records])
        d = on.batch.side["points"][:, 0].astype(float) - off.batch.side["points"][:, 0]
        f = Figure.of(d[mask])
        return Outcome(f, above(f, 0.0), f"{int(mask.sum()):,} of {len(mask):,} deals gave seat 0 the holding; "
                       f"seat 0 heuristic with {param} on or off, the others {opp}, 4 players in pairs, the "
                       f"same deals, seed {ctx.seed}.")  # fmt: skip

    return run


def _ten_to_partner(players: int):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        opp = _player(skill)
        on = _deals(ctx, skill, players, strategies=["heuristic:ten_to_partner=1"] + [opp] * (players - 1))
        off = _deals(ctx, skill, players, strategies=["heuristic:ten_to_partner=0"] + [opp] * (players - 1))
        d = on.batch.side["points"][:, 0].astype(float) - off.batch.side["points"][:, 0]
        f = Figure.of(d)
        return Outcome(f, above(f, 0.0), f"seat 0 heuristic with ten_to_partner on or off, the others {opp}, "
                       f"{players} players in pairs, the same deals, seed {ctx.seed}.")  # fmt: skip

    return run


def _count_high(share: float):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        b = _deals(ctx, skill).batch
        hi = b.side["cards"].max(1) >= 10
        f = Figure.share(int(hi.sum()), len(hi))
        return Outcome(f, above(f, share), f"4 players in pairs, {_player(skill)} players, one deal per game, "
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
        return Outcome(f, v, f"4 players in pairs, {_player(skill)} players, one deal per game, each deal "
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
        return Outcome(f, within(f, -0.5, 0.5), f"2 players, {_player(skill)} both, one deal per game; seat 0's "
                       f"hands exchanged in {changed:,} of {n:,} deals; seat 0's points per deal with the exchange "
                       f"minus as dealt, the same deals and random streams, seed {ctx.seed}.")  # fmt: skip

    return run


# ---- counting out ------------------------------------------------------------------------------------


def _count_out(ctx: ClaimRun, skill: str) -> Outcome:
    """The source's example, through the engine's count-out: A (seat 0) wants 4, B 10, C 16 of 41; the deal
    gives A 4 by cards and B the Jack (11); the Ten goes to C, or to B."""
    from ..games.dealt.engine import P_CARDS, P_JACK, P_TEN
    from ..games.dealt.play import _count_out as count_out
    from ..games.dealt.play import new_state

    rules = get_game("scotch").make_rules("scotch", 3, {})

    def winner(ten_to: int) -> int:
        buf = new_state(rules)
        g = buf[0]
        g["core"]["table"]["score"][:3] = [37, 31, 25]
        ten = [0, 0, 0]
        ten[ten_to] = 10
        for row, pts in ((P_CARDS, [4, 0, 0]), (P_JACK, [0, 11, 0]), (P_TEN, ten)):
            g["core"]["result"][row][:3] = pts
        return int(count_out(buf[0], 2))

    to_c, to_b = winner(2), winner(1)
    ok = to_c == 0 and to_b == 1
    return Outcome(Figure.exactly(float(to_c == 0)), HOLDS if ok else FAILS,
                   f"three players each for himself, dealer C: with the Ten given to C the winner is seat "
                   f"{to_c} (A); given to B, seat {to_b} (B). Exact, through the engine's count-out.")  # fmt: skip


CLAIMS = [
    Claim("worked_hand", "scotch", SOURCE, "Illustrative Scotch Whist hand",
          "A-B win 30 by honours.\nY-Z win 2 by cards.", "the illustrative hand's score", (
              Reading("replay", "The hand, played as the table shows, scores as stated.",
                      "honours and cards of each side when the hand is replayed move by move.",
                      "holds when A-B have 30 by honours and Y-Z 2 by cards, exactly.", _worked, ("exact",)),
          )),
    Claim("suit_round", "scotch", SOURCE, "Suggestions for good play",
          "In calculating the probabilities of saving the Ten by trumping in, it must be remembered that the "
          "greater the number of players, the less chance there is that a suit will go round more than once, "
          "because there are only nine cards of each suit in play.",
          "more players, less chance a suit goes round twice", (
              Reading("whole_pack", "With the whole pack in play at once (4 to 8 players; with 2 and 3 the pack "
                      "is played in separate hands, which the reason given does not cover), the chance that a "
                      "plain suit goes round twice never rises with more players, and falls over the range.",
                      "the share of deals in which some plain suit is followed by everyone twice in one set.",
                      "holds when no step to one more player shows a rise (Holm over the four steps) and 4 "
                      "players' share is above 8 players'; fails when a rise is shown.", _suit_round, SKILLS),
          ), needs=("heuristic", "pimc")),
    Claim("two_rounds", "scotch", SOURCE, "Suggestions for good play",
          "With J A of trumps, or A K, it is best to lead two rounds immediately; but with a tenace, such as J K, "
          "or A Q it is better to place the lead on your left if possible.",
          "lead two trump rounds with J A / A K; with a tenace place the lead left", (
              Reading("two_rounds", "First half: holding J A or A K of trumps, leading two rounds at once gains.",
                      "the side's points in deals where seat 0 was dealt J A or A K of trumps, seat 0 following "
                      "the advice (two_rounds=1) or not (0), paired on the same deals.",
                      "holds when the whole CI of the gain is above 0; fails when it is at or below 0.",
                      _advice("two_rounds", [{"J", "A"}, {"A", "K"}], {}), SKILLS),
              Reading("tenace", "Second half: holding a tenace (J K without A, or A Q without K), keeping off "
                      "the lead to place it on the left gains.",
                      "the same, in deals where seat 0 held J K without A or A Q without K, tenace=1 or 0.",
                      "as for the first half.",
                      _advice("tenace", [{"J", "K"}, {"A", "Q"}], {frozenset({"J", "K"}): "A",
                                                                   frozenset({"A", "Q"}): "K"}), SKILLS),
          ), parts=True, needs=("heuristic", "pimc")),
    Claim("ten_to_partner", "scotch", SOURCE, "Suggestions for good play",
          "The partnership games offer many fine opportunities for playing the Ten into the partner's hand, "
          "especially when it is probable that he has the best trump, or a better trump than the player on the "
          "left.", "play the Ten into partner's hand", (
              Reading("four", "In the four-player partnership game, playing the Ten into partner's hand gains.",
                      "the side's points per deal, seat 0 doing so (ten_to_partner=1) or not, 4 players.",
                      "holds when the whole CI of the gain is above 0; fails when it is at or below 0.",
                      _ten_to_partner(4), SKILLS),
              Reading("six", "In the six-player game of three pairs it gains too.",
                      "the same with 6 players, three pairs.", "as for four.", _ten_to_partner(6), SKILLS),
          ), differ="It depends on the size of the partnership game.", needs=("heuristic", "pimc")),
    Claim("count_high", "scotch", SOURCE, "Suggestions for good play",
          "Many players, in their anxiety to catch the Ten, overlook the possibilities of their hands in making "
          "cards, the count for which often runs into high figures.", "the count for cards often runs high", (
              Reading("quarter", "\"High\" is as much as the Ten is worth (10); \"often\" is one deal in four.",
                      "the share of deals in which some side scores 10 or more for cards, 4 players in pairs.",
                      "holds when the share is above 0.25 with its whole Wilson CI; fails when it is all below.",
                      _count_high(0.25), SKILLS),
              Reading("half", "\"Often\" is in most deals.", "the same share.",
                      "holds when it is above 0.5 with its whole CI; fails when it is all below.",
                      _count_high(0.5), SKILLS),
          ), differ="It depends on how often \"often\" is.", needs=("heuristic", "pimc")),
    Claim("jack_taken", "scotch", SOURCE, "Objects of the game",
          "The Jack of trumps, being the best, must be taken in by the player to whom it is dealt; but any court "
          "card in trumps will win the Ten, so that one of the principal objects in Scotch Whist is to catch the "
          "ten.", "the Jack of trumps is always taken by its holder", (
              Reading("every_deal", "The Jack of trumps is won by the player it was dealt to, in every deal.",
                      "the share of deals in which the trick holding the Jack of trumps is won by the seat "
                      "that was dealt it, 4 players, revokes forbidden.",
                      "holds when it is every deal measured; fails when one deal is an exception.",
                      _event("jack_kept", 1.0), SKILLS),
          ), needs=("heuristic", "pimc")),
    Claim("save_ten", "scotch", SOURCE, "Suggestions for good play",
          "It sometimes happens that a player with the Ten may be fourth hand on a suit of which he has none; or "
          "he may catch the Ten with a small honour if it is used in trumping in.",
          "the Ten is sometimes saved fourth hand, sometimes caught trumping in", (
              Reading("saved", "First part: sometimes the Ten's holder, last to play to a plain suit he lacks, "
                      "trumps in with the Ten and saves it (\"sometimes\": at least one deal in a hundred).",
                      "the share of deals in which the Ten of trumps is played last to a trick of a plain suit "
                      "and its side wins that trick; 4 players in pairs.",
                      "holds when the share is above 0.01 with its whole Wilson CI; fails when it is all below.",
                      _event("saved", 0.01), SKILLS),
              Reading("caught", "Second part: sometimes the Ten, used in trumping in, is caught by a small "
                      "honour (King or Queen of trumps) played after it.",
                      "the share of deals in which the Ten of trumps is played to a plain-suit trick it did "
                      "not lead and a later King or Queen of trumps of the other side wins the trick.",
                      "as for the first part.", _event("caught_trumping", 0.01), SKILLS),
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
                      _exchange("blind"), SKILLS),
              Reading("chosen", "Even a player who looks at the hands and takes up the best one first gains "
                      "nothing.", "the same, the elder hand taking up first the hand with the most trumps.",
                      "as for the mistake.", _exchange("chosen"), SKILLS),
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
                      _count_out, ("exact",)),
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
     "No whistsim player manages plain-suit high cards to place the lead as a separate, switchable skill; the "
     "tenace reading of two_rounds measures placing the lead with trumps."),
    (SOURCE, "Methods of cheating",
     "When only one pack is used, the greek can often succeed in dealing himself the Jack of trumps", "",
     "Sleights of the deal are outside the model: every deck is shuffled by the random stream."),
    (SOURCE, "Illustrative Scotch Whist hand",
     "Trick 1. Y plays King second hand, hoping it will be taken by the Ace, so that he may become third or "
     "fourth player, and perhaps save his Ten.", "",
     "The commentary explains the players' reasons in one hand; the hand's score is checked (worked_hand) and "
     "saving the Ten by trumping in is measured (save_ten)."),
]  # fmt: skip
