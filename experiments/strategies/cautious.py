"""``cautious``: an example of a user's own Welsh Whist strategy.

Play it in seat 0 against two random players, or with its parameter changed::

    whistsim simulate --strategy 0=experiments/strategies/cautious.py:decide --n 10000
    whistsim simulate --strategy 0=experiments/strategies/cautious.py:decide:aces=0 --n 10000
    whistsim tournament --strategies experiments/strategies/cautious.py:decide,greedy,hoarder --n 6000

A strategy is one Numba function ``decide(v) -> int``. ``v`` is what its seat
may know (``whistsim.games.welsh.engine.WelshView``):

- ``v.seat``, ``v.players``, ``v.phase`` (TURN, FOLLOW or CHALLENGE),
  ``v.stock_left``, ``v.leader``, ``v.led_suit``, ``v.trick_len``;
- ``v.table``: the public record: ``rules``, ``hand_n`` (cards per hand),
  ``won`` (winnings piles by card type), ``played`` (cards played so far),
  ``trick_card``/``trick_seat``, ``passed``, ``void`` (passed on a suit, no
  cards taken since), ``exposed``, ``drawn``, ``led`` and the scalars ``s``;
- ``v.own``: its own record: ``hand`` (counts by card type, 52 the Taffy),
  ``bits`` (per suit, bit r set when rank r is held), ``suit_n``, ``types``,
  ``params`` (the values of ``PARAMS`` below, in order) and ``rng`` (its random
  stream: ``whistsim.core.rng.uniform(v.own.rng, 0)``).

It returns an action (``whistsim.games.welsh.engine``): a card code
``suit * 13 + rank`` (ranks 0..12 are 2..A, suits C D H S; 52 a Taffy
answering), ``TAFFY_LEAD + suit``, ``DRAW``, ``PASS``, ``NO_CHALLENGE`` or
``CHALLENGE_SEAT + seat``. Every decision is checked by the rules engine: an
illegal one stops the run with the game, the seat and the decision named.

Cautious play: while the stock lasts it draws, leading only an Ace (no card
beats an Ace led: of equal cards the first played wins); when it must lead it
plays an Ace if it has one, else its cheapest card; it answers with its
cheapest card and never challenges.
"""

from numba import njit

from whistsim.core.cards import ACE
from whistsim.core.strategy import Param
from whistsim.games.welsh.engine import CHALLENGE, DRAW, FOLLOW, NO_CHALLENGE
from whistsim.games.welsh.players.common import follow_low, lead_low
from whistsim.games.welsh.rules import R_SCORING

PARAMS = {"aces": Param(1.0, "1: lead Aces while the stock lasts; 0: only draw", low=0.0, high=1.0)}


@njit
def decide(v):
    own = v.own
    scoring = v.table.rules[R_SCORING]
    if v.phase == CHALLENGE:
        return NO_CHALLENGE
    if v.phase == FOLLOW:
        return follow_low(own, v.led_suit, scoring)  # PASS when nothing follows
    if own.types == 0:
        return DRAW
    if v.stock_left == 0 or own.params[0] > 0:
        for suit in range(4):
            if own.bits[suit] & (1 << ACE):
                return suit * 13 + ACE
    if v.stock_left > 0:
        return DRAW
    return lead_low(own, scoring)
