"""The solver's values are pinned: every legal card's value in 200 positions of each setting
(``golden/solver_values.py``) must stay as written, whatever the search prunes or orders."""

import pytest
from golden.solver_values import DEALS, SETTINGS, pinned, positions, solve

PINNED = pinned()


def test_every_setting_is_pinned():
    assert sorted(PINNED) == sorted(SETTINGS)
    assert all(len(v) == DEALS for v in PINNED.values())


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_every_cards_value_is_unchanged(setting):
    changed = [i for i, (rec, want) in enumerate(zip(positions(setting), PINNED[setting], strict=True))
               if solve(rec) != want]  # fmt: skip
    assert not changed, f"positions {changed} of {setting} changed value"
