"""The ``strategies`` command: each game's built-in players and their parameters."""

from __future__ import annotations

import click

from . import main


@main.command(name="strategies")
@click.option("--game", default="welsh", show_default=True)
def strategies_cmd(game):
    """List the built-in strategies of a game and the parameters each takes.

    A seat's player is NAME[:KEY=VALUE,...]; a user's own @njit function is
    PATH.py:FUNCTION[:KEY=VALUE,...] (see experiments/strategies/cautious.py).

    \b
    Examples:
      whistsim strategies --game welsh
      whistsim simulate --strategy 0=hunter --strategy 1=random:draw=0.3 --strategy 2=cheater:rate=0.2,challenge=smart
    """
    from ..games import get_game

    click.echo(f"{get_game(game).title} strategies (--strategy [SEAT=]NAME[:KEY=VALUE,...]):")
    for name, doc, params in get_game(game).players.describe():
        click.echo(f"\n{name}: {doc}")
        for key, p in params.items():
            also = f" (also {', '.join(p.aliases)})" if p.aliases else ""
            default = p.default if isinstance(p.default, str) else f"{p.default:g}"
            click.echo(f"  {key}={default}{also}: {p.doc}")
