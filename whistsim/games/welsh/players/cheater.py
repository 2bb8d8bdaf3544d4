"""``cheater``: greedy play with false passes: ``cheat`` (alias ``rate``) is smart by default."""

from .common import challenge_param, cheat_param
from .greedy import decide

NAME = "cheater"
PARAMS = {"cheat": cheat_param("smart"), "challenge": challenge_param()}

__all__ = ["PARAMS", "decide"]
