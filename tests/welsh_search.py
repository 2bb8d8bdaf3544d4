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


def twice(buf, seat, cands, deals, settings):
    """The search from the same stream under each of ``settings`` (``(prune, lockstep)`` pairs):
    each one's index taken and the seat's stream after it; the play-outs per candidate into the
    rows of ``deals``."""
    stream = buf[0]["seats"]["rng"][seat]
    start = stream[0]
    out = []
    for row, (prune, lockstep) in enumerate(settings):
        stream[0] = start
        out.append((searched(buf, seat, cands, deals[row], prune, lockstep), int(stream[0])))
    return out
