"""Welsh Whist's claims: Parlett and Akagiri 1995 (docs/sources.md), quoted, read and measured."""

from __future__ import annotations

import math

import numpy as np

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
    below,
    family,
    fmt,
    fmt_figure,
    holm,
    with_lines,
    within,
)
from .tricks import high_lead_catches

PIMC = "pimc:budget=8"  # the search player at a budget the claims can afford (play-outs per decision)
SKILLS = ("greedy", "pimc")
LITTLE = 0.05  # "little": under 5% of a fair share of the points


def _player(skill: str) -> str:
    return PIMC if skill == "pimc" else skill


def _points(ctx: ClaimRun, skill: str, n: int | None = None, *, preset="parlett", players=3, rules=None,
            strategies=None):  # fmt: skip
    sim = ctx.simulate("welsh", n or ctx.games(skill), preset=preset, players=players, rules=rules or {},
                       strategies=strategies or [_player(skill)])  # fmt: skip
    return sim.batch


# ---- totals -----------------------------------------------------------------------------------------


def _total(preset: str, scoring: str, expected: float):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        b = _points(ctx, skill, preset=preset, rules={"scoring": scoring})
        f = Figure.of(b.seat["points"].sum(1))
        return Outcome(f, within(f, expected - 0.5, expected + 0.5),
                       f"3 players, {preset} preset, {scoring} scoring, seed {ctx.seed}.")  # fmt: skip

    return run


def _total_reading(preset: str, scoring: str, expected: float, stock: str, why: str = "") -> Reading:
    return Reading(
        "total", f"The points of all players together come to {fmt(expected)} in every game.",
        f"the sum of every player's points per game; 3 players, {stock}, {scoring} scoring.{why}",
        f"holds when the sum is {fmt(expected)} in every game (the 95% CI within ±0.5 of it).",
        _total(preset, scoring, expected), ("random", "greedy"),
    )  # fmt: skip


# ---- the simpler pile scoring ---------------------------------------------------------------------


def _tops(points: np.ndarray) -> np.ndarray:
    return points == points.max(1, keepdims=True)


def pile_points(won: np.ndarray, tt: np.ndarray) -> np.ndarray:
    """Parlett's simpler scoring of played games: per game, the piles' heights ranked from the smallest
    (equal piles share a multiplier, the next larger takes the next: docs/rules.md) times Tens and Taffies."""
    out = np.zeros_like(tt)
    for i in range(won.shape[0]):
        heights = np.unique(won[i])
        out[i] = (np.searchsorted(heights, won[i]) + 1) * tt[i]
    return out


def _piles(kind: str):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        # the same played games scored both ways (a searching player would play differently under piles)
        b = _points(ctx, skill, rules={"scoring": "standard"})
        std = b.seat["points"]
        pil = pile_points(b.seat["cards_won"], b.seat["tens"] + b.seat["taffies"])
        if kind == "winner":
            same = np.all(_tops(std) == _tops(pil), axis=1)
            f = Figure.share(int(same.sum()), len(same))
        else:
            p = std.shape[1]
            agree = []
            for i in range(p):
                for j in range(i + 1, p):
                    agree.append(np.sign(std[:, i] - std[:, j]) == np.sign(pil[:, i] - pil[:, j]))
            f = Figure.of(np.mean(agree, axis=0))
        return Outcome(
            f,
            above(f, 0.8),
            f"the same played games scored both ways; {_player(skill)} players, seed {ctx.seed}.",
        )

    return run


# ---- three players is best ------------------------------------------------------------------------

MORE = (4, 5, 6)


def edge(points: np.ndarray) -> np.ndarray:
    """Per game, seat 0's points minus the others' mean, over a fair share (the points over the players)."""
    pts = points.astype(float)
    return (pts[:, 0] - pts[:, 1:].mean(1)) / (pts.sum(1) / pts.shape[1])


def closeness(points: np.ndarray) -> np.ndarray:
    """Per game, the winning margin (top score minus the second) over a fair share."""
    pts = np.sort(points.astype(float), axis=1)
    return (pts[:, -1] - pts[:, -2]) / (pts.sum(1) / pts.shape[1])


