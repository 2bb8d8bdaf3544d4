"""Scotch Whist, or Catch the Ten, and French Whist (Catch the Ten; docs/rules.md section 2).

Built on the shared kernel of the dealt games (``games.dealt``); this package
holds the rule options and binds the record format's ``scotch`` name.
"""

from ..dealt.figures import SCOTCH_FIGURES
from ..dealt.game import dealt_game
from .rules import OPTIONS, PRESETS, ScotchRules

GAME = dealt_game(
    "scotch", "Scotch Whist (Catch the Ten) and French Whist", ScotchRules, OPTIONS, PRESETS, SCOTCH_FIGURES
)
