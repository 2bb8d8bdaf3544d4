"""Pimc's decisions, pinned: ``python tests/golden/pimc_games.py`` writes ``pimc_games.json``.

Each case plays a few games with ``pimc`` seated (both families, several rule
sets and pimc settings) and keeps, per game, a hash of its record (every move
and the result) and, per case, the summary. ``tests/test_pimc_speed.py`` plays
them again: a faster pimc must make every decision it made before, on the same
random stream. Written from the code before pimc's speed work; regenerate only
for a change that means to alter pimc's play, and say why in its commit. The
cases written before pimc's new options name them off, so they keep the old search
move for move: the dealt ones ``merge=0,race=0``, the Welsh ones ``race=off``. The
``_raced`` cases pin the dealt defaults that came with them; the Welsh ``_race``
cases pin Welsh racing (an option, off by default).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import whistsim

HERE = Path(__file__).parent
PATH = HERE / "pimc_games.json"

# name -> simulate() arguments (n games from seed 11)
CASES: dict[str, dict] = {
    "welsh_parlett_3": {"game": "welsh", "preset": "parlett", "players": 3, "n": 6,
                        "strategies": ["pimc:race=off", "greedy", "greedy"]},
    "welsh_parlett_4_challenge": {
        "game": "welsh", "preset": "parlett", "players": 4, "n": 3,
        "rules": {"revokes": True, "challenge": "parlett", "scoring": "piles"},
        "strategies": ["pimc:playout=hoarder,aim=margin,race=off", "cheater", "pimc:search=stock,budget=30,race=off",
                       "greedy"],
    },
    "welsh_akagiri_5": {
        "game": "welsh", "preset": "akagiri", "players": 5, "n": 3,
        "rules": {"revokes": True, "challenge": "akagiri"},
        "strategies": ["pimc:playout=greedy,budget=40,caution=0,race=off", "random", "hoarder", "counter", "greedy"],
    },
    # racing (race=0.5, 0 and 2)
    "welsh_parlett_3_race": {"game": "welsh", "preset": "parlett", "players": 3, "n": 4,
                             "strategies": ["pimc:race=0.5", "pimc2:budget=150,race=0.5", "greedy"]},
    "welsh_akagiri_4_race": {
        "game": "welsh", "preset": "akagiri", "players": 4, "n": 2,
        "rules": {"revokes": True, "challenge": "akagiri"},
        "strategies": ["pimc:race=0,aim=margin", "cheater", "pimc:race=2,playout=hoarder", "counter"],
    },
    "scotch_4": {"game": "scotch", "players": 4, "n": 6, "strategies": ["pimc:merge=0,race=0", "heuristic", "heuristic", "heuristic"]},
    "scotch_2_sets": {"game": "scotch", "players": 2, "n": 4, "strategies": ["pimc:merge=0,race=0", "pimc:worlds=5,merge=0,race=0"]},
    "french_5_aside": {"game": "scotch", "preset": "french", "players": 5, "n": 4, "rules": {"odd_six": "aside"},
                       "strategies": ["pimc:merge=0,race=0", "pimc:rollout=0,merge=0,race=0", "heuristic", "random", "heuristic"]},
    "scotch_6": {"game": "scotch", "players": 6, "n": 3, "strategies": ["pimc:merge=0,race=0", "heuristic", "heuristic", "pimc:merge=0,race=0", "heuristic", "heuristic"]},
    "whist_4": {"game": "whist", "n": 6, "strategies": ["pimc:merge=0,race=0", "heuristic", "heuristic", "heuristic"]},
    "whist_revokes": {"game": "whist", "n": 4, "rules": {"revokes": True, "claim": 0.5},
                      "strategies": ["pimc:worlds=7,merge=0,race=0", "heuristic:revoke=0.3", "pimc:rollout=0,merge=0,race=0", "random"]},
    # pimc at its defaults since merge and race (docs/pimc.md)
    "scotch_4_raced": {"game": "scotch", "players": 4, "n": 6, "strategies": ["pimc", "heuristic", "heuristic", "heuristic"]},
    "scotch_2_sets_raced": {"game": "scotch", "players": 2, "n": 3, "strategies": ["pimc", "pimc:worlds=5,merge=0"]},
    "french_5_raced": {"game": "scotch", "preset": "french", "players": 5, "n": 3, "rules": {"odd_six": "aside"},
                       "strategies": ["pimc", "pimc:rollout=0,race=1", "heuristic", "random", "heuristic"]},
    "whist_4_raced": {"game": "whist", "n": 6, "strategies": ["pimc", "heuristic", "heuristic", "heuristic"]},
    "whist_revokes_raced": {"game": "whist", "n": 3, "rules": {"revokes": True, "claim": 0.5},
                            "strategies": ["pimc:worlds=7,race=3", "heuristic:revoke=0.3", "pimc:rollout=0,race=0", "random"]},
}  # fmt: skip


def play(case: dict) -> dict:
    """The case's games: per game the hash of its record (moves and result), and the summary."""
    kw = dict(case)
    n = kw.pop("n")
    sim = whistsim.simulate(n=n, seed=11, records=n, threads=1, **kw)
    games = [hashlib.sha256(json.dumps(rec, sort_keys=True).encode()).hexdigest()[:16] for rec in sim.records]
    return {"records": games, "summary": sim.summary().to_csv(index=False)}


def main() -> None:
    out = {name: play(case) for name, case in CASES.items()}
    PATH.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
