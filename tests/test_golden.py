"""Golden play-throughs: recorded deals must replay to their results and tell the same story.

Regenerate with ``make golden`` after an intended change, and review the diff.
"""

import json
from pathlib import Path

import pytest

import whistsim

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.jsonl"))


def test_every_case_is_present():
    from golden.regenerate import CASES as DECLARED

    assert CASES == sorted(DECLARED)


@pytest.mark.parametrize("name", CASES)
def test_golden_record_replays_to_its_result(name):
    text = (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8")
    judgement = whistsim.judge(0, text)
    assert judgement.error is None
    assert judgement.result == json.loads(text)["result"]


@pytest.mark.parametrize("name", CASES)
def test_golden_show_is_unchanged(name):
    record = json.loads((GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8"))
    assert whistsim.show(record) + "\n" == (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
