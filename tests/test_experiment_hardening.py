"""Experiments that never lose data nor resume into wrong numbers (issue 36).

A run owns the files it writes in its folder (listed in ``.whistsim-outputs``) and removes what an
earlier run wrote there that it did not; a checkpoint carries a sha256 of its content and is checked
against the run before anything is built from it; a full disk, a deep or BOM-led spec are one line.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import resource
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from spec_helpers import write_spec

from whistsim.cli import main
from whistsim.core.options import WhistsimError
from whistsim.experiments import (
    ExperimentInterrupted,
    SpecError,
    load_results,
    load_spec,
    run_experiment,
    spec_from_dict,
)
from whistsim.experiments import report as report_module
from whistsim.experiments.run import CHECKPOINT, Run, _checksum

# One kernel (random players) for every test here: n=300 in chunks of 100, two cells, one pair.
SPEC = """
name = "tiny"
title = "A tiny study"
game = "welsh"
n = 300
seed = 5
chunk = 100
headline = ["points[0]"]
histograms = ["points[0]"]

[rules]
preset = "parlett"
players = 3

[seats]
all = "random"

[sweep]
seats.0.draw = [0.2, 0.8]

[baseline]
seats.0.draw = 0.2
"""
# The same players with no sweep: no pairs, no histograms.
PLAIN = SPEC.split("[sweep]")[0].replace('histograms = ["points[0]"]\n', "")


def cli(*args) -> tuple[int, str]:
    r = CliRunner().invoke(main, [str(a) for a in args])
    return r.exit_code, r.output


def one_line_error(code: int, output: str, *words: str) -> None:
    assert code == 2, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistsim: error: "), output
    assert "Traceback" not in output
    for w in words:
        assert w in lines[0], (w, lines[0])


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ---- 1. a run owns what it writes ----------------------------------------------------------


def test_a_rerun_without_pairs_or_histograms_removes_their_earlier_tables(tmp_path):
    out = tmp_path / "out"
    run_experiment(load_spec(write_spec(tmp_path, SPEC)), out=out)
    assert (out / "paired.csv").is_file() and (out / "histograms.csv").is_file()
    (out / "notes.txt").write_text("my notes")
    (out / "charts" / "mine.png").write_bytes(b"my picture")
    run_experiment(load_spec(write_spec(tmp_path, PLAIN)), out=out)
    assert not (out / "paired.csv").exists() and not (out / "histograms.csv").exists()
    res = load_results(out)
    assert res.paired() is None and res.histograms() is None and len(res.summary()) > 0
    assert (out / "notes.txt").read_text() == "my notes"
    assert (out / "charts" / "mine.png").read_bytes() == b"my picture"
    charts = {p.name for p in (out / "charts").iterdir()}
    assert not any(n.startswith("paired-") for n in charts)  # the earlier run's paired charts are gone
    listed = (out / ".whistsim-outputs").read_text().split()
    assert "summary.csv" in listed and "paired.csv" not in listed and "notes.txt" not in listed


def test_a_smaller_n_leaves_no_rows_of_the_earlier_run(tmp_path):
    out = tmp_path / "out"
    spec = load_spec(write_spec(tmp_path, SPEC))
    run_experiment(spec, out=out, rows=True)
    assert sorted(p.name for p in (out / "rows").iterdir()) == [f"chunk-{k:06d}.parquet" for k in range(3)]
    (out / "rows" / "mine.txt").write_text("mine")
    run_experiment(spec, out=out, n=150, rows=True)
    assert sorted(p.name for p in (out / "rows").iterdir()) == [
        f"chunk-{k:06d}.parquet" for k in range(2)
    ] + ["mine.txt"]
    import pandas as pd

    games = pd.concat(pd.read_parquet(p) for p in sorted((out / "rows").glob("chunk-*.parquet")))
    assert len(games) == 150 * len(spec.cells)  # the dataset holds exactly the games of summary.csv


def test_a_rerun_without_rows_or_records_removes_them_and_their_emptied_folders(tmp_path):
    out = tmp_path / "out"
    spec = load_spec(write_spec(tmp_path, SPEC))
    run_experiment(spec, out=out, rows=True, records=3)
    assert len(list((out / "records").iterdir())) == 2 and (out / "rows").is_dir()
    (out / "records" / "cell-000.notes").write_text("mine")  # not named as a run names its records
    run_experiment(spec, out=out)
    assert not (out / "rows").exists()
    assert [p.name for p in (out / "records").iterdir()] == ["cell-000.notes"]


def test_a_folder_written_before_the_manifest_existed_is_cleaned_by_whistsims_own_names(tmp_path):
    out = tmp_path / "out"
    run_experiment(load_spec(write_spec(tmp_path, SPEC)), out=out, rows=True)
    (out / ".whistsim-outputs").unlink()  # as an earlier whistsim left it
    (out / "notes.txt").write_text("mine")
    run_experiment(load_spec(write_spec(tmp_path, PLAIN)), out=out)
    assert not (out / "paired.csv").exists() and not (out / "histograms.csv").exists()
    assert not (out / "rows").exists() and (out / "notes.txt").read_text() == "mine"


def test_a_tampered_outputs_manifest_removes_nothing_but_whistsims_files(tmp_path):
    out = tmp_path / "out"
    spec = load_spec(write_spec(tmp_path, PLAIN))
    run_experiment(spec, out=out)
    (tmp_path / "outside.csv").write_text("keep")
    (out / "notes.txt").write_text("keep")
    (out / "charts").mkdir(exist_ok=True)
    (out / "charts" / "..png").write_text("keep")
    manifest = out / ".whistsim-outputs"
    manifest.write_text(manifest.read_text() + "../outside.csv\nnotes.txt\n/etc/hostname\ncharts/..png\n")
    run_experiment(spec, out=out)
    assert (tmp_path / "outside.csv").read_text() == "keep" and (out / "notes.txt").read_text() == "keep"
    assert (out / "charts" / "..png").read_text() == "keep"


def test_an_interrupted_rerun_keeps_the_earlier_results_until_it_finishes(tmp_path):
    out = tmp_path / "out"
    spec = load_spec(write_spec(tmp_path, SPEC))
    run_experiment(spec, out=out, rows=True)
    before = (out / "summary.csv").read_bytes()

    def stop(k: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(ExperimentInterrupted):
        run_experiment(spec, out=out, n=150, rows=True, on_chunk=stop)
    assert (out / "summary.csv").read_bytes() == before and (out / "paired.csv").is_file()
    run_experiment(spec, out=out, n=150, rows=True, resume=True)
    assert sorted(p.name for p in (out / "rows").iterdir()) == [
        "chunk-000000.parquet",
        "chunk-000001.parquet",
    ]
    assert load_results(out).summary()["n"].max() == 150


# ---- 2. checkpoints: intact, of this run, consistent, bounded ---------------------------------


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory) -> tuple[Path, dict]:
    """A run of SPEC interrupted after the first of its three chunks: its spec file and checkpoint."""
    tmp = tmp_path_factory.mktemp("cp")
    path = write_spec(tmp, SPEC)

    def stop(k: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(ExperimentInterrupted):
        run_experiment(load_spec(path), out=tmp / "out", on_chunk=stop)
    return path, json.loads((tmp / "out" / CHECKPOINT).read_text())


def resigned(data: dict) -> dict:
    """``data`` with its checksum made again: what a forger (or a bug) would write."""
    content = {k: v for k, v in data.items() if k != "sha256"}
    return {**content, "sha256": _checksum(content)}


def resume_with(tmp_path: Path, spec_path: Path, data: dict | str | bytes) -> WhistsimError:
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    cp = out / CHECKPOINT
    if isinstance(data, dict):
        cp.write_text(json.dumps(data))
    elif isinstance(data, str):
        cp.write_text(data)
    else:
        cp.write_bytes(data)
    with pytest.raises(WhistsimError) as e:
        run_experiment(load_spec(spec_path), out=out, resume=True)
    assert str(cp) in str(e.value) and "without --resume" in str(e.value)
    assert "\n" not in str(e.value)
    assert not (out / "summary.csv").exists()
    return e.value


def edit(data: dict, change) -> dict:
    d = copy.deepcopy(data)
    change(d)
    return d


def test_an_intact_checkpoint_resumes_to_the_uninterrupted_numbers(tmp_path, checkpoint):
    spec_path, data = checkpoint
    run_experiment(load_spec(spec_path), out=tmp_path / "whole")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / CHECKPOINT).write_text(json.dumps(data))
    run_experiment(load_spec(spec_path), out=tmp_path / "out", resume=True)
    for f in ("summary.csv", "paired.csv", "histograms.csv"):
        assert (tmp_path / "out" / f).read_bytes() == (tmp_path / "whole" / f).read_bytes()


def set_count(d: dict, value=10) -> None:
    d["total"]["cells"][0]["points[0]"][0] = value


def test_a_count_set_to_ten_is_refused(tmp_path, checkpoint):
    spec_path, data = checkpoint
    assert "checksum" in str(resume_with(tmp_path, spec_path, edit(data, set_count)))
    assert "a count of 10, expected 100" in str(
        resume_with(tmp_path, spec_path, resigned(edit(data, set_count)))
    )


def test_a_deleted_figure_is_refused(tmp_path, checkpoint):
    spec_path, data = checkpoint

    def delete(d: dict) -> None:
        del d["total"]["cells"][1]["points[0]"]

    assert "checksum" in str(resume_with(tmp_path, spec_path, edit(data, delete)))
    assert "cell 1 lacks" in str(resume_with(tmp_path, spec_path, resigned(edit(data, delete))))


def test_a_negative_sum_of_squares_is_refused(tmp_path, checkpoint):
    spec_path, data = checkpoint

    def negative(d: dict) -> None:
        d["total"]["cells"][0]["points[0]"][2] = -5

    assert "checksum" in str(resume_with(tmp_path, spec_path, edit(data, negative)))
    assert "negative sum of squares" in str(resume_with(tmp_path, spec_path, resigned(edit(data, negative))))

    def small(d: dict) -> None:  # not negative, yet less than (sum)^2 / n: no real games give it
        d["total"]["cells"][0]["points[0]"][2] = 1

    assert "too small for its sum" in str(resume_with(tmp_path, spec_path, resigned(edit(data, small))))


def test_a_flipped_digit_is_refused(tmp_path, checkpoint):
    spec_path, data = checkpoint
    text = json.dumps(data)
    needle = f'"points[0]": [{data["total"]["games"]}, '
    at = text.index(needle) + len(needle)  # the first digit of a cell's sum of points
    flipped = text[:at] + ("1" if text[at] != "1" else "2") + text[at + 1 :]
    assert flipped != text and json.loads(flipped)
    assert "checksum" in str(resume_with(tmp_path, spec_path, flipped))


def test_a_huge_done_is_refused_at_once_without_memory(tmp_path, checkpoint):
    spec_path, data = checkpoint
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    for done in (1e9, 10**9, 10**18):
        e = resume_with(tmp_path, spec_path, edit(data, lambda d, v=done: d.update(done=v)))
        assert "checksum" in str(e)
        e = resume_with(tmp_path, spec_path, resigned(edit(data, lambda d, v=done: d.update(done=v))))
        assert "the run has 3 chunk(s)" in str(e)
    assert time.perf_counter() - t0 < 10
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 200_000  # KiB: nothing built for it


def test_a_histogram_of_the_wrong_type_is_one_line(tmp_path, checkpoint):
    spec_path, data = checkpoint
    for hists in ("x", ["x", "y"], [{"points[0]": "x"}, {}], [{"points[0]": [[1, "a"]]}, {}]):
        e = resume_with(
            tmp_path, spec_path, resigned(edit(data, lambda d, h=hists: d["total"].update(hists=h)))
        )
        assert "corrupted" in str(e)
    e = resume_with(tmp_path, spec_path, edit(data, lambda d: d["total"].update(hists="x")))
    assert "checksum" in str(e)

    def miscount(d: dict) -> None:
        d["total"]["hists"][0]["points[0]"][0][1] += 1

    assert "counts 101 games" in str(resume_with(tmp_path, spec_path, resigned(edit(data, miscount))))


def test_other_damage_is_refused_in_one_line(tmp_path, checkpoint):
    spec_path, data = checkpoint
    text = json.dumps(data)
    assert "not JSON" in str(resume_with(tmp_path, spec_path, text[: len(text) // 2]))
    assert "not JSON" in str(resume_with(tmp_path, spec_path, b"\xff\xfe"))
    assert "not JSON" in str(resume_with(tmp_path, spec_path, "[" * 100_000 + "]" * 100_000))
    assert "no checksum" in str(
        resume_with(tmp_path, spec_path, {k: v for k, v in data.items() if k != "sha256"})
    )
    old = {k: v for k, v in data.items() if k != "sha256"} | {"version": 2}
    assert "older whistsim" in str(resume_with(tmp_path, spec_path, old))
    big = edit(data, lambda d: d["total"]["cells"][0]["points[0]"].__setitem__(1, "1e999999999/1"))
    assert "corrupted" in str(resume_with(tmp_path, spec_path, resigned(big)))
    pending = edit(data, lambda d: d["pending"].update({"7": d["total"]}))
    assert "pending chunk '7'" in str(resume_with(tmp_path, spec_path, resigned(pending)))
    games = edit(data, lambda d: d["total"].update(games=150))
    assert "holds 150 games" in str(resume_with(tmp_path, spec_path, resigned(games)))


def _without(tally: dict, figure: str) -> dict:
    t = copy.deepcopy(tally)
    del t["cells"][0][figure]
    return t


def _first_ratio(d: dict) -> list:
    return next(iter(d["total"]["ratios"][0].values()))


INCONSISTENT = [
    ("half undefined", lambda d: d["total"]["cells"][0]["points[0]"].__setitem__(1, None), "one sum undefined"),
    ("cross term", lambda d: _first_ratio(d).__setitem__(5, 10**9), "sum of products too large"),
    ("ratio count", lambda d: _first_ratio(d).__setitem__(0, 7), "a count of 7, expected 100"),
    ("unknown ratio", lambda d: d["total"]["ratios"][0].update(astrology=_first_ratio(d)), "unknown ratio"),
    ("pair figures", lambda d: d["total"]["paired"][0].update({"points[1]": [200, 0, 0]}), "pair 0 holds"),
    ("pair lost", lambda d: d["total"].update(paired=[]), "2 cells and 0 pairs"),
    ("cell lost", lambda d: d["total"].update({k: d["total"][k][:1] for k in ("cells", "ratios", "hists", "drawn")}),
     "1 cells and 1 pairs"),
    ("extra key", lambda d: d["total"].update(extra=1), "a tally has the keys"),
    ("pending figures", lambda d: d["pending"].update({"2": _without(d["total"], "points[1]")}),
     "the tallies measure different figures in cell 0"),
    ("pending size", lambda d: d["pending"].update({"2": {**d["total"], "games": 50}}), "chunk 2 holds 50 games"),
]  # fmt: skip


@pytest.mark.parametrize("change,reason", [c[1:] for c in INCONSISTENT], ids=[c[0] for c in INCONSISTENT])
def test_a_resigned_checkpoint_that_does_not_add_up_is_refused(tmp_path, checkpoint, change, reason):
    spec_path, data = checkpoint
    e = resume_with(tmp_path, spec_path, resigned(edit(data, change)))
    assert "corrupted" in str(e) and reason in str(e), str(e)


def test_a_checkpoint_that_is_not_a_file_is_refused(tmp_path, checkpoint):
    spec_path, _ = checkpoint
    (tmp_path / "out" / CHECKPOINT).mkdir(parents=True)
    with pytest.raises(WhistsimError, match="is not a file; run without --resume"):
        run_experiment(load_spec(spec_path), out=tmp_path / "out", resume=True)


def test_an_oversized_checkpoint_is_refused_before_it_is_read(tmp_path, checkpoint):
    spec_path, _ = checkpoint
    out = tmp_path / "out"
    out.mkdir()
    with open(out / CHECKPOINT, "wb") as f:
        f.truncate(300 << 20)  # sparse: no disk used
    t0 = time.perf_counter()
    with pytest.raises(WhistsimError, match="at most 256 MiB"):
        run_experiment(load_spec(spec_path), out=out, resume=True)
    assert time.perf_counter() - t0 < 5


def test_a_corrupted_checkpoint_is_one_line_on_the_command_line(tmp_path, checkpoint):
    spec_path, data = checkpoint
    out = tmp_path / "out"
    out.mkdir()
    (out / CHECKPOINT).write_text(json.dumps(resigned(edit(data, set_count))))
    code, output = cli("experiment", spec_path, "--out", out, "--resume", "--no-progress")
    one_line_error(code, output, str(out / CHECKPOINT), "corrupted", "run without --resume")


# ---- 3. the interrupted line names a checkpoint only when one was written ----------------------


class Interrupted:
    """An executor Ctrl-C stops before its first chunk finishes."""

    def map(self, job, chunks, progress):
        raise KeyboardInterrupt
        yield


def test_an_interrupt_before_any_chunk_names_no_checkpoint(tmp_path):
    out = tmp_path / "o_pimc"
    with pytest.raises(ExperimentInterrupted) as e:
        Run(load_spec(write_spec(tmp_path, SPEC)), out=out).play(Interrupted())
    assert "nothing kept" in e.value.message and "checkpoint" not in e.value.message
    assert not out.exists()


def test_an_interrupt_after_a_chunk_names_the_checkpoint(tmp_path):
    out = tmp_path / "o"
    with pytest.raises(ExperimentInterrupted) as e:
        run_experiment(
            load_spec(write_spec(tmp_path, SPEC)), out=out, on_chunk=lambda k: _raise(KeyboardInterrupt)
        )
    assert f"kept in {out / CHECKPOINT}" in e.value.message and (out / CHECKPOINT).is_file()
    with pytest.raises(ExperimentInterrupted) as e:  # resumed, then stopped again at once: still kept
        Run(load_spec(write_spec(tmp_path, SPEC)), out=out, resume=True).play(Interrupted())
    assert f"kept in {out / CHECKPOINT}" in e.value.message


def _raise(e: type[BaseException]) -> None:
    raise e


# ---- 4. a full disk -------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MiB tmpfs at tmp_path/disk (mounting needs root and a system that allows it)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {r.stderr.decode().strip() or r.returncode}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """Fill the disk to the last byte."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as e:
            assert e.errno == errno.ENOSPC
    return filler


