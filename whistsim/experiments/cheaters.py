"""One model of cheating at Welsh Whist: the family of cheat policies and the cheater's best response.

A cheater passes falsely (claims he cannot follow suit when he can). Which cheater to judge a challenge
rule by is a choice: a rule that deters a cheater at a fixed rate may not deter one who cheats only
late in a deal, or only to save a Ten. So both the cheating study (studies/cheating.py,
experiments/cheating.toml) and the claims (claims/welsh.py, its cheating section) judge a rule by the
cheater's best response over the same family of policies, with one control for picking the best of
many: every policy's 95% interval is widened for the family (Bonferroni, each at 1 - 0.05/m), so the
interval of the best response, [the highest widened low, the highest widened high], covers the best
policy's true gain with at least 95% confidence however the best was picked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from ..core.stats import Z95
from ..core.strategy import parse_spec
from .spec import fmt_value

HONEST = "0"  # the cheat rate of a player who never passes falsely
RATES = ("0.1", "0.25", "0.5", "1", "smart")  # crude cheaters: a fixed rate, or 'smart'
HANDS = (2, 4, 8, 99)  # cheat_hand: cheat only holding at most this many cards (99: any hand)
STAKES = (1, 10)  # cheat_stake: only to keep a card worth at least this (1: any card; 10: a Ten or Taffy)
WEIGHS = (0, 0.1, 0.3)  # cheat_weigh: only when that card is worth more than this share of the hand
POLICY = "policy,cheat_hand={h},cheat_stake={s},cheat_weigh={k}"
POLICY_PARAMS = ("cheat_hand", "cheat_stake", "cheat_weigh")
FAMILY: tuple[str, ...] = RATES + tuple(
    POLICY.format(h=h, s=s, k=k) for h in HANDS for s in STAKES for k in WEIGHS
)
STRENGTHS = ("greedy", "counter")  # the players that take every policy of the family
CHALLENGERS = ("never", "always", "0.5", "smart")  # how the honest players challenge, under a rule
# A cure's margin: a cheater who is shown to gain less than a point a game (1.4% of a fair share of 72)
# is not worth the risk; one shown to gain anything at all is not cured, whatever the margin.
MARGIN = 1.0

PAYS = "cheating pays"  # the best cheater is shown to gain
HONEST_BEST = "honesty is best"  # every cheater is shown to lose
SMALL = "no cheater gains a point a game"  # every cheater shown below the margin, not all below 0
UNDECIDED = "undecided at this n"


def player(strength: str, policy: str, challenge: str | None = None) -> str:
    """The player spec of one cheater (or, with ``HONEST``, of an honest player)."""
    return f"{strength}:cheat={policy}" + (f",challenge={challenge}" if challenge is not None else "")


def policy_of(spec: str) -> tuple[str, str]:
    """A seat's player -> its strength and cheat policy, as the family writes it:
    ``greedy:cheat=policy,cheat_hand=2.0,...,challenge=always`` -> ``("greedy", "policy,cheat_hand=2,...")``."""
    s = parse_spec(spec)
    cheat = fmt_value(s.params.get("cheat", "smart" if s.name == "cheater" else 0))  # each player's default
    if cheat == "policy":
        cheat += "".join(f",{k}={fmt_value(s.params[k])}" for k in POLICY_PARAMS if k in s.params)
    return str(s.name), cheat


_RATE_WORDS = {
    "0": "never passes falsely (plays honestly)",
    "0.1": "passes falsely at one chance in ten",
    "0.25": "passes falsely at one chance in four",
    "0.5": "passes falsely at half his chances",
    "1": "passes falsely at every chance",
    "smart": "passes falsely only when following would throw a Ten or a Taffy onto a trick he cannot win",
}
_WEIGH_WORDS = {0.1: "a tenth", 0.3: "three tenths", 0.5: "half"}


def words(policy: str) -> str:
    """A cheat policy in words a card player reads: "passes falsely when ..."."""
    if policy in _RATE_WORDS:
        return _RATE_WORDS[policy]
    if not policy.startswith("policy"):
        return f"passes falsely at a rate of {policy}"
    p = dict(x.split("=", 1) for x in policy.split(",")[1:])
    hand, stake, weigh = (
        float(p.get("cheat_hand", 99)),
        float(p.get("cheat_stake", 10)),
        float(p.get("cheat_weigh", 0)),
    )
    when = (
        "when following would throw a Ten or a Taffy onto a trick he cannot win"
        if stake >= 10
        else "whenever he cannot win the trick"
        if stake >= 1
        else "whenever he can follow"
    )
    text = f"passes falsely {when}"
    if hand < 13:
        text += f", holding at most {hand:g} card{'s' if hand != 1 else ''}"
    if weigh > 0:
        share = _WEIGH_WORDS.get(weigh, f"{weigh:g} times")
        text += f", and only if the card kept is worth more than {share} of his hand"
    return text


def challenger_words(challenge: str) -> str:
    return {
        "never": "never challenge",
        "always": "always challenge",
        "0.5": "challenge half the time",
        "smart": "challenge when counting the cards says it pays",
    }.get(challenge, f"challenge at rate {challenge}")


@dataclass(frozen=True)
class Gain:
    """A cheater's gain over the same seat playing honestly on the same deals: mean, 95% interval, n."""

    mean: float
    low: float
    high: float
    n: int

    @staticmethod
    def of(x: Any) -> Gain:
        """From anything with ``mean``, ``low``, ``high`` and ``n`` (a stats.Estimate, a claims Figure)."""
        return Gain(float(x.mean), float(x.low), float(x.high), int(x.n))


