"""Oh Hell's settings that do nothing (whistsim.tools.advice asks every game through ``Game``): points
per trick where the scoring counts none, a no-trump largest hand that turns no card anyway, the
heuristic's weight for trumps in a game that never has any."""

from __future__ import annotations

from ...core.strategy import StrategySpec
from ...core.strategy import _fmt as fmt


def _trump_rounds(rules) -> int:
    """Rounds with a card turned for trumps."""
    p, cards = rules.players, rules.cards
    return sum(p * n < cards and not off for n, off in zip(rules.sizes(), rules.no_trump(), strict=True))


def idle_rules(rules, given: set[str]) -> list[str]:
    out: list[str] = []
    if "points_per_trick" in given and rules.scoring == "ten_plus_bid":
        out.append(
            f"rule points_per_trick={rules.points_per_trick} has no effect: scoring=ten_plus_bid counts "
            "no points a trick (trick_plus_ten and minus_difference do)"
        )
    if (
        "no_trump_rounds" in given
        and rules.no_trump_rounds == "largest"
        and rules.players * rules.largest >= rules.cards
    ):
        out.append(
            "rule no_trump_rounds=largest has no effect: the largest hand deals the whole pack, so no card "
            "is left to turn for trumps anyway"
        )
    return out


def idle_params(rules, spec: StrategySpec) -> list[str]:
    out: list[str] = []
    if spec.name == "heuristic" and "trump_weight" in spec.params and _trump_rounds(rules) == 0:
        out.append(
            f"strategy {str(spec)!r}: trump_weight={fmt(spec.params['trump_weight'])} has no effect: "
            "no round of these rules has trumps"
        )
    return out
