"""whistsim: answer questions about the rules of whist-family card games by simulation."""

from ._version import __version__ as __version__
from .core.cache import collect_rarely_while_compiling, use_source_keyed_cache

use_source_keyed_cache()  # before any kernel module is imported
collect_rarely_while_compiling()

from .api import Judgement, Simulation, judge, load_record, replay, show, simulate  # noqa: E402
from .core.cards import card_name, parse_card, pretty_card  # noqa: E402
from .core.options import RuleError, WhistsimError  # noqa: E402

# Imported on first use: `whistsim simulate` starts without loading experiments or matplotlib, nor
# the other games' kernels (odds and tournaments import the dealt games and their search). Each
# name's module is imported by name in _load (plain imports, so the package's import graph sees them).
_LAZY = {
    "odds": "odds",
    "tournament": "tournament",
    "compare": "comparison",
    "play_game": "terminal",
    "run_experiment": "experiments",
    "load_results": "experiments",
    "WhistsimWarning": "advice",
    "new_game": "game",
    "GameState": "game",
    "IllegalMove": "game",
    "parse_deal": "deals",
    "format_deal": "deals",
    "read_pbn": "deals",
    "write_pbn": "deals",
    "solve_at": "solver",
    "card_costs": "solver",
    "dd_table": "solver",
}


def _load(module: str):
    if module == "comparison":
        from .tools import comparison as m
    elif module == "terminal":
        from .tools import terminal as m
    elif module == "experiments":
        from . import experiments as m
    elif module == "odds":
        from .tools import odds as m
    elif module == "tournament":
        from .tools import tournament as m
    elif module == "advice":
        from .tools import advice as m
    elif module == "game":
        from . import game as m
    elif module == "deals":
        from . import deals as m
    else:
        from . import solver as m
    return m


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(_load(_LAZY[name]), name)
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
