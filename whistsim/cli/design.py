"""``whistsim design``: search a space of rule options for the variants that best meet stated aims."""

from __future__ import annotations

import sys

import click

from .main import main


@main.command()
@click.argument("spec_path", metavar="SPEC", type=str)
@click.option(
    "--out", type=click.Path(file_okay=False), default=None, help="output folder (default: results/NAME)"
)
@click.option("--seed", type=int, default=None, help="the seed, instead of the spec's")
@click.option("--budget", type=int, default=None, help="games the search may play, instead of the spec's")
@click.option("--threads", type=int, default=None, help="threads (default: all cores)")
@click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
              help="play the blocks on a Dask cluster (pip install 'whistsim[dask]')")  # fmt: skip
@click.option("--resume", is_flag=True, help="continue an interrupted run from its checkpoint")
@click.option("--check", is_flag=True, help="check the spec and say what it would search; play nothing")
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
def design(spec_path, out, seed, budget, threads, scheduler, resume, check, progress):
    """Search rule options for the variants that best meet a spec's aims.

    Variants (every one of a small space, else Optuna's draws) are raced on
    the same deals round by round; one shown worse than a survivor, with the
    error controlled over the whole race, is dropped. The best (or the best
    set) is re-measured on fresh deals against the standard rules. Writes
    results/NAME/report.md, summary.csv (every variant) and charts/. Ctrl-C
    keeps the finished blocks; --resume continues to the same answer.

    \b
    Examples:
      whistsim design experiments/design/whist.toml
      whistsim design experiments/design/scotch4.toml --budget 2000000 --out /tmp/scotch4
      whistsim design experiments/design/welsh.toml --resume
      whistsim design experiments/design/whist.toml --check
    """
    from ..core.io import check_output_dir
    from ..design import DesignInterrupted, load_design, run_design

    spec = load_design(spec_path)
    if seed is not None or budget is not None:
        spec = spec.with_(**{k: v for k, v in (("seed", seed), ("budget", budget)) if v is not None})
    if check:
        click.echo(f"{spec_path}: {spec.title}: {spec.game}, {int(spec.size) if spec.size < float('inf') else 'a continuous'} "
                   f"combinations of {', '.join(d.key for d in spec.space)}; budget {spec.budget:,} games, "
                   f"rounds of {spec.block:,} deals, seed {spec.seed}")  # fmt: skip
        click.echo(f"standard rules: {spec.standard.describe()}")
        for o in spec.objectives:
            click.echo(f"- {o.figure} at {o.players}: {o.words()}")
        return
    where = out or f"results/{spec.name}"
    check_output_dir(where, "--out")
    try:
        r = run_design(spec, out=where, threads_=threads, scheduler=scheduler, resume=resume,
                       progress=sys.stderr.isatty() if progress is None else progress)  # fmt: skip
    except DesignInterrupted as e:
        click.echo(f"whistsim: {e.message}", err=True)
        sys.exit(130)
    click.echo(
        f"{spec.title}: {len(r.variants)} variants, {r.rounds} rounds, {r.spent:,} games in {r.seconds:.1f} s"
    )
    for line in r.findings():
        click.echo(f"- {line}")
    click.echo(f"wrote {where}/report.md, summary.csv and charts/")
