"""``pimc``: perfect-information Monte Carlo search: samples deals of the cards it has not
seen, plays each candidate decision out on every deal, and leaves its play-out policy's
own choice only for a candidate that clearly does better.

Each decision it draws ``budget / candidates`` deals of the unseen cards (other
hands of their known sizes, then the stock in a random order) consistent with
what its seat saw: with revokes forbidden a pass proves a void, so a seat that
passed on a suit gets no card of it and no Taffy until it takes cards again;
with revokes allowed a pass is only a claim and is ignored. Every candidate is
played out on every deal (the same deals for all) and scored by ``aim``: its
own points (the default: what mean points per game measure) or its points minus
the best opponent's. The first candidate is the play-out policy's own choice;
another replaces it only when its gain, deal by deal, has a lower bound
(mean - ``caution`` x standard error) above zero: the best of several noisy
means is otherwise too often a lucky one.

Racing (``race``, off by default): the deals are played one after another, and
from the 4th deal on, every 2, a candidate whose gain so far is not above zero by
``race`` standard errors is played out no more; the search ends when no
candidate but the first is left. ``race=0.5`` makes 2.7 times the decisions per
CPU second and loses 0.7 points per game against ``race=off`` (95% CI 0.2 to
1.2); ``race=0.75`` makes 2.2 times and shows no loss of a point or more (-0.39,
95% CI -0.84 to +0.06; ``race=1`` -0.63, -1.08 to -0.19; docs/welsh_search.md),
so racing costs about half a point a game and is not the default. ``race=off``
decides as if every candidate were played out on every deal: with ``aim=points`` under
standard scoring it stops playing out one that can no longer be taken whatever its
remaining deals give (a deal's gain is bounded by what the cards in no pile are worth),
and draws every deal all the same (the same decision, the same stream).

Play-outs (``playout=model``): the searching seat hoards (draws while the stock
lasts); each other seat draws as often as it has been seen to (its public draws
and leads, plus one of each), else leads as ``counter`` would, else its highest
card of Jack or better, else low; after the stock everyone plays as ``counter``;
no one cheats or challenges. ``hoarder`` and ``greedy`` play every seat so. With three
players, ``model`` play-outs, ``aim=points`` and standard scoring, the part of every
play-out after the stock is played in lockstep with the others (``lanes``, vector
instructions): the same values, decisions and stream, in about three quarters of the time.

``search=stock`` searches only its turns while the stock lasts and makes every
other decision as ``hoarder`` does: what search adds to the draw phase alone.

Candidates: on a turn, drawing, a lead no one can beat (``counter``'s), the
highest and the lowest card, and one Taffy lead naming the suit where the
fewest unseen cards beat it; when answering, the cheapest card to lose, the
cheapest winner, the cheapest winner no one still to answer can beat, the
highest card and a Taffy. Cheating and challenges follow ``cheat`` and
``challenge`` as for every player. It reads only its seat's view: the public
table and its own hand and stream.
"""

import numpy as np
from numba import njit

from ....core.bits import highest, lowest
from ....core.calls import inlined
from ....core.cards import ACE, JACK, TAFFY, TEN
from ....core.rng import next_u64, randbelow, uniform
from ....core.strategy import Param
from ..engine import (
    CHALLENGE,
    DRAW,
    FOLLOW,
    MAX_STOCK,
    NO_CHALLENGE,
    OK,
    OVER,
    PASS,
    S_BEST,
    S_BEST_POWER,
    S_LEADER,
    S_LED_SUIT,
    S_NPASS,
    S_PHASE,
    S_SEAT,
    S_STOCK,
    S_TOP,
    S_TRICK_LEN,
    S_TURNS,
    STANDARD,
    STATE_DTYPE,
    TAFFY_LEAD,
    TURN,
    can_follow,
    card_value,
    close_trick,
    draw,
    empty_hand,
    end_trick,
    next_answer,
    play_card,
    score,
    take_cards,
    try_apply,
    turn_after,
)
from ..rules import R_PACKS, R_PLAYERS, R_REVOKES, R_SCORING, R_TAFFIES, R_TAFFY_EQUALS_TEN
from .common import (
    challenge_param,
    cheapest_winner,
    cheat_param,
    follow_counting,
    follow_greedy,
    follow_low,
    lead_high,
    lead_low,
    lead_sure,
    taffy_power,
    threat,
    total,
    unseen,
)
from .counter import turn as counter_turn
from .greedy import turn as greedy_turn
from .hoarder import turn as hoarder_turn
from .lanes import PLAYERS as LANE_PLAYERS
from .lanes import ROWS as LANE_ROWS
from .lanes import lanes_array, load, play_lanes

