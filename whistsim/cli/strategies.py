"""The ``strategies`` command: each game's built-in players and their parameters."""

from __future__ import annotations

import click

from .main import GAME, main


@main.command(name="strategies")
@click.option("--game", type=GAME, default="welsh", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="the players and their parameters as one JSON object")
def strategies_cmd(game, as_json=False):
    """List the built-in strategies of a game and the parameters each takes.

    A seat's player is NAME[:KEY=VALUE,...]; a user's own @njit function is
    PATH.py:FUNCTION[:KEY=VALUE,...] (see experiments/strategies/cautious.py).

    \b
    Examples:
      whistsim strategies --game welsh
      whistsim simulate --rule revokes=true --rule challenge=parlett --strategy 2=cheater:rate=0.2,challenge=smart
    """
    import json
    import math

    from ..games import get_game

    described = get_game(game).players.describe()
    if as_json:
        players = [{"name": name, "doc": doc,
                    "params": [{"key": k, "default": p.default, "aliases": list(p.aliases), "doc": p.doc,
                                "expected": p.expected()}
                               for k, p in params.items()]} for name, doc, params in described]  # fmt: skip
        click.echo(json.dumps({"game": game, "strategies": players}, default=str))
        return
    click.echo(f"{get_game(game).title} strategies (--strategy [SEAT=]NAME[:KEY=VALUE,...]):")
    for name, doc, params in described:
        click.echo(f"\n{name}: {doc}")
        rows = []
        for key, p in params.items():
            also = f" (also {', '.join(p.aliases)})" if p.aliases else ""
            default = p.default if isinstance(p.default, str) else f"{p.default:g}"
            bounded = p.numbers and not p.words and math.isfinite(p.low) and math.isfinite(p.high)
            rows.append((f"{key}={default}{also}", f"{p.doc} ({p.expected()})" if bounded else p.doc))
        w = max((len(r[0]) for r in rows), default=0)
        for head, doc in rows:
            click.echo(f"  {head:<{w}}  {doc}")