def widen(g: Any, m: int) -> Gain:
    """The 95% interval widened for the best of ``m`` settings (Bonferroni: each at 1 - 0.05/m)."""
    g = Gain.of(g)
    se = (g.high - g.low) / (2 * Z95) if g.n >= 2 else math.nan
    if m <= 1 or not math.isfinite(se) or se == 0:
        return g  # one setting, or a gain exactly the same in every game: nothing to widen
    half = NormalDist().inv_cdf(1 - 0.025 / m) * se
    return Gain(g.mean, g.mean - half, g.mean + half, g.n)


@dataclass(frozen=True)
class BestResponse:
    """The cheater's best response over a family: the best policy, the interval of the best gain, a verdict."""

    policy: str  # the policy with the highest mean gain
    value: Gain  # its mean; [highest widened low, highest widened high]: covers the best true gain
    widened: dict[str, Gain]  # every policy's gain, widened for the family
    raw: dict[str, Gain]  # every policy's gain with its own 95% interval
    margin: float
    verdict: str  # PAYS, HONEST_BEST, SMALL or UNDECIDED

    @property
    def tried(self) -> int:
        return len(self.raw)

    @property
    def cured(self) -> bool | None:
        """Is cheating cured (no cheater shown to gain, every one shown below the margin)? None: undecided."""
        return False if self.verdict == PAYS else True if self.verdict in (HONEST_BEST, SMALL) else None


def best_response(gains: Mapping[str, Any], margin: float = MARGIN) -> BestResponse:
    """The cheater's best response over ``gains`` (policy -> its paired gain over honest play).

    Cheating pays when some policy's widened interval lies above 0; honesty is best when every one lies
    below 0; no cheater gains the margin when every one lies below it; otherwise undecided.
    """
    if not gains:
        raise ValueError("a best response needs at least one cheat policy")
    raw = {p: Gain.of(g) for p, g in gains.items()}
    widened = {p: widen(g, len(raw)) for p, g in raw.items()}
    best = max(raw, key=lambda p: raw[p].mean)
    value = Gain(
        raw[best].mean,
        max(w.low for w in widened.values()),
        max(w.high for w in widened.values()),
        min(g.n for g in raw.values()),
    )
    if value.low > 0:
        verdict = PAYS
    elif value.high < 0:
        verdict = HONEST_BEST
    elif value.high < margin:
        verdict = SMALL
    else:
        verdict = UNDECIDED
    return BestResponse(best, value, widened, raw, margin, verdict)
