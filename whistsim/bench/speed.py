"""``make bench`` / ``whistsim bench``: games per second, side by side with OpenSpiel.

Every figure is measured in this process on this machine: a warm-up run
compiles (or loads) the kernels, then each case is timed ``repeats`` times, the
cases taking turns run by run (so the two sides of a ratio share the machine's
spells of other work), and the best run is kept (the least disturbed). One-thread
cases are timed in CPU time (the process's), so that other work on a shared
machine slows them less; cases on several threads in wall time.

The floor (:mod:`whistsim.bench.floor`): minimal random-play kernels for Welsh
Whist (3 players) and Whist deals, timed beside whistsim in the same run; the
ratios say what share of the game's own speed limit on one core whistsim reaches.
OpenSpiel, an optional extra (``pip install -e '.[bench]'``), runs its
``bridge``, ``hearts`` and ``spades`` random play-outs through its C++
``evaluate_bots`` loop and through a Python loop over its API.

The field's exact references (:mod:`whistsim.bench.refs`, the same extra): DDS against
whistsim's open-hand solver on the same Whist positions, and OpenSpiel's ``oh_hell`` against
whistsim's Oh Hell under the same rules, both in the same run.

Pimc (both families) in one seat against the default fast players: its
decisions per CPU second on one thread, beside what one decision costs in
random games of the same game timed in the same run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numba
import numpy as np

from ..core.options import WhistsimError
from ..core.strategy import parse_spec
from ..games import game_names, get_game, seating
from ..games.runner import threads
from .refs import dds_ratios, format_dds, solver_against_dds, spiel_playouts

# (game, preset, players, strategy) for whistsim's own cases.
CASES = [
    ("welsh", "parlett", 3, "random"),
    ("welsh", "parlett", 3, "greedy"),
    ("welsh", "parlett", 6, "random"),
    ("welsh", "parlett", 6, "greedy"),
    ("scotch", None, 4, "random"),
    ("scotch", None, 4, "heuristic"),
    ("scotch", None, 8, "random"),
    ("scotch", None, 8, "heuristic"),
    ("whist", None, 4, "random"),
    ("whist", None, 4, "heuristic"),
    ("ohhell", "openspiel", 4, "random"),  # OpenSpiel's oh_hell rules: its reference
]
PIECE_SECONDS = 0.5  # the longest kernel call of a timed run
OPENSPIEL_GAMES = ["bridge(use_double_dummy_result=false)", "hearts", "spades"]
# (game, preset, players, the other seats' player): pimc in seat 0, default settings
PIMC_CASES = [
    ("welsh", "parlett", 3, "greedy"),
    ("scotch", None, 4, "heuristic"),
    ("whist", None, 4, "heuristic"),
]


@dataclass
class Row:
    engine: str  # "whistsim", "floor", "openspiel-c++", "openspiel-python"
    game: str
    players: int
    strategy: str
    threads: int
    games_per_s: float
    deals_per_s: float  # a whistsim game of scotch/whist is several deals played to the target
    n: int


def _clock(n_threads: int):
    """CPU time on one thread (less disturbed by other work), wall time on several."""
    return time.process_time if n_threads == 1 else time.perf_counter


def _size(run, n: int, target: float, clock) -> int:
    """How many games (or deals) make a run of about ``target`` seconds: ``run(n)`` is timed from
    ``n`` up, by fours, until it takes a quarter of that (or ``n`` reaches 2^24), then scaled."""
    while True:
        t0 = clock()
        run(n)
        dt = clock() - t0
        if dt > target / 4 or n >= 1 << 24:
            break
        n *= 4
    return max(n, int(n * target / max(dt, 1e-6)))


def _case(game: str, preset, players: int, strategy: str, n_threads: int, seconds: float):
    """Compile (or load) and size one case; returns ``(once, row)``: ``once(rep)`` times one run
    of about ``seconds`` (in pieces) and returns its seconds, ``row(best)`` makes the case's Row."""
    g = get_game(game)
    rules = g.make_rules(preset, players, {})
    ids, params = seating(game, [parse_spec(strategy)], g.players_of(rules))
    piece_s = min(seconds, PIECE_SECONDS)
    clock = _clock(n_threads)
    with threads(n_threads):
        g.play_batch(rules, ids, params, seed=1, n=64)  # compile or load from cache
        m = _size(lambda k: g.play_batch(rules, ids, params, seed=1, n=k), 2048, piece_s, clock)
    pieces = max(1, round(seconds / piece_s))  # a timed run of about `seconds`, in pieces: Ctrl-C
    n = m * pieces  # is seen between them, and a piece is long enough that its start costs nothing
    deals = []

    def once(rep: int) -> float:
        took = 0.0
        with threads(n_threads):
            for j in range(pieces):
                t0 = clock()
                batch = g.play_batch(rules, ids, params, seed=2 + rep, start=j * m, n=m)
                took += clock() - t0
        deals.append(float(np.mean(batch.game["deals"])) if "deals" in batch.game else 1.0)
        return took

    def row(best: float) -> Row:
        return Row("whistsim", game, players, strategy, n_threads, n / best, n * deals[-1] / best, n)

    return once, row


