"""The ``figures`` command: what each figure a game measures means, and its unit."""

from __future__ import annotations

import json

import click

from .main import GAME, GAME_HELP, main


def figure_rows(game: str) -> list[dict]:
    """Each declared figure of ``game``: name, per what, unit, meaning, and its kind."""
    from ..core.tables import is_share
    from ..games import get_game

    rows = []
    for f in get_game(game).figures:
        kind = "share (Wilson CI)" if is_share(f) else ("ratio of means" if f.ratio else "mean per game")
        rows.append({"figure": f.name if f.per == "game" else f"{f.name}[{f.per}]", "per": f.per,
                     "unit": f.unit, "meaning": f.doc, "kind": kind, "in_simulate": f.basic})  # fmt: skip
    return rows


@main.command(name="figures")
@click.option("--game", type=GAME, default="welsh", show_default=True, help=GAME_HELP)
@click.option("--json", "as_json", is_flag=True, help="the figures as one JSON object")
def figures_cmd(game, as_json):
    """List every figure a game measures: its unit and what it means.

    A figure per seat, side or turn position has one column per index, e.g.
    points[0]; a turn position counts from the player who moves first.
    simulate shows the figures marked *; studies can use them all. A share
    (every game's value in [0, 1]) is marked %: its 95% CI is Wilson's, inside [0, 1].

    \b
    Example:
      whistsim figures --game welsh
    """
    from ..games import get_game

    rows = figure_rows(game)
    if as_json:
        click.echo(json.dumps({"game": game, "figures": rows}))
        return
    click.echo(f"{get_game(game).title} figures (* shown by simulate; % a share, with Wilson's CI):")
    w = max(len(r["figure"]) for r in rows)
    u = max(len(r["unit"]) for r in rows)
    for r in rows:
        star = "*" if r["in_simulate"] else " "
        share = "%" if r["kind"].startswith("share") else " "
        click.echo(f"{star}{share} {r['figure']:<{w}}  {r['unit']:<{u}}  {r['meaning']}")