def _three(kind: str):
    """3 players against 4, 5 and 6 (Akagiri's packs), each comparison on its own deals (different player
    counts cannot share deals); Holm over the three comparisons."""

    def per_game(ctx: ClaimRun, skill: str, p: int) -> np.ndarray:
        if kind == "skill":
            strong = PIMC if skill == "pimc" else skill  # the stronger player, among greedy ones
            b = _points(ctx, skill, preset="akagiri", players=p, strategies=[strong] + ["greedy"] * (p - 1),
                        rules={})  # fmt: skip
            return edge(b.seat["points"])
        b = _points(ctx, skill, preset="akagiri", players=p)
        if kind == "close":
            return closeness(b.seat["points"])
        return b.game["moves"].astype(float)

    def run(ctx: ClaimRun, skill: str) -> Outcome:
        three = Figure.of(per_game(ctx, skill, 3))
        better_is_higher = kind == "skill"
        diffs, pos, neg = [], [], []
        for p in MORE:
            other = Figure.of(per_game(ctx, skill, p))
            d = three.mean - other.mean
            se = float(np.hypot(three.se, other.se))
            diffs.append((p, Figure(d, d - 1.96 * se, d + 1.96 * se, min(three.n, other.n)), other))
            good = d if better_is_higher else -d
            pz = 0.5 * math.erfc(good / se / math.sqrt(2)) if se > 0 else (0.0 if good > 0 else 1.0)
            pos.append(pz)
            neg.append(1 - pz if se > 0 else (0.0 if good < 0 else 1.0))
        v = family(pos, neg)
        worst = min(diffs, key=lambda t: t[1].mean if better_is_higher else -t[1].mean)
        detail = (f"three players: {fmt_figure(three)}; " + "; ".join(f"{p}: {fmt_figure(o)}" for p, _, o in diffs)
                  + f"; Holm-adjusted p for 3 better than each: {', '.join(fmt(x) for x in holm(pos))}. "
                  f"Shown: 3 minus {worst[0]} players, the closest rival.")  # fmt: skip
        return Outcome(worst[1], v, detail)

    return run


# ---- leading high while the stock lasts -----------------------------------------------------------


def _catches(ctx: ClaimRun, skill: str) -> list[list[list[int]]]:
    n = ctx.followed(ctx.games(skill), 4000)  # records are followed in Python: a few thousand are plenty
    sim = ctx.simulate("welsh", n, records=n, preset="akagiri", players=3, rules={},
                       strategies=["hunter", _player(skill), _player(skill)])  # fmt: skip
    return [high_lead_catches(r, 0) for r in sim.records]


def _sometimes(unit: str):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        games = _catches(ctx, skill)
        if unit == "game":
            counts = np.array([sum(sum(r) for r in g) for g in games if g])
        else:
            counts = np.array([sum(r) for g in games for r in g])
        k = len(counts)
        miss = Figure.share(int((counts == 0).sum()), k)
        well = Figure.share(int((counts >= 2).sum()), k)
        v = (
            HOLDS
            if miss.low >= 0.05 and well.low >= 0.05
            else FAILS
            if min(miss.high, well.high) < 0.05
            else UNDECIDED
        )
        dist = (
            ", ".join(f"{c}: {fmt(100 * np.mean(counts == c))}%" for c in range(3))
            + f", 3+: {fmt(100 * np.mean(counts >= 3))}%"
        )
        mean = Figure.of(counts)
        detail = (f"{k:,} {unit}s with high leads in {len(games):,} games (akagiri, 3 players: a hunter against "
                  f"two {_player(skill)} players, seed {ctx.seed}); catches per {unit}: mean {fmt_figure(mean)}; "
                  f"distribution {dist}; none caught: {fmt_figure(miss)}; two or more: {fmt_figure(well)} (shown).")  # fmt: skip
        return Outcome(well, v, detail)

    return run


def _lead_gain(ctx: ClaimRun, skill: str) -> tuple[Figure, float]:
    opp = _player(skill)
    a = _points(ctx, skill, preset="akagiri", strategies=["hunter", opp, opp])
    b = _points(ctx, skill, preset="akagiri", strategies=["hoarder", opp, opp])
    d = a.seat["points"][:, 0].astype(float) - b.seat["points"][:, 0]
    return Figure.of(d), 216 / 3


