"""The public API's docstring examples run as written (with small n), and every function has one."""

import doctest
import inspect
import json
from pathlib import Path

import pytest

import whistsim

ROOT = Path(__file__).parent.parent
FUNCTIONS = [n for n in whistsim.__all__ if inspect.isfunction(getattr(whistsim, n))]
# Examples marked ``# doctest: +SKIP`` because they take too long for the suite: kept few (none now).
TOO_SLOW: set[str] = set()
MODULES = ["whistsim.game"]  # module docstrings that tell a story of their own


def _tests(obj, name: str) -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(recurse=inspect.isclass(obj))  # a module: its own story only
    globs = {"whistsim": whistsim, "json": json}
    module = inspect.getmodule(obj) if not inspect.ismodule(obj) else obj
    globs.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
    return [t for t in finder.find(obj, name, module=False, globs=globs) if t.examples]


def _run(tests: list[doctest.DocTest]) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    for t in tests:
        runner.run(t, out=out.append)
    assert runner.failures == 0, "".join(out)


def test_every_public_function_has_an_example():
    assert "new_game" in FUNCTIONS and "compare" in FUNCTIONS
    missing = [n for n in FUNCTIONS if not _tests(getattr(whistsim, n), n)]
    assert missing == []


def test_only_the_examples_too_slow_for_the_suite_are_skipped():
    skipped = {
        n
        for n in FUNCTIONS
        for t in _tests(getattr(whistsim, n), n)
        for e in t.examples
        if e.options.get(doctest.OPTIONFLAGS_BY_NAME["SKIP"])
    }
    assert skipped == TOO_SLOW


@pytest.mark.parametrize("name", FUNCTIONS + MODULES)
def test_the_examples_run_as_written(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # examples name files as the repository holds them
    if name in MODULES:
        import importlib

        obj = importlib.import_module(name)
    else:
        obj = getattr(whistsim, name)
    _run(_tests(obj, name))
