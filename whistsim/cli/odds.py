"""The ``odds`` and ``odds-study`` commands: the chance of winning a game from any score."""

from __future__ import annotations

import json
import sys

import click

from ..core.options import WhistsimError, parse_assignments
from .main import GAME, main


@main.command()
@click.option("--game", type=GAME, default="whist", show_default=True, help="whist or scotch")
@click.option(
    "--preset", default=None, help="a preset of the game's rules (whist: long, short; scotch: scotch, french)"
)
@click.option("--players", type=int, default=None, help="number of players (Scotch Whist)")
@click.option(
    "--rule", "rules", multiple=True, metavar="KEY=VALUE", help="override one rule option (repeatable)"
)
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    metavar="[SEAT=]SPEC",
    help="a seat's player, e.g. heuristic or 1=random (repeatable; default random)",
)
@click.option(
    "--score",
    default=None,
    metavar="A-B[-C]",
    help="the score, one per side (side 0 first); without it, the whole table",
)
@click.option(
    "--dealer", type=int, default=None, help="the seat that deals next (default 0; the table: every dealer)"
)
@click.option("--n", type=int, default=200_000, show_default=True, help="deals measured")
@click.option("--seed", type=int, default=0, show_default=True, help="decides every deal and every resample")
@click.option(
    "--boot",
    type=int,
    default=None,
    help="bootstrap resamples of the deals, for the CIs (default 200; 3 sides: 50)",
)
@click.option("--threads", type=int, default=None, help="Numba threads (default: all cores)")
@click.option("--progress/--no-progress", default=None, help="progress bars (default: on a terminal)")
@click.option("--json", "as_json", is_flag=True, help="print JSON: the setting and the rows")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="write the rows to FILE: CSV, or JSON for a name ending .json",
)
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False), default=None,
              help="a PNG heat map of side 0's chance by score (the whole table only)")  # fmt: skip
@click.option("--where", "where", metavar="EXPR", default=None,
              help="measure only deals that meet EXPR, e.g. 'dealer.honours >= 3' (docs/deals.md)")  # fmt: skip
def odds(game, preset, players, rules, strategies, score, dealer, n, seed, boot, threads, progress, as_json, out_path,
         chart_path, where):  # fmt: skip
    """The chance that each side wins the game from a score, with its 95% CI.

    Measures N single deals with the chosen players, keeps each side's points part
    by part (so count-out near the target is exact), then solves every score at
    once by dynamic programming over that distribution, dealer by dealer. CIs: a
    bootstrap over the deals (BOOT resamples, each solved again), +- 1.96 standard
    errors on the logit scale. Without --score: the whole table as CSV (or JSON).

    \b
    Examples:
      whistsim odds --game whist --preset short --score 3-1 --dealer 0
      whistsim odds --game whist --rule target=7 --strategy heuristic --chart whist7.png > whist7.csv
      whistsim odds --game scotch --players 4 --score 30-20 --json
      whistsim odds --game whist --preset short --score 3-1 --where 'dealer.honours >= 3'
    """
    from ..core.io import atomic_write, check_outputs, writing
    from ..tools.odds import heatmap
    from ..tools.odds import odds as compute
    from .core import _finite, _strategies

    table = "the table (without --score or --out)" if score is None and out_path is None else None
    err = check_outputs((out_path, "--out"), (chart_path, "--chart"), stdout="--json" if as_json else table)
    overrides = parse_assignments(rules)
    specs = _strategies(strategies, players, game, preset, overrides)
    if chart_path is not None and score is not None:
        raise WhistsimError("--chart draws the whole table: leave out --score")
    df = compute(game, n, seed, preset=preset, players=players, rules=overrides, strategies=specs,
                 score=score, dealer=dealer, boot=boot, threads=threads, announce=True,
                 progress=sys.stderr.isatty() if progress is None else progress, where=where)  # fmt: skip
    keys = (
        "game",
        "rules",
        "strategies",
        "seed",
        "n_deals",
        "boot",
        "dealer_period",
        "where",
        "drawn_per_deal",
    )
    meta = {k: df.attrs[k] for k in keys if k in df.attrs}
    doc = {**meta, "rows": df.to_dict(orient="records")}
    if out_path is not None:
        with writing(out_path), atomic_write(out_path) as f:
            if out_path.endswith(".json"):
                json.dump(_finite(doc), f, indent=1)
            else:
                df.to_csv(f, index=False)
    if chart_path is not None:
        with writing(chart_path):
            heatmap(df, chart_path, dealer=0 if dealer is None else dealer)
    if as_json:
        click.echo(json.dumps(_finite(doc)))
    elif score is None:
        if out_path is None:
            click.echo(df.to_csv(index=False), nl=False)
    else:  # for a person: on standard error when an output is on standard output
        click.echo(f"{game}: {meta['rules']}", err=err)
        click.echo(f"players: {', '.join(f'{q}={s}' for q, s in enumerate(meta['strategies']))}", err=err)
        click.echo(f"{n:,} deals measured (seed {seed}), {meta['boot']} bootstrap resamples", err=err)
        if where is not None:
            click.echo(f"dealt under: {meta['where']} ({meta['drawn_per_deal']:,.2f} deals drawn per deal "
                       "measured)", err=err)  # fmt: skip
        row = df.iloc[0]
        click.echo(f"from {score}, seat {int(row['dealer'])} dealing next:", err=err)
        sides = sum(c.startswith("score_") for c in df.columns)
        for side in range(sides):
            p, lo, hi = row[f"win_{side}"], row[f"win_{side}_low"], row[f"win_{side}_high"]
            click.echo(
                f"  side {side} wins {100 * p:.2f}%  (95% CI {100 * lo:.2f} to {100 * hi:.2f}%)", err=err
            )
    for path in (out_path, chart_path):
        if path is not None:
            click.echo(f"wrote {path}", err=err or as_json or score is None)