def _little(kind: str):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        f, fair = _lead_gain(ctx, skill)
        m = LITTLE * fair
        v = below(f, m) if kind == "gain" else within(f, -m, m)
        return Outcome(f, v, f"little: {fmt(m)} points (5% of a fair share of {fmt(fair)}); paired on the same "
                             f"deals, seat 0 leading high (hunter) or drawing (hoarder) against two "
                             f"{_player(skill)} players, seed {ctx.seed}.")  # fmt: skip

    return run


# ---- cheating ----------------------------------------------------------------------------------------

RATES = ["0.1", "0.25", "0.5", "1", "smart"]
POLICIES = RATES + [
    f"policy,cheat_hand={h},cheat_stake={s},cheat_weigh={k}"
    for h in (2, 4, 8, 99) for s in (1, 10) for k in (0, 0.1, 0.3)
]  # fmt: skip
CHALLENGERS = [
    "never",
    "always",
    "0.5",
    "smart",
]  # smart counts the unseen cards and tracks exposed false passes
SKILLS_CHEAT = ("greedy", "counter")


def _cheat_gain(ctx: ClaimRun, skill: str, rule: str, policy: str, challenger: str, what: str) -> Figure:
    rules = {"revokes": True, "challenge": rule}
    ch = f",challenge={challenger}" if rule != "none" else ""
    honest = f"{skill}:cheat=0{ch}"
    cheat = _points(ctx, skill, rules=rules, strategies=[f"{skill}:cheat={policy}{ch}", honest, honest])
    base = _points(ctx, skill, rules=rules, strategies=[honest])
    if what == "points":
        return Figure.of(cheat.seat["points"][:, 0].astype(float) - base.seat["points"][:, 0])
    return Figure.of(_tops(cheat.seat["points"])[:, 0].astype(float) - _tops(base.seat["points"])[:, 0])


def _p_gain(f: Figure, x0: float = 0.0) -> float:
    return f.p_above(x0)


def _easy(kind: str):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        pols = POLICIES if kind == "some" else RATES
        gains = [_cheat_gain(ctx, skill, "none", p, "", "points") for p in pols]
        best = max(range(len(gains)), key=lambda i: gains[i].mean)
        if kind == "some":
            wide_all = [g.family_wide(len(pols)) for g in gains]
            shown = any(w.low > 0 for w in wide_all)
            v = HOLDS if shown else FAILS if all(w.high <= 0 for w in wide_all) else UNDECIDED
        else:
            v = family([_p_gain(g) for g in gains], [g.p_below(0) for g in gains])
        wide = gains[best].family_wide(len(pols))
        detail = (f"{len(pols)} cheat policies for one {skill} player against two honest ones, no challenge "
                  f"rule, paired against the same seat playing honestly, seed {ctx.seed}; "
                  + ("Bonferroni" if kind == "some" else "Holm")
                  + f" over the family. Best: cheat={pols[best]}, {fmt_figure(gains[best])}; shown with its "
                  f"interval widened for the best of {len(pols)} (Bonferroni): {fmt_figure(wide)}; least: "
                  f"{fmt(min(g.mean for g in gains))} points per game.")  # fmt: skip
        return Outcome(wide, v, detail)

    return run


