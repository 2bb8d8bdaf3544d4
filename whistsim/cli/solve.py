"""The ``solve`` command: the open-hand value of recorded positions."""

from __future__ import annotations

import json
import sys

import click

from .main import main


def _where(j: dict) -> str:
    return " ".join(f"{k} {j[k]}" for k in ("line", "deal") if k in j) or "the deal"


def _text(j: dict) -> str:
    if "error" in j:
        where = "record" if j["move"] is None else f"move {j['move']}"
        return f"{_where(j)}: rejected at {where}: {j['error']}"
    if "table" in j:
        from ..solver.table import grid

        head = f"{_where(j)}: open-hand tricks of N-S (seats 0 and 2; E-W take the rest of 13), by trump and first leader"
        return "\n".join([head, *grid(j["table"])])
    if "cards" in j:
        return _each_text(j)
    if "tricks" in j:
        head = f"{_where(j)}: tricks {j['tricks'][0]}-{j['tricks'][1]} (side 0 - side 1, from the trick in progress)"
    else:
        head = f"{_where(j)}: points {j['points'][0]}-{j['points'][1]} (margin {j['margin']:+d} for side 0)"
    if "moves" not in j:
        return head
    key = "tricks" if "tricks" in j else "margin"
    cards = " ".join(
        f"{m['card']}:{m[key][0] if key == 'tricks' else m[key]}{'*' * (m['card'] in j['best'])}"
        for m in j["moves"]
    )
    return f"{head}\n  seat {j['seat']} to play, side 0's {key} after each card (* best): {cards}"


def _each_text(j: dict) -> str:
    unit = j["unit"]
    value = "margin in points" if unit == "points" else "tricks in the deal"
    lines = [f"{_where(j)}: each card against open-hand best play; side 0's {value} before and after it"]
    if j["cards"]:
        lines.append("  move  seat  card  before  after  cost  best cards")
    for c in j["cards"]:
        cost = f"{c['cost']:>4}" if c["cost"] else "    "
        best = " ".join(c.get("best", [])) + (" (a revoke)" if c.get("revoke") else "")
        lines.append(
            f"  {c['move']:>4}  {c['seat']:>4}  {c['card']:>4}  {c['before']:>6}  {c['after']:>5}  {cost}  {best}".rstrip()
        )
    if not j["cards"]:
        return "\n".join([*lines, f"  no card played yet; side 0's {value} with best play: {j['start']}"])
    lost = j["lost"]
    lines.append(f"  {unit} lost: side 0 {lost[0]}, side 1 {lost[1]} (side 0's {value}: {j['start']} with best "
                 f"play from the first card, {j['end']} played)")  # fmt: skip
    return "\n".join(lines)


@main.command()
@click.argument("source", type=str, required=False)
@click.option("--deal", "deal", default=None, metavar="TEXT",
              help="one deal in the text notation (docs/records.md), in place of SOURCE")  # fmt: skip
@click.option("--at", "at", type=int, default=None, metavar="N",
              help="solve the position after the first N moves of each record (default: all its moves)")  # fmt: skip
@click.option(
    "--each", is_flag=True, help="judge every card played: its value and what it cost against the best card"
)
@click.option("--moves", is_flag=True, help="also each legal card's value and the best cards")
@click.option(
    "--table", is_flag=True, help="a Whist deal's tricks per side for each trump suit and first leader"
)
@click.option("--json", "as_json", is_flag=True, help="one JSON object per record")
@click.option("--csv", "csv_path", default=None, metavar="FILE",
              help="--table or --each as CSV, one row per cell or card (- standard output)")  # fmt: skip
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
def solve(source, deal, at, each, moves, table, as_json, csv_path, progress):
    """Open-hand (double-dummy) values of deals and positions, both sides playing best.

    SOURCE is a JSON Lines file of Whist or Scotch Whist records (two sides: 4
    players, 6 in threes, 8 in fours), - for standard input, or a .pbn file
    (each board's deal as Whist); or give one deal in the text notation with
    --deal. The position solved is after a record's moves (--at N: after its
    first N; a deal from text or PBN has none), mid-trick included. Whist: the
    tricks each side takes from the trick in progress (counted) to the end,
    {"line": L, "tricks": [t0, t1]}. Scotch Whist: the sides play for the
    margin in the deal's final points; {"line": L, "points": [p0, p1],
    "margin": m} gives the final totals (points already taken included) of the
    line in which every player plays the lowest of its best cards. --each judges
    every card played: side 0's value of the deal before and after it, and what
    it cost its side against the best card (tricks; Scotch: points of margin).
    --table gives a Whist deal's tricks for N-S and E-W under each trump suit
    and first leader. Bad records get replay's error objects, and a non-zero
    exit status. A file expected to take over a minute says so first, from its
    own first records. More in docs/solve.md.

    \b
    Example:
      whistsim simulate --game whist --n 1 --records deals.jsonl
      whistsim solve deals.jsonl --at 20 --moves
      whistsim solve deals.jsonl --each --csv errors.csv
      whistsim solve --deal 'N:A75.J5.AKJ.A8742 KQJT.AK73.T2.T95 96.42.Q98754.J63 8432.QT986.63.KQ trump=D' --table
    """
    from ..core.eta import Watch
    from ..core.io import atomic_write, check_outputs, writing
    from ..core.options import WhistsimError
    from ..solver import is_pbn, solve_source

    if sum((each, moves, table)) > 1:
        raise WhistsimError("--each, --moves and --table: give one of them")
    if at is not None and (each or table):
        raise WhistsimError(f"--at judges one position; --{'each' if each else 'table'} takes the whole deal")
    if at is not None and at < 0:
        raise WhistsimError(f"--at {at}: expected a move number of 0 or more")
    if csv_path is not None and not (each or table):
        raise WhistsimError("--csv writes the rows of --each or --table: give one of them")
    if (source is None) == (deal is None):
        raise WhistsimError("give SOURCE (a file of records or a .pbn file) or --deal TEXT, one of them")
    err = check_outputs((csv_path, "--csv"), stdout="--json" if as_json else None)
    what = "each" if each else "table" if table else "value"
    total = 1 if deal is not None else None if is_pbn(source) else _records_in(source)
    show = sys.stderr.isatty() if progress is None else progress
    watch = Watch(total, "record", progress=show)
    bad = 0
    rows: list[dict] = []
    try:
        for j in solve_source(source, deal=deal, what=what, at=at, moves=moves):
            bad += "error" in j
            if csv_path is not None and "error" not in j:
                rows += _rows(j)
            text = json.dumps(j, separators=(",", ":")) if as_json else _text(j)
            if err:  # the CSV is on standard output: the rest is for a person
                click.echo(text, err=True)
            else:
                watch.echo(text)
            watch.tick()
    finally:
        watch.close()
    if csv_path is not None:
        import csv

        with writing(csv_path), atomic_write(csv_path) as f:
            fields = list(rows[0]) if rows else _CSV_FIELDS[what]
            w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        if csv_path != "-":
            click.echo(f"wrote {csv_path} ({len(rows):,} rows)", err=err)
    if bad:
        sys.exit(1)


