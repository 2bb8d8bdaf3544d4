"""Welsh Whist players, compiled into the kernel by a static switch on their id.

The interface: a strategy is a Numba function ``decide(v) -> int``. ``v`` is a
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

Numba never reuses a cached kernel that takes a function as an argument, so
built-in strategies are chosen by an integer id here; the batch kernel stays
cached. Add a built-in player: write its module with ``PARAMS`` (``cheat`` and
``challenge`` first) and an ``@njit(inline="always") decide(v)`` for turns and
honest answers that hands the view's records to plain ``@njit(cache=True)``
functions (compiled once, linked everywhere: inlining them all would make the
kernel slow to compile), then list it in ``BUILTINS`` and in the switch below.
A user's own function gets a kernel of its own (``games.welsh.play``).
"""

import re

import numpy as np
from numba import njit, typeof
from numba.core import types
from numba.core.errors import NumbaError

from ...games.welsh.engine import CHALLENGE, FOLLOW, PASS, S_SEAT, STATE_DTYPE, seat_view
from . import cheater, common, counter, greedy, hoarder, hunter, pimc, random

BUILTINS = {
    "random": random,
    "greedy": greedy,
    "hunter": hunter,
    "hoarder": hoarder,
    "counter": counter,
    "cheater": cheater,
    "pimc": pimc,
}
RANDOM, GREEDY, HUNTER, HOARDER, COUNTER, CHEATER, PIMC = range(7)


@njit(cache=True, inline="always")  # a call would copy the view: inline the switch
def decide(sid, v):
    """The decision of strategy ``sid`` for the seat that ``v`` views."""
    t, own = v.table, v.own
    if v.phase == CHALLENGE:
        return common.challenge(t, own, v.seat)
    if v.phase == FOLLOW and common.cheats(t, own):
        return PASS
    if sid == GREEDY or sid == CHEATER:
        return greedy.decide(v)
    if sid == COUNTER:
        return counter.decide(v)
    if sid == HUNTER:
        return hunter.decide(v)
    if sid == HOARDER:
        return hoarder.decide(v)
    if sid == PIMC:
        return pimc.decide(v)
    return random.decide(v)


@njit(cache=True)
def decide_builtin(sid, v):
    """:func:`decide` as a call, for kernels built around a user's function."""
    return decide(sid, v)


@njit(cache=True)
def decide_state(buf):
    """What the player owing the next decision in ``buf[0]`` would decide, by its strategy."""
    g = buf[0]
    seat = g.table.s[S_SEAT]
    return decide(g.seats[seat].strategy, seat_view(g, seat))


def check_user(fn) -> str | None:
    """Why a user's ``@njit`` function cannot be a Welsh Whist strategy (None: it can)."""
    user = fn

    @njit
    def probe(buf, seat):
        return user(seat_view(buf[0], seat))

    buf = np.zeros(1, STATE_DTYPE)
    try:
        probe.compile((typeof(buf), types.int64))
    except NumbaError as e:
        return _compile_error(str(e))
    ret = probe.overloads[next(iter(probe.overloads))].signature.return_type
    if not isinstance(ret, types.Integer):
        return f"it returns {ret}, not an integer action"
    return None


def _compile_error(text: str) -> str:
    """Numba's typing error in one line: the reason, and the user's line that caused it."""
    lines = [x.strip() for x in text.splitlines()]
    body = [x for x in lines if x and not x.startswith(("Failed in", "During:"))]
    reason = body[0] if body else "Numba cannot compile it"
    if reason.endswith("signature:"):
        reason += " " + next((x.lstrip("> ") for x in body if x.startswith(">>>")), "")
    reason = re.sub(r"WelshView\(.*", "WelshView", reason)
    reason = reason if len(reason) <= 160 else reason[:157] + "..."
    for i, x in enumerate(lines):
        m = re.match(r'File "(.*)", line (\d+):', x)
        if m and "<string>" not in x and "^" in lines[i + 1 : i + 8]:
            caret = lines.index("^", i + 1)
            return f"{reason} (line {m.group(2)}: {lines[caret - 1]})"
    return reason
