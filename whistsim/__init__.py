"""whistsim: answer questions about the rules of whist-family card games by simulation."""

from ._cache import use_source_keyed_cache

use_source_keyed_cache()  # before any kernel module is imported

from .api import Judgement, Simulation, judge, load_record, replay, show, simulate  # noqa: E402
from .cards import card_name, parse_card, pretty_card  # noqa: E402
from .odds import odds  # noqa: E402
from .options import RuleError, WhistsimError  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "Judgement", "Simulation", "RuleError", "WhistsimError",
    "simulate", "replay", "judge", "show", "load_record", "odds",
    "parse_card", "card_name", "pretty_card",
]  # fmt: skip
