"""pimc's Welsh Whist search from a test, compiled once for every test file that asks it."""

from numba import njit

from whistsim.games.welsh import engine as E
from whistsim.games.welsh.players import pimc


@njit(cache=True)
def searched(buf, seat, cands, deals, prune, lockstep):
    """``pimc.search_deals`` for ``seat`` in the deal ``buf[0]``: the index of the candidate taken
    (the candidates into ``cands``, the play-outs of each into ``deals``); the seat's stream in
    ``buf`` moves as the search moves it."""
    v = E.seat_view(buf[0], seat)
    return pimc.search_deals(v.table, v.own, v.seat, cands, deals, prune, lockstep)