def test_a_full_disk_is_one_line_and_keeps_the_earlier_files(tmp_path, small_disk):
    out = small_disk / "out"
    spec_path = write_spec(tmp_path, SPEC)
    code, output = cli("experiment", spec_path, "--out", out, "--no-progress", "--rows")
    assert code == 0, output
    before = tree(out)
    fill(small_disk)
    code, output = cli("experiment", spec_path, "--out", out, "--no-progress", "--n", "150", "--rows")
    one_line_error(code, output, "No space left on device")
    assert tree(out) == before  # not one of them touched, no temporary file left beside them
    assert not [p for p in out.rglob(".*.tmp")]


def test_a_full_disk_while_the_outputs_are_written_keeps_the_checkpoint_for_resume(tmp_path, monkeypatch):
    spec_path = write_spec(tmp_path, SPEC)
    run_experiment(load_spec(spec_path), out=tmp_path / "whole")
    out = tmp_path / "out"
    real = report_module.write_csv

    def full(df, path):
        if path.name == "paired.csv":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(df, path)

    monkeypatch.setattr(report_module, "write_csv", full)
    code, output = cli("experiment", spec_path, "--out", out, "--no-progress")
    one_line_error(code, output, "No space left on device", f"kept in {out / CHECKPOINT}", "--resume")
    assert (out / CHECKPOINT).is_file() and not list(out.glob(".*.tmp"))
    monkeypatch.setattr(report_module, "write_csv", real)
    code, output = cli("experiment", spec_path, "--out", out, "--no-progress", "--resume")
    assert code == 0, output
    for f in ("summary.csv", "paired.csv", "histograms.csv"):
        assert (out / f).read_bytes() == (tmp_path / "whole" / f).read_bytes()


