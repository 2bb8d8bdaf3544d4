"""What Scotch Whist and Whist rules have in common: the pack, the deal, the sides.

Each game's rules class (``scotch.rules.ScotchRules``, ``whist.rules.WhistRules``)
derives from :class:`DealtRules` and says how many players, which cards, which
sides; this turns that into the int64 array the kernels read.

Rule options are of two kinds. Deal options (``RECORD_KEYS``) decide a deal and
are written in full in every record. Game options (claim chance, who pays for a
revoke, ``unit``) decide only how deals add up to a game; docs/records.md keeps them
out of a deal's record, so replay takes their defaults.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from ...core.cards import RANKS, card
from ...core.options import Option, RuleError, resolve

MAX_PLAYERS = 8
SCOTCH, WHIST = 0, 1  # rules[R_KIND]

# Positions of the rules in the int64 array the kernels read.
(
    R_KIND,
    R_PLAYERS,
    R_TEAMS,  # number of sides
    R_SETS,  # hands dealt to each player (3 for 2 players, 2 for 3, else 1)
    R_HAND,  # cards in each hand
    R_ASIDE,  # 1: one card more is shuffled, shown and laid aside
    R_FRENCH,  # the ten of diamonds counts 10
    R_TARGET,
    R_REVOKES,  # may a player who can follow play another suit?
    R_HONOURS,  # Whist: honours score
    R_PENALTY,  # Whist: revoke penalty in points
    R_LOSS,  # Scotch: a claimed revoke loses the game for the side (0) or the player (1)
    R_CLAIM,  # chance a revoke is claimed, in units of 2**-53
    R_UNIT,  # 0: play games to the target; 1: play single deals
    R_DEDUCT,  # Whist: a claimed revoke's penalty is added to the other side (0) or deducted (1)
) = range(15)
N_RULES = 15
CLAIM_ONE = 1 << 53

UNITS = ("game", "deal")
UNIT_OPTION = Option(
    "unit", "str", "game", "what one simulated game is: a whole game to the target, or a single deal", UNITS
)
# Scotch Whist and Whist: each revoke is noticed and claimed by the adversaries with this chance.
CLAIM_OPTION = Option("claim", "number", 1.0, "chance that the adversaries detect and claim a revoke, 0 to 1")


def check_claim(claim: float) -> None:
    if not 0.0 <= claim <= 1.0:
        raise RuleError(f"rule claim={claim}: expected a chance from 0 to 1")


def resolve_record_rules(
    options: tuple[Option, ...], record_keys: tuple[str, ...], rules: Any
) -> dict[str, Any]:
    """A record's ``rules``: exactly the deal options, written out in full."""
    if not isinstance(rules, dict):
        raise RuleError("'rules' must be an object")
    for key in rules:
        if key not in record_keys:
            raise RuleError(f"unknown rule {key!r} in a record (known: {', '.join(record_keys)})")
    deal = [o for o in options if o.key in record_keys]
    values = resolve(tuple(deal), rules, strict_complete=True, json_types=True)
    return {**{o.key: o.default for o in options if o.key not in record_keys}, **values}


class DealtRules(ABC):
    """The shared part of a dealt game's rules; subclasses are frozen dataclasses."""

    kind: int
    players: int
    target: int
    revokes: bool
    unit: str
    claim: float = 1.0

    # -- what subclasses define
    @property
    @abstractmethod
    def teams_tuple(self) -> tuple[int, ...]:
        """The side of each seat."""

    @abstractmethod
    def pack(self) -> list[int]:
        """The cards shuffled for each deal (with ``aside``, one more than are dealt)."""

    @property
    @abstractmethod
    def min_deal_points(self) -> int:
        """The least number of points all sides together score in one deal."""

    @property
    def sets(self) -> int:
        return 1

    @property
    def aside(self) -> bool:
        return False

    @abstractmethod
    def _extra_array(self, r: np.ndarray) -> None:
        """Game-specific entries of the rules array."""

    # -- derived
    @property
    def n_teams(self) -> int:
        return max(self.teams_tuple) + 1

    @property
    def hand(self) -> int:
        """Cards in each hand (each set of hands for 2 and 3 players)."""
        return (len(self.pack()) - self.aside) // (self.players * self.sets)

    def deck(self) -> np.ndarray:
        return np.array(self.pack(), np.int8)

    def max_deals(self) -> int:
        """A bound on deals per game: every deal scores at least ``min_deal_points``."""
        if self.unit == "deal":
            return 1
        return self.n_teams * (self.target - 1) // self.min_deal_points + 1

    def to_array(self) -> np.ndarray:
        r = np.zeros(N_RULES, np.int64)
        r[R_KIND] = self.kind
        r[R_PLAYERS] = self.players
        r[R_TEAMS] = self.n_teams
        r[R_SETS] = self.sets
        r[R_HAND] = self.hand
        r[R_ASIDE] = self.aside
        r[R_TARGET] = self.target
        r[R_REVOKES] = self.revokes
        r[R_UNIT] = UNITS.index(self.unit)
        r[R_FRENCH] = r[R_HONOURS] = r[R_PENALTY] = r[R_LOSS] = r[R_DEDUCT] = 0
        r[R_CLAIM] = min(CLAIM_ONE, round(self.claim * CLAIM_ONE))
        self._extra_array(r)
        return r

    def team_array(self) -> np.ndarray:
        t = np.zeros(MAX_PLAYERS, np.int8)
        t[: self.players] = self.teams_tuple
        return t


def pack_of(ranks: str, without: tuple[int, ...] = ()) -> list[int]:
    """Every card of the given ranks, in code order, less ``without``."""
    cards = sorted(card(RANKS.index(r), s) for s in range(4) for r in ranks)
    return [c for c in cards if c not in without]
