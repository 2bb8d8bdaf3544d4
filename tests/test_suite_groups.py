"""The suite's own scheduling (conftest): each game's kernels are compiled by the worker running
that game's group, so no worker waits on the other's compile of a kernel its own tests need."""

from conftest import group_of
from golden.pimc_games import CASES


def test_each_pinned_pimc_game_runs_in_its_kernels_group():
    # Welsh Whist's pinned games with the Welsh tests (test_welsh_ahead needs their kernel), the
    # dealt games' with the dealt tests; the file's other tests stay with the dealt tests.
    for name, case in CASES.items():
        nodeid = f"tests/test_pimc_speed.py::test_pimc_games_are_unchanged[{name}]"
        assert group_of(nodeid) == ("welsh" if case["game"] == "welsh" else "dealt"), name
    assert group_of("tests/test_pimc_speed.py::test_every_case_is_pinned") == "dealt"
    assert {case["game"] for case in CASES.values()} >= {"welsh", "whist"}


def test_a_games_files_form_one_group_and_any_other_file_is_its_own():
    assert group_of("tests/test_welsh_ahead.py::test_x[3-specs0-5a2e2da3678aa0b1]") == "welsh"
    assert group_of("tests/test_user_strategy.py::test_x") == "welsh"
    assert group_of("tests/test_ohhell_table.py::test_x") == "ohhell"
    assert group_of("tests/test_dealt_sim.py::test_x[welsh_1]") == "dealt"  # the split is one file's
    assert group_of("tests/test_solve_at.py::test_x") == "solver"
    assert group_of("tests/test_odds.py::test_x[welsh_1]") == "test_odds.py"