def _cures(what: str, delta: float):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        per = []
        for c in CHALLENGERS:
            gains = [_cheat_gain(ctx, skill, "parlett", p, c, what) for p in POLICIES]
            # every policy's interval widened for the family (Bonferroni): the intervals shown decide
            widened = [g.family_wide(len(POLICIES)) for g in gains]
            shown_gain = any(w.low > 0 for w in widened)
            shown_none = all(w.high < delta for w in widened)
            best = max(range(len(gains)), key=lambda i: gains[i].mean)
            wide = widened[best]
            # a gain shown is never "cured", whatever the margin
            v = FAILS if shown_gain else HOLDS if shown_none else UNDECIDED
            per.append((c, wide, POLICIES[best], v))
        vs = [x[3] for x in per]
        v = HOLDS if HOLDS in vs else FAILS if all(x == FAILS for x in vs) else UNDECIDED
        c, g, p, _ = min(per, key=lambda x: x[1].mean)
        unit = "points per game" if what == "points" else "share of games with the top score"
        detail = (f"the cheater's best response over {len(POLICIES)} policies (rates, smart, and policy "
                  f"grids over hand size, what following would hand over, and the hand a catch costs), one "
                  f"{skill} cheater against two honest {skill} players who all challenge "
                  f"{', '.join(CHALLENGERS)}; paired against the same seat playing honestly, seed {ctx.seed}; "
                  f"Bonferroni over the policies for each challenger. Best remaining gain ({unit}; its interval "
                  f"widened for the best of {len(POLICIES)}, Bonferroni) per challenger: "
                  + "; ".join(f"{c2}: cheat={p2}, {fmt_figure(g2)} ({v2})" for c2, g2, p2, v2 in per)
                  + f". Shown: against {c} challengers, the most deterring.")  # fmt: skip
        return Outcome(g, v, detail)

    return run


# ---- the claims --------------------------------------------------------------------------------------

PARLETT = "Parlett"
AKAGIRI = "Akagiri 1995"

