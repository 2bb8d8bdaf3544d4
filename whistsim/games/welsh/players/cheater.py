"""``cheater``: greedy play with false passes: ``cheat`` (alias ``rate``) is smart by default."""

from .common import challenge_param, cheat_param, cheat_policy_params
from .greedy import decide

NAME = "cheater"
PARAMS = {"cheat": cheat_param("smart", policy=True), "challenge": challenge_param(), **cheat_policy_params()}

__all__ = ["PARAMS", "decide"]
