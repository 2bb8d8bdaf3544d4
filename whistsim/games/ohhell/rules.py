"""Oh Hell rule options, presets and the schedule of rounds they imply (docs/rules.md, Oh Hell)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ...core.options import Option, RuleError, describe, near, resolve
from .engine import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    N_RULES,
    R_CARDS,
    R_HOOK,
    R_PER_TRICK,
    R_PLAYERS,
    R_RANKS,
    R_ROUNDS,
    R_SCORING,
    R_SUITS,
    SCORINGS,
)

SCHEDULES = ("down-up", "up", "down", "fixed")
NO_TRUMP_ROUNDS = ("off", "largest")

OPTIONS: tuple[Option, ...] = (
    Option("players", "int", 4, "number of players, 3 to 7", tuple(range(3, MAX_PLAYERS + 1))),
    Option("schedule", "str", "down-up", "hand sizes round by round: down-up (largest to one and back), up, "
           "down, or fixed (every round the same size)", SCHEDULES),
    Option("tricks", "int", 0, "the largest hand (fixed: every hand); 0: as many cards as the pack deals "
           "to each player"),
    Option("rounds", "int", 0, "schedule=fixed: rounds in a game; 0: one per player (each deals once)"),
    Option("hook", "bool", True, "the dealer, bidding last, may not bid so that the bids add up to the "
           "number of tricks", (False, True)),
    Option("no_trump_rounds", "str", "off", "off, or largest: the rounds of the largest hand are played "
           "without trumps", NO_TRUMP_ROUNDS),
    Option("scoring", "str", "ten_plus_bid", "ten_plus_bid (made: 10 + bid), trick_plus_ten (a point a "
           "trick, 10 more if made) or minus_difference (made: 10 + bid; missed: minus the difference)",
           SCORINGS),
    Option("points_per_trick", "int", 1, "trick_plus_ten and minus_difference: points per trick (OpenSpiel's "
           "points_per_trick)"),
    Option("suits", "int", 4, "suits in the pack, 1 to 4 (OpenSpiel's num_suits)", (1, 2, 3, 4)),
    Option("ranks", "int", 13, "cards per suit, the highest ones, 2 to 13 (OpenSpiel's num_cards_per_suit)",
           tuple(range(2, 14))),
)  # fmt: skip
KEYS = tuple(o.key for o in OPTIONS)


def _standard(players: int) -> dict[str, Any]:
    return {}


def _openspiel(players: int) -> dict[str, Any]:
    # OpenSpiel's oh_hell: one hand, a card always turned for trump (its largest hand, from a full
    # pack), the hook, a point a trick plus 10.
    return {
        "schedule": "fixed",
        "rounds": 1,
        "tricks": 51 // players,
        "hook": True,
        "scoring": "trick_plus_ten",
    }


PRESETS = {"standard": _standard, "openspiel": _openspiel}


@dataclass(frozen=True)
class OhHellRules:
    """One full set of Oh Hell rules. Build with :meth:`make` or :meth:`from_record`."""

    players: int = 4
    schedule: str = "down-up"
    tricks: int = 0
    rounds: int = 0
    hook: bool = True
    no_trump_rounds: str = "off"
    scoring: str = "ten_plus_bid"
    points_per_trick: int = 1
    suits: int = 4
    ranks: int = 13

    def __post_init__(self) -> None:
        if not 3 <= self.players <= MAX_PLAYERS:
            raise RuleError(f"rule players={self.players}: Oh Hell takes 3 to {MAX_PLAYERS} players")
        cards = self.suits * self.ranks
        if cards < self.players:
            raise RuleError(f"rules suits={self.suits}, ranks={self.ranks}: {cards} cards cannot deal "
                            f"one to each of {self.players} players")  # fmt: skip
        if not 0 <= self.tricks <= cards // self.players:
            raise RuleError(f"rule tricks={self.tricks}: expected 0 to {cards // self.players} "
                            f"({cards} cards, {self.players} players)")  # fmt: skip
        if self.schedule != "fixed" and self.rounds != 0:
            raise RuleError(f"rule rounds={self.rounds}: only schedule=fixed takes a number of rounds")
        if not 0 <= self.rounds <= MAX_ROUNDS:
            raise RuleError(f"rule rounds={self.rounds}: expected 0 to {MAX_ROUNDS}")
        if not 0 <= self.points_per_trick <= 1000:
            raise RuleError(f"rule points_per_trick={self.points_per_trick}: expected 0 to 1000")

    @classmethod
    def make(cls, preset: str = "standard", players: int | None = None, **overrides: Any) -> OhHellRules:
        """Preset first, then ``players``, then each override, e.g. ``scoring="trick_plus_ten"``."""
        if preset not in PRESETS:
            raise RuleError(f"unknown preset {preset!r}{near(preset, PRESETS)} (known: {', '.join(PRESETS)})")
        if players is not None:
            overrides = {**overrides, "players": players}
        n = resolve(OPTIONS, {k: v for k, v in overrides.items() if k == "players"})["players"]
        return cls(**resolve(OPTIONS, {**PRESETS[preset](n), **overrides}))

    @classmethod
    def from_record(cls, rules: Any) -> OhHellRules:
        """Rules written out in full, as docs/records.md requires."""
        if not isinstance(rules, dict):
            raise RuleError("'rules' must be an object")
        return cls(**resolve(OPTIONS, rules, strict_complete=True, json_types=True))

    def to_record(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        return describe(self.to_record())

    # -- derived
    @property
    def cards(self) -> int:
        return self.suits * self.ranks

    @property
    def largest(self) -> int:
        """The largest hand of the schedule (every hand, when fixed)."""
        return self.tricks or self.cards // self.players

    def sizes(self) -> list[int]:
        """Cards per hand, round by round."""
        top = self.largest
        if self.schedule == "fixed":
            return [top] * (self.rounds or self.players)
        down = list(range(top, 0, -1))
        if self.schedule == "down":
            return down
        if self.schedule == "up":
            return down[::-1]
        return down + down[::-1][1:]  # one card once, then back up

    def no_trump(self) -> list[bool]:
        """Rounds played without trumps by rule (a round also has none when no card is left to turn)."""
        top = self.largest
        return [self.no_trump_rounds == "largest" and n == top for n in self.sizes()]

    def max_moves(self) -> int:
        """Moves in a game: every player's bid and cards, every round."""
        return sum(self.players * (1 + n) for n in self.sizes())

    def pack(self) -> list[int]:
        """The cards, in code order: the highest ``ranks`` of the first ``suits`` suits (C D H S)."""
        return [s * 13 + r for s in range(self.suits) for r in range(13 - self.ranks, 13)]

    def deck(self) -> np.ndarray:
        return np.array(self.pack(), np.int8)

    def to_array(self) -> np.ndarray:
        r = np.zeros(N_RULES, np.int64)
        r[R_PLAYERS] = self.players
        r[R_ROUNDS] = len(self.sizes())
        r[R_HOOK] = self.hook
        r[R_SCORING] = SCORINGS.index(self.scoring)
        r[R_PER_TRICK] = self.points_per_trick
        r[R_SUITS] = self.suits
        r[R_RANKS] = self.ranks
        r[R_CARDS] = self.cards
        return r

    def openspiel_params(self) -> dict[str, Any]:
        """The parameters of OpenSpiel's ``oh_hell`` that play these rules (its games are one
        hand, always with a turned card, with the hook, scored a point a trick plus 10 or, with
        ``off_bid_penalty``, minus the difference); RuleError when no parameters do."""
        why = []
        if self.schedule != "fixed" or len(self.sizes()) != 1:
            why.append("a game of one round (schedule=fixed, rounds=1)")
        if not self.hook:
            why.append("the hook (hook=true)")
        if self.scoring == "ten_plus_bid":
            why.append("scoring trick_plus_ten or minus_difference")
        if self.players * self.largest >= self.cards or self.no_trump_rounds != "off":
            why.append("a card left to turn for trump (tricks below cards / players, no_trump_rounds=off)")
        if why:
            raise RuleError("OpenSpiel's oh_hell needs " + "; ".join(why))
        return {"players": self.players, "num_suits": self.suits, "num_cards_per_suit": self.ranks,
                "num_tricks_fixed": self.largest, "off_bid_penalty": self.scoring == "minus_difference",
                "points_per_trick": self.points_per_trick}  # fmt: skip