CLAIMS = [
    Claim("total_216", "welsh", PARLETT, "Scoring",
          "The total number of points distributed among the players will be 216 if there were four Taffies in play.",
          "216 points in all with four Taffies",
          (_total_reading("parlett", "standard", 216, "two packs and four Taffies"),)),
    Claim("total_216_akagiri", "welsh", AKAGIRI, "<得点> (scoring)", "２組のカードを使うときには全部で２１６点となります。",
          "216 points in all with two packs",
          (_total_reading("akagiri", "standard", 216, "two packs with two jokers each"),),
          translation="When two packs are used, the total is 216 points."),
    Claim("total_178_five_penalty", "welsh", PARLETT, "Optional extra",
          "If you don't mind a lot of counting, deduct 5 points for each Five taken in tricks, instead of counting "
          "1 point. This reduces the overall total to 178 (assuming four Taffies).",
          "five-penalty makes the total 178",
          (_total_reading("parlett", "five_penalty", 178, "two packs and four Taffies",
                          " (Two packs hold eight Fives, each -5 instead of 1: 216 - 8 x 6 = 168; no count of "
                          "the packs the text allows gives 178.)"),)),
    Claim("piles_simpler", "welsh", PARLETT, "Simpler scoring",
          "If you do mind a lot of counting you can do it this way instead: Players stack their won cards neatly "
          "and compare the heights of their piles. Whoever has the smallest pile scores one point for each Ten "
          "and Taffy captured. [...]",
          "pile scoring stands in for the normal count", (
              Reading("winner", "The simpler scoring can replace the count because it names the same winner.",
                      "the share of games whose top scorers are the same under pile scoring and the normal "
                      "count, the same played games scored both ways; 3 players, Parlett's stock.",
                      "holds when the share is above 0.8 (4 games in 5) with its whole CI.", _piles("winner"),
                      SKILLS),
              Reading("order", "The simpler scoring can replace the count because it orders the players the same.",
                      "per game, the share of pairs of players that the two scorings order the same way "
                      "(ties agree only with ties), averaged over games; 3 players.",
                      "holds when the mean is above 0.8 with its whole CI.", _piles("order"), SKILLS),
          ), differ="It depends on whether a stand-in must name the winner or order every player."),
    Claim("three_best", "welsh", AKAGIRI, "<プレイヤー> (players)", "３人がベストですが，それ以上の人数でもプレイできます。",
          "three players is best", (
              Reading("skill", "Three is best because skill shows most with three.",
                      "a stronger player's edge over the other players, in points over a fair share: a counter "
                      "(or pimc) in seat 0 among greedy players, akagiri preset, turn order rotating.",
                      "holds when the edge at 3 exceeds the edge at each of 4, 5 and 6 players (Holm over the "
                      "three comparisons; unpaired, different player counts deal different packs); fails when "
                      "one is shown larger.", _three("skill"), ("counter", "pimc")),
              Reading("close", "Three is best because games are closest with three.",
                      "the winning margin (top score minus second) over a fair share, all players of one "
                      "strength, akagiri preset.",
                      "holds when the margin at 3 is below that at each of 4, 5 and 6 (Holm over three); fails "
                      "when one is shown smaller.", _three("close"), SKILLS),
              Reading("length", "Three is best because games with three take least time at the table.",
                      "decisions per game (draws, leads, answers), all players of one strength, akagiri preset.",
                      "holds when the count at 3 is below that at each of 4, 5 and 6 (Holm over three); fails "
                      "when one is shown smaller.", _three("length"), SKILLS),
          ), translation="Three is best, but more players can play.",
          differ="It depends on what makes a game best: how much skill shows, how close games are, or how long "
                 "they last each give their own verdict.", needs=("counter", "greedy", "pimc")),
    Claim("leading_catches", "welsh", AKAGIRI, "the introduction, before the rules",
          "私のグループでは，まだ山札のあるうちに，上位のカードを続けて出して，敵の１０やジョーカーを取ろうというプレイが時々あり，"
          "まったく空振りのこともあるけれど，かなりの成功をおさめることもあるという状況でした。",
          "leading high while the stock lasts sometimes misses, sometimes catches well", (
              Reading("per_game", "Over a game, such leads sometimes catch nothing at all and sometimes catch well.",
                      "in games where seat 0 (a hunter: leads Jack or better while the stock lasts) made such "
                      "leads, the Tens and jokers others played to them when they won; akagiri, 3 players.",
                      "holds when both the share of games catching none and the share catching two or more "
                      "are at least 5% (\"sometimes\": one game in twenty) with their whole Wilson CIs; fails "
                      "when either is shown below 5%.", _sometimes("game"), SKILLS),
              Reading("per_run", "Each run of successive high leads sometimes misses entirely and sometimes "
                      "succeeds well.", "the same catches counted per run of successive high leads (a draw by "
                      "seat 0 ends a run).", "as per game, with runs in place of games.", _sometimes("run"),
                      SKILLS),
          ), translation="In my group, while the stock remained, there were sometimes plays of leading high cards "
                         "one after another to take opponents' Tens and jokers; sometimes they missed entirely, "
                         "but sometimes they succeeded quite well.",
          differ="It depends on whether a game or a single run of leads is the unit of success.",
          needs=("hunter", "greedy", "pimc")),
    Claim("little_advantage", "welsh", AKAGIRI, "the introduction (reporting Hōyoku's view)",
          "鳳翼さんはリードをする利点があまりないと書いていらっしゃいますが",
          "there is little advantage in leading", (
              Reading("gain", "Leading gains little: a loss is no advantage.",
                      "seat 0's points per game leading high while the stock lasts (hunter) minus drawing "
                      "instead (hoarder), paired on the same deals; akagiri, 3 players, turn order rotating.",
                      "holds when the whole CI is below 5% of a fair share (3.6 points); fails when it is all "
                      "above.", _little("gain"), SKILLS),
              Reading("either_way", "Leading makes little difference either way.",
                      "the same paired difference.",
                      "holds when the whole CI lies within ±5% of a fair share; fails when it lies outside.",
                      _little("either_way"), SKILLS),
          ), translation="Hōyoku writes that there is not much advantage in leading.",
          differ="It depends on whether a large loss counts as \"little advantage\": it is no advantage, but "
                 "it is not a small difference.", needs=("hunter", "hoarder", "greedy", "pimc")),
    Claim("easy_to_cheat", "welsh", PARLETT, "Cheating",
          "The trouble with this game is that it is easy to cheat by claiming you can't follow suit when you can.",
          "it is easy to cheat by false passes", (
              Reading("some", "Some way of passing falsely pays, when nothing polices it.",
                      "one player's points per game with false passes minus the same seat honest, paired; "
                      "revokes allowed, no challenge rule, 3 players, Parlett's stock.",
                      "holds when some policy gains with its interval widened for the family of 29 "
                      "(Bonferroni, the max-over-family correction); fails when every widened interval is at or "
                      "below 0.", _easy("some"), SKILLS_CHEAT),
              Reading("crude", "Even crude cheating pays (that is what makes it easy).",
                      "the same gain for the crude policies: false passes at a fixed rate (0.1 to 1) and "
                      "passing whenever following would hand over a Ten or a Taffy.",
                      "holds when every crude policy gains (Holm over the five); fails when one is shown to lose.",
                      _easy("crude"), SKILLS_CHEAT),
          ), differ="It depends on whether \"easy\" means that some cheat pays or that any crude one does.",
          needs=("greedy", "counter")),
    Claim("parlett_cures", "welsh", PARLETT, "Cheating",
          "I regard unpoliceable cheating as a flaw in any game, and therefore offer the following (geddit?) rule: "
          "If anyone passes when you lead to a trick you may challenge them to prove their honesty.",
          "the challenge rule polices cheating", (
              Reading("points", "The rule polices cheating: challengers can play so that no way of cheating pays.",
                      "the cheater's best-response gain in points per game over a family of 29 cheat policies "
                      "(aware of hand size, of what following would hand over, of the hand a catch costs), "
                      "against honest players who challenge never, always, half the time, or smart (counting the "
                      "unseen cards and tracking false passes already exposed); revokes allowed, "
                      "challenge=parlett, paired against the same seat honest.",
                      "against a challenger policy, cheating is cured when no cheat policy's gain is shown "
                      "above 0 and every one is shown below 1 point per game (1.4% of a fair share), each "
                      "policy's 95% interval widened for the family of 29 (Bonferroni, 1 - 0.05/29); the claim "
                      "holds when it is cured against some challenger policy and fails when against every one "
                      "some cheat policy is shown to gain. The best remaining gain is shown with its widened "
                      "interval.", _cures("points", 1.0), SKILLS_CHEAT),
              Reading("wins", "The rule polices cheating: no way of cheating wins more games.",
                      "the same best response, counted in the share of games the cheater ends with the top "
                      "score.", "as for points, with a margin of 0.01 (one game in a hundred).",
                      _cures("wins", 0.01), SKILLS_CHEAT),
          ), differ="It depends on whether cheating pays in points or in games won.", needs=("greedy", "counter")),
]  # fmt: skip
# the value each claim's first reading compares its figure with, for the chart
CLAIMS = with_lines(
    CLAIMS,
    {
        "total_216": 216,
        "total_216_akagiri": 216,
        "total_178_five_penalty": 178,
        "piles_simpler": 0.8,
        "three_best": 0.0,
        "leading_catches": 0.05,
        "little_advantage": 3.6,
        "easy_to_cheat": 0.0,
        "parlett_cures": 0.0,
    },
)
CLAIMS_BY_ID = {c.id: c for c in CLAIMS}

