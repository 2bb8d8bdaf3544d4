"""whistsim: answer questions about the rules of whist-family card games by simulation."""

from ._cache import use_source_keyed_cache

use_source_keyed_cache()  # before any kernel module is imported

from .api import Judgement, Simulation, judge, load_record, replay, show, simulate  # noqa: E402
from .cards import card_name, parse_card, pretty_card  # noqa: E402
from .odds import odds  # noqa: E402
from .options import RuleError, WhistsimError  # noqa: E402
from .tournament import tournament  # noqa: E402  (eager: the module's name is the function's)

__version__ = "0.1.0"

# Imported on first use: `whistsim simulate` starts without loading experiments or matplotlib.
_LAZY = {
    "compare": ("comparison", "compare"),
    "play_game": ("terminal", "play_game"),
    "run_experiment": ("experiments", "run_experiment"),
    "load_results": ("experiments", "load_results"),
    "WhistsimWarning": ("advice", "WhistsimWarning"),
    "new_game": ("game", "new_game"),
    "GameState": ("game", "GameState"),
    "IllegalMove": ("game", "IllegalMove"),
    "parse_deal": ("deals", "parse_deal"),
    "format_deal": ("deals", "format_deal"),
    "read_pbn": ("deals", "read_pbn"),
    "write_pbn": ("deals", "write_pbn"),
    "solve_at": ("solver", "solve_at"),
    "card_costs": ("solver", "card_costs"),
    "dd_table": ("solver", "dd_table"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    # The lazy names too, so that dir() and completion show the whole public API.
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Judgement", "Simulation", "RuleError", "WhistsimError",
    "simulate", "replay", "judge", "show", "load_record", "odds",
    "tournament", "compare", "play_game", "run_experiment", "load_results", "WhistsimWarning",
    "new_game", "GameState", "IllegalMove",
    "parse_deal", "format_deal", "read_pbn", "write_pbn",
    "solve_at", "card_costs", "dd_table",
    "parse_card", "card_name", "pretty_card",
]  # fmt: skip
