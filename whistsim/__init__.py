"""whistsim: answer questions about the rules of whist-family card games by simulation."""

from .api import Judgement, Simulation, judge, load_record, replay, show, simulate
from .cards import card_name, parse_card, pretty_card
from .options import RuleError, WhistsimError

__version__ = "0.1.0"

__all__ = [
    "Judgement", "Simulation", "RuleError", "WhistsimError",
    "simulate", "replay", "judge", "show", "load_record",
    "parse_card", "card_name", "pretty_card",
]  # fmt: skip