# Assertions of the sources about play or balance that are not measured, and why.
NOT_MEASURED = [
    (AKAGIRI, "<オプショナル・ルール> (optional rule)",
     "フォローできるカードがあるのにパスをすること，すなわち「リボーク」，が許されるというルールです。",
     "A rule under which passing when you could follow (a revoke) is allowed.",
     "A rule, not a claim: the text says what the optional rule allows and how its challenge works, and nothing "
     "about what it does to cheating or to the game. whistsim plays it (--rule revokes=true --rule "
     "challenge=akagiri); results/cheating measures cheating under it."),
    (PARLETT, "Play",
     "The fact you don't all have the same number of cards in your hands at any given time doesn't matter. On "
     "the contrary, it adds to the fun.", "",
     "Fun is not something a simulation measures."),
    (AKAGIRI, "the introduction",
     "傑作かどうかはもうすこしプレイしなければ分かりませんが，結構普通に楽しめるゲームという印象です。",
     "Whether it is a masterpiece I cannot tell without playing more, but my impression is of a game that is "
     "quite enjoyable.", "A judgement of enjoyment."),
    (AKAGIRI, "the introduction",
     "私自身もジョーカーを３枚ほどこのようにして取られたことがあり，逆に２枚ほど続けて取ったこともあります。",
     "I myself have had about three jokers taken this way, and have also taken about two in a row.",
     "A report of his own games; how often such leads catch one, two or more is measured under "
     "leading_catches."),
]  # fmt: skip