@main.command(name="odds-study")
@click.option("--n", type=int, default=None, help="deals measured per rule set (default: the spec's, 200000)")
@click.option("--check-games", type=int, default=20_000, show_default=True,
              help="whole games played from each checked score, against the method")  # fmt: skip
@click.option(
    "--seed", type=int, default=None, help="decides every deal, game and resample (default: the spec's, 1)"
)
@click.option("--boot", type=int, default=200, show_default=True, help="bootstrap resamples (two-side games)")
@click.option("--boot-three-sides", type=int, default=50, show_default=True,
              help="bootstrap resamples for 6-player Scotch Whist (each solve is ~100x larger)")  # fmt: skip
@click.option("--spec", "spec_path", type=click.Path(dir_okay=False), default=None,
              help="the study's spec (default: experiments/game_odds.toml, as shipped)")  # fmt: skip
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False), default="results/game_odds", show_default=True
)
@click.option("--resume", is_flag=True, help="continue an interrupted run from its checkpoint in --out")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all cores)")
@click.option("--progress/--no-progress", default=None, help="progress bars (default: on a terminal)")
def odds_study(n, check_games, seed, boot, boot_three_sides, spec_path, out_dir, resume, threads, progress):
    """The game_odds study: how decisive one deal is, by target, with and without honours.

    Runs the study's spec (experiments/game_odds.toml) as an experiment: the odds
    of Whist to 5, 7 and 10 with honours on and off and of Scotch Whist with 4 and
    6 players (heuristic players at every seat), solved from every deal's points
    part by part, with a check of the method against whole games played from a
    few scores; report.md and charts in OUT. Ctrl-C keeps the finished chunks for
    --resume.

    \b
    Example:
      whistsim odds-study --n 200000 --seed 1 --out results/game_odds
    """
    from ..core.io import check_output_dir
    from ..experiments import ExperimentInterrupted, load_spec, run_experiment
    from ..experiments.spec import shipped_spec
    from ..experiments.studies.game_odds import options
    from ..games.runner import threads as use_threads

    if n is not None and n < 2:
        raise WhistsimError(f"--n {n}: expected at least 2 deals per rule set")
    check_output_dir(out_dir, "--out")
    spec = load_spec(spec_path or shipped_spec("game_odds"))
    if n is not None:
        spec = spec.with_n(n)
    if seed is not None:
        spec = spec.with_seed(seed)
    shown = sys.stderr.isatty() if progress is None else progress
    try:
        with use_threads(threads), options(boot=boot, boot_three_sides=boot_three_sides, check_games=check_games,
                                           progress=shown):  # fmt: skip
            res = run_experiment(spec, out=out_dir, resume=resume, workers=threads, progress=shown)
            found = res.findings()
    except ExperimentInterrupted as e:
        click.echo(f"whistsim: {e.message}", err=True)
        sys.exit(130)
    for line in found:
        click.echo(f"- {line}")
    click.echo(f"wrote {out_dir}/report.md, summary.csv, histograms.csv and charts/")
