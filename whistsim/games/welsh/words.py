"""How Welsh Whist says what happened (the narrator's words, harness/narrator.py): a Taffy led
names its suit, and a won trick counts its Tens and Taffies."""

from __future__ import annotations

from ...core.cards import SUIT_WORDS, TAFFY
from ...harness.narrator import Words


class WelshWords(Words):
    def lead(self, card: int, suit: int) -> str:
        return f"a Taffy as {SUIT_WORDS[suit]}" if card == TAFFY else self.card(card)

    def worth(self, worth: int) -> str:
        if not worth:
            return ""
        return f", {worth} Ten{'s' if worth != 1 else ''}/Taff{'ies' if worth != 1 else 'y'}"


WORDS = WelshWords()
