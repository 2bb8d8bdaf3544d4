"""Running the CLI in-process, and the one-line error every bad input must give."""

from __future__ import annotations

from click.testing import CliRunner

from whistsim.cli import main


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_line_error(r, *words):
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistsim: error: "), r.stderr
    for w in words:
        assert w in lines[0], lines[0]
