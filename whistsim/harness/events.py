"""What happened, as the engines report it: the events a move causes.

An engine's ``apply`` reports each thing a move makes happen as one event row
``(kind, seat, a, b)`` into its state's event buffer, when events are switched
on (``ev_on``; simulations leave it off). Narration (:mod:`.narrator`), and anything else
that tells a deal, reads these rows: the engine alone decides what a move did.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

MAX_EVENTS = 16  # rows one move can cause, at most
EVENT_FIELDS = (("ev", np.int32, (MAX_EVENTS, 4)), ("ev_n", np.int64), ("ev_on", np.int64))

(
    DRAW,  # seat drew card a
    LEAD,  # seat led card a, naming suit b
    FOLLOW,  # seat played card a to the trick
    PASS,  # seat passed; b = 1: it could have followed (a false pass)
    REVOKE,  # seat played another suit while able to follow, in trick a (0-based over the deal)
    TRICK,  # seat won the trick: a cards, worth b (Welsh: Tens and Taffies; Scotch: honour points)
    COUNT,  # seat took card a, which counts b points
    CHALLENGE,  # seat challenged seat a; b = 1: caught revoking
    NO_CHALLENGE,  # seat did not challenge
    KEEP,  # seat, last with cards, kept a of them
    SET,  # the next set of hands is taken up; seat leads it
    OVER,  # the deal is over
) = range(12)

NAMES = ("draw", "lead", "follow", "pass", "revoke", "trick", "count", "challenge", "nochallenge", "keep",
         "set", "over")  # fmt: skip


@njit(cache=True, inline="always")
def emit(g, kind, seat, a, b):
    """Report one event into ``g``'s buffer (a record with the :data:`EVENT_FIELDS`)."""
    if g.ev_on and g.ev_n < MAX_EVENTS:
        row = g.ev[g.ev_n]
        row[0] = kind
        row[1] = seat
        row[2] = a
        row[3] = b
        g.ev_n += 1


def read_events(state) -> list[tuple[int, int, int, int]]:
    """The events in a state record's buffer, oldest first."""
    n = int(state["ev_n"])
    return [tuple(int(x) for x in row) for row in state["ev"][:n]]


def told(buf, holder, seats, actions, step) -> Iterator[tuple[int, int, list[tuple[int, int, int, int]]]]:
    """Replay legal moves from the state in ``buf``, yielding what each made happen.

    ``holder(buf)`` is the record holding the event buffer; ``step(buf, action)``
    applies one move. Yields (seat, action, events) after each move, while the
    state is as that move left it.
    """
    rec = holder(buf)
    rec["ev_on"] = 1
    try:
        for seat, a in zip(seats, actions, strict=True):
            rec["ev_n"] = 0
            step(buf, int(a))
            yield int(seat), int(a), read_events(rec)
    finally:
        rec["ev_on"] = 0