# ---- 5. specs: a BOM, deep nesting, size --------------------------------------------------------------


def test_a_spec_with_a_byte_order_mark_reads_as_without(tmp_path):
    plain = load_spec(write_spec(tmp_path, SPEC))
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + SPEC.encode())
    assert load_spec(bom).fingerprint() == plain.fingerprint()
    code, output = cli("experiment", bom, "--check")
    assert code == 0 and "2 cells" in output, output


@pytest.mark.parametrize(
    "text",
    [
        "x = " + "[" * 5000 + "]" * 5000,
        "x = " + "{a = " * 5000 + "1" + "}" * 5000,
        "x = " + "[" * 40 + "]" * 40,
        ".".join(["a"] * 50_000) + " = 1",
        "[" + ".".join(["t"] * 200) + "]\nx = 1",
    ],
    ids=["arrays", "inline tables", "forty arrays", "dotted key", "table header"],
)
def test_a_too_deep_spec_is_one_line_at_once(tmp_path, text):
    t0 = time.perf_counter()
    code, output = cli("experiment", write_spec(tmp_path, text), "--check")
    one_line_error(code, output, "deep")
    assert time.perf_counter() - t0 < 5


def test_a_deep_spec_given_as_data_is_one_line():
    d: dict = {"x": 1}
    for _ in range(10_000):
        d = {"a": d}
    with pytest.raises(SpecError, match="nested more than 32 deep"):
        spec_from_dict({"name": "deep", "game": "welsh", "n": 1, "seed": 1, "rules": d})


