"""The dealt games' settings that do nothing (whistsim.tools.advice asks every game through ``Game``):
revoke options where revokes are off or never claimed, Scotch Whist's odd six with an even
count, a revoke the rules forbid, the heuristic's advice for the other game."""

from __future__ import annotations

from ...core.strategy import StrategySpec
from ...core.strategy import _fmt as fmt
from ..base import param_given, turned_on
from .engine import SCOTCH

_SCOTCH_ONLY = (
    "two_rounds",
    "tenace",
    "ten_to_partner",
    "place_left",
    "ten_only",
)  # the heuristic's Scotch Whist advice
_WHIST_ONLY = ("draw_trumps",)  # ... and its Whist advice


def idle_rules(rules, given: set[str]) -> list[str]:
    out: list[str] = []
    revoke_options = ("revoke_loss",) if rules.kind == SCOTCH else ("revoke_penalty", "revoke_score")
    for k in (k for k in (*revoke_options, "claim") if k in given):
        if not rules.revokes:
            out.append(
                f"rule {k}={fmt(getattr(rules, k))} has no effect: revokes are off "
                "(--rule revokes=true allows them)"
            )
        elif k != "claim" and rules.claim == 0:
            out.append(f"rule {k}={fmt(getattr(rules, k))} has no effect: claim=0, so no revoke is claimed")
    if rules.kind == SCOTCH and "odd_six" in given and rules.players not in (5, 7):
        out.append(
            f"rule odd_six={rules.odd_six} has no effect: it decides the 36th card with 5 or 7 players "
            f"only (here {rules.players})"
        )
    return out


def idle_params(rules, spec: StrategySpec) -> list[str]:
    label, out = str(spec), []
    revoke = param_given(spec, ("revoke",))
    if revoke is not None and not rules.revokes and turned_on(revoke[1]):
        out.append(
            f"strategy {label!r}: revoke={revoke[1]} has no effect: revokes are off "
            "(--rule revokes=true allows them)"
        )
    if spec.name == "heuristic":  # some of its advice is for one game only
        other, only = (_WHIST_ONLY, "Whist") if rules.kind == SCOTCH else (_SCOTCH_ONLY, "Scotch Whist")
        for k in (k for k in other if k in spec.params):
            out.append(
                f"strategy {label!r}: {k}={fmt(spec.params[k])} has no effect: it is advice for {only} only"
            )
    return out
