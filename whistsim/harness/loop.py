"""The shared loops, as templates: their source is copied into each generated
kernel module (:mod:`whistsim.harness.build`), where the game's rule functions
(``over``, ``to_move``, ``forced``, ``view``, ``check_move``, ``apply_move``,
``strategy_of``, ``players_of``, ``record``, ``BLOCK``), its ``play_game`` and
the generated ``decide`` switch are defined. Nothing here runs from this module.
"""

# ruff: noqa: F821  (the names above are defined in the generated module)

from collections import namedtuple

from numba import njit


def per_run(condition):
    """Mark a condition in a game's template that is the same in every game of a run: it reads
    the template's ``g`` and ``extra`` alone, and of ``g`` only what a run fixes (the rules, the
    seats' players, whether events are asked for). :mod:`whistsim.harness.build` takes its value
    once before the run and writes the kernel with that value in its place, so that Numba compiles
    only the branch the run takes; a kernel built without a run's values tests it as written."""
    return condition


SeatView = namedtuple("SeatView", ["seat", "table", "own"])  # the default view

OK = 0


# Defaults a game may leave out of its kernel parts (they come before the game's names).
BLOCK = 32  # games per parallel work item; any value gives the same results
MOVE_NOUN = "move"  # what errors call a move: "illegal move 'TH'"


@njit(cache=True, inline="always")
def forced(g):
    """The only legal move when there is no choice, else -1 (the player is asked)."""
    return -1


@njit(cache=True, inline="always")
def strategy_of(g, seat):
    return g.seats[seat].strategy


@njit(cache=True, inline="always")
def players_of(g):
    return g.seats.shape[0]


@njit(cache=True, inline="always")
def view(g, seat):
    """What a seat may see: the public table and its own record (``SeatView``)."""
    return SeatView(seat, g.table, g.seats[seat])


@njit(cache=True, inline="always")
def try_move(g, a):
    """``check_move``, then ``apply_move`` if the move is legal: OK or the error. A game whose
    engine compiles this as a function of its own names that function instead (its rules then
    compiled once for ``step`` and the every-player loop)."""
    e = check_move(g, a)
    if e == OK:
        apply_move(g, a)
    return e


# The shared loops.
# Replay statuses beside the engine's error codes (> 0); harness.replay reads them.
REPLAY_DONE, REPLAY_WRONG_SEAT, REPLAY_SHORT, REPLAY_EXTRA = 0, -1, -2, -3
MOVE_SEAT = 128  # a logged move is seat * MOVE_SEAT + action


@njit(cache=True, inline="always")
def make_move(g, a, free):
    """A move of the shared loop: checked unless ``free`` (forced, the only legal move), then
    made. OK, or why it is illegal."""
    if not free:
        e = check_move(g, a)
        if e != OK:
            return e
    apply_move(g, a)
    return OK


@njit(cache=True, inline="always")
def make_move_by_call(g, a, free):
    """:func:`make_move` by the game's ``try_move``, a forced move checked too: the kernel with
    every player (the test suite's; ``harness.build``) makes its moves so, and a game whose
    ``try_move`` is compiled once is spared typing its rules into the loop again."""
    return try_move(g, a)


@njit(cache=True, inline="always")
def play_deal(g, moves, limit):
    """Play moves until the deal is over, logging the first ``limit`` into ``moves``.

    Returns (OK, moves made, 0) or, on an illegal decision, (error, seat, action).
    """
    m = 0
    while not over(g):
        seat = to_move(g)
        a = forced(g)
        free = a >= 0
        if not free:
            a = decide(strategy_of(g, seat), view(g, seat))
        e = make_move(g, a, free)
        if e != OK:
            return e, seat, a
        if m < limit:
            moves[m] = seat * MOVE_SEAT + a
        m += 1
    return OK, m, 0


@njit(cache=True, inline="always")
def block_size(n, threads):
    """Games per parallel work item: ``BLOCK``, or a share per thread when that is less
    (a slow player's chunk, a few games sized by time, would else be one item on one thread)."""
    return max(1, min(BLOCK, n // threads))


@njit(cache=True, nogil=True)
def play_games(states, thread, threads, base_deck, seed, start, first, extra, outs, errors, logs, n_logged):
    """Share ``thread`` of ``threads`` of games ``start .. start + n - 1``, played on
    ``states[thread]`` (``harness.batch`` runs each share on a thread of its own: ``nogil``, and no
    parallel wrapper for Numba to compile): work items of ``block_size`` games, split in ``threads``
    contiguous runs as ``prange`` would. ``first < 0`` rotates the first seat with the game index.
    Games ``start .. start + n_logged - 1`` log their moves into ``logs[i]`` (``logs`` has at
    least one row)."""
    n = errors.shape[0]
    g = states[thread]
    p = players_of(g)
    block = block_size(n, threads)
    items = (n + block - 1) // block
    for b in range(thread * items // threads, (thread + 1) * items // threads):
        for i in range(b * block, min(n, (b + 1) * block)):
            game = start + i
            f = first if first >= 0 else game % p
            e, x, a = play_game(
                g, base_deck, seed, game, f, logs[min(i, logs.shape[0] - 1)], i < n_logged, extra
            )
            if e != OK:
                errors[i, 0] = e
                errors[i, 1] = x
                errors[i, 2] = a
            else:
                record(g, i, outs, x)


@njit(cache=True)
def decide_now(buf):
    """What the player owing the next decision in ``buf[0]`` would decide, by its strategy."""
    g = buf[0]
    seat = to_move(g)
    return decide(strategy_of(g, seat), view(g, seat))


@njit(cache=True)
def replay_moves(buf, seats, actions):
    """Check and apply recorded moves from the state in ``buf[0]``.

    Returns (status, move index, detail): status 0 done, > 0 the engine's error,
    < 0 a seat out of turn (detail: the seat owed), moves that stop short (detail:
    the seat owed) or go on after the deal ended.
    """
    g = buf[0]
    for i in range(actions.shape[0]):
        if over(g):
            return REPLAY_EXTRA, i, 0
        if seats[i] != to_move(g):
            return REPLAY_WRONG_SEAT, i, to_move(g)
        e = step(buf, int(actions[i]))  # a call: the rules compiled once for step and replay both
        if e != OK:
            return e, i, 0
    if not over(g):
        return REPLAY_SHORT, actions.shape[0], to_move(g)
    return REPLAY_DONE, actions.shape[0], 0


@njit(cache=True)
def step(buf, action):
    """Check and, if legal, apply one decision; returns the engine's error code."""
    return try_move(buf[0], action)
