"""Welsh Whist's claims (Parlett and Akagiri 1995)."""

from __future__ import annotations

from ..experiments import verdicts as V
from ..experiments.report import ExperimentResult, fmt_num
from ..experiments.studies import LITTLE, MEASURES, best_count, measure
from ..stats import Estimate
from . import Claim, ClaimResult, ClaimRun

CHEATS = [0, 0.25, 1, "smart"]
POLICIES = ["always", "smart"]


def _total(claim_id: str, preset: str, scoring: str, expected: float, why: str):
    def check(ctx: ClaimRun) -> ClaimResult:
        res = ctx.run(claim_id, {"game": "welsh", "rules": {"preset": preset, "players": 3, "scoring": scoring},
                                 "seats": {"all": "random"}, "headline": ["total_points"]})  # fmt: skip
        e = res.estimate(0, "total_points")
        v = V.equals(e, expected, 0.5)
        rules = res.spec.cells[0].rules
        note = f"{rules.packs} packs and {rules.taffies} Taffies, {scoring} scoring. {why}"
        if v == V.FAILS:
            note += f" Measured {fmt_num(e.mean)}, not {fmt_num(expected)}."
        return ClaimResult(CLAIMS_BY_ID[claim_id], "points won by all players per game", e, v, note)

    return check


def _three_best(ctx: ClaimRun) -> ClaimResult:
    res = ctx.run("three_best", {
        "game": "welsh", "seats": {"all": "greedy"},
        "sweep": {"rules": {"players": "2..8", "preset": ["parlett", "akagiri"]}},
        "headline": ["rel_margin", "last_keeps"],
    })  # fmt: skip
    verdicts, parts = [], []
    for preset in ("parlett", "akagiri"):
        cells = [c for c in res.spec.cells if c.value("rules.preset") == preset]
        for name, _what, lower in MEASURES:
            best, v = best_count(res, cells, name, lower)
            verdicts.append(v)
            parts.append(f"{preset} {name}: best at {best.rules.players} players ({v})")
    holds = sum(v == V.HOLDS for v in verdicts)
    fails = sum(v == V.FAILS for v in verdicts)
    overall = V.HOLDS if holds > len(verdicts) / 2 else V.FAILS if fails > len(verdicts) / 2 else V.UNDECIDED
    three = next(c for c in res.spec.cells if c.rules.players == 3 and c.value("rules.preset") == "akagiri")
    e = measure(res, three, "rel_margin")
    note = (f"Judged by closeness (winning margin over a fair share), seat fairness and how often the last player "
            f"keeps cards, 2 to 8 greedy players under both presets: three is clearly best on {holds} and clearly "
            f"not best on {fails} of {len(verdicts)} measure-preset pairs. " + "; ".join(parts) + ".")  # fmt: skip
    return ClaimResult(
        CLAIMS_BY_ID["three_best"], "winning margin over a fair share, 3 players (akagiri)", e, overall, note
    )


def _leading(ctx: ClaimRun) -> ExperimentResult:
    return ctx.run("leading", {
        "game": "welsh", "rules": {"preset": "akagiri", "players": 3},
        "seats": {"0": "hoarder", "1": "hoarder", "2": "greedy"},
        "sweep": {"seats": {"0": ["hunter", "hoarder", "greedy"]}},
        "baseline": {"seats": {"0": ["hoarder", "greedy"]}},
        "headline": ["points[0]", "tt[0]"],
    })  # fmt: skip


LEADING_SETUP = (
    "Seat 0 plays as a hunter (leads high cards in succession while the stock lasts), a hoarder (draws while "
    "the stock lasts) or a greedy player (leads only likely winners), against a hoarder and a greedy player; "
    "akagiri rules, three players, turn order rotating, paired on the same deals."
)


def _leading_catches(ctx: ClaimRun) -> ClaimResult:
    res = _leading(ctx)
    hunter = res.cell(**{"seats.0": "hunter"})
    vs_hoarder, _ = res.difference(hunter.index, "tt[0]", against="hoarder")  # type: ignore[misc]
    vs_greedy, _ = res.difference(hunter.index, "tt[0]", against="greedy")  # type: ignore[misc]
    v = V.combine([V.positive(vs_hoarder), V.positive(vs_greedy)])
    note = (
        f"{LEADING_SETUP} Tens and Taffies won by seat 0: the hunter minus the hoarder (shown), and minus the "
        f"greedy player: {fmt_num(vs_greedy.mean)} [{fmt_num(vs_greedy.low)}, {fmt_num(vs_greedy.high)}]; "
        "the claim holds if the hunter takes more than both."
    )
    return ClaimResult(CLAIMS_BY_ID["leading_catches"], "Tens and jokers won per game, hunter minus hoarder",
                       vs_hoarder, v, note)  # fmt: skip


