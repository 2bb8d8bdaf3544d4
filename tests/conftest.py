import os

import frame_chunks
from hypothesis import settings

# Numba's typing calls across the ends of Python 3.11's frame-stack chunks, each call mapping and
# unmapping one: the freed chunks kept for reuse (frame_chunks.py).
frame_chunks.install()

# Property tests: enough examples to find rule bugs, few enough for 2-core CI.
settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# One kernel per game with every built-in player and the per-run conditions tested as
# written, shared by all the seatings and runs the suite plays (compiled once, then cached),
# instead of one per seating and per-run variant. test_harness.py and test_kernel_variants.py
# check the per-seating and per-run kernels that users get against it.
os.environ.setdefault("WHISTSIM_ALL_PLAYERS", "1")

# With pytest-xdist (``-n auto``: the Makefile's test, CI) the tests are dealt to the workers in
# groups, each run whole by one worker. A game's own test files form one group, so that its kernels
# are compiled by one worker, not by both at once; any other file is a group of its own (a kernel
# two groups need at once is compiled by one worker, the other waiting: harness.build locks each
# kernel module's compile). Grouping by xdist_group marks (--dist loadgroup) does not work with
# pytest 9 (xdist renames items by a field pytest 9 no longer reads), so the scheduler is ours.
FAMILIES = {
    "welsh": ("test_welsh_", "test_strategies_hidden", "test_user_strategy", "test_draw_phase"),
    "ohhell": ("test_ohhell",),
    "dealt": ("test_whist", "test_scotch", "test_pimc_", "test_dealt_", "test_pbn"),
    "solver": ("test_solver", "test_solve_at", "test_dd"),
}  # fmt: skip
# Tests of another game's kernels inside a family's file, by the start of their parameters: the
# pinned pimc games of Welsh Whist need the Welsh kernel test_welsh_ahead needs; in the dealt group
# they made the Welsh worker wait about 27 s on the dealt worker's compile of it.
SPLITS = {"test_pimc_speed.py": {"[welsh_": "welsh"}}


def group_of(nodeid: str) -> str:
    """The group a test is dealt to a worker in: its game's, or its file's."""
    file = nodeid.split("::", 1)[0].rsplit("/", 1)[-1]
    for start, family in SPLITS.get(file, {}).items():
        if start in nodeid:
            return family
    for family, prefixes in FAMILIES.items():
        if file.startswith(prefixes):
            return family
    return file


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":  # the default with -n; another --dist is the user's choice
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByKernels(LoadScopeScheduling):
        """xdist's scheduling by scope (the largest first), the scopes being :func:`group_of`'s."""

        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return ByKernels(config, log)
