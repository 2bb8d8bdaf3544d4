"""Regenerate the golden play-throughs: ``make golden``.

Each case is one simulated deal written as a record (``NAME.jsonl``) and told
by ``whistsim show`` (``NAME.txt``). tests/test_golden.py replays the records
and compares both with the files, so any change to a rule, a result or the
telling shows up as a diff to review before it is committed.
"""

from __future__ import annotations

from pathlib import Path

import whistsim
from whistsim.core.io import write_jsonl

HERE = Path(__file__).parent

# name -> simulate() arguments; each writes the first deal of the run.
CASES: dict[str, dict] = {
    "welsh_parlett_3": {"game": "welsh", "preset": "parlett", "players": 3},
    "welsh_akagiri_5_challenge": {
        "game": "welsh", "preset": "akagiri", "players": 5,
        "rules": {"revokes": True, "challenge": "akagiri"},
    },
    "welsh_parlett_4_challenge_piles": {
        "game": "welsh", "preset": "parlett", "players": 4,
        "rules": {"revokes": True, "challenge": "parlett", "scoring": "piles"},
    },
    "scotch_4": {"game": "scotch", "players": 4},
    "scotch_2_sets": {"game": "scotch", "players": 2},
    "french_5_aside": {"game": "scotch", "preset": "french", "players": 5, "rules": {"odd_six": "aside"}},
    "whist_long": {"game": "whist"},
}  # fmt: skip


def main() -> None:
    for name, kwargs in CASES.items():
        sim = whistsim.simulate(n=1, seed=2026, records=1, **kwargs)
        record = sim.records[0]
        write_jsonl(HERE / f"{name}.jsonl", [record])
        (HERE / f"{name}.txt").write_text(whistsim.show(record) + "\n", encoding="utf-8")
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