def _interleaved(cases: list, repeats: int) -> list[Row]:
    """Each case's best run of ``repeats``, the cases taking turns run by run, so that a ratio
    between two cases (heuristic over random, whistsim over the floor) sees the same spells of
    other work on a shared machine rather than one case catching a quiet one."""
    best = [np.inf] * len(cases)
    for rep in range(repeats):
        for i, (once, _) in enumerate(cases):
            best[i] = min(best[i], once(rep))
    return [row(b) for (_, row), b in zip(cases, best, strict=True)]


@dataclass
class PimcRow:
    game: str
    players: int
    others: str  # the other seats' player
    decisions_per_s: float  # every move pimc's seat makes, forced ones included
    decisions: int
    games: int


def pimc_decisions(game: str, batch, players: int, seat: int = 0) -> int:
    """The moves ``seat`` made in a batch (Welsh Whist: every game logged)."""
    from ..harness.loop import MOVE_SEAT

    if game != "welsh":  # the dealt games: every seat plays one card to each trick
        return int(batch.game["moves"].sum()) // players
    return int(sum(int((log // MOVE_SEAT == seat).sum()) for log in batch.logs))


def time_pimc(game: str, preset, players: int, others: str, seconds: float, repeats: int) -> PimcRow:
    """Pimc's decisions per CPU second, one thread: pimc in seat 0, ``others`` in the rest."""
    g = get_game(game)
    rules = g.make_rules(preset, players, {})
    specs = [parse_spec("pimc")] + [parse_spec(others)] * (players - 1)
    ids, params = seating(game, specs, g.players_of(rules))
    logged = 1 << 30 if game == "welsh" else 0  # Welsh decisions are counted in the logs
    with threads(1):
        g.play_batch(rules, ids, params, seed=1, n=1)  # compile or load from cache
        n = _size(lambda k: g.play_batch(rules, ids, params, seed=1, n=k, log_games=logged), 2, seconds,
                  time.process_time)  # fmt: skip
        best, best_d = 0.0, 0
        for rep in range(repeats):
            t0 = time.process_time()
            batch = g.play_batch(rules, ids, params, seed=2 + rep, n=n, log_games=logged)
            took = time.process_time() - t0
            d = pimc_decisions(game, batch, players)
            if d / took > best:
                best, best_d = d / took, d
    return PimcRow(game, players, others, best, best_d, n)


def _floor_cases(seconds: float) -> list:
    """The minimal random-play kernels (one core, CPU time) as cases for :func:`_interleaved`:
    Welsh Whist games, Whist deals."""
    from . import floor as bench_floor

    cases = []
    for game, players, fn in (
        ("welsh", bench_floor.W_PLAYERS, bench_floor.welsh_floor),
        ("whist", 4, bench_floor.whist_floor),
    ):
        width = players if game == "welsh" else 2
        fn(64, 1, np.zeros((64, width), np.int64))  # compile or load from cache
        n = _size(lambda k, fn=fn, width=width: fn(k, 1, np.zeros((k, width), np.int64)), 4096, seconds,
                  time.process_time)  # fmt: skip
        out = np.zeros((n, width), np.int64)

        def once(rep: int, fn=fn, n=n, out=out) -> float:
            t0 = time.process_time()
            fn(n, 2 + rep, out)
            return time.process_time() - t0

        def row(best: float, game=game, players=players, n=n) -> Row:
            # a floor Whist game is one deal
            return Row("floor", game, players, "random", 1, n / best, n / best, n)

        cases.append((once, row))
    return cases


def _ohhell_openspiel_cases(seconds: float) -> list:
    """OpenSpiel's ``oh_hell`` random play-outs under whistsim's preset ``openspiel`` rules (one
    thread, CPU time), its C++ loop and its Python loop, as cases for :func:`_interleaved`: they
    take turns with whistsim's Oh Hell."""
    from .refs import OHHELL_PLAYERS, ohhell_openspiel_loops

    cases = []
    for engine, play, start in ohhell_openspiel_loops(OHHELL_PLAYERS):
        play(4)  # the first play-outs load what they need
        n = _size(play, start, seconds, time.process_time)

        def once(rep: int, play=play, n=n) -> float:
            t0 = time.process_time()
            play(n, 1 + rep)
            return time.process_time() - t0

        def row(best: float, engine=engine, n=n) -> Row:
            return Row(engine, "oh_hell", OHHELL_PLAYERS, "random", 1, n / best, n / best, n)

        cases.append((once, row))
    return cases


def _openspiel_rows(seconds: float, repeats: int) -> list[Row]:
    import pyspiel

    rows = []
    for name in OPENSPIEL_GAMES:
        game = pyspiel.load_game(name)
        p = game.num_players()
        bots = [pyspiel.make_uniform_random_bot(q, 1234 + q) for q in range(p)]
        short = name.split("(")[0]
        # C++ loop
        pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
        n = max(100, int(40_000 * seconds))
        best = np.inf
        for rep in range(repeats):
            t0 = time.process_time()
            for i in range(n):
                pyspiel.evaluate_bots(game.new_initial_state(), bots, rep * n + i)
            best = min(best, time.process_time() - t0)
        rows.append(Row("openspiel-c++", short, p, "random", 1, n / best, n / best, n))
        # Python loop over the API
        rng = np.random.default_rng(0)
        n = max(20, int(3_000 * seconds))
        best = np.inf
        for _ in range(repeats):
            t0 = time.process_time()
            spiel_playouts(game, n, rng)
            best = min(best, time.process_time() - t0)
        rows.append(Row("openspiel-python", short, p, "random", 1, n / best, n / best, n))
    return rows


# The child's own peak: Linux's VmHWM belongs to the memory of the program the child runs, while
# ru_maxrss also keeps the parent's resident size at the fork (the bench's, with every kernel).
_PEAK_CODE = """
import resource, whistsim
whistsim.simulate('welsh', n={n}, seed=3)
try:
    kb = next(int(x.split()[1]) for x in open('/proc/self/status') if x.startswith('VmHWM:'))
except (OSError, StopIteration):
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(kb)
"""


def peak_memory_mb(n: int = 10_000_000) -> float:
    """Peak resident memory of a ``whistsim simulate`` run of ``n`` Welsh games (summary output),
    in a fresh process with the kernel already cached (a first, small run compiles it)."""

    def peak(games: int) -> float:
        code = _PEAK_CODE.format(n=games)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        return int(out.stdout.split()[-1]) / 1024

    peak(1000)
    return peak(n)


def _pimc_rows(rows: list[Row], seconds: float, repeats: int) -> list[dict]:
    """Pimc's cases, each with the cost of one decision in random games of the same game (one
    thread, this run): how many random games the time of one pimc decision would play."""
    out = []
    for game, preset, players, others in PIMC_CASES:
        r = asdict(time_pimc(game, preset, players, others, seconds, repeats))
        rand = [x for x in rows if (x.engine, x.game, x.players, x.strategy, x.threads)
                == ("whistsim", game, players, "random", 1)]  # fmt: skip
        r["random_games_per_decision"] = rand[0].games_per_s / r["decisions_per_s"] if rand else None
        out.append(r)
    return out


def run(
    seconds: float = 1.0,
    repeats: int = 5,
    openspiel: bool = True,
    memory_games: int = 10_000_000,
    pimc: bool = True,
    dds: bool | None = None,
) -> dict:
    """Measure every case; returns {"rows": [...], "ratios": {...}, "dds": {...}, "pimc": [...],
    "peak_memory_mb": ...}. ``dds``: time DDS against the solver (default: with ``openspiel``, as
    both come with the ``bench`` extra)."""
    dds = openspiel if dds is None else dds
    if dds:
        try:
            import endplay  # noqa: F401
        except ImportError:
            raise WhistsimError(
                "DDS (endplay) is not installed: pip install -e '.[bench]' (or leave the references out: "
                "--no-openspiel)"
            ) from None
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows: list[Row] = []
    games = set(game_names())
    cases = []
    for game, preset, players, strategy in CASES:
        if game not in games or strategy not in get_game(game).players.names():
            raise RuntimeError(f"bench case {game}/{strategy} is not available")
        for k in sorted({1, all_threads}):
            cases.append(_case(game, preset, players, strategy, k, seconds))
    if openspiel:  # OpenSpiel's oh_hell takes turns with whistsim's Oh Hell
        cases += _ohhell_openspiel_cases(seconds)
    rows += _interleaved(cases + _floor_cases(seconds), repeats)
    if openspiel:
        rows += _openspiel_rows(seconds, repeats)
    out = {"cpu_count": os.cpu_count(), "threads": all_threads, "rows": [asdict(r) for r in rows]}
    out["ratios"] = _ratios(rows)
    if dds:
        out["dds"] = solver_against_dds()
        out["ratios"].update(dds_ratios(out["dds"]))
    if pimc:
        out["pimc"] = _pimc_rows(rows, seconds, repeats)
    if memory_games:
        out["peak_memory_mb"] = {"games": memory_games, "mb": peak_memory_mb(memory_games)}
    return out


def _ratios(rows: list[Row]) -> dict[str, float]:
    def find(engine, game, players, strategy, k):
        for r in rows:
            if (r.engine, r.game, r.players, r.strategy, r.threads) == (engine, game, players, strategy, k):
                return r
        return None

    ratios: dict[str, float] = {}
    whist = find("whistsim", "whist", 4, "random", 1)
    bridge = find("openspiel-c++", "bridge", 4, "random", 1)
    if whist and bridge:
        ratios["whist deals / openspiel C++ bridge play-outs, per core"] = (
            whist.deals_per_s / bridge.games_per_s
        )
    welsh = find("whistsim", "welsh", 3, "random", 1)
    floor = find("floor", "welsh", 3, "random", 1)
    if welsh and floor:
        ratios["welsh 3p random games / floor, one core"] = welsh.games_per_s / floor.games_per_s
    floor = find("floor", "whist", 4, "random", 1)
    if whist and floor:
        ratios["whist random deals / floor, one core"] = whist.deals_per_s / floor.deals_per_s
    ohhell = find("whistsim", "ohhell", 4, "random", 1)
    for engine, loop in (("openspiel-c++", "C++"), ("openspiel-python", "Python")):
        ref = find(engine, "oh_hell", 4, "random", 1)
        if ohhell and ref:
            ratios[f"ohhell 4p random games / openspiel {loop} oh_hell play-outs, per core"] = (
                ohhell.games_per_s / ref.games_per_s
            )
    for game, players in [("welsh", 3), ("welsh", 6), ("scotch", 4), ("scotch", 8), ("whist", 4)]:
        rand = find("whistsim", game, players, "random", 1)
        smart = find("whistsim", game, players, "greedy" if game == "welsh" else "heuristic", 1)
        if rand and smart:
            ratios[f"{game} {players}p: cost of {smart.strategy} / random"] = (
                rand.games_per_s / smart.games_per_s
            )
        multi = [
            r
            for r in rows
            if r.engine == "whistsim"
            and (r.game, r.players, r.strategy) == (game, players, "random")
            and r.threads > 1
        ]
        if rand and multi:
            ratios[f"{game} {players}p random: speed-up on {multi[0].threads} threads"] = (
                multi[0].games_per_s / rand.games_per_s
            )
    return ratios


def format_report(out: dict) -> str:
    lines = [
        f"{'engine':<17} {'game':<7} {'p':>2} {'strategy':<10} {'thr':>3} {'games/s':>12} {'deals/s':>12}"
    ]
    for r in out["rows"]:
        lines.append(
            f"{r['engine']:<17} {r['game']:<7} {r['players']:>2} {r['strategy']:<10} {r['threads']:>3} "
            f"{r['games_per_s']:>12,.0f} {r['deals_per_s']:>12,.0f}"
        )
    lines.append("")
    for k, v in out["ratios"].items():
        lines.append(f"{k}: {v:.2f}")
    lines += format_dds(out.get("dds", {}))
    for r in out.get("pimc", []):
        rel = r["random_games_per_decision"]
        lines.append(
            f"pimc, {r['game']} {r['players']}p against {r['others']}, one thread: "
            f"{r['decisions_per_s']:,.0f} decisions/s ({r['decisions']:,} in {r['games']:,} games)"
            + (f"; one decision costs {rel:.1f} random games" if rel is not None else "")
        )
    if "peak_memory_mb" in out:
        m = out["peak_memory_mb"]
        lines.append(f"peak memory, {m['games']:,} Welsh games with summary output: {m['mb']:.0f} MB")
    return "\n".join(lines)


def write_csv(out: dict, path: str | Path) -> None:
    import pandas as pd

    from ..core.io import atomic_write

    with atomic_write(path) as f:
        pd.DataFrame(out["rows"]).to_csv(f, index=False)


def write_json(out: dict, path: str | Path) -> None:
    import json

    from ..core.io import atomic_write

    with atomic_write(path) as f:
        f.write(json.dumps(out, indent=1) + "\n")


def solver_speed(
    full: int = 40, eight: int = 200, seed: int = 1, rounds: int = 3
) -> dict[str, dict[str, float]]:
    """Open-hand solver, one core: CPU seconds per Whist deal solved from the first lead and with
    8 tricks left (random play up to there), median and 95th percentile, and the median nodes
    searched; each solve starts from an empty table, emptied inside the timing. Each position's time is
    the fastest of ``rounds`` solves, the rounds taking turns over the positions (as the games'
    one-thread figures are the best of five runs: a spell of other work on the machine slows
    one round, not all); the first round's figures are kept too."""
    from ..api import simulate
    from ..games.dealt.search import SNODES, clear_table, new_table
    from ..solver.position import position_of

    tt = new_table()
    out = {}
    for name, n, cut in (("full deal", full, 0), ("8 tricks left", eight, 20)):
        records = simulate(
            "whist", n, seed, rules={"unit": "deal"}, strategies=["random"], records=n
        ).records[:n]
        times = np.full((rounds, len(records)), np.inf)
        nodes = []
        for r in range(rounds):
            for i, rec in enumerate(records):
                pos = position_of({**rec, "moves": rec["moves"][:cut]}, tt)
                t0 = time.process_time()  # CPU time: the machine may be shared
                clear_table(tt)
                pos.value()
                times[r, i] = time.process_time() - t0
                if r == 0:
                    nodes.append(int(pos.X[SNODES]))  # the same in every round
        best = times.min(axis=0)
        out[name] = {
            "n": len(records),
            "rounds": rounds,
            "median_s": float(np.median(best)),
            "p95_s": float(np.percentile(best, 95)),
            "first_median_s": float(np.median(times[0])),
            "first_p95_s": float(np.percentile(times[0], 95)),
            "nodes_median": float(np.median(nodes)),
        }
    return out


def main() -> None:
    speed = solver_speed()
    for name, v in speed.items():
        print(
            f"solver, Whist {name}: median {v['median_s'] * 1e3:.1f} ms, p95 {v['p95_s'] * 1e3:.1f} ms per deal "
            f"(n={v['n']}, one core, fastest of {v['rounds']} solves; first solve: median "
            f"{v['first_median_s'] * 1e3:.1f} ms, p95 {v['first_p95_s'] * 1e3:.1f} ms; median {v['nodes_median']:,.0f} nodes)"
        )
    out = run()
    print(format_report(out))
    write_csv(out, Path("results") / "bench.csv")
    write_json(out, Path("results") / "bench.json")
    print("wrote results/bench.csv and results/bench.json (every ratio under its own key)")


if __name__ == "__main__":
    main()