MODEL, HOARDER, GREEDY = 0.0, 1.0, 2.0
NAME = "pimc"
PARAMS = {
    "cheat": cheat_param(),
    "challenge": challenge_param(),
    # bounded so that one decision takes at most about a second (Numba code cannot be stopped by
    # Ctrl-C): a play-out costs about 20 us, up to 60 us (3 players, docs/players.md)
    "budget": Param(100.0, "play-outs per decision, shared among its candidates", low=1.0, high=1e4,
                    integer=True),
    "playout": Param("model", "how seats play in play-outs: model (it hoards, the others draw as often "
                     "as they have been seen to), hoarder or greedy (everyone)",
                     {"model": MODEL, "hoarder": HOARDER, "greedy": GREEDY}, numbers=False),
    "caution": Param(2.0, "standard errors by which a decision must beat the play-out policy's own",
                     low=0.0, high=10.0),
    "aim": Param("points", "what play-outs maximise: points (its own) or margin (its own minus "
                 "the best opponent's)", {"points": 0.0, "margin": 1.0}, numbers=False),
    "search": Param("all", "which decisions it searches: all, or stock (only its turns while the stock "
                    "lasts; every other decision as hoarder)", {"all": 0.0, "stock": 1.0}, numbers=False),
    "race": Param("off", "off: every candidate on every deal (one that can no longer be taken stops); a number: racing, a candidate is played out "
                  "no more once its gain over the play-out policy's own is not above zero by that many "
                  "standard errors (from 4 deals on, looking every 2; 0.75: x2.2 decisions/s, -0.4 points/game; "
                  "0.5: x2.7, -0.7)",
                  {"off": -1.0}, low=0.0, high=10.0),
}  # fmt: skip
P_BUDGET, P_PLAYOUT, P_CAUTION, P_AIM, P_SEARCH, P_RACE = 2, 3, 4, 5, 6, 7
RACE_MIN, RACE_ROUND = 4, 2  # racing looks after 4 deals, then every 2
MAX_CANDIDATES = 24
CHUNK = 128  # deals drawn at a time for the lockstep play-outs


@njit(cache=True, inline="always")
def model_turn(t, own, seat, me, stocked):
    """A turn in a ``model`` play-out: the searching seat hoards; each other seat draws as often
    as it has been seen to (its public draws and leads, plus one of each), else leads what
    ``counter`` would, else a high card, else low; after the stock (not ``stocked``), ``counter``."""
    if stocked:
        if own.types == 0 or seat == me:
            return DRAW
        drawn = t.drawn[seat] + 1.0
        if uniform(own.rng, 0) * (drawn + t.led[seat] + 1.0) < drawn:
            return DRAW
        a = lead_sure(t, own, seat)
        if a < 0:
            a = lead_high(own, np.int64(JACK))
        if a < 0:
            a = lead_low(own, t.rules[R_SCORING])
        return a
    return counter_turn(t, own, seat)


@njit(cache=True, inline="always")  # into the play-out's loop: a call less per decision
def rollout(t, own, seat, me, kind):
    """The play-out policy (honest, never challenging): ``playout``."""
    phase = t.s[S_PHASE]
    if phase == TURN:
        return rollout_turn(t, own, seat, me, kind, t.s[S_TOP] < t.s[S_STOCK])
    if phase == FOLLOW:
        return rollout_follow(t, own, seat, kind, t.s[S_LED_SUIT])
    return NO_CHALLENGE


