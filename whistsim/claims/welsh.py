"""Welsh Whist's claims: Parlett and Akagiri 1995 (docs/sources.md), quoted, read and measured."""

from __future__ import annotations

import math

import numpy as np

from ..core.stats import holm
from .model import (
    FAILS,
    HOLDS,
    NOT_A_CLAIM,
    UNDECIDED,
    Claim,
    Figure,
    Outcome,
    Reading,
    family,
    fmt,
    fmt_figure,
    plain,
    with_lines,
    with_units,
    within,
)
from .run import ClaimRun
from .tricks import high_lead_catches

SEARCH = "pimc2"  # the strongest Welsh Whist player at its default settings
SKILLS = ("greedy", SEARCH)
LITTLE = 0.05  # "little": under 5% of a fair share of the points
FAIR = 216 / 3  # a fair share of the points, 3 players with two packs


def _player(skill: str) -> str:
    return skill


def _points(ctx: ClaimRun, skill: str, n: int | None = None, *, preset="parlett", players=3, rules=None,
            strategies=None):  # fmt: skip
    # the scoring always named, and one player for every seat given once, so that every measure playing
    # the same games shares them
    strategies = strategies or [_player(skill)]
    if len(set(strategies)) == 1:
        strategies = strategies[:1]
    sim = ctx.simulate("welsh", n or ctx.games(skill), preset=preset, players=players,
                       rules={"scoring": "standard", **(rules or {})},
                       strategies=strategies)  # fmt: skip
    return sim.batch


# ---- totals -----------------------------------------------------------------------------------------


def _total(preset: str, scoring: str, expected: float):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        b = _points(ctx, skill, preset=preset, rules={"scoring": scoring})
        f = Figure.of(b.seat["points"].sum(1))
        return Outcome(f, within(f, expected - 0.5, expected + 0.5),
                       f"3 players, {plain(skill)}, {scoring.replace('_', '-')} scoring, seed {ctx.seed}.")  # fmt: skip

    return run


