"""The studies' own readings: one module per ``analysis = "NAME"`` of a spec, loaded by name.

A module here defines ``analyse(result) -> Analysis``: the findings, charts
and tables of its study, before the generic reading (whistsim.experiments.reading).
A study may name the figures it studies (a study of Welsh Whist names Welsh
figures); the framework names none.
"""

from __future__ import annotations

# What the claims share with the studies.
from .leading import LITTLE
from .player_count import MEASURES, best_count, measure

__all__ = ["LITTLE", "MEASURES", "best_count", "measure"]
