"""What every game shares: the batch kernel, replay, move text, the move log.

A game supplies only its rules (``games/<name>/``): a state record and, as
Numba functions over it, ``over``, ``to_move``, ``forced``, ``view``,
``check_move``, ``apply_move``, ``strategy_of`` and ``players_of``; how one
game is set up and played (``play_game``, marked :func:`template`, which calls
the shared :func:`~whistsim.harness.loop.play_deal`); and ``record``, which
writes a finished game's columns. :mod:`whistsim.harness.build` writes the
kernel module for a game and the players seated in a run from those parts and
the templates in :mod:`whistsim.harness.loop`, so that Numba caches each kernel
and compiles only the players a run needs.
"""

from .moves import decode_move, encode_move, parse_moves

__all__ = ["encode_move", "decode_move", "parse_moves", "template", "thread_template", "decide"]


def decide(sid, v):
    """The generated switch over the seated players (a template's name for it; see build)."""
    raise RuntimeError("decide exists only inside a generated kernel module (whistsim.harness.build)")


def template(fn):
    """Mark a game's function whose source goes into the generated kernel module.

    Such a function calls the shared loop (``play_deal``), which calls the
    generated switch over the seated players, so it is compiled there, not here.
    """
    fn.__whistsim_template__ = True
    return fn


def thread_template(fn):
    """:func:`template` for a function compiled ``nogil``, run on threads of Python's (each its share)."""
    fn.__whistsim_template__ = True
    return fn
