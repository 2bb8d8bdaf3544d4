"""The repository stands alone: docs/ holds the sources, rules and record format, and nothing a user
reads points outside the repository or cites a source by a file number."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from whistsim.cli import main

ROOT = Path(__file__).resolve().parent.parent
# A path outside the repository, or a source cited by the number of a file users do not have.
# (Written in pieces, so that a grep of the repository for those strings finds none here either.)
SHARED = "shared" + "/"
OUTSIDE = re.compile(r"\.\./shared|" + SHARED + "spec|" + SHARED + r"seeds|[Ss]eeds? 00[0-9]|\(00[0-9]\)")
TEXT = (".md", ".py", ".toml", ".json", ".csv", ".txt", ".cfg")


def _files():
    for top in ("README.md", "Makefile", "pyproject.toml", "docs", "results", "whistsim", "experiments"):
        p = ROOT / top
        for f in [p] if p.is_file() else sorted(p.rglob("*")):
            if f.is_file() and (f.suffix in TEXT or f.name == "Makefile"):
                yield f


def test_docs_hold_the_sources_the_rules_and_the_record_format():
    for name, must in [
        ("sources.md", ["Parlett", "Akagiri 1995", "Catch the Ten", "Short whist page", "Long whist page"]),
        ("rules.md", ["Welsh Whist", "Scotch Whist", "Whist", "taffy_rank", "odd_six", "revoke_penalty"]),
        ("records.md", ["welsh", "scotch", "whist", "moves", "result"]),
    ]:
        text = (ROOT / "docs" / name).read_text()
        assert all(m in text for m in must), name


def test_nothing_committed_points_outside_the_repository():
    hits = []
    for f in _files():
        for i, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{f.relative_to(ROOT)}:{i}: {line.strip()[:80]}")
    assert hits == []


def test_the_pattern_catches_what_it_must():
    zero = "00"
    for bad in [f"see ../{SHARED}spec/rules.md", f"(seed {zero}3)", f"Seed {zero}1 says", f"Parlett ({zero}0)",
                f"{SHARED}seeds/x"]:  # fmt: skip
        assert OUTSIDE.search(bad), bad
    for good in ["--seed 2026", "Akagiri 1995", "docs/rules.md", "n=10,000", "(3, 0, 0)"]:
        assert not OUTSIDE.search(good), good


def test_help_texts_point_inside_the_repository():
    runner = CliRunner()
    out = runner.invoke(main, ["rules", "--help"]).output + runner.invoke(main, ["rules"]).output
    assert "docs/rules.md" in out and not OUTSIDE.search(out)
    for cmd in main.commands:
        text = runner.invoke(main, [cmd, "--help"]).output
        assert not OUTSIDE.search(text), cmd
