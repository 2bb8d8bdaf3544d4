"""The solver's values, pinned: ``python tests/golden/solver_values.py`` (``make golden``).

Positions from simulated deals (random players, whose streams stay fixed), each
stopped at a random move in the first half of its deal, mid-trick included, in
every setting the solver plays: Whist, Scotch Whist with 4 players, 6 in
threes, 8 in fours, and French Whist. ``solver/values.jsonl`` keeps what
``whistsim solve --json --moves`` says of each: every legal card's exact value.
``tests/test_solver_golden.py`` solves them again. A new pruning rule, table or
move order must leave every value as it was: the small endings checked against
a plain alpha-beta in tests/test_solver.py are too small for the table to
matter, and a faulty rule once passed them yet changed card values here in a
Whist position and crashed on a Scotch one. Regenerate only for a change to the
rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import whistsim
from whistsim.core.io import write_jsonl
from whistsim.solver import solve_record

VALUES = Path(__file__).parent / "solver" / "values.jsonl"  # apart from the play-throughs

# setting -> simulate() arguments
SETTINGS: dict[str, dict] = {
    "whist": {"game": "whist", "players": 4, "rules": {"unit": "deal"}},
    "scotch_4": {"game": "scotch", "players": 4, "rules": {}},
    "scotch_6_threes": {"game": "scotch", "players": 6, "rules": {"teams": "threes"}},
    "scotch_8_fours": {"game": "scotch", "players": 8, "rules": {"teams": "fours"}},
    "french_4": {"game": "scotch", "players": 4, "rules": {"french": "true"}},
}
DEALS = 200  # per setting, from seed 777


def positions(setting: str) -> list[dict]:
    """The setting's positions: records of its deals, the moves cut where each stops."""
    kw = SETTINGS[setting]
    rng = np.random.default_rng([99, list(SETTINGS).index(setting)])
    sim = whistsim.simulate(n=DEALS, seed=777, strategies=["random"], records=DEALS, **kw)
    out = []
    for rec in sim.records[:DEALS]:
        cut = int(rng.integers(0, kw["players"] * len(rec["hands"][0][0]) // 2))
        out.append({**rec, "moves": rec["moves"][:cut]})
    return out


def solve(record: dict) -> dict:
    """What ``whistsim solve --json --moves`` prints for one position, less its line number."""
    return solve_record(record, moves=True)


def pinned() -> dict[str, list[dict]]:
    """setting -> the values written, in the order of :func:`positions`."""
    out: dict[str, list[dict]] = {}
    for line in VALUES.read_text(encoding="utf-8").splitlines():
        v = json.loads(line)
        out.setdefault(v.pop("setting"), []).append(v)
    return out


def main() -> None:
    write_jsonl(VALUES, ({"setting": s, **solve(rec)} for s in SETTINGS for rec in positions(s)))
    print(f"wrote {VALUES.name} ({len(SETTINGS) * DEALS} positions)")


if __name__ == "__main__":
    main()