_CSV_FIELDS = {
    "each": ["move", "seat", "side", "card", "before", "after", "cost", "best", "revoke"],
    "table": ["trump", "leader", "tricks_ns", "tricks_ew"],
}


def _rows(j: dict) -> list[dict]:
    """The CSV rows of one deal's --each or --table object, led by where it came from."""
    label = {k: j[k] for k in ("line", "deal") if k in j}
    if "table" in j:
        return [{**label, "trump": r["trump"], "leader": r["leader"], "tricks_ns": r["tricks"][0],
                 "tricks_ew": r["tricks"][1]} for r in j["table"]]  # fmt: skip
    return [{**label, **{k: c.get(k) for k in _CSV_FIELDS["each"][:-2]}, "best": " ".join(c.get("best", [])),
             "revoke": int(bool(c.get("revoke")))} for c in j["cards"]]  # fmt: skip


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
@click.option("--n", type=int, default=None, help="deals per cell, in both games (default: the spec's)")
@click.option("--n-whist", type=int, default=None, help="deals per cell (as --n; the two games play alike)")
@click.option("--n-scotch", type=int, default=None, help="deals per cell (as --n; the two games play alike)")
@click.option(
    "--seed", type=int, default=None, help="decides every deal, the same in every cell (default: the spec's)"
)
@click.option("--spec", "spec_path", type=click.Path(dir_okay=False), default=None,
              help="the study's spec (default: experiments/luck_skill.toml, as shipped)")  # fmt: skip
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="write report.md, summary.csv and charts/ into this folder (else: the table is printed)")  # fmt: skip
@click.option("--resume", is_flag=True, help="continue an interrupted run from its checkpoint in --out")
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
def luck_skill(n, n_whist, n_scotch, seed, spec_path, out_dir, resume, progress):
    """The luck/skill split: how much of a deal's result the cards decide, how much the play.

    Runs the study's spec (experiments/luck_skill.toml) as an experiment: each deal's
    open-hand value (the solver, every hand open, both sides best) beside the margin
    actually scored, for Whist and Scotch Whist with 4 players, per player strength and
    rule variant (honours; French), on the same deals. A run expected to take over a
    minute says so first; Ctrl-C keeps the finished chunks for --resume.

    \b
    Example:
      whistsim luck-skill --n 800 --seed 2026 --out results/luck_skill
    """
    from ..core.options import WhistsimError
    from ..experiments import ExperimentInterrupted, load_spec, run_experiment
    from ..experiments.spec import shipped_spec
    from ..experiments.studies.luck_skill import split_table, table

    given = {k: v for k, v in (("--n", n), ("--n-whist", n_whist), ("--n-scotch", n_scotch)) if v is not None}
    if len(set(given.values())) > 1:
        raise WhistsimError(f"{' and '.join(given)} differ: the study plays as many deals in every cell of both "
                            "games; give one number")  # fmt: skip
    deals = next(iter(given.values()), None)
    if deals is not None and deals < 4:
        raise WhistsimError(f"{next(iter(given))} {deals}: expected at least 4 deals")
    if resume and out_dir is None:
        raise WhistsimError("--resume continues a run written to --out: give --out")
    if out_dir is not None:
        from ..core.io import check_output_dir

        check_output_dir(out_dir, "--out")  # before the deals are solved, not after
    spec = load_spec(spec_path or shipped_spec("luck_skill"))
    if deals is not None:
        spec = spec.with_n(deals)
    if seed is not None:
        spec = spec.with_seed(seed)
    try:
        res = run_experiment(spec, out=out_dir, resume=resume, write=out_dir is not None,
                             progress=sys.stderr.isatty() if progress is None else progress)  # fmt: skip
    except ExperimentInterrupted as e:
        click.echo(f"whistsim: {e.message}", err=True)
        sys.exit(130)
    if out_dir is None:
        click.echo(split_table(table(res)))
        return
    for line in res.findings():
        click.echo(f"- {line}")
    click.echo(f"wrote {out_dir}/report.md, summary.csv and charts/")
