"""Whist rule options and presets (the short and long whist pages; docs/rules.md section 3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.options import Option, RuleError, describe, near, resolve
from ..dealt.rules import (
    CLAIM_OPTION,
    R_DEDUCT,
    R_HONOURS,
    R_PENALTY,
    UNIT_OPTION,
    UNITS,
    WHIST,
    DealtRules,
    check_claim,
    pack_of,
    resolve_record_rules,
)

TARGETS = (5, 7, 10)
REVOKE_SCORES = ("add", "deduct")

OPTIONS: tuple[Option, ...] = (
    Option("target", "int", 10, "points that win the game: 5 (short whist), 7 or 10 (long whist)", TARGETS),
    Option(
        "honours",
        "bool",
        True,
        "a side dealt all four of A K Q J of trumps scores 4, three of them 2",
        (False, True),
    ),
    Option("revokes", "bool", False, "may a player who can follow suit play another suit?", (False, True)),
    Option("revoke_penalty", "int", 3, "points a claimed revoke costs (see revoke_score)"),
    Option(
        "revoke_score",
        "str",
        "add",
        "a claimed revoke's penalty: added to the other side's score, or deducted from the revokers'",
        REVOKE_SCORES,
    ),
    CLAIM_OPTION,
    UNIT_OPTION,
)
RECORD_KEYS = ("target", "honours", "revokes", "revoke_penalty")
# long: the long whist page (game of 10, honours); short: the short whist page (game of 5, no honours).
PRESETS: dict[str, dict[str, Any]] = {
    "long": {"target": 10, "honours": True},
    "short": {"target": 5, "honours": False},
}


MAX_REVOKE_PENALTY = 100
# With penalties deducted a score can fall, so no count of deals is sure to end a game: one
# that lasts this many times the longest game without deductions ends unfinished (no winner).
DEDUCT_DEALS = 8


@dataclass(frozen=True)
class WhistRules(DealtRules):
    """One full set of Whist rules. Build with :meth:`make` or :meth:`from_record`."""

    target: int = 10
    honours: bool = True
    revokes: bool = False
    revoke_penalty: int = 3
    revoke_score: str = "add"
    claim: float = 1.0
    unit: str = "game"
    kind = WHIST
    players = 4

    def __post_init__(self) -> None:
        # a deal's penalties are logged as int16: at most MAX_REVOKES revokes of 100 points fit
        if not 0 <= self.revoke_penalty <= MAX_REVOKE_PENALTY:
            raise RuleError(f"rule revoke_penalty={self.revoke_penalty}: expected 0 to {MAX_REVOKE_PENALTY}")
        if self.revoke_score not in REVOKE_SCORES:
            raise RuleError(
                f"rule revoke_score={self.revoke_score!r}: expected one of {', '.join(REVOKE_SCORES)}"
            )
        check_claim(self.claim)
        if self.unit not in UNITS:
            raise RuleError(f"rule unit={self.unit!r}: expected one of {', '.join(UNITS)}")

    @classmethod
    def make(cls, preset: str = "long", players: int | None = None, **overrides: Any) -> WhistRules:
        """Preset first, then each override, e.g. ``target=7``; Whist is for four players."""
        if preset not in PRESETS:
            raise RuleError(f"unknown preset {preset!r}{near(preset, PRESETS)} (known: {', '.join(PRESETS)})")
        if players is not None and players != 4:
            raise RuleError(f"players={players}: Whist is for four players")
        return cls(**resolve(OPTIONS, {**PRESETS[preset], **overrides}))

    @classmethod
    def from_record(cls, rules: Any) -> WhistRules:
        return cls(**resolve_record_rules(OPTIONS, RECORD_KEYS, rules))

    @property
    def title(self) -> str:
        return "Whist"

    def to_record(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "honours": self.honours,
            "revokes": self.revokes,
            "revoke_penalty": self.revoke_penalty,
        }

    def describe(self) -> str:
        game = {"revoke_score": self.revoke_score, "claim": self.claim, "unit": self.unit}
        return describe({**self.to_record(), **game})

    # -- DealtRules
    @property
    def teams_tuple(self) -> tuple[int, ...]:
        return (0, 1, 0, 1)

    def pack(self) -> list[int]:
        return pack_of("23456789TJQKA")

    @property
    def min_deal_points(self) -> int:
        return 1  # the side with seven tricks or more scores at least one

    def max_deals(self) -> int:
        bound = super().max_deals()
        if self.revoke_score == "deduct" and self.revokes and self.unit == "game":
            return DEDUCT_DEALS * bound
        return bound

    def _extra_array(self, r) -> None:
        r[R_HONOURS] = self.honours
        r[R_PENALTY] = self.revoke_penalty
        r[R_DEDUCT] = REVOKE_SCORES.index(self.revoke_score)
