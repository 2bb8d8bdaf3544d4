"""Welsh Whist players, listed once: a player's id is its place in ``PLAYERS``.

The interface: a player is a module with ``NAME``, ``PARAMS`` (``cheat`` and
``challenge`` first) and a Numba function ``decide(v) -> int``. ``v`` is a
``games.welsh.engine.WelshView`` of what its seat may know: ``seat``,
``players``, ``phase`` (TURN, FOLLOW or CHALLENGE), ``stock_left``, ``leader``,
``led_suit``, ``trick_len``, ``table`` (the public record: rules, cards per
hand, winnings piles, cards played, the trick, passes and voids, false passes
exposed) and ``own`` (its hand as counts, per-suit rank bits, its parameters
``own.params`` and its random stream ``own.rng``, used as ``uniform(own.rng, 0)``).
Never another hand, never the stock. It returns an action code of
``games.welsh.engine``: a card 0..52 to lead or answer with (52: a Taffy
answering), ``TAFFY_LEAD + suit``, ``DRAW``, ``PASS``, ``NO_CHALLENGE`` or
``CHALLENGE_SEAT + seat``. The kernel checks every decision with the engine.

:func:`prelude` takes the decisions every player takes alike (challenges, and
false passes by the ``cheat`` parameter); ``decide`` is asked only for the rest.
The kernel's switch on ids is generated from ``PLAYERS`` (``whistsim.harness``),
with only the players seated in a run. Add a player: write its module, with an
``@njit(inline="always") decide(v)`` that hands the view's records to plain
``@njit(cache=True)`` helpers, and append it to ``PLAYERS``.
"""

from numba import njit

from ..engine import CHALLENGE, FOLLOW, PASS
from . import cheater, common, counter, greedy, hoarder, hunter, pimc, pimc2, random

PLAYERS = (random, greedy, hunter, hoarder, counter, cheater, pimc, pimc2)


def prelude_used(rules) -> bool:
    """Whether :func:`prelude` can ever decide under these rules: with revokes off and no
    challenge rule it never does, and the kernel leaves it out (the same play, compiled faster)."""
    return bool(rules.revokes) or rules.challenge != "none"


@njit(cache=True, inline="always")
def prelude(v):
    """The decision any Welsh player takes by its policy parameters, else -1."""
    if v.phase == CHALLENGE:
        return common.challenge(v.table, v.own, v.seat)
    if v.phase == FOLLOW and common.cheats(v.table, v.own):
        return PASS
    return -1
