"""The notebooks in examples/ run from start to end in a fresh kernel, their charts drawn."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip(
    "nbformat", reason="the notebooks need the test extra: pip install -e '.[test]'"
)
nbclient = pytest.importorskip(
    "nbclient", reason="the notebooks need the test extra: pip install -e '.[test]'"
)

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))


def test_there_are_example_notebooks_and_no_leftover_scripts():
    assert len(NOTEBOOKS) >= 3
    assert not list((ROOT / "examples").glob("*.py"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_notebooks_are_committed_without_outputs(path):
    book = nbformat.read(path, as_version=4)
    code = [c for c in book.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


def _kernel_or_skip():
    pytest.importorskip("ipykernel", reason="no Jupyter kernel can start: ipykernel is not installed")
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        pytest.skip("no Jupyter kernel 'python3' can start here (ipykernel is not installed)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_notebook_runs_and_draws_its_charts(path):
    _kernel_or_skip()
    book = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        book, timeout=600, kernel_name="python3", resources={"metadata": {"path": ROOT}}
    )
    client.execute()  # a cell that raises fails the test with its traceback
    outputs = [o for c in book.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    charts = [o for o in outputs if "image/png" in o.get("data", {})]
    assert charts, f"{path.name} draws no chart"


def test_drawing_a_chart_leaves_the_callers_matplotlib_backend_as_it_was(tmp_path):
    """A notebook's inline charts keep working after whistsim draws one (no matplotlib.use at import)."""
    code = (
        "import matplotlib; matplotlib.use('svg')\n"
        "import whistsim.tools.comparison, whistsim.tools.odds, whistsim.experiments.studies.game_odds, whistsim.claims\n"
        "import pandas as pd\n"
        "df = pd.DataFrame({'dealer': [0] * 4, 'score_0': [0, 0, 1, 1], 'score_1': [0, 1, 0, 1],\n"
        "                   'win_0': [0.5, 0.3, 0.7, 0.5]})\n"
        f"__import__('whistsim.tools.odds', fromlist=['heatmap']).heatmap(df, {str(tmp_path / 'h.png')!r})\n"
        "print(matplotlib.get_backend())\n"
    )
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "svg"
    assert (tmp_path / "h.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
