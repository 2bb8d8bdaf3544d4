"""Writing an experiment spec's TOML text into a test's folder."""

from __future__ import annotations

from pathlib import Path


def write_spec(tmp_path: Path, text: str, name: str = "spec.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p
