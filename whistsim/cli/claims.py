"""``whistsim claims``: check every claim of the rules by simulation."""

from __future__ import annotations

import json
import sys

import click

from ..options import WhistsimError
from . import main


@main.command()
@click.option("--game", "games", multiple=True, help="only this game's claims (repeatable; default: all)")
@click.option("--only", "only", multiple=True, metavar="ID", help="only this claim (repeatable; see --list)")
@click.option(
    "--n", type=int, default=20_000, show_default=True, help="games per cell of each claim's experiment"
)
@click.option(
    "--seed", type=int, default=2026, show_default=True, help="the seed of every claim's experiment"
)
@click.option("--workers", type=int, default=None, help="threads (default: all cores)")
@click.option("--json", "as_json", is_flag=True, help="one JSON object per claim")
@click.option(
    "--markdown",
    "markdown",
    type=click.Path(dir_okay=False),
    default=None,
    help="also write the table as Markdown",
)
@click.option("--notes", is_flag=True, help="also print how each claim was measured")
@click.option("--list", "list_only", is_flag=True, help="list the claims; check nothing")
@click.option("--progress/--no-progress", default=None, help="progress bars (default: on a terminal)")
def claims(games, only, n, seed, workers, as_json, markdown, notes, list_only, progress):
    """Check every claim of the rules by simulation: figure, 95% CI, n and a verdict.

    Each claim runs a small paired experiment; the verdict is "holds" when the
    whole 95% CI supports it, "does not hold" when the whole CI contradicts
    it, and "undecided at this n" otherwise.

    \b
    Examples:
      whistsim claims
      whistsim claims --n 50000 --markdown results/claims.md
      whistsim claims --only total_178_five_penalty --json
    """
    from ..claims import HEADER, check_claims, format_row, registry, to_markdown
    from ..games import game_names
    from ..io import atomic_write

    for g in games:
        if g not in game_names():
            raise WhistsimError(f"--game {g}: unknown game (known: {', '.join(game_names())})")
    chosen = registry(list(games) or None)
    ids = [c.id for c in chosen]
    for i in only:
        if i not in ids:
            raise WhistsimError(f"--only {i}: unknown claim (known: {', '.join(ids)})")
    if only:
        chosen = [c for c in chosen if c.id in only]
    if list_only:
        for c in chosen:
            click.echo(f"{c.id:<24} {c.game:<7} {c.source:<32} {c.text}")
        return

    def show(r) -> None:
        if as_json:
            click.echo(json.dumps(r.to_json(), ensure_ascii=False))
        else:
            click.echo(format_row(r, notes))

    if not as_json:
        click.echo(HEADER)

    results = check_claims(chosen, n=n, seed=seed, workers=workers,
                           progress=sys.stderr.isatty() if progress is None else progress, on_result=show)  # fmt: skip
    if markdown:
        with atomic_write(markdown) as f:
            f.write(to_markdown(results, n=n, seed=seed))
        if not as_json:
            click.echo(f"wrote {markdown}")
