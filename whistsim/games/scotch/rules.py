"""Scotch Whist (Catch the Ten) and French Whist rule options (Catch the Ten; docs/rules.md section 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.cards import card
from ...core.options import Option, RuleError, describe, near, resolve
from ..dealt.rules import (
    CLAIM_OPTION,
    R_FRENCH,
    R_LOSS,
    SCOTCH,
    UNIT_OPTION,
    UNITS,
    DealtRules,
    check_claim,
    pack_of,
    resolve_record_rules,
)

ODD_SIX = ("remove", "aside")
LOSSES = ("side", "player")
SIX_OF_SPADES = card(4, 3)

# Sides Catch the Ten allows, by number of players (its "POSITION OF THE PLAYERS").
ARRANGEMENTS: dict[int, dict[str, tuple[int, ...]]] = {
    2: {"solo": (0, 1)},
    3: {"solo": (0, 1, 2)},
    4: {"pairs": (0, 1, 0, 1)},
    5: {"solo": (0, 1, 2, 3, 4)},
    6: {"pairs": (0, 1, 2, 0, 1, 2), "threes": (0, 1, 0, 1, 0, 1)},
    7: {"solo": (0, 1, 2, 3, 4, 5, 6)},
    8: {"fours": (0, 1, 0, 1, 0, 1, 0, 1), "pairs": (0, 1, 2, 3, 0, 1, 2, 3)},
}

OPTIONS: tuple[Option, ...] = (
    Option("players", "int", 4, "number of players, 2 to 8"),
    Option(
        "teams",
        "int_list",
        (),
        "side of each seat (0,1,0,1) or a name: solo, pairs, threes, fours; empty: the first the source lists",
    ),
    Option(
        "odd_six",
        "str",
        "remove",
        "5 or 7 players: remove the six of spades, or lay the 36th card aside",
        ODD_SIX,
    ),
    Option(
        "french",
        "bool",
        False,
        "French Whist: the ten of diamonds counts 10 to whoever wins it",
        (False, True),
    ),
    Option("target", "int", 41, "points that win the game"),
    Option("revokes", "bool", False, "may a player who can follow suit play another suit?", (False, True)),
    Option(
        "revoke_loss",
        "str",
        "side",
        "a claimed revoke loses the game for the revoker's side, or the player alone",
        LOSSES,
    ),
    CLAIM_OPTION,
    UNIT_OPTION,
)
TEAMS_OPTION = OPTIONS[1]
RECORD_KEYS = ("players", "teams", "odd_six", "french", "target", "revokes")
PRESETS: dict[str, dict[str, Any]] = {"scotch": {"french": False}, "french": {"french": True}}


def _canonical(teams: tuple[int, ...]) -> tuple[int, ...]:
    """Sides relabelled in order of first appearance: the partition alone."""
    labels: dict[int, int] = {}
    return tuple(labels.setdefault(x, len(labels)) for x in teams)


def _named_teams(value: Any, players: int) -> Any:
    """``"pairs"`` -> the source's arrangement for ``players``; anything else unchanged."""
    if (
        isinstance(value, str)
        and value.strip()
        and not value.strip()[0].isdigit()
        and value.strip()[0] != "["
    ):
        name = value.strip().lower()
        known = ARRANGEMENTS.get(players, {})
        if name not in known:
            raise RuleError(
                f"rule teams={value!r}: with {players} players the sides are {', '.join(known) or 'none'}"
            )
        return known[name]
    return value


MAX_TARGET = 1000


@dataclass(frozen=True)
class ScotchRules(DealtRules):
    """One full set of Scotch (or French) Whist rules. Build with :meth:`make` or :meth:`from_record`."""

    players: int = 4
    teams: tuple[int, ...] = (0, 1, 0, 1)
    odd_six: str = "remove"
    french: bool = False
    target: int = 41
    revokes: bool = False
    revoke_loss: str = "side"
    claim: float = 1.0
    unit: str = "game"
    kind = SCOTCH

    def __post_init__(self) -> None:
        p = self.players
        if not 2 <= p <= 8:
            raise RuleError(f"rule players={p}: Scotch Whist takes 2 to 8 players")
        allowed = ARRANGEMENTS[p]
        if len(self.teams) != p:
            raise RuleError(f"rule teams={list(self.teams)}: expected a side for each of the {p} seats")
        if sorted(set(self.teams)) != list(range(max(self.teams) + 1)):
            raise RuleError(
                f"rule teams={list(self.teams)}: sides must be numbered 0, 1, ... with none skipped"
            )
        if _canonical(self.teams) not in allowed.values():
            shown = " or ".join(f"{','.join(map(str, v))} ({k})" for k, v in allowed.items())
            raise RuleError(f"rule teams={list(self.teams)}: with {p} players the sides are {shown}")
        # scores and the deal log are int16 and sized by the deals a game can last
        if not 1 <= self.target <= MAX_TARGET:
            raise RuleError(f"rule target={self.target}: expected 1 to {MAX_TARGET}")
        check_claim(self.claim)
        if self.unit not in UNITS:
            raise RuleError(f"rule unit={self.unit!r}: expected one of {', '.join(UNITS)}")

    @classmethod
    def make(cls, preset: str = "scotch", players: int | None = None, **overrides: Any) -> ScotchRules:
        """Preset first, then ``players``, then each override, e.g. ``teams="threes"``."""
        if preset not in PRESETS:
            raise RuleError(f"unknown preset {preset!r}{near(preset, PRESETS)} (known: {', '.join(PRESETS)})")
        if players is not None:
            overrides = {**overrides, "players": players}
        values = {**PRESETS[preset], **overrides}
        teams = values.pop("teams", ())
        values = resolve(OPTIONS, values)
        p = values["players"]
        if 2 <= p <= 8:
            teams = _named_teams(teams, p)
            if teams in ((), [], ""):
                teams = next(iter(ARRANGEMENTS[p].values()))
            values["teams"] = tuple(TEAMS_OPTION.parse(teams))
        return cls(**values)

    @classmethod
    def from_record(cls, rules: Any) -> ScotchRules:
        values = resolve_record_rules(OPTIONS, RECORD_KEYS, rules)
        values["teams"] = tuple(values["teams"])
        return cls(**values)

    @property
    def title(self) -> str:
        return "French Whist" if self.french else "Scotch Whist"

    def to_record(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "teams": list(self.teams),
            "odd_six": self.odd_six,
            "french": self.french,
            "target": self.target,
            "revokes": self.revokes,
        }

    def describe(self) -> str:
        game = {"revoke_loss": self.revoke_loss, "claim": self.claim, "unit": self.unit}
        return describe({**self.to_record(), **game})

    # -- DealtRules
    @property
    def teams_tuple(self) -> tuple[int, ...]:
        return self.teams

    def pack(self) -> list[int]:
        if self.players == 8:
            return pack_of("789TJQKA")
        if self.players in (5, 7) and self.odd_six == "remove":
            return pack_of("6789TJQKA", (SIX_OF_SPADES,))
        return pack_of("6789TJQKA")

    @property
    def sets(self) -> int:
        return {2: 3, 3: 2}.get(self.players, 1)

    @property
    def aside(self) -> bool:
        return self.players in (5, 7) and self.odd_six == "aside"

    @property
    def min_deal_points(self) -> int:
        # All 30 honour points are won unless one is laid aside (the Jack at most, 11).
        return 30 - 11 * self.aside

    def _extra_array(self, r) -> None:
        r[R_FRENCH] = self.french
        r[R_LOSS] = LOSSES.index(self.revoke_loss)
