"""The field's references in ``make bench``, timed on the same work in the same run.

- DDS (Bo Haglund and Soren Hein's double-dummy solver, through the ``endplay`` package)
  against whistsim's open-hand solver: the same random Whist positions, full deals and
  with 8 tricks left, solved by each in turn, position by position, one thread each; the
  times' median, mean and 95th percentile as ratios whistsim / DDS, and how many values
  agree (every one must).
- OpenSpiel's ``oh_hell`` against whistsim's Oh Hell under the matching rules (preset
  ``openspiel``): random play-outs per core, through OpenSpiel's C++ loop
  (``evaluate_bots``) and through a Python loop over its API, timed in turns with whistsim.

Both come with the optional ``bench`` extra (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

# (name, moves played before the position): from the first lead, and with 8 tricks left
DDS_CASES = (("full deal", 0), ("8 tricks left", 20))
OHHELL_PLAYERS = 4


def endplay_deal(record: dict, n: int | None = None):
    """The position after the first ``n`` moves (all when None) of a Whist record, as endplay's
    ``Deal``: the four hands less the cards played, the trump of the card turned up, the first
    leader the dealer's left, and the trick in progress in ``curtrick`` (endplay plays each
    card, settling the tricks by its own rules)."""
    from endplay.types import Deal, Denom, Player

    from ..deals import format_deal

    hands = format_deal(record).split()[1:5]  # whist N:<N> <E> <S> <W> ...: PBN's own order
    deal = Deal.from_pbn(" ".join(hands))
    deal.trump = Denom.find(record["trump"][-1])
    deal.first = Player((int(record["dealer"]) + 1) % 4)
    for move in record["moves"][:n]:
        card = move.split(":", 1)[1]
        deal.play(card[-1] + card[:-1])  # endplay names the suit first: 7H is H7
    return deal


def dds_value(deal) -> int:
    """Side 0's (North-South's) tricks from the trick in progress on, by DDS: its best for the
    side to play (``SolveMode.OptimalOne``), turned to side 0's."""
    return dds_solve(deal)[0]


def dds_solve(deal) -> tuple[int, int]:
    """:func:`dds_value` and DDS's node count: the tricks its search completed (its
    ``futureTricks.nodes``, a trick start each, as whistsim's ``STRICKS`` counts them), or
    None where this ``endplay`` does not expose it (it is read from a private field)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    solved = solve_board(deal, SolveMode.OptimalOne)
    best = max(score for _, score in solved)
    left = (sum(len(hand) for _, hand in deal) + len(deal.curtrick)) // 4
    nodes = getattr(getattr(solved, "_data", None), "nodes", None)
    return (best if int(deal.curplayer) % 2 == 0 else left - best), None if nodes is None else int(nodes)


def _stats(times: np.ndarray) -> dict[str, float]:
    return {
        "median_s": float(np.median(times)),
        "mean_s": float(np.mean(times)),
        "p95_s": float(np.percentile(times, 95)),
    }


def solver_against_dds(full: int = 60, eight: int = 200, seed: int = 1, rounds: int = 3) -> dict[str, Any]:
    """Whistsim's solver and DDS on the same random Whist positions (``full`` deals from the first
    lead, ``eight`` with 8 tricks left, random play up to there), one thread each, CPU time. Each
    position is solved by whistsim then by DDS before the next; each engine's time for a position
    is its fastest of ``rounds`` (the rounds taking turns over the positions, as in
    :func:`whistsim.bench.speed.solver_speed`). Each solve of a new deal starts from an empty table,
    emptied inside the timing: whistsim's by :func:`~whistsim.games.dealt.search.clear_table`,
    DDS's by DDS itself. Returns, per case, the count,
    the values that agree, each engine's median/mean/p95 seconds and the ratios whistsim / DDS,
    and the trees' sizes: the median and mean of the tricks each search completed (DDS's own
    node count) and of whistsim's nodes."""
    from ..api import simulate
    from ..games.dealt.search import SNODES, STRICKS, clear_table, new_table
    from ..solver.position import position_of

    tt = new_table()
    n_max = max(full, eight, 1)
    records = simulate("whist", n_max + 1, seed, rules={"unit": "deal"}, strategies=["random"],
                       records=n_max + 1).records  # fmt: skip
    warm = records[n_max]  # loads both solvers before any timing
    position_of(warm, tt).value()
    dds_value(endplay_deal(warm, 0))
    out: dict[str, Any] = {}
    for name, cut in DDS_CASES:
        n = full if cut == 0 else eight
        if n == 0:
            continue
        recs = records[:n]
        deals = [endplay_deal(rec, cut) for rec in recs]
        ours = np.full((rounds, n), np.inf)
        theirs = np.full((rounds, n), np.inf)
        agree = 0
        first_disagreement = None
        sizes = np.zeros((3, n))  # whistsim's tricks completed, its nodes, DDS's tricks completed
        for r in range(rounds):
            for i, rec in enumerate(recs):
                pos = position_of({**rec, "moves": rec["moves"][:cut]}, tt)
                t0 = time.process_time()
                clear_table(tt)
                v = pos.value()
                ours[r, i] = time.process_time() - t0
                t0 = time.process_time()
                d, d_nodes = dds_solve(deals[i])
                theirs[r, i] = time.process_time() - t0
                if r == 0:
                    sizes[:, i] = pos.X[STRICKS], pos.X[SNODES], np.nan if d_nodes is None else d_nodes
                    agree += v == d
                    if v != d and first_disagreement is None:
                        first_disagreement = {"deal": i, "whistsim": v, "dds": d}
        a, b = _stats(ours.min(axis=0)), _stats(theirs.min(axis=0))
        out[name] = {
            "n": n,
            "rounds": rounds,
            "agree": agree,
            "first_disagreement": first_disagreement,
            "whistsim": a,
            "dds": b,
            "ratio": {k.removesuffix("_s"): a[k] / b[k] for k in a},
            "tricks_searched": {
                who: {"median": float(np.median(row)), "mean": float(np.mean(row))}
                for who, row in zip(("whistsim", "whistsim nodes", "dds"), sizes, strict=True)
            },
        }
    return out


