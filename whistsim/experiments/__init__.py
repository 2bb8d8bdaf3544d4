"""Experiments: declared studies run as paired sweeps, with honest statistics and reports.

>>> from whistsim.experiments import run_experiment
>>> res = run_experiment("experiments/cheating.toml", n=2000, write=False)
>>> res.summary()     # pandas: one row per cell and figure (mean, sd, 95% CI, n)
>>> res.paired()      # per-game differences against the baseline, same deals
>>> res.findings()    # the headline findings as sentences

Layers, each importing only those above it in this list:
figures (the games' declarations) -> spec (schema, checks, cells) -> results
(tallies, ExperimentResult) -> reading (generic findings; studies/NAME.py: a
study's own, loaded by name) -> charts -> report (files) -> run (Run, the local
and Dask executors, checkpoints).
"""

from __future__ import annotations

from .results import ExperimentResult, LoadedResults, load_results
from .run import DaskExecutor, ExperimentInterrupted, LocalExecutor, Run, play_chunk, run_experiment
from .spec import Cell, Pair, Spec, SpecError, load_spec, spec_from_dict

__all__ = [
    "Cell", "Pair", "Spec", "SpecError", "ExperimentResult", "ExperimentInterrupted", "LoadedResults",
    "Run", "LocalExecutor", "DaskExecutor",
    "load_spec", "spec_from_dict", "run_experiment", "play_chunk", "load_results",
]  # fmt: skip
