"""A user's strategy for the dealt games: its lowest card of the suit led, else of its first suit.
A file of the repository, not of a test's temporary folder: its kernel is cached under the hash of
its code, so a second run of the suite loads it instead of compiling it again."""

from numba import njit


@njit
def decide(v):
    for suit in range(4):
        s = v.led if v.led >= 0 and v.own.bits[v.led] != 0 else suit
        m = v.own.bits[s]
        if m:
            r = 0
            while not (m >> r) & 1:
                r += 1
            return s * 13 + r
    return -1
