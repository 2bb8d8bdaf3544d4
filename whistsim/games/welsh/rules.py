"""Welsh Whist rule options, presets and the stock they imply (docs/rules.md section 1)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ...core.cards import TAFFY
from ...core.options import Option, RuleError, describe, near, resolve

SCORINGS = ("standard", "five_penalty", "piles")
CHALLENGES = ("none", "parlett", "akagiri")
MAX_PLAYERS = 12
MAX_PACKS = 16  # hand counts are int16 and the stock is indexed by int16
MAX_TAFFIES = 64

OPTIONS: tuple[Option, ...] = (
    Option("players", "int", 3, "number of players, 2 to 12"),
    Option("packs", "int", 2, "52-card packs shuffled into the stock"),
    Option("taffies", "int", 4, "Taffies (jokers) added to the stock"),
    Option(
        "taffy_rank",
        "number",
        10.5,
        "10.5: between Ten and Jack (Parlett); 10: equal to a Ten (Akagiri 1995)",
        (10.5, 10.0),
    ),
    Option(
        "scoring",
        "str",
        "standard",
        "standard, five_penalty (each Five -5) or piles (pile-height multipliers)",
        SCORINGS,
    ),
    Option(
        "revokes", "bool", False, "may a player who can follow pass anyway (a false pass)?", (False, True)
    ),
    Option(
        "challenge",
        "str",
        "none",
        "none, parlett (leader challenges) or akagiri (winner challenges)",
        CHALLENGES,
    ),
)
KEYS = tuple(o.key for o in OPTIONS)


def _parlett(players: int) -> dict[str, Any]:
    # Parlett: two full packs and (at least) four Taffies, whatever the number of players.
    return {"packs": 2, "taffies": 4, "taffy_rank": 10.5}


def _akagiri(players: int) -> dict[str, Any]:
    # Akagiri 1995: 3-4 players two packs, one pack more per two players; two jokers per pack.
    # Extended down by choice: 2 players use one pack.
    packs = (players + 1) // 2
    return {"packs": packs, "taffies": 2 * packs, "taffy_rank": 10.0}


PRESETS = {"parlett": _parlett, "akagiri": _akagiri}

# Positions of the rules in the int64 array the kernels read.
R_PLAYERS, R_PACKS, R_TAFFIES, R_TAFFY_EQUALS_TEN, R_SCORING, R_REVOKES, R_CHALLENGE = range(7)
N_RULES = 7


@dataclass(frozen=True)
class WelshRules:
    """One full set of Welsh Whist rules. Build with :meth:`make` or :meth:`from_record`."""

    players: int = 3
    packs: int = 2
    taffies: int = 4
    taffy_rank: float = 10.5
    scoring: str = "standard"
    revokes: bool = False
    challenge: str = "none"

    def __post_init__(self) -> None:
        if not 2 <= self.players <= MAX_PLAYERS:
            raise RuleError(f"rule players={self.players}: Welsh Whist takes 2 to {MAX_PLAYERS} players")
        if not 1 <= self.packs <= MAX_PACKS:
            raise RuleError(f"rule packs={self.packs}: expected 1 to {MAX_PACKS} packs")
        if not 0 <= self.taffies <= MAX_TAFFIES:
            raise RuleError(f"rule taffies={self.taffies}: expected 0 to {MAX_TAFFIES} Taffies")

    @classmethod
    def make(cls, preset: str = "parlett", players: int | None = None, **overrides: Any) -> WelshRules:
        """Preset first, then ``players``, then each override, e.g. ``challenge="akagiri"``."""
        if preset not in PRESETS:
            raise RuleError(f"unknown preset {preset!r}{near(preset, PRESETS)} (known: {', '.join(PRESETS)})")
        if players is not None:
            overrides = {**overrides, "players": players}
        n = resolve(OPTIONS, {k: v for k, v in overrides.items() if k == "players"})["players"]
        values = {**PRESETS[preset](n), **overrides}
        return cls(**resolve(OPTIONS, values))

    @classmethod
    def from_record(cls, rules: Any) -> WelshRules:
        """Rules written out in full, as docs/records.md requires."""
        if not isinstance(rules, dict):
            raise RuleError("'rules' must be an object")
        return cls(**resolve(OPTIONS, rules, strict_complete=True, json_types=True))

    def to_record(self) -> dict[str, Any]:
        d = asdict(self)
        d["taffy_rank"] = 10.5 if self.taffy_rank == 10.5 else 10
        return d

    def to_array(self) -> np.ndarray:
        r = np.zeros(N_RULES, np.int64)
        r[R_PLAYERS] = self.players
        r[R_PACKS] = self.packs
        r[R_TAFFIES] = self.taffies
        r[R_TAFFY_EQUALS_TEN] = self.taffy_rank == 10.0
        r[R_SCORING] = SCORINGS.index(self.scoring)
        r[R_REVOKES] = self.revokes
        r[R_CHALLENGE] = CHALLENGES.index(self.challenge)
        return r

    @property
    def stock_size(self) -> int:
        return 52 * self.packs + self.taffies

    def deck(self) -> np.ndarray:
        """The unshuffled stock: ``packs`` packs in code order, then the Taffies."""
        return np.concatenate(
            [np.tile(np.arange(52, dtype=np.int8), self.packs), np.full(self.taffies, TAFFY, np.int8)]
        )

    def describe(self) -> str:
        return describe(self.to_record())
