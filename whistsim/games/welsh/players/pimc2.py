"""``pimc2``: pimc that never leads while the stock lasts: it draws on every turn until the
stock is empty and spends the search it saves there on its answers and on its turns after
the stock (three times pimc's play-outs per searched decision, at less CPU time per decision).

Why: pimc's search of its turns while the stock lasts loses points against drawing on
each of them (``results/draw_phase_pimc``): a lead looks good in open sampled deals whose
play-outs cannot punish the cards it gives away, while what search gains, it gains in
answering and after the stock. Its own play-outs already draw for it while the stock lasts
(pimc's ``model`` play-outs), so the plan it searches is the plan it plays.

Every decision it searches is pimc's search (``pimc.search``: deals of the unseen cards
consistent with its seat's view, every candidate played out on the same deals, a candidate
other than the play-out policy's own taken only when it is better by ``caution`` standard
errors), with ``budget`` play-outs. ``stock=search`` searches its turns while the stock
lasts too: it is then pimc with this budget. It reads only its seat's view. The measured
result against pimc: docs/welsh_search.md.
"""

from dataclasses import replace

from numba import njit

from ....core.strategy import Param
from ..engine import DRAW, TURN
from .pimc import PARAMS as PIMC_PARAMS
from .pimc import search as pimc_search

NAME = "pimc2"
# Slots 2-5 and 7 are pimc's (budget, playout, caution, aim; race): pimc.search reads them from here.
PARAMS = {
    **{k: v for k, v in PIMC_PARAMS.items() if k not in ("search", "race")},
    "budget": replace(PIMC_PARAMS["budget"], default=300.0,
                      doc="play-outs per searched decision, shared among its candidates"),
    "stock": Param("draw", "its turns while the stock lasts: draw (never lead), or search them as pimc "
                   "does", {"draw": 0.0, "search": 1.0}, numbers=False),
    "race": PIMC_PARAMS["race"],
}  # fmt: skip
P_STOCK = 6
SEARCH = 1.0


@njit(cache=True, inline="always")
def decide(v):
    if v.phase == TURN and v.stock_left > 0 and v.own.params[P_STOCK] != SEARCH:
        return DRAW
    return pimc_search(v.table, v.own, v.seat)
