"""Rule design: search a space of rule options for the variants that best meet stated aims.

A spec (``experiments/design/*.toml``, docs/design.md) names a game, the
options to search, tables of players and objectives (declared figures with a
goal or a feasible range). :func:`run_design` draws variants (every one of a
small space, else Optuna's TPE sampler), races them on paired deals with the
error controlled over the whole race, and re-measures the chosen on fresh deals.

- ``spec.py``: reading and checking a spec (one line on any fault);
- ``race.py``: the paired rounds and the race's tests (confidence sequences);
- ``search.py``: the loop, its checkpoint, and the fresh deals' re-measurement;
- ``report.py``: summary.csv, report.md and the charts.
"""

from __future__ import annotations

from .search import DesignInterrupted, DesignResult, run_design
from .spec import DesignError, DesignSpec, design_from_dict, load_design

__all__ = [
    "DesignError",
    "DesignInterrupted",
    "DesignResult",
    "DesignSpec",
    "design_from_dict",
    "load_design",
    "run_design",
]