def _little_advantage(ctx: ClaimRun) -> ClaimResult:
    res = _leading(ctx)
    hunter = res.cell(**{"seats.0": "hunter"})
    e, _ = res.difference(hunter.index, "points[0]", against="hoarder")  # type: ignore[misc]
    fair = res.estimate(hunter.index, "points_per_player").mean
    margin = LITTLE * fair
    note = (
        f'{LEADING_SETUP} "Little" is taken as under {fmt_num(margin)} points per game (5% of a fair share of '
        f"{fmt_num(fair)}); a loss is no advantage, so the claim holds when the whole CI lies below that."
    )
    return ClaimResult(CLAIMS_BY_ID["little_advantage"], "points per game gained by leading high (hunter − hoarder)",
                       e, V.at_most(e, margin), note)  # fmt: skip


def _cheat_spec(challenge: str, policies: list[str]) -> dict:
    grid = {"seats": {"0": {"cheat": CHEATS}}}
    if challenge != "none":
        grid["seats"]["all"] = {"challenge": policies}
    return {
        "game": "welsh", "rules": {"preset": "parlett", "players": 3, "revokes": True, "challenge": challenge},
        "seats": {"all": "greedy:cheat=0"}, "sweep": grid, "baseline": {"seats": {"0": {"cheat": 0}}},
        "headline": ["points[0]", "caught"],
    }  # fmt: skip


def _best_gain(res: ExperimentResult, cells) -> tuple[Estimate, str]:
    gains = []
    for c in cells:
        d = res.difference(c.index, "points[0]")
        if d is not None:
            gains.append((d[0], str(c.value("seats.0.cheat"))))
    return max(gains, key=lambda g: g[0].mean)


def _easy_to_cheat(ctx: ClaimRun) -> ClaimResult:
    res = ctx.run("easy_to_cheat", _cheat_spec("none", []))
    e, rate = _best_gain(res, res.spec.cells)
    note = (
        f"Revokes allowed, no challenge rule, greedy players, one cheater: the best cheat setting ({rate}) "
        "against the same deals played honestly."
    )
    return ClaimResult(CLAIMS_BY_ID["easy_to_cheat"], "the cheater's gain in points per game at the best cheat rate",
                       e, V.positive(e), note)  # fmt: skip


def _cures(claim_id: str, rule: str):
    def check(ctx: ClaimRun) -> ClaimResult:
        res = ctx.run(claim_id, _cheat_spec(rule, POLICIES))
        by_policy = []
        for pol in POLICIES:
            cells = [c for c in res.spec.cells if str(c.value("seats.all.challenge")) == pol]
            e, rate = _best_gain(res, cells)
            by_policy.append((e, rate, pol))
        e, rate, pol = min(by_policy, key=lambda t: t[0].mean)
        v = V.not_positive(e)
        others = "; ".join(f"against {p}: best setting {r}, {fmt_num(x.mean)} [{fmt_num(x.low)}, {fmt_num(x.high)}]"
                           for x, r, p in by_policy)  # fmt: skip
        note = (
            f"Cheat rates {', '.join(map(str, CHEATS[1:]))} for one greedy player against honest greedy players "
            f"who challenge {' or '.join(POLICIES)}; the rule cures cheating if against the better policy "
            f"({pol}) no cheat setting gains. {others}."
        )
        return ClaimResult(CLAIMS_BY_ID[claim_id], f"the cheater's best gain, points per game, against {pol} challengers",
                           e, v, note)  # fmt: skip

    return check


WHY_FIVE = "Five-penalty scores each Five -5 instead of +1: two packs hold 8 Fives, so the total falls by 48, to 168."

CLAIMS = [
    Claim("total_216", "welsh", "216 points in all with four Taffies", "Parlett",
          _total("total_216", "parlett", "standard", 216, "10 x (8 Tens + 4 Taffies) + 96 other cards.")),
    Claim("total_216_akagiri", "welsh", "216 points in all with two packs (3-4 players)", "Akagiri 1995",
          _total("total_216_akagiri", "akagiri", "standard", 216, "Two packs with two jokers each.")),
    Claim("total_178_five_penalty", "welsh", "five-penalty reduces the total to 178 (four Taffies)", "Parlett",
          _total("total_178_five_penalty", "parlett", "five_penalty", 178, WHY_FIVE)),
    Claim("three_best", "welsh", "three players is best", "Akagiri 1995", _three_best, ("greedy",)),
    Claim("leading_catches", "welsh", "leading high cards while the stock lasts catches opponents' Tens and jokers",
          "Akagiri 1995", _leading_catches, ("hunter", "hoarder", "greedy")),
    Claim("little_advantage", "welsh", "there is little advantage in leading", "Akagiri 1995 (quoting Hoyoku)",
          _little_advantage, ("hunter", "hoarder", "greedy")),
    Claim("easy_to_cheat", "welsh", "it is easy to cheat by claiming you can't follow suit", "Parlett",
          _easy_to_cheat, ("greedy",)),
    Claim("parlett_cures", "welsh", "the challenge rule (the leader challenges) cures cheating", "Parlett",
          _cures("parlett_cures", "parlett"), ("greedy",)),
    Claim("akagiri_cures", "welsh", "the challenge rule (the winner challenges) cures revokes", "Akagiri 1995",
          _cures("akagiri_cures", "akagiri"), ("greedy",)),
]  # fmt: skip
CLAIMS_BY_ID = {c.id: c for c in CLAIMS}
