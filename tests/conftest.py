import os

# Property tests: enough examples to find rule bugs, few enough for 2-core CI.
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# One kernel per game with every built-in player, shared by all the seatings the suite
# plays (compiled once, then cached), instead of one per seating. test_harness.py checks
# the per-seating kernels that users get.
os.environ.setdefault("WHISTSIM_ALL_PLAYERS", "1")
