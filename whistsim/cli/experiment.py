"""``whistsim experiment``: run a declared study into results/NAME/."""

from __future__ import annotations

import sys

import click

from .main import main


@main.command()
@click.argument("spec_path", metavar="SPEC", type=str)
@click.option(
    "--out", type=click.Path(file_okay=False), default=None, help="output folder (default: results/NAME)"
)
@click.option("--n", type=int, default=None, help="games per cell, instead of the spec's n")
@click.option(
    "--threads",
    "--workers",
    "workers",
    type=int,
    default=None,
    help="threads per chunk (default: all cores; --workers is the old name)",
)
@click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
              help="run the chunks on a Dask cluster (pip install 'whistsim[dask]')")  # fmt: skip
@click.option("--resume", is_flag=True, help="continue an interrupted run from its checkpoint")
@click.option("--until-ci", type=float, default=None, metavar="WIDTH",
              help="play chunk by chunk until every headline 95% CI is at most WIDTH wide (instead of n games)")  # fmt: skip
@click.option(
    "--max-n", type=int, default=None, help="with --until-ci: at most this many games per cell (default 10^8)"
)
@click.option("--rows", is_flag=True, help="also write every game's figures as Parquet (results/NAME/rows/)")
@click.option(
    "--records",
    type=int,
    default=0,
    show_default=True,
    help="write the first N games of each cell as records",
)
@click.option("--check", is_flag=True, help="check the spec and list its cells; play nothing")
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
@click.option(
    "--json", "as_json", is_flag=True, help="print the run, its findings and summary as one JSON object"
)
def experiment(
    spec_path,
    out,
    n,
    workers,
    scheduler,
    resume,
    until_ci,
    max_n,
    rows,
    records,
    check,
    progress,
    as_json=False,
):
    """Run a declared study (a TOML spec): paired sweeps, 95% CIs, report and charts.

    Writes results/NAME/summary.csv (every figure of every cell: mean, sd,
    95% CI, n), paired.csv (differences against the baseline on the same
    deals), report.md (what was run, the findings, tables and charts) and
    charts/*.png. A bad spec is refused before anything runs. Ctrl-C keeps
    finished chunks; --resume continues to the same result as one run.

    \b
    Examples:
      whistsim experiment experiments/cheating.toml
      whistsim experiment experiments/cheating.toml --n 2000 --out /tmp/cheating
      whistsim experiment experiments/player_count.toml --until-ci 0.5 --resume
      whistsim experiment experiments/seat_advantage.toml --scheduler tcp://10.0.0.5:8786
      whistsim experiment experiments/five_penalty.toml --check
    """
    from ..core.io import check_output_dir
    from ..core.options import WhistsimError
    from ..experiments import ExperimentInterrupted, load_spec, run_experiment
    from ..experiments.run import iter_cells

    if max_n is not None and until_ci is None:
        raise WhistsimError("--max-n bounds --until-ci: give --until-ci WIDTH too")
    spec = load_spec(spec_path)
    if n is not None:
        spec = spec.with_n(n)
    if check:
        click.echo(f"{spec_path}: {spec.title}: {len(spec.cells)} cells x {spec.n:,} games, seed {spec.seed}")
        users = sorted({s.split(":")[0] for c in spec.cells for s in c.players if ".py:" in s})
        if users:  # checking a cell's players compiles them: their files run
            click.echo(f"checked by importing the strategy files it names: {', '.join(users)}")
        for line in iter_cells(spec):
            click.echo(line)
        if spec.pairs:
            click.echo(f"{len(spec.pairs)} paired comparisons against the baseline")
        return
    check_output_dir(out or f"results/{spec.name}", "--out")
    try:
        res = run_experiment(spec, out=out, workers=workers, scheduler=scheduler, resume=resume, until_ci=until_ci,
                             max_n=max_n, rows=rows, records=records,
                             progress=sys.stderr.isatty() if progress is None else progress)  # fmt: skip
    except ExperimentInterrupted as e:
        click.echo(f"whistsim: {e.message}", err=True)
        sys.exit(130)
    where = out or f"results/{spec.name}"
    total = res.games * len(spec.cells)
    if as_json:
        import json

        click.echo(json.dumps({"name": spec.name, "title": spec.title, "cells": len(spec.cells), "games": res.games,
                               "seconds": res.seconds, "stopped": res.stopped or None, "out": where,
                               "findings": list(res.findings()),
                               "summary": json.loads(res.summary().to_json(orient="records"))}))  # fmt: skip
        return
    click.echo(
        f"{spec.title}: {len(spec.cells)} cells x {res.games:,} games ({total:,} in all) in {res.seconds:.1f} s"
    )
    if res.stopped:
        click.echo(f"stopped: {res.stopped}")
    for line in res.findings():
        click.echo(f"- {line}")
    click.echo(
        f"wrote {where}/report.md, summary.csv" + (", paired.csv" if spec.pairs else "") + " and charts/"
    )