def _total_reading(preset: str, scoring: str, expected: float, stock: str, why: str = "") -> Reading:
    return Reading(
        "total", f"The points of all players together come to {fmt(expected)} in every game.",
        f"the sum of every player's points per game; 3 players, {stock}, {scoring.replace('_', '-')} scoring.{why}",
        f"holds when the sum is {fmt(expected)} in every game (the 95% CI within ±0.5 of it).",
        _total(preset, scoring, expected), SKILLS, unit="points in all per game",
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
    """How often pile scoring agrees with the count: a description (Parlett claims no agreement)."""

    def run(ctx: ClaimRun, skill: str) -> Outcome:
        # the same played games scored both ways (a searching player would play differently under piles)
        b = _points(ctx, skill)
        std = b.seat["points"]
        pil = pile_points(b.seat["cards_won"], b.seat["tens"] + b.seat["taffies"])
        if kind == "winner":
            same = np.all(_tops(std) == _tops(pil), axis=1)
            f = Figure.share(int(same.sum()), len(same))
            what = "the same top scorers"
        else:
            p = std.shape[1]
            agree = []
            for i in range(p):
                for j in range(i + 1, p):
                    agree.append(np.sign(std[:, i] - std[:, j]) == np.sign(pil[:, i] - pil[:, j]))
            f = Figure.of(np.mean(agree, axis=0))
            what = "pairs of players ordered the same way"
        return Outcome(f, NOT_A_CLAIM, f"{fmt(100 * f.mean)}% {what}; the same played games scored both ways, "
                                       f"3 players, {plain(skill)}, seed {ctx.seed}.")  # fmt: skip

    return run


# ---- unequal hands: the first player's edge ------------------------------------------------------


def first_edge(points: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Per game, the points of the player who moved first minus the mean of the others."""
    pts = points.astype(float)
    rows = np.arange(len(pts))
    mine = pts[rows, first]
    return mine - (pts.sum(1) - mine) / (pts.shape[1] - 1)


def _first_player(ctx: ClaimRun, skill: str) -> Outcome:
    b = _points(ctx, skill)
    f = Figure.of(first_edge(b.seat["points"], b.game["first"].astype(int)))
    m = LITTLE * FAIR
    return Outcome(f, within(f, -m, m), f"3 players, {plain(skill)} in every seat, the first turn passing "
                                        f"round the table game by game; \"doesn't matter\": within ±{fmt(m)} "
                                        f"points (5% of a fair share of {fmt(FAIR)}), seed {ctx.seed}.")  # fmt: skip


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
            b = _points(ctx, skill, preset="akagiri", players=p, strategies=[skill] + ["greedy"] * (p - 1))
            return edge(b.seat["points"])
        b = _points(ctx, skill, preset="akagiri", players=p)
        return closeness(b.seat["points"])

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
        who = (f"{plain(skill)} in seat 0 among simple players" if kind == "skill"
               else f"{plain(skill)} in every seat")  # fmt: skip
        detail = (f"{who}; three players: {fmt_figure(three)}; " + "; ".join(f"{p}: {fmt_figure(o)}" for p, _, o in diffs)
                  + f"; p-values for 3 better than each, adjusted for the 3 comparisons made: "
                  f"{', '.join(fmt(x) for x in holm(pos))}. Shown: 3 minus {worst[0]} players, the closest rival.")  # fmt: skip
        return Outcome(worst[1], v, detail)

    return run


# ---- leading high while the stock lasts -----------------------------------------------------------


# The hunter of each reading: per game, one that leads a high card on every turn it holds one; per run,
# one that draws until it holds three and then leads them one after another, as the text's players do.
HUNTER = {"game": "hunter", "run": "hunter:hold=3"}
HUNTER_WORDS = {"game": "a hunter", "run": "a hunter holding three high cards before it leads them"}


def _catches(ctx: ClaimRun, skill: str, hunter: str = "hunter") -> list[list[list[int]]]:
    n = ctx.followed(ctx.games(skill), 4000)  # records are followed in Python: a few thousand are plenty
    sim = ctx.simulate("welsh", n, records=n, preset="akagiri", players=3, rules={"scoring": "standard"},
                       strategies=[hunter, _player(skill), _player(skill)])  # fmt: skip
    return [high_lead_catches(r, 0) for r in sim.records]


def _sometimes(unit: str):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        games = _catches(ctx, skill, HUNTER[unit])
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
        leads = ""
        if unit == "run":  # that runs are runs: how many leads each made
            lengths = Figure.of(np.array([len(r) for g in games for r in g]))
            leads = f"; high cards led per run: mean {fmt_figure(lengths)}"
        detail = (f"{k:,} {unit}s with high leads in {len(games):,} games (Akagiri's rules, 3 players: "
                  f"{HUNTER_WORDS[unit]} against two {plain(skill)}, seed {ctx.seed}){leads}; Tens and jokers "
                  f"caught per {unit}: mean "
                  f"{fmt_figure(mean)}; distribution {dist}; none caught: {fmt_figure(miss)}; two or more: "
                  f"{fmt_figure(well)} (shown).")  # fmt: skip
        return Outcome(well, v, detail)

    return run


# Leading while the stock lasts, against drawing: seat 0 plays one way or the other on the same deals.
# With simple opponents seat 0 is the hoarder (draws while the stock lasts, then counts cards) with or
# without its leads; with the strongest opponents it is the strongest player with or without searching
# its turns while the stock lasts (pimc2:stock=search or pimc2, which only draws there).
LEADS = ("sure", "high", "aces_kings")
HUNTS = (9, 12)  # the hunter's lowest rank: Jack (beats Tens and jokers) or Ace only


def _lead_gain(ctx: ClaimRun, skill: str, seat0: str) -> Figure:
    a = _points(ctx, skill, preset="akagiri", strategies=[seat0, skill, skill])
    base_player = SEARCH if seat0.startswith(SEARCH) else "hoarder"
    b = _points(ctx, skill, preset="akagiri", strategies=[base_player, skill, skill])
    return Figure.of(a.seat["points"][:, 0].astype(float) - b.seat["points"][:, 0])


# each way of leading in words, for the report
LEAD_WORDS = {f"{SEARCH}:stock=search": "searching its turns while the stock lasts",
              "hoarder:lead=sure": "a card no one can beat", "hoarder:lead=high": "its highest card of Jack or better",
              "hoarder:lead=aces_kings": "an Ace or King"}  # fmt: skip


def _leaders(skill: str) -> list[str]:
    if skill == SEARCH:
        return [f"{SEARCH}:stock=search"]
    return [f"hoarder:lead={x}" for x in LEADS]


def _little(ctx: ClaimRun, skill: str) -> Outcome:
    pols = _leaders(skill)
    gains = [_lead_gain(ctx, skill, p) for p in pols]
    wide = [g.family_wide(len(pols)) for g in gains]
    best = max(range(len(gains)), key=lambda i: gains[i].mean)
    m = LITTLE * FAIR
    v = HOLDS if all(w.high < m for w in wide) else FAILS if any(w.low >= m for w in wide) else UNDECIDED
    strongly = " Every way of leading loses: the claim holds more strongly than it is put." if all(
        w.high < 0 for w in wide) else ""  # fmt: skip
    seat = ("seat 0 searching its turns while the stock lasts, against the same player drawing on them"
            if skill == SEARCH else "seat 0 leading while the stock lasts in three ways (a card no one can "
            "beat, its highest card of Jack or better, an Ace or King), then counting cards, against the same "
            "player drawing instead")  # fmt: skip
    detail = (f"{seat}; paired on the same deals, two {plain(skill)} opposite, Akagiri's rules, 3 players, seed "
              f"{ctx.seed}. Gains in points per game: " + "; ".join(
                  f"{LEAD_WORDS[p]}: {fmt_figure(g)}" for p, g in zip(pols, gains, strict=True))
              + f". Shown: the best, {LEAD_WORDS[pols[best]]}, its interval widened for the best of {len(pols)}. Little: "
              f"{fmt(m)} points (5% of a fair share of {fmt(FAIR)}).{strongly}")  # fmt: skip
    return Outcome(wide[best], v, detail)


def _hunting(ctx: ClaimRun, skill: str) -> Outcome:
    pols = [f"hoarder:lead=high,rank={r}" for r in HUNTS]
    gains = []
    for p in pols:
        a = _points(ctx, skill, preset="akagiri", strategies=[p, skill, skill])
        b = _points(ctx, skill, preset="akagiri", strategies=["hoarder", skill, skill])
        gains.append(Figure.of(a.seat["points"][:, 0].astype(float) - b.seat["points"][:, 0]))
    wide = [g.family_wide(len(pols)) for g in gains]
    best = max(range(len(gains)), key=lambda i: gains[i].mean)
    v = HOLDS if any(w.low > 0 for w in wide) else FAILS if all(w.high <= 0 for w in wide) else UNDECIDED
    detail = ("seat 0 leading its highest card while the stock lasts (of Jack or better; of Aces only), then "
              "counting cards, against the same player drawing instead; paired on the same deals, two "
              f"{plain(skill)} opposite, Akagiri's rules, 3 players, seed {ctx.seed}. Gains in points per game: "
              + "; ".join(f"{'Jack or better' if r == 9 else 'Aces'}: {fmt_figure(g)}" for r, g in zip(HUNTS, gains, strict=True))
              + f". Shown: the best, its interval widened for the best of {len(pols)}.")  # fmt: skip
    return Outcome(wide[best], v, detail)


# ---- cheating ----------------------------------------------------------------------------------------

# One model of cheating with the cheating study (results/cheating): the same family of cheat policies,
# the same challengers and the same best response, with its control for picking the best of the family.
from ..experiments import cheaters as CH  # noqa: E402 (the section's own import, kept beside its use)

RATES = list(CH.RATES)
POLICIES = list(CH.FAMILY)
CHALLENGERS = list(CH.CHALLENGERS)  # smart counts the unseen cards and tracks exposed false passes
SKILLS_CHEAT = CH.STRENGTHS


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


def _figure(g: CH.Gain) -> Figure:
    return Figure(g.mean, g.low, g.high, g.n)


def _best_words(b: CH.BestResponse) -> str:
    """The best cheater in words (each is one setting of the family in whistsim/experiments/cheaters.py)."""
    return f"one who {CH.words(b.policy)}"


def _easy(kind: str):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        pols = POLICIES if kind == "some" else RATES
        gains = {p: _cheat_gain(ctx, skill, "none", p, "", "points") for p in pols}
        b = CH.best_response(gains)
        if kind == "some":
            v = HOLDS if b.verdict == CH.PAYS else FAILS if b.value.high <= 0 else UNDECIDED
        else:
            v = family([_p_gain(g) for g in gains.values()], [g.p_below(0) for g in gains.values()])
        detail = (f"{len(pols)} cheat policies for one {skill} player against two honest ones, no challenge "
                  f"rule, paired against the same seat playing honestly, seed {ctx.seed}; "
                  + ("the cheater's best response over the family (whistsim/experiments/cheaters.py)"
                     if kind == "some" else f"each test adjusted for the {len(pols)} made")
                  + f". Best: {_best_words(b)}, {fmt_figure(gains[b.policy])}; shown: the best "
                  f"response, its interval widened for picking the best of {len(pols)}: "
                  f"{fmt_figure(_figure(b.value))}; least: {fmt(min(g.mean for g in gains.values()))} points "
                  "per game.")  # fmt: skip
        return Outcome(_figure(b.value), v, detail)

    return run


def _cures(what: str, delta: float):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        per = []
        for c in CHALLENGERS:
            # the cheater's best response, every policy's interval widened for the family (Bonferroni);
            # a gain shown is never "cured", whatever the margin
            b = CH.best_response({p: _cheat_gain(ctx, skill, "parlett", p, c, what) for p in POLICIES}, delta)
            v = FAILS if b.cured is False else HOLDS if b.cured else UNDECIDED
            per.append((c, b, v))
        vs = [x[2] for x in per]
        v = HOLDS if HOLDS in vs else FAILS if all(x == FAILS for x in vs) else UNDECIDED
        c, b, _ = min(per, key=lambda x: x[1].value.mean)
        unit = "points per game" if what == "points" else "share of games with the top score"
        detail = (f"the cheater's best response over {len(POLICIES)} policies (rates, smart, and policy "
                  f"grids over hand size, what following would hand over, and the hand a catch costs; "
                  f"whistsim/experiments/cheaters.py, as results/cheating), one {skill} cheater against two "
                  f"honest {skill} players who, in turn, {', '.join(CH.challenger_words(x) for x in CHALLENGERS)}; "
                  "paired against the same "
                  f"seat playing honestly, seed {ctx.seed}; each interval widened for picking the best of "
                  f"{len(POLICIES)} against each challenger. "
                  f"Best remaining gain ({unit}; the best response's interval, widened for the best of "
                  f"{len(POLICIES)}) per challenger: "
                  + "; ".join(f"{CH.challenger_words(c2)}: {_best_words(b2)}, {fmt_figure(_figure(b2.value))} ({v2})"
                              for c2, b2, v2 in per)
                  + f". Shown: against players who {CH.challenger_words(c)}, the most deterring.")  # fmt: skip
        return Outcome(_figure(b.value), v, detail)

    return run


# ---- the claims --------------------------------------------------------------------------------------

PARLETT = "Parlett"
AKAGIRI = "Akagiri 1995"
PTS = "points per game"

# Akagiri's introduction: Hōyoku's view, and his group's experience against it.
AKAGIRI_LEADS = (
    "鳳翼さんはリードをする利点があまりないと書いていらっしゃいますが，私のグループでは，まだ山札のあるうちに，"
    "上位のカードを続けて出して，敵の１０やジョーカーを取ろうというプレイが時々あり，まったく空振りのこともあるけれど，"
    "かなりの成功をおさめることもあるという状況でした。"
)
AKAGIRI_LEADS_EN = (
    "Hōyoku writes that there is not much advantage in leading, but in my group, while the stock remained, "
    "there were sometimes plays of leading high cards one after another to take opponents' Tens and jokers; "
    "sometimes they missed entirely, but sometimes they succeeded quite well."
)

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
                          "the packs the text allows gives 178: a slip of the source, listed under its errors.)"),)),
    Claim("piles_simpler", "welsh", PARLETT, "Simpler scoring",
          "If you do mind a lot of counting you can do it this way instead: Players stack their won cards neatly "
          "and compare the heights of their piles. Whoever has the smallest pile scores one point for each Ten "
          "and Taffy captured. [...]",
          "pile scoring, another way to score: how often it agrees with the count", (
              Reading("winner", "Parlett offers the pile scoring as another way to score, for players who mind "
                      "counting; he does not say it agrees with the count. How often it names the same winner "
                      "is described, not judged.",
                      "the share of games whose top scorers are the same under pile scoring and the normal "
                      "count, the same played games scored both ways; 3 players, Parlett's stock.",
                      "none: the text claims no agreement, so no threshold is set; the share is a description.",
                      _piles("winner"), SKILLS, unit="share of games"),
              Reading("order", "The same description for every player's place: how often the two scorings order "
                      "a pair of players the same way.",
                      "per game, the share of pairs of players that the two scorings order the same way "
                      "(ties agree only with ties), averaged over games; 3 players.",
                      "none, as for the winner.", _piles("order"), SKILLS, unit="share of pairs of players"),
          ), differ="The two descriptions differ in what they compare: the winner, or every player's place."),
    Claim("unequal_hands", "welsh", PARLETT, "Play",
          "The fact you don't all have the same number of cards in your hands at any given time doesn't matter. "
          "On the contrary, it adds to the fun.",
          "unequal hands don't matter: no edge for the first player", (
              Reading("first_edge", "Read as a claim of balance: hands of unequal size (the first to move draws "
                      "first and leads first) give the player who moves first no edge worth the name.",
                      "per game, the points of the player who moved first minus the mean of the others; 3 "
                      "players of one strength, Parlett's stock, the first turn passing round the table.",
                      "holds when the whole 95% CI lies within ±3.6 points (5% of a fair share of 72); fails "
                      "when it lies outside.", _first_player, SKILLS, line=0.0, unit=PTS),
          ), dropped=(("That unequal hands add to the fun.", "Fun is not something a simulation measures."),)),
    Claim("three_best", "welsh", AKAGIRI, "<プレイヤー> (players)", "３人がベストですが，それ以上の人数でもプレイできます。",
          "three players is best", (
              Reading("skill", "Three is best because skill shows most with three.",
                      "a stronger player's edge over the other players, in points over a fair share: a "
                      "card-counting player (or the strongest player) in seat 0 among simple players, "
                      "Akagiri's rules, turn order rotating.",
                      "holds when the edge at 3 exceeds the edge at each of 4, 5 and 6 players (p-values "
                      "adjusted for the three comparisons; unpaired, different player counts deal different "
                      "packs); fails when one is shown larger.", _three("skill"), ("counter", SEARCH),
                      line=0.0, unit="edge at 3 minus the closest rival, in fair shares"),
              Reading("close", "Three is best because games are closest with three.",
                      "the winning margin (top score minus second) over a fair share, all players of one "
                      "strength, Akagiri's rules.",
                      "holds when the margin at 3 is below that at each of 4, 5 and 6 (adjusted for the three "
                      "comparisons); fails when one is shown smaller.", _three("close"), SKILLS, line=0.0,
                      unit="margin at 3 minus the closest rival, in fair shares"),
          ), translation="Three is best, but more players can play.",
          differ="It depends on what makes a game best: how much skill shows, or how close games are.",
          needs=("counter", "greedy", SEARCH),
          dropped=(("Three is best because games with three take least time at the table.",
                    "Dropped: it follows from the equipment, not from play. Three and four players use the same "
                    "108 cards and five and six 162, so how long a game lasts is set by the pack (four players "
                    "simply share the same cards more ways); a count of moves is no evidence of which number of "
                    "players makes the better game."),)),
    Claim("leading_catches", "welsh", AKAGIRI, "the introduction, before the rules", AKAGIRI_LEADS,
          "leading high while the stock lasts sometimes misses, sometimes catches well", (
              Reading("per_game", "Over a game, a player who leads high cards while the stock lasts sometimes "
                      "catches nothing at all with them and sometimes catches well (two Tens or jokers or more).",
                      "in games where seat 0 (a hunter: while the stock lasts it leads any card of Jack or "
                      "better it holds, else draws) made such leads, each Ten or joker another player played "
                      "to such a lead that seat 0 won counts as one catch; Akagiri's rules, 3 players.",
                      "holds when both the share of games catching none and the share catching two or more are "
                      "at least 5% (\"sometimes\": one game in twenty) with their whole 95% CIs; fails when "
                      "either is shown below 5%.", _sometimes("game"), SKILLS, line=0.05,
                      unit="share of games catching two or more"),
              Reading("per_run", "Each run of high cards led one after another sometimes misses entirely and "
                      "sometimes succeeds well (two Tens or jokers or more).",
                      "runs of leads by seat 0 while the stock lasts, seat 0 a hunter that holds its high cards: "
                      "it draws, leading nothing, until it holds three cards of Jack or better, then leads them, "
                      "highest first, on its following turns without drawing, until they are gone; a run ends "
                      "when it draws. Each Ten or joker another player played to such a lead that seat 0 won "
                      "counts as one catch; Akagiri's rules, 3 players.",
                      "as per game, with runs in place of games: holds when both the share of runs catching "
                      "none and the share catching two or more are at least 5% with their whole 95% CIs; fails "
                      "when either is shown below 5%.", _sometimes("run"), SKILLS, line=0.05,
                      unit="share of runs catching two or more"),
          ), translation=AKAGIRI_LEADS_EN,
          differ="It depends on whether a whole game or a single run of leads is what succeeds or misses.",
          needs=("hunter", "hunter.hold", "greedy", SEARCH)),
    Claim("little_advantage", "welsh", AKAGIRI, "the introduction (reporting Hōyoku's view)",
          "鳳翼さんはリードをする利点があまりないと書いていらっしゃいますが",
          "there is little advantage in leading", (
              Reading("gain", "Leading while the stock lasts brings not much advantage: no way of leading gains "
                      "more than a little over drawing. A loss is no advantage at all: if leading loses, the "
                      "claim holds, more strongly than it is put.",
                      "seat 0's points per game leading while the stock lasts minus drawing instead, paired on "
                      "the same deals; Akagiri's rules, 3 players, turn order rotating. With simple opponents, "
                      "three ways of leading (a card no one can beat, the highest card of Jack or better, an Ace "
                      "or King) by a player who otherwise draws and then counts cards; with the strongest "
                      "opponents, the strongest player searching its turns while the stock lasts against the "
                      "same player drawing on them.",
                      "holds when the best way of leading gains less than 3.6 points (5% of a fair share of 72) "
                      "with its whole 95% CI, widened for the best of those tried; fails when one is shown to "
                      "gain 3.6 or more.", _little, SKILLS, line=LITTLE * FAIR, unit=PTS),
          ), translation="Hōyoku writes that there is not much advantage in leading.",
          needs=("hoarder", "greedy", SEARCH)),
    Claim("hunting_pays", "welsh", AKAGIRI, "the introduction, before the rules", AKAGIRI_LEADS,
          "against that view: hunting with high leads can pay", (
              Reading("can_pay", "Akagiri's point against Hōyoku: leading high cards while the stock lasts, to "
                      "catch others' Tens and jokers, can pay: in some way of playing it, it gains over drawing.",
                      "seat 0's points per game leading its highest card while the stock lasts (of Jack or "
                      "better, which beat Tens and jokers; or Aces only) and then counting cards, minus the same "
                      "player drawing instead, paired on the same deals; Akagiri's rules, 3 players.",
                      "holds when some way of hunting gains with its whole 95% CI above 0, widened for the best "
                      "of the two tried; fails when every widened CI is at or below 0.", _hunting, SKILLS,
                      line=0.0, unit=PTS),
          ), translation=AKAGIRI_LEADS_EN, needs=("hoarder", "greedy", SEARCH)),
    Claim("easy_to_cheat", "welsh", PARLETT, "Cheating",
          "The trouble with this game is that it is easy to cheat by claiming you can't follow suit when you can.",
          "it is easy to cheat by false passes", (
              Reading("some", "Some way of passing falsely pays, when nothing polices it.",
                      "one player's points per game with false passes minus the same seat honest, paired; "
                      "revokes allowed, no challenge rule, 3 players, Parlett's stock.",
                      "holds when some policy gains with its interval widened for the family of 29 "
                      "(adjusted for picking the best of the 29); fails when every widened interval is at or "
                      "below 0.", _easy("some"), SKILLS_CHEAT),
              Reading("crude", "Even crude cheating pays (that is what makes it easy).",
                      "the same gain for the crude policies: false passes at a fixed rate (0.1 to 1) and "
                      "passing whenever following would hand over a Ten or a Taffy.",
                      "holds when every crude policy gains (adjusted for the 5 comparisons); fails when one is shown to lose.",
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
                      "policy's 95% interval widened for the family of 29 (adjusted for picking the best of the 29); the claim "
                      "holds when it is cured against some challenger policy and fails when against every one "
                      "some cheat policy is shown to gain. The best remaining gain is shown with its widened "
                      "interval.", _cures("points", 1.0), SKILLS_CHEAT),
              Reading("wins", "The rule polices cheating: no way of cheating wins more games.",
                      "the same best response, counted in the share of games the cheater ends with the top "
                      "score.", "as for points, with a margin of 0.01 (one game in a hundred).",
                      _cures("wins", 0.01), SKILLS_CHEAT),
          ), differ="It depends on whether cheating pays in points or in games won.", needs=("greedy", "counter")),
]  # fmt: skip
# the value each claim's first reading compares its figure with, for the chart (the others set their own)
CLAIMS = with_lines(
    CLAIMS,
    {
        "total_216": 216,
        "total_216_akagiri": 216,
        "total_178_five_penalty": 178,
        "easy_to_cheat": 0.0,
        "parlett_cures": 0.0,
    },
)
CLAIMS = with_units(
    CLAIMS,
    {
        ("easy_to_cheat", "some"): PTS,
        ("easy_to_cheat", "crude"): PTS,
        ("parlett_cures", "points"): PTS,
        ("parlett_cures", "wins"): "share of games with the top score",
    },
)
CLAIMS_BY_ID = {c.id: c for c in CLAIMS}

# Statements of the sources that contradict their own rules: (source, where, quotation, why).
SOURCE_ERRORS = [
    (PARLETT, "Optional extra", "This reduces the overall total to 178 (assuming four Taffies).",
     "By his own rules two packs and four Taffies total 216 points, and scoring each of the eight Fives -5 "
     "instead of 1 takes 8 x 6 = 48 off: 168. Every game played totals exactly 168 (total_178_five_penalty)."),
]  # fmt: skip

# Assertions of the sources about play or balance that are not measured, and why.
NOT_MEASURED = [
    (AKAGIRI, "<オプショナル・ルール> (optional rule)",
     "フォローできるカードがあるのにパスをすること，すなわち「リボーク」，が許されるというルールです。",
     "A rule under which passing when you could follow (a revoke) is allowed.",
     "A rule, not a claim: the text says what the optional rule allows and how its challenge works, and nothing "
     "about what it does to cheating or to the game. whistsim plays it (--rule revokes=true --rule "
     "challenge=akagiri); results/cheating measures cheating under it."),
    (AKAGIRI, "the introduction",
     "傑作かどうかはもうすこしプレイしなければ分かりませんが，結構普通に楽しめるゲームという印象です。",
     "Whether it is a masterpiece I cannot tell without playing more, but my impression is of a game that is "
     "quite enjoyable.", "A judgement of enjoyment."),
    (AKAGIRI, "the introduction",
     "私自身もジョーカーを３枚ほどこのようにして取られたことがあり，逆に２枚ほど続けて取ったこともあります。",
     "I myself have had about three jokers taken this way, and have also taken about two in a row.",
     "A report of his own games; how often such leads catch none, or two or more, is measured under "
     "leading_catches."),
]  # fmt: skip
