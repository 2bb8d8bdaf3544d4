"""Whist (the short and long whist pages; docs/rules.md section 3).

Built on the shared kernel of the dealt games (``games.dealt``); this package
holds the rule options and binds the record format's ``whist`` name.
"""

from ..dealt.figures import WHIST_FIGURES
from ..dealt.game import dealt_game
from .rules import OPTIONS, PRESETS, WhistRules

GAME = dealt_game("whist", "Whist", WhistRules, OPTIONS, PRESETS, WHIST_FIGURES)
