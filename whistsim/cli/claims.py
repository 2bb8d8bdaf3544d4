"""``whistsim claims``: every claim of the sources, quoted, read and measured."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..core.options import WhistsimError, near
from .main import GAME, main


@main.command()
@click.option(
    "--game", "games", type=GAME, multiple=True, help="only this game's claims (repeatable; default: all)"
)
@click.option("--only", "only", multiple=True, metavar="ID", help="only this claim (repeatable; see --list)")
@click.option("--n", type=int, default=20_000, show_default=True, help="games per cell, rule-based players")
@click.option(
    "--n-search",
    "n_search",
    type=int,
    default=None,
    help="games per cell with the search players of Welsh Whist (pimc2) and Whist (pimc) (default n/10); "
    "Scotch Whist's pimc, quick at single deals, plays n/2 deals per cell",
)
@click.option("--seed", type=int, default=2026, show_default=True, help="the random seed of every measure")
@click.option(
    "--threads",
    "--workers",
    "workers",
    type=int,
    default=None,
    help="threads (default: all cores; --workers is the old name)",
)
@click.option("--json", "as_json", is_flag=True, help="one JSON object per claim")
@click.option("--markdown", type=click.Path(dir_okay=False), default=None,
              help="also write the report as Markdown, with the chart beside it (NAME.png)")  # fmt: skip
@click.option("--json-out", "json_out", type=click.Path(dir_okay=False), default=None,
              help="also write every claim's JSON object to this file (a list)")  # fmt: skip
@click.option("--list", "list_only", is_flag=True, help="list the claims and their readings; measure nothing")
@click.option("--progress/--no-progress", default=None,
              help="time estimate (from a timed start) and progress bar (default: on a terminal)")  # fmt: skip
def claims(games, only, n, n_search, seed, workers, as_json, markdown, json_out, list_only, progress):
    """Check every claim of the sources (docs/sources.md): quoted, read, measured.

    Each claim is quoted with its source; each of its readings states a
    measure and a decision rule and is measured at two player strengths:
    a rule-based player and the game's strongest player at its default
    settings. One row per claim: id, source, the claim, the verdict (holds,
    does not hold, holds or does not hold with one strength undecided,
    undecided at this n, depends on skill, depends on the reading, not a
    claim of fact), and the deciding figure with its unit, 95% CI, n and
    the players it was measured with.

    \b
    Examples:
      whistsim claims --n 2000
      whistsim claims --only three_best --json
      whistsim claims --n 20000 --n-search 100 --markdown results/claims.md --json-out results/claims.json

    With a progress bar (on a terminal, or --progress) the check first runs
    every claim at 1/256 and 1/32 of its games (about 4% more time) to say how long it will take.
    """
    from ..claims import (
        HEADER,
        chart,
        check_claims,
        estimate_run,
        format_row,
        not_measured,
        registry,
        source_errors,
        to_markdown,
    )
    from ..core.eta import ANNOUNCE_AFTER_S, duration
    from ..core.io import atomic_write, check_outputs, writing
    from ..games import game_names

    if markdown == "-":
        raise WhistsimError("--markdown -: the report has a chart beside it; name a file")
    png = None if markdown is None else str(Path(markdown).with_suffix(".png"))
    err = check_outputs((markdown, "--markdown"), (png, "--markdown's chart"), (json_out, "--json-out"),
                        stdout="--json" if as_json else None)  # fmt: skip
    for g in games:
        if g not in game_names():
            raise WhistsimError(f"--game {g}: unknown game (known: {', '.join(game_names())})")
    chosen = registry(list(games) or None)
    ids = [c.id for c in chosen]
    for i in only:
        if i not in ids:
            raise WhistsimError(f"--only {i}: unknown claim{near(i, ids)} (known: {', '.join(ids)})")
    if only:
        chosen = [c for c in chosen if c.id in only]
    if list_only:
        for c in chosen:
            click.echo(f"{c.id:<24} {c.source:<18} {c.short}")
            for r in c.readings:
                click.echo(f"{'':<26}- {r.id}: {r.reading} (strengths: {', '.join(r.skills)})")
        return

    bar, plan = None, None
    if sys.stderr.isatty() if progress is None else progress:
        click.echo("whistsim: timing every claim on a small share of its games first (a first run also "
                   "compiles the players' kernels)", err=True)  # fmt: skip
        plan = estimate_run(chosen, n=n, seed=seed, n_search=n_search, workers=workers)
        if plan.total > ANNOUNCE_AFTER_S:
            click.echo(f"whistsim: about {duration(plan.total)} to go for {len(chosen)} claims "
                       f"(from a timed start at {plan.shares} of their games, {plan.probe_s:.0f} s)", err=True)  # fmt: skip
        bar = claims_bar(plan)

    def show(r) -> None:  # rows are for a person: on standard error when --json-out is standard output
        line = json.dumps(r.json(), ensure_ascii=False) if as_json else format_row(r)
        if bar is None:
            click.echo(line, err=err)
        else:
            bar.write(line, file=sys.stderr if err else sys.stdout)
            bar.update(plan.seconds[r.claim.id])

    if not as_json:
        click.echo(HEADER, err=err)
    try:
        results = check_claims(chosen, n=n, seed=seed, n_search=n_search, workers=workers, on_result=show)
    finally:
        if bar is not None:
            bar.close()
    ns = n_search if n_search is not None else max(200, n // 10)
    if json_out:
        with writing(json_out), atomic_write(json_out) as f:
            json.dump([r.json() for r in results], f, ensure_ascii=False, indent=1)
            f.write("\n")
    if markdown:
        with writing(png):
            chart(results, png)
        with writing(markdown), atomic_write(markdown) as f:
            played = sorted({r.claim.game for r in results})
            f.write(to_markdown(results, n=n, seed=seed, n_search=ns, chart=Path(png).name,
                                errors=source_errors(played), skipped=not_measured(played)))  # fmt: skip
        if not as_json:
            click.echo(f"wrote {markdown} and {png}", err=err)


def claims_bar(plan):
    """A progress bar over the claims, each weighted by its expected seconds (so its ETA is in time)."""
    from tqdm import tqdm

    return tqdm(total=plan.total, file=sys.stderr, dynamic_ncols=True, leave=False,
                bar_format="{l_bar}{bar}| {elapsed}<{remaining}")  # fmt: skip