def test_an_oversized_spec_is_refused_unread(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text(SPEC + "# " + "x" * (300 << 10) + "\n")
    code, output = cli("experiment", big, "--check")
    one_line_error(code, output, "over 256 KiB")


# ---- 6. a checkpoint of another run ---------------------------------------------------------------


def test_resume_refuses_a_checkpoint_of_another_spec_or_n(tmp_path, checkpoint):
    spec_path, data = checkpoint
    out = tmp_path / "out"
    out.mkdir()
    (out / CHECKPOINT).write_text(json.dumps(data))
    other = write_spec(tmp_path, SPEC.replace("seed = 5", "seed = 6"), "other.toml")
    for args in (
        [other],
        [spec_path, "--n", "200"],
        [spec_path, "--rows"],
        [spec_path, "--until-ci", "5"],
    ):
        code, output = cli("experiment", *args, "--out", out, "--resume", "--no-progress")
        one_line_error(code, output, "different spec or settings", "run without --resume")
    assert json.loads((out / CHECKPOINT).read_text()) == data  # refused, never overwritten


def test_a_checkpoint_whose_cell_drew_fewer_deals_than_it_played_is_refused(tmp_path, checkpoint):
    spec_path, data = checkpoint
    e = resume_with(
        tmp_path, spec_path, resigned(edit(data, lambda d: d["total"]["drawn"].__setitem__(0, [5, 4])))
    )
    assert "corrupted" in str(e) and "drew fewer deals than it played" in str(e), str(e)
