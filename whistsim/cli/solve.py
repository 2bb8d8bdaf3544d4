"""The ``solve`` command: the open-hand value of recorded positions."""

from __future__ import annotations

import json
import sys

import click

from . import main


def _text(j: dict) -> str:
    if "error" in j:
        where = "record" if j["move"] is None else f"move {j['move']}"
        return f"line {j['line']}: rejected at {where}: {j['error']}"
    if "tricks" in j:
        head = f"line {j['line']}: tricks {j['tricks'][0]}-{j['tricks'][1]} (side 0 - side 1, from the trick in progress)"
    else:
        head = (
            f"line {j['line']}: points {j['points'][0]}-{j['points'][1]} (margin {j['margin']:+d} for side 0)"
        )
    if "moves" not in j:
        return head
    key = "tricks" if "tricks" in j else "margin"
    cards = " ".join(
        f"{m['card']}:{m[key][0] if key == 'tricks' else m[key]}{'*' * (m['card'] in j['best'])}"
        for m in j["moves"]
    )
    return f"{head}\n  seat {j['seat']} to play, side 0's {key} after each card (* best): {cards}"


@main.command()
@click.argument("source", type=str)
@click.option("--json", "as_json", is_flag=True, help="one JSON object per record")
@click.option("--moves", is_flag=True, help="also each legal card's value and the best cards")
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
def solve(source, as_json, moves, progress):
    """Open-hand (double-dummy) value of each record's position, both sides playing best.

    SOURCE is a JSON Lines file of Whist or Scotch Whist records (two sides: 4
    players, 6 in threes, 8 in fours), or - for standard input. A record's moves
    may stop anywhere, mid-trick included; the position after them is solved.
    Whist: the tricks each side takes from the trick in progress (counted) to the
    end, {"line": L, "tricks": [t0, t1]}. Scotch Whist: the sides play for the
    margin in the deal's final points; {"line": L, "points": [p0, p1], "margin":
    m} gives the final totals (points already taken included) of the line in which
    every player plays the lowest of its best cards. Bad records get replay's
    error objects, and a non-zero exit status. A file expected to take over a minute
    says so first, from its own first records.

    \b
    Example:
      whistsim simulate --game whist --n 5 --records deals.jsonl
      whistsim solve deals.jsonl --json --moves
    """
    from ..eta import Watch
    from ..solver import solve_file

    show = sys.stderr.isatty() if progress is None else progress
    watch = Watch(_records_in(source), "record", progress=show)
    bad = 0
    try:
        for j in solve_file(source, moves):
            bad += "error" in j
            watch.echo(json.dumps(j, separators=(",", ":")) if as_json else _text(j))
            watch.tick()
    finally:
        watch.close()
    if bad:
        sys.exit(1)


def _records_in(source: str) -> int | None:
    """The lines of a regular file (about the records ``solve`` will judge: blank ones are
    skipped); None for a stream, whose length is not known before it ends."""
    import os
    import stat

    try:
        if source == "-" or not stat.S_ISREG(os.stat(source).st_mode):
            return None
        with open(source, "rb") as f:  # read in blocks: a line may be far longer than memory allows
            lines, last = 0, b"\n"
            for block in iter(lambda: f.read(1 << 20), b""):
                lines, last = lines + block.count(b"\n"), block[-1:]
            return lines + (last != b"\n")
    except OSError:
        return None  # solve_file says what is wrong with it


@main.command(name="luck-skill")
@click.option("--n-whist", type=int, default=150, show_default=True, help="Whist deals per cell")
@click.option("--n-scotch", type=int, default=400, show_default=True, help="Scotch Whist deals per cell")
@click.option(
    "--seed", type=int, default=2026, show_default=True, help="decides every deal (the same in every cell)"
)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="write report.md, split.csv and charts/ into this folder")  # fmt: skip
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
def luck_skill(n_whist, n_scotch, seed, out_dir, progress):
    """The luck/skill split: how much of a deal's result the cards decide, how much the play.

    Each deal's open-hand par (the solver, every hand open, both sides best) is set
    beside the margin actually scored, for Whist and Scotch Whist with 4 players,
    per player strength and rule variant (honours; French), on the same deals. A
    study expected to take over a minute says so first, from its first deals solved.

    \b
    Example:
      whistsim luck-skill --n-whist 150 --n-scotch 400 --out results/luck_skill
    """
    from ..options import WhistsimError
    from ..solver.luck import markdown, study, write_study

    if n_whist < 4 or n_scotch < 4:
        raise WhistsimError("--n-whist and --n-scotch: expected at least 4 deals")
    if out_dir is not None:
        from ..io import check_output_dir

        check_output_dir(out_dir, "--out")  # before the deals are solved, not after
    n = {"whist": n_whist, "scotch": n_scotch}
    table = study(n, seed, announce=True, progress=sys.stderr.isatty() if progress is None else progress)
    click.echo(markdown(table))
    if out_dir is not None:
        write_study(table, out_dir, n, seed)
        click.echo(f"wrote {out_dir}/report.md, split.csv and charts/")
