"""The README is a front page that stays true: short, its findings quoted from the reports they link,
its sample output what the commands print today, every command it shows a real one.

``python tests/test_readme.py --write`` reruns the sample commands and writes their output into the
README (review the diff).
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from whistsim.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SAMPLE = re.compile(r"```console\n(\$ [^\n]+)\n(.*?)```", re.S)
# Timings differ from run to run; everything else a sample prints must match.
TIMING = re.compile(r"[\d,.]+ (s\b|games/s|deals/s)")


def _text() -> str:
    return README.read_text()


def _run(command: str) -> str:
    args = shlex.split(command.removeprefix("$ "))
    assert args[0] == "whistsim", command
    result = CliRunner().invoke(main, args[1:])
    assert result.exit_code == 0, (command, result.output)
    return result.stdout


def _mask(text: str) -> str:
    return TIMING.sub("N s", text).rstrip()


def _shown_part(output: str, shown: str) -> str:
    """A sample that ends in a line ``...`` shows the output's first lines only."""
    lines = shown.rstrip().splitlines()
    if lines and lines[-1] == "...":
        return "\n".join(output.splitlines()[: len(lines) - 1])
    return output


def test_the_readme_is_a_front_page():
    lines = _text().splitlines()
    assert len(lines) <= 200
    assert lines[0] == "# whistsim"
    heads = [line for line in lines if line.startswith("## ")]
    assert heads[:2] == ["## What it has found", "## Two commands"]


def test_each_finding_is_quoted_word_for_word_from_the_report_it_links():
    lines = _text().splitlines()
    quotes = [(i, line[2:]) for i, line in enumerate(lines) if line.startswith("> ")]
    assert len(quotes) >= 2
    for i, quote in quotes:
        follow = " ".join(lines[i + 1 : i + 4])
        link = re.search(r"\((results/[\w]+/report\.md)\)", follow)
        assert link, f"no report linked after: {quote[:60]}"
        report = " ".join((ROOT / link.group(1)).read_text().split())
        assert " ".join(quote.split()) in report, link.group(1)


def test_every_link_in_the_readme_leads_to_a_file_here():
    targets = re.findall(r"\]\(([^)#]+)\)", _text())
    assert targets
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert missing == []


def test_the_two_commands_are_the_ones_ci_runs():
    text = _text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = re.search(r"^\.venv/bin/python -m pytest[^\n]*$", text, re.M)
    assert command is not None
    assert command.group(0) in ci.splitlines()
    assert "pip install -q -e '.[test]' && .venv/bin/whistsim simulate" in text


def test_every_command_shown_parses_with_the_cli():
    """Each `whistsim ...` line of the tour names a real command with real options and values."""
    blocks = re.findall(r"```(?:sh|console)\n(.*?)```", _text(), re.S)
    commands = [
        line.split("#")[0].strip().removeprefix("$ ") for block in blocks for line in block.splitlines()
    ]
    commands = [c for c in commands if c.startswith("whistsim ")]
    assert len(commands) >= 10
    for command in commands:
        args = shlex.split(command)[1:]
        sub = main.commands[args[0]]
        sub.make_context(args[0], args[1:])  # raises on an unknown option or a bad value


def test_sample_output_is_what_the_commands_print_today():
    samples = SAMPLE.findall(_text())
    assert len(samples) >= 3
    for command, shown in samples:
        assert _mask(_shown_part(_run(command), shown)) == _mask(shown.removesuffix("...\n")), command


def write() -> None:
    text = _text()

    def sample(m: re.Match) -> str:
        shown = m.group(2)
        out = _shown_part(_run(m.group(1)), shown).rstrip()
        more = "\n..." if shown.rstrip().endswith("\n...") else ""
        return f"```console\n{m.group(1)}\n{out}{more}\n```"

    text = SAMPLE.sub(sample, text)
    README.write_text(text)


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        print(__doc__)