@njit(cache=True, inline="always")
def rollout_turn(t, own, seat, me, kind, stocked):
    """:func:`rollout` on a turn (the play-out's loop knows the phase, and keeps ``stocked``)."""
    if kind == MODEL:
        return model_turn(t, own, seat, me, stocked)
    if kind == HOARDER:
        return hoarder_turn(t, own, seat)
    return greedy_turn(t, own)


@njit(cache=True, inline="always")
def rollout_follow(t, own, seat, kind, suit):
    """:func:`rollout` when answering a trick led in ``suit``."""
    # Both follow policies answer with a card (or Taffy) they may play and pass only when
    # they cannot follow: with a single choice the answer is known without the counting.
    m = own.bits[suit]
    if own.hand[TAFFY] == 0:
        if m == 0:
            return PASS
        if m & (m - 1) == 0:
            return suit * 13 + lowest(m)
    elif m == 0:
        return TAFFY
    if kind == GREEDY:
        return follow_greedy(t, own, seat)
    return follow_counting(t, own, seat)


@njit(cache=True, inline="always")
def _add(out, k, a):
    for i in range(k):
        if out[i] == a:
            return k
    out[k] = a
    return k + 1


@njit(cache=True)
def candidates(t, own, seat, out, kind):
    """The decisions worth searching, into ``out``, the play-out policy's own first."""
    scoring = t.rules[R_SCORING]
    tp = taffy_power(t)
    k = _add(out, 0, rollout(t, own, seat, seat, kind))
    if t.s[S_PHASE] == FOLLOW:
        suit = t.s[S_LED_SUIT]
        low = follow_low(own, suit, scoring)
        k = _add(out, k, low)
        if low == PASS:
            return k
        need = t.s[S_BEST_POWER] + 1
        w = cheapest_winner(own, suit, need, tp)
        if w >= 0:
            k = _add(out, k, w)
            safe = cheapest_winner(own, suit, max(need, threat(t, own, seat, suit, t.s[S_LEADER])), tp)
            if safe >= 0:
                k = _add(out, k, safe)
        m = own.bits[suit]
        if m:
            k = _add(out, k, suit * 13 + highest(m))
        if own.hand[TAFFY] > 0:
            k = _add(out, k, TAFFY)
        return k
    if t.s[S_TOP] < t.s[S_STOCK]:
        k = _add(out, k, DRAW)
    if own.types == 0:
        return k
    sure = lead_sure(t, own, seat)
    if sure >= 0:
        k = _add(out, k, sure)
    high = lead_high(own, np.int64(0))
    if high >= 0:
        k = _add(out, k, high)
    k = _add(out, k, lead_low(own, scoring))
    if own.hand[TAFFY] > 0:
        best_suit, best_beat = 0, 1 << 30
        for suit in range(4):
            beat = 0
            for r in range(ACE, TEN, -1):
                if 2 * r > tp:
                    beat += unseen(t, own, suit * 13 + r)
            if beat < best_beat:
                best_suit, best_beat = suit, beat
        k = _add(out, k, TAFFY_LEAD + best_suit)
    return k


