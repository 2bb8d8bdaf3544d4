"""Warnings about settings that do nothing: a player parameter the chosen rules never consult, or a
rule option that the other rules make idle (a revoke penalty where revokes are off).

``cheater:rate=0.2,challenge=smart`` under rules where revokes are off plays
exactly as ``cheater`` would with no cheating and no challenges: the run is
valid, but it does not answer the question it seems to ask. Each such setting
is one line (:class:`WhistsimWarning`); the command line prints it as
``whistsim: warning: ...``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

from .options import WhistsimWarning
from .strategy import StrategySpec, parse_spec
from .strategy import _fmt as fmt

_OFF = {"0", "0.0", "never", "none"}
_CHEAT = ("cheat", "false_pass", "rate")
_POLICY = ("cheat_hand", "cheat_stake", "cheat_weigh")  # Welsh: consulted under cheat=policy only
_SCOTCH_ONLY = ("two_rounds", "tenace", "ten_to_partner")  # the heuristic's Scotch Whist advice
_WHIST_ONLY = ("draw_trumps",)  # ... and its Whist advice


def _given(spec: StrategySpec, keys: Iterable[str]) -> tuple[str, Any] | None:
    for k in keys:
        if k in spec.params:
            return k, spec.params[k]
    return None


def _on(value: Any) -> bool:
    return str(value).strip().lower() not in _OFF


def idle_rules(game: str, rules: Any, given: Iterable[str]) -> list[str]:
    """One line per rule option the user set (``given``) that the other ``rules`` make idle."""
    given = set(given)
    out: list[str] = []
    if game == "welsh":
        return out  # every Welsh option acts: a challenge rule is owed (and fails) even with revokes off
    revoke_options = ("revoke_penalty", "revoke_score") if game == "whist" else ("revoke_loss",)
    for k in (k for k in (*revoke_options, "claim") if k in given):
        if not rules.revokes:
            out.append(f"rule {k}={fmt(getattr(rules, k))} has no effect: revokes are off "
                       "(--rule revokes=true allows them)")  # fmt: skip
        elif k != "claim" and rules.claim == 0:
            out.append(f"rule {k}={fmt(getattr(rules, k))} has no effect: claim=0, so no revoke is claimed")
    if game == "scotch" and "odd_six" in given and rules.players not in (5, 7):
        out.append(f"rule odd_six={rules.odd_six} has no effect: it decides the 36th card with 5 or 7 players "
                   f"only (here {rules.players})")  # fmt: skip
    return out


def ineffective(
    game: str, rules: Any, strategies: Iterable[str | StrategySpec], given: Iterable[str] = ()
) -> list[str]:
    """One line per player parameter that the ``rules`` of ``game`` never consult, and per rule option set
    by the user (``given``: its keys) that the other rules make idle."""
    out: list[str] = idle_rules(game, rules, given)
    seen: set[str] = set()
    for s in strategies:
        spec = s if isinstance(s, StrategySpec) else parse_spec(str(s))
        label = str(spec)
        if label in seen:
            continue
        seen.add(label)
        if game == "welsh":
            cheat = _given(spec, _CHEAT)
            if not rules.revokes:
                if cheat is not None and _on(cheat[1]):
                    out.append(f"strategy {label!r}: {cheat[0]}={cheat[1]} has no effect: revokes are off, so no "
                               "one can pass falsely (--rule revokes=true allows it)")  # fmt: skip
                elif cheat is None and spec.name == "cheater":
                    out.append(f"strategy {label!r}: the cheater cannot cheat: revokes are off, so it plays as "
                               "greedy (--rule revokes=true allows false passes)")  # fmt: skip
            challenge = _given(spec, ("challenge",))
            if challenge is not None and rules.challenge == "none" and _on(challenge[1]):
                out.append(f"strategy {label!r}: challenge={challenge[1]} has no effect: there is no challenge "
                           "rule (--rule challenge=parlett or akagiri)")  # fmt: skip
            shaping = [k for k in _POLICY if k in spec.params]  # cheat=policy's own parameters
            if shaping:
                said = ", ".join(f"{k}={fmt(spec.params[k])}" for k in shaping)
                if not rules.revokes:
                    out.append(f"strategy {label!r}: {said} {'has' if len(shaping) == 1 else 'have'} no effect: "
                               "revokes are off, so no one can pass falsely")  # fmt: skip
                elif cheat is None or str(cheat[1]).strip().lower() != "policy":
                    now = fmt(cheat[1]) if cheat is not None else "its default"
                    out.append(f"strategy {label!r}: {said} {'has' if len(shaping) == 1 else 'have'} no effect: "
                               f"they shape cheat=policy only (cheat is {now})")  # fmt: skip
        else:
            revoke = _given(spec, ("revoke",))
            if revoke is not None and not rules.revokes and _on(revoke[1]):
                out.append(f"strategy {label!r}: revoke={revoke[1]} has no effect: revokes are off "
                           "(--rule revokes=true allows them)")  # fmt: skip
            if spec.name == "heuristic":  # some of its advice is for one game only
                other = _WHIST_ONLY if game == "scotch" else _SCOTCH_ONLY
                for k in (k for k in other if k in spec.params):
                    only = "Whist" if game == "scotch" else "Scotch Whist"
                    out.append(f"strategy {label!r}: {k}={fmt(spec.params[k])} has no effect: it is advice for {only} "
                               "only")  # fmt: skip
    return out


def warn_ineffective(
    game: str, rules: Any, strategies: Iterable[str | StrategySpec], given: Iterable[str] = ()
) -> list[str]:
    """Issue a :class:`WhistsimWarning` for each line of :func:`ineffective`; returns them."""
    lines = ineffective(game, rules, strategies, given)
    for line in lines:
        warnings.warn(line, WhistsimWarning, stacklevel=3)
    return lines
