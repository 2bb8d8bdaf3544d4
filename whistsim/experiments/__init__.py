"""Experiments: declared studies run as paired sweeps, with honest statistics and reports.

>>> from whistsim.experiments import run_experiment
>>> res = run_experiment("experiments/cheating.toml", n=2000, write=False)
>>> res.summary()     # pandas: one row per cell and figure (mean, sd, 95% CI, n)
>>> res.paired()      # per-game differences against the baseline, same deals
>>> res.findings()    # the headline findings as sentences
"""

from __future__ import annotations

from .report import ExperimentResult, LoadedResults, load_results
from .run import ExperimentInterrupted, play_chunk, run_experiment
from .spec import Cell, Pair, Spec, SpecError, load_spec, spec_from_dict

__all__ = [
    "Cell", "Pair", "Spec", "SpecError", "ExperimentResult", "ExperimentInterrupted", "LoadedResults",
    "load_spec", "spec_from_dict", "run_experiment", "play_chunk", "load_results",
]  # fmt: skip
