"""``whistsim bench``."""

from __future__ import annotations

import json

import click

from .main import main


@main.command()
@click.option("--seconds", type=float, default=1.0, show_default=True, help="target length of each timed run")
@click.option(
    "--repeats",
    type=int,
    default=5,
    show_default=True,
    help="timed runs per case, taken in turns (the best is kept)",
)
@click.option(
    "--openspiel/--no-openspiel", default=True, show_default=True, help="also time OpenSpiel (extra 'bench')"
)
@click.option(
    "--dds/--no-dds",
    default=None,
    help="also time the solver beside DDS through endplay (extra 'bench')  [default: as --openspiel]",
)
@click.option(
    "--memory-games",
    type=int,
    default=10_000_000,
    show_default=True,
    help="games in the peak-memory run (0: skip)",
)
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="also write the table as CSV (make bench: results/bench.csv)",
)
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of a table")
def bench(seconds, repeats, openspiel, dds, memory_games, csv_path, as_json):
    """Games per second per game, player and thread count, beside OpenSpiel and the floor.

    \b
    Example:
      whistsim bench --seconds 0.5 --no-openspiel --memory-games 0
    """
    import math

    from ..bench import speed as b
    from ..core.io import check_outputs, writing
    from ..core.options import WhistsimError

    if not (math.isfinite(seconds) and 0 < seconds <= 3600):
        raise WhistsimError(f"--seconds {seconds}: expected a length from 0 to 3600 seconds")
    if not 1 <= repeats <= 1000:
        raise WhistsimError(f"--repeats {repeats}: expected 1 to 1000")
    if memory_games < 0:
        raise WhistsimError(f"--memory-games {memory_games}: expected 0 (skip) or more")
    err = check_outputs((csv_path, "--csv"), stdout="--json" if as_json else None)

    if openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            raise WhistsimError(
                "OpenSpiel is not installed: pip install -e '.[bench]', or --no-openspiel"
            ) from None
    dds = openspiel if dds is None else dds
    if dds:
        try:
            import endplay  # noqa: F401
        except ImportError:
            raise WhistsimError(
                "endplay (DDS) is not installed: pip install -e '.[bench]', or --no-dds"
            ) from None
    out = b.run(seconds, repeats, openspiel, memory_games, dds=dds)
    if csv_path is not None:
        with writing(csv_path):
            b.write_csv(out, csv_path)
    # the report is for a person: on standard error when the CSV is on standard output
    click.echo(json.dumps(out, indent=1) if as_json else b.format_report(out), err=err)