@njit(cache=True)
def _deal(t, own, me, world, pool, n_pool):
    """Fill ``world`` (a state) with one deal of the unseen cards consistent with the view."""
    p = t.rules[R_PLAYERS]
    world.table = t
    world.seats[me] = own
    rng = own.rng
    for i in range(n_pool - 1, 0, -1):
        j = randbelow(rng, 0, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    hard = t.rules[R_REVOKES] == 0
    pos = 0
    for constrained_pass in (True, False):
        for q in range(p):
            h = t.hand_n[q]
            if q == me or h == 0:
                continue
            constrained = False
            if hard:
                for s in range(5):
                    constrained |= t.void[q, s] == 1
            if constrained != constrained_pass:
                continue
            if constrained:
                # Bring allowed cards forward; a history no deal fits keeps what is left.
                got = 0
                for j in range(pos, n_pool):
                    if got == h:
                        break
                    c = pool[j]
                    if t.void[q, 4 if c == TAFFY else c // 13] == 0:
                        pool[j], pool[pos + got] = pool[pos + got], c
                        got += 1
            empty_hand(world, q)
            world.seats[q].revoked = 0
            for j in range(pos, pos + h):
                take_cards(world, q, pool[j], 1, True)
            if t.passed[q] and not hard:
                world.seats[q].revoked = can_follow(world.seats[q], t.s[S_LED_SUIT])
            world.seats[q].rng[0] = next_u64(rng, 0)
            pos += h
    top = t.s[S_TOP]
    for j in range(pos, n_pool):
        world.deck[top + j - pos] = pool[j]


@njit(cache=True)
def unseen_pool(t, own, pool):
    """The cards the seat has not seen (in other hands or the stock), a copy each, into ``pool``;
    returns how many."""
    n = np.int64(0)
    for c in range(53):
        for _ in range(unseen(t, own, c)):
            pool[n] = c
            n += 1
    return n


@njit(cache=True)
def search(t, own, me):
    cands = np.empty(MAX_CANDIDATES, np.int64)
    deals = np.zeros(MAX_CANDIDATES, np.int64)
    # search_deals, not searched: a library less linking (and optimising again) the whole search
    return cands[search_deals(t, own, me, cands, deals, True, True)]


@njit(cache=True)
def searched(t, own, me, cands, deals):
    """The search: the candidates into ``cands``, the deals each was played out on into
    ``deals``; returns the index of the one taken."""
    return search_deals(t, own, me, cands, deals, True, True)


@njit(cache=True)
def search_deals(t, own, me, cands, deals, prune, lockstep):
    """:func:`searched`; with ``prune`` off, a candidate that can no longer be taken is played
    out to the end all the same (the same decision and stream, more play-outs); with ``lockstep``
    off, every play-out one at a time, where :func:`_search_lanes` would play them in lockstep
    (the same decision, stream and counts)."""
    kind = own.params[P_PLAYOUT]
    k = candidates(t, own, me, cands, kind)
    if k == 1:
        return 0
    p = t.rules[R_PLAYERS]
    budget = int(own.params[P_BUDGET])
    margin = own.params[P_AIM] == 1.0
    z = own.params[P_CAUTION]
    worlds = max(1, budget // k)
    pool = np.empty(MAX_STOCK, np.int8)
    n_pool = unseen_pool(t, own, pool)
    need = t.s[S_STOCK] - t.s[S_TOP]
    for q in range(p):
        if q != me:
            need += t.hand_n[q]
    if need != n_pool:  # cannot happen for a view of a real deal; search nothing then
        return 0
    race = own.params[P_RACE]
    if lockstep and p == LANE_PLAYERS and kind == MODEL and not margin and t.rules[R_SCORING] == STANDARD:
        return _search_lanes(t, own, me, cands, deals, prune, k, worlds, pool, n_pool, z, race)
    buf = np.zeros(2, STATE_DTYPE)
    points = np.empty(p, np.int64)
    live = np.ones(k, np.bool_)  # candidates still played out; the first always is
    n_live = k - 1
    diff = np.zeros(k, np.float64)  # sums of (candidate - first candidate), deal by deal
    diff2 = np.zeros(k, np.float64)
    first = 0.0
    n = 0
    # Without racing, a candidate that cannot end above zero whatever its remaining deals give
    # (each gain at most ``gain`` either way) is played out no more; once none is left the
    # remaining deals are still drawn, so the seat's stream moves as if all were played out.
    gain = _gain_bound(t, p) if prune and race < 0.0 and not margin else -1.0
    while n < worlds:
        _deal(t, own, me, buf[0], pool, n_pool)
        for i in range(k):
            if not live[i] or n_live == 0:
                continue
            deals[i] += 1
            x = _playout(buf, cands[i], me, kind, p, margin, points)
            if x <= -1e9:
                gain = -1.0  # an illegal candidate (in every deal alike, so seen in the first): no bound
            first = _tally(i, x, first, diff, diff2)
        n += 1
        n_live = _drop(n, worlds, z, gain, race, live, n_live, diff, diff2)
        if race >= 0.0 and n_live == 0:
            break
    # Leave the play-out policy's own choice only for a candidate whose gain over it, deal by
    # deal, has a lower confidence bound (mean - caution * standard error) above zero: the
    # best of several noisy means is otherwise too often a lucky one.
    return _taken(k, live, diff, diff2, n, z)


@njit(cache=True, inline="always")  # into search_deals: a library less linking the lanes
def _search_lanes(t, own, me, cands, deals, prune, k, worlds, pool, n_pool, z, race):
    """:func:`search_deals` with the play-outs after the stock played in lockstep (``lanes``): the
    deals are drawn ``CHUNK`` at a time, every candidate still played out is played on each to the
    stock's end, the rest of all of them in the lanes; then the deals are taken one by one as the
    search takes them (the same pruning, racing and counts), and the seat's stream is put back where
    that search stops drawing."""
    kind = MODEL
    tp = taffy_power(t)
    hard = t.rules[R_REVOKES] == 0
    packs = t.rules[R_PACKS]
    taffies = t.rules[R_TAFFIES]
    streams = np.empty(CHUNK, np.uint64)  # the seat's stream after each deal drawn
    buf = np.zeros(2, STATE_DTYPE)  # the deal, and a copy to play on
    points = np.empty(LANE_PLAYERS, np.int64)
    values = np.empty(CHUNK * k, np.float64)
    pending = np.empty(CHUNK * k * LANE_ROWS, np.int64)
    which = np.empty(CHUNK * k, np.int64)
    out = np.empty(CHUNK * k, np.int64)
    lanes = lanes_array()
    live = np.ones(k, np.bool_)
    n_live = k - 1
    diff = np.zeros(k, np.float64)
    diff2 = np.zeros(k, np.float64)
    first = 0.0
    n = 0
    gain = _gain_bound(t, LANE_PLAYERS) if prune and race < 0.0 else -1.0
    while n < worlds:
        c = min(CHUNK, worlds - n)
        m = np.int64(0)  # typed: a literal 0 would compile load and play_lanes for it too
        for w in range(c):
            _deal(t, own, me, buf[0], pool, n_pool)
            streams[w] = own.rng[0]
            for i in range(k):
                if not live[i] or n_live == 0:
                    continue
                buf[1] = buf[0]
                g = buf[1]
                if try_apply(g, cands[i]) != OK:
                    values[w * k + i] = -1e9
                    continue
                _play_on(g, me, kind, np.bool_(True))
                if g.table.s[S_PHASE] == OVER:
                    score(g.table, points)
                    values[w * k + i] = points[me]
                else:
                    load(pending, m, g, me)
                    which[m] = w * k + i
                    m += 1
        play_lanes(lanes, pending, m, out, me, hard, tp, packs, taffies)
        for j in range(m):
            values[which[j]] = out[j]
        for w in range(c):  # the deals one by one, as search_deals takes them
            for i in range(k):
                if not live[i] or n_live == 0:
                    continue
                deals[i] += 1
                x = values[w * k + i]
                if x <= -1e9:
                    gain = -1.0
                first = _tally(i, x, first, diff, diff2)
            n += 1
            n_live = _drop(n, worlds, z, gain, race, live, n_live, diff, diff2)
            if race >= 0.0 and n_live == 0:
                own.rng[0] = streams[w]  # the deals after this one were never drawn
                return _taken(k, live, diff, diff2, n, z)
    return _taken(k, live, diff, diff2, n, z)


@njit(cache=True, inline="always")
def _tally(i, x, first, diff, diff2):
    """Candidate ``i``'s value ``x`` on a deal into its sums of gains over the first candidate
    (``first``, its value on the deal); returns the first's value."""
    if i == 0:
        return x
    d = x - first
    diff[i] += d
    diff2[i] += d * d
    return first


@njit(cache=True)
def _drop(n, worlds, z, gain, race, live, n_live, diff, diff2):
    """After ``n`` deals, the candidates played out no more: without racing, one that can no longer
    be taken whatever its remaining deals give (each gain at most ``gain`` either way; -1: no
    bound); racing, from the 4th deal on, every 2, one whose gain over the first is not above zero
    by ``race`` standard errors. Returns the candidates still played out, the first aside."""
    if gain >= 0.0 and n < worlds:
        for i in range(1, live.shape[0]):
            if live[i] and _hopeless(diff[i], diff2[i], n, worlds, z, gain):
                live[i] = False
                n_live -= 1
    if race >= 0.0 and n >= RACE_MIN and n % RACE_ROUND == 0 and n < worlds:
        # One that is behind on the first deals very rarely ends ``caution`` standard errors
        # ahead, and its play-outs are saved.
        for i in range(1, live.shape[0]):
            if live[i] and _upper(diff[i], diff2[i], n, race) <= 0.0:
                live[i] = False
                n_live -= 1
    return n_live


@njit(cache=True)
def _taken(k, live, diff, diff2, n, z):
    """The candidate taken: the play-out policy's own (0) unless another's gain over it, deal by
    deal, has a lower bound (mean - ``z`` standard errors) above zero, the highest such."""
    best, best_bound = 0, 0.0
    for i in range(1, k):
        if not live[i]:
            continue
        mean = diff[i] / n
        var = max(0.0, diff2[i] / n - mean * mean) / max(1, n - 1)
        bound = mean - z * np.sqrt(var)
        if bound > best_bound:
            best, best_bound = i, bound
    return best


@njit(cache=True)
def _gain_bound(t, p):
    """The most a play-out's points can differ between two candidates: what the cards in no
    winnings pile yet are worth (piles only grow in a play-out, and every card is worth 0 or
    more under standard scoring); -1 (no bound) under the other scorings."""
    if t.rules[R_SCORING] != STANDARD:
        return -1.0
    v = 0
    for c in range(53):
        left = total(t, c)
        for q in range(p):
            left -= t.won[q, c]
        v += card_value(c, STANDARD) * left
    return float(v)


@njit(cache=True)
def _hopeless(s, s2, n, worlds, z, u):
    """Can a candidate whose gains over the first sum to ``s`` (squares ``s2``) over ``n`` deals
    not end with a lower bound (mean - ``z`` standard errors, over all ``worlds``) above zero,
    whatever gains in [-u, u] its remaining deals give? With S and Q the final sums, the bound
    is above zero when S > 0 and S^2 (D + z^2) / N^2 > z^2 Q / N (D = max(1, N - 1)); for a
    given rest sum T, Q is least with equal gains, which leaves a quadratic in T, checked at
    the ends of its range and its vertex. True only with a margin beyond rounding."""
    r = worlds - n
    hi = r * u
    if s + hi <= 0.0:
        return True
    big_n = float(worlds)
    a = (max(1.0, big_n - 1.0) + z * z) / (big_n * big_n)
    b = z * z / big_n
    lo = max(-hi, -s)
    best = max(_excess(s, s2, r, a, b, lo), _excess(s, s2, r, a, b, hi))
    c2 = a - b / r
    if c2 < 0.0:
        top = -a * s / c2
        if lo < top < hi:
            best = max(best, _excess(s, s2, r, a, b, top))
    scale = a * (abs(s) + hi) ** 2 + b * (s2 + r * u * u)
    return best < -1e-9 * scale


@njit(cache=True, inline="always")
def _excess(s, s2, r, a, b, x):
    return a * (s + x) ** 2 - b * (s2 + x * x / r)


@njit(cache=True, inline="always")
def _upper(s, s2, n, z):
    """The upper bound (mean + ``z`` standard errors) of a gain from its sums over ``n`` deals."""
    mean = s / n
    return mean + z * np.sqrt(max(0.0, s2 / n - mean * mean) / max(1, n - 1))


@njit(cache=True)
def _playout(buf, a, me, kind, p, margin, points):
    """Play ``a`` then the play-out policy to the end on a copy of the deal ``buf[0]``: its value."""
    buf[1] = buf[0]
    g = buf[1]
    if try_apply(g, a) != OK:  # a call: the rules inlined here took seconds to compile
        return -1e9
    _play_on(g, me, kind, np.bool_(False))  # typed: a literal would compile _play_on once for each
    score(g.table, points)
    x = points[me]
    if margin:
        best = -(1 << 30)
        for q in range(p):
            if q != me and points[q] > best:
                best = points[q]
        x -= best
    return float(x)


# ---- the play-out, a trick at a time -------------------------------------------------------


@njit(cache=True, inline="always")
def _finish_trick(g, me, kind, q, n, best, best_pw, npass, suit, stocked):
    """The trick under way answered to its end by the play-out policy from ``q`` on (the next to
    answer; -1: no one is left), the trick's running values in locals, through the engine's steps
    (``play_card``, ``close_trick``; the caller then calls ``end_trick``): the state ``apply`` would
    leave, without the dispatch per decision; a seat that cannot follow passes unasked (the policy
    passes only then). Returns the passes made in the trick. The policy's decisions
    are not checked: it takes only legal ones (``tests/test_welsh_pimc_playout.py`` checks each
    against the engine's ``check``), and a check per decision cost about 7% of the search."""
    t = g.table
    s = t.s
    p = t.rules[R_PLAYERS]
    tte = t.rules[R_TAFFY_EQUALS_TEN]
    leader = s[S_LEADER]
    last = leader
    while q >= 0:
        own = g.seats[q]
        if can_follow(own, suit):
            s[S_TRICK_LEN] = n  # the trick so far, as the policy reads it
            s[S_BEST_POWER] = best_pw
            b = rollout_follow(t, own, q, kind, suit)
        else:
            b = PASS
        n, best, best_pw, npass, suit = play_card(g, q, b, n, best, best_pw, npass, suit, tte, True)
        last = q
        q = next_answer(t, q, leader, p, stocked)
    close_trick(g, last, n, best, best_pw, npass)
    return npass


@njit(cache=True)
def _play_on(g, me, kind, to_stock):
    """The play-out policy to the end of the deal (``rollout``'s decisions, a trick at a time, the
    stock's top and the seat owing a decision in locals; not checked, as in :func:`_finish_trick`);
    with ``to_stock``, only until the stock is out (a turn is then owed, or the deal is over)."""
    t = g.table
    s = t.s
    tte = t.rules[R_TAFFY_EQUALS_TEN]
    p = t.rules[R_PLAYERS]
    stock = s[S_STOCK]
    top = s[S_TOP]
    phase = s[S_PHASE]
    seat = s[S_SEAT]
    if phase == OVER:
        return
    if phase == CHALLENGE:  # only after the searched decision
        try_apply(g, np.int64(NO_CHALLENGE))  # typed: one compile of try_apply
        seat = s[S_SEAT] if s[S_PHASE] != OVER else -1
    elif phase == FOLLOW:
        npass = _finish_trick(g, me, kind, seat, s[S_TRICK_LEN], s[S_BEST], s[S_BEST_POWER], s[S_NPASS],
                              s[S_LED_SUIT], top < stock)  # fmt: skip
        seat = end_trick(g, s[S_LEADER], npass, top < stock)  # the play-out policy never challenges
    while seat >= 0:
        own = g.seats[seat]
        stocked = top < stock
        if to_stock and not stocked:
            return
        b = rollout_turn(t, own, seat, me, kind, stocked)
        s[S_TURNS] += 1
        if b == DRAW:
            top = draw(g, seat, top, True)
            seat = turn_after(g, seat, top < stock)
            continue
        n, best, best_pw, npass, suit = play_card(g, seat, b, 0, 0, 0, 0, 0, tte, True)
        s[S_PHASE] = FOLLOW
        npass = _finish_trick(g, me, kind, next_answer(t, seat, seat, p, stocked), n, best, best_pw, npass,
                              suit, stocked)  # fmt: skip
        # ``seat`` led it; end_trick compiled into the loop by LLVM (Numba's inline="always": +2-4 s of
        # compile), here alone: the trick the searched decision left under way calls it once
        seat = inlined(end_trick, g, seat, npass, stocked)


@njit(cache=True)
def hoarding(t, own, seat, phase):
    """``search=stock``: a decision it does not search, made as ``hoarder`` makes it."""
    if phase == TURN:
        return hoarder_turn(t, own, seat)
    return follow_counting(t, own, seat)


@njit(cache=True, inline="always")
def decide(v):
    if v.own.params[P_SEARCH] == 1.0 and not (v.phase == TURN and v.stock_left > 0):
        return hoarding(v.table, v.own, v.seat, v.phase)
    return search(v.table, v.own, v.seat)
