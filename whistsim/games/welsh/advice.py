"""Welsh Whist's settings that do nothing (whistsim.tools.advice asks every game through ``Game``):
a cheat or a challenge where the rules allow none, cheat=policy's shaping without it."""

from __future__ import annotations

from ...core.strategy import StrategySpec
from ...core.strategy import _fmt as fmt
from ..base import param_given, turned_on

CHEAT_PARAMS = ("cheat", "false_pass", "rate")  # a player's false passes
_POLICY = ("cheat_hand", "cheat_stake", "cheat_weigh")  # consulted under cheat=policy only


def idle_rules(rules, given: set[str]) -> list[str]:
    return []  # every Welsh option acts: a challenge rule is owed (and fails) even with revokes off


def idle_params(rules, spec: StrategySpec) -> list[str]:
    label, out = str(spec), []
    cheat = param_given(spec, CHEAT_PARAMS)
    if not rules.revokes:
        if cheat is not None and turned_on(cheat[1]):
            out.append(
                f"strategy {label!r}: {cheat[0]}={cheat[1]} has no effect: revokes are off, so no "
                "one can pass falsely (--rule revokes=true allows it)"
            )
        elif cheat is None and spec.name == "cheater":
            out.append(
                f"strategy {label!r}: the cheater cannot cheat: revokes are off, so it plays as "
                "greedy (--rule revokes=true allows false passes)"
            )
    challenge = param_given(spec, ("challenge",))
    if challenge is not None and rules.challenge == "none" and turned_on(challenge[1]):
        out.append(
            f"strategy {label!r}: challenge={challenge[1]} has no effect: there is no challenge "
            "rule (--rule challenge=parlett or akagiri)"
        )
    shaping = [k for k in _POLICY if k in spec.params]  # cheat=policy's own parameters
    if shaping:
        said = ", ".join(f"{k}={fmt(spec.params[k])}" for k in shaping)
        verb = "has" if len(shaping) == 1 else "have"
        if not rules.revokes:
            out.append(
                f"strategy {label!r}: {said} {verb} no effect: revokes are off, so no one can pass falsely"
            )
        elif cheat is None or str(cheat[1]).strip().lower() != "policy":
            now = fmt(cheat[1]) if cheat is not None else "its default"
            out.append(
                f"strategy {label!r}: {said} {verb} no effect: they shape cheat=policy only (cheat is {now})"
            )
    return out