def dds_ratios(dds: dict[str, Any]) -> dict[str, float]:
    """The DDS ratios as the bench's one-key-each ratios."""
    return {
        f"solver / DDS, Whist {name}: {stat} time per position": value
        for name, case in dds.items()
        for stat, value in case["ratio"].items()
    }


def format_dds(dds: dict[str, Any]) -> list[str]:
    lines = []
    for name, c in dds.items():
        a, b, q = c["whistsim"], c["dds"], c["ratio"]
        lines.append(
            f"solver against DDS, Whist {name} (n={c['n']}, one thread each, fastest of {c['rounds']}): "
            f"whistsim median {a['median_s'] * 1e3:.2f} ms, mean {a['mean_s'] * 1e3:.2f}, "
            f"p95 {a['p95_s'] * 1e3:.2f}; DDS {b['median_s'] * 1e3:.2f}, {b['mean_s'] * 1e3:.2f}, "
            f"{b['p95_s'] * 1e3:.2f}; whistsim / DDS {q['median']:.2f}, {q['mean']:.2f}, {q['p95']:.2f}; "
            f"same value {c['agree']} of {c['n']}"
        )
        t = c.get("tricks_searched")  # (not in a bench JSON written before it was counted)
        if t is not None:
            lines.append(
                f"  tricks completed in the search, median and mean: whistsim {t['whistsim']['median']:,.0f}, "
                f"{t['whistsim']['mean']:,.0f} ({t['whistsim nodes']['median']:,.0f}, "
                f"{t['whistsim nodes']['mean']:,.0f} nodes); "
                + (
                    f"DDS {t['dds']['median']:,.0f}, {t['dds']['mean']:,.0f}"
                    if np.isfinite(t["dds"]["median"])
                    else "DDS's count not given by this endplay"
                )
            )
        if c["first_disagreement"] is not None:  # a bug in one of them: say where
            w = c["first_disagreement"]
            lines.append(
                f"  NOT THE SAME: position {w['deal']}: whistsim {w['whistsim']}, DDS {w['dds']} tricks"
            )
    return lines


def spiel_playouts(game, n: int, rng: np.random.Generator) -> None:
    """``n`` random play-outs of an OpenSpiel game through its Python API: chance outcomes drawn
    uniformly (as OpenSpiel's card games' are), random legal actions."""
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.integers(len(legal))])


def ohhell_openspiel_loops(players: int = OHHELL_PLAYERS) -> list[tuple[str, Callable[..., None], int]]:
    """OpenSpiel's ``oh_hell`` under whistsim's preset ``openspiel`` rules for ``players``:
    ``(engine, play, start)`` for its C++ loop and its Python loop, where ``play(n, rep)`` plays
    ``n`` random play-outs (the streams of timed run ``rep``) and ``start`` is a count to size
    a timed run from."""
    import pyspiel

    from ..games import get_game

    rules = get_game("ohhell").make_rules("openspiel", players, {})
    game = pyspiel.load_game("oh_hell", rules.openspiel_params())
    bots = [pyspiel.make_uniform_random_bot(q, 1234 + q) for q in range(players)]

    def cpp(n: int, rep: int = 0) -> None:
        for i in range(n):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, rep * n + i)

    def python(n: int, rep: int = 0) -> None:
        spiel_playouts(game, n, np.random.default_rng(rep))

    return [("openspiel-c++", cpp, 256), ("openspiel-python", python, 16)]
