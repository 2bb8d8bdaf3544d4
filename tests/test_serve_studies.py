"""The studies in the browser and compare from a form, through Flask's test client: every
committed report renders with every image it shows; files are served from a study's own folder
alone; the form's bad values get the CLI's line; its answer is the CLI's; cancel stops a run."""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path

import pytest
from cli_helpers import run
from markupsafe import escape

from whistsim.serve import create_app

RESULTS = Path(__file__).resolve().parent.parent / "results"
REPORTS = sorted(p.parent.name for p in RESULTS.glob("*/report.md")) + ["claims"]
PNG = b"\x89PNG\r\n\x1a\n"
OVER = ("done", "cancelled", "failed")


@pytest.fixture(scope="module")
def client():
    return create_app(results_dir=RESULTS).test_client()


def _srcs(html: str) -> list[str]:
    return re.findall(r'<img [^>]*src="([^"]+)"', html)


def test_the_list_names_every_committed_report_with_its_title(client):
    html = client.get("/studies").get_data(as_text=True)
    for name in REPORTS:
        assert f'href="/studies/{name}"' in html, name
    title = (RESULTS / "five_penalty" / "report.md").read_text().splitlines()[0][2:]
    assert str(escape(title)) in html
    assert "Every game totals 216 points under standard scoring" in html  # its first finding


@pytest.mark.parametrize("name", REPORTS)
def test_every_study_page_renders_and_every_image_it_shows_loads(client, name):
    r = client.get(f"/studies/{name}")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    source = RESULTS / name / "report.md" if name != "claims" else RESULTS / "claims.md"
    shown = len(re.findall(r"!\[[^\]]*\]\(", source.read_text()))
    srcs = _srcs(html)
    assert len(srcs) == shown  # every image of the report, none dropped as unservable
    for src in srcs:
        img = client.get(src)
        assert img.status_code == 200 and img.data.startswith(PNG), src
    assert "<table>" in html or "|" not in source.read_text()  # the markdown tables became tables
    for href in re.findall(r'href="(/studies/[^"#]+)', html):
        assert client.get(href).status_code == 200, href


@pytest.fixture
def results(tmp_path):
    """Two studies that link to each other, a claims page, and files outside the results."""
    root = tmp_path / "results"
    (root / "alpha" / "charts").mkdir(parents=True)
    (root / "beta").mkdir()
    (tmp_path / "secret.txt").write_text("not for the page")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "report.md").write_text("# Outside\n")
    (root / "alpha" / "charts" / "a.png").write_bytes(PNG + b"alpha")
    (root / "alpha" / "summary.csv").write_text("x\n1\n")
    (root / "alpha" / ".hidden.png").write_bytes(PNG)
    (root / "alpha" / "leak.png").symlink_to(tmp_path / "secret.txt")
    (root / "gone").symlink_to(tmp_path / "outside")
    (root / "alpha" / "report.md").write_text(
        "# Alpha study\n\n## Findings\n\n- Alpha finds that\n  two lines join.\n- Second.\n\n"
        "![A chart](charts/a.png)\n\nSee [beta](../beta/report.md#findings), [the claims](../claims.md), "
        "[its data](summary.csv), [the docs](../../docs/sources.md) and [a site](https://example.org/x).\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    (root / "beta" / "report.md").write_text(
        "# Beta study\n\nNo findings section: this paragraph.\n\n[back](../alpha)\n"
    )
    (root / "claims.md").write_text("# The claims check\n\n![x](claims.png)\n\nEvery claim.\n")
    (root / "claims.png").write_bytes(PNG + b"claims")
    return root


def test_links_between_reports_lead_to_their_pages_and_files_to_the_study_folder(results):
    c = create_app(results_dir=results).test_client()
    html = c.get("/studies/alpha").get_data(as_text=True)
    assert 'href="/studies/beta#findings"' in html and 'href="/studies/claims"' in html
    assert 'href="/studies/alpha/summary.csv"' in html and 'href="https://example.org/x"' in html
    assert 'src="/studies/alpha/charts/a.png"' in html
    assert "../../docs/sources.md" not in re.findall(r'href="([^"]+)"', html)  # no page serves it: unlinked
    assert "<table>" in html
    assert 'href="/studies/alpha"' in c.get("/studies/beta").get_data(as_text=True)
    listing = c.get("/studies").get_data(as_text=True)
    assert listing.index("The claims check") < listing.index("Alpha study") < listing.index("Beta study")
    assert "Alpha finds that two lines join." in listing and "No findings section: this paragraph." in listing
    assert "/studies/gone" not in listing  # a folder that leads out of the results is no study
    assert c.get("/studies/alpha/charts/a.png").data == PNG + b"alpha"
    assert c.get("/studies/claims/claims.png").data == PNG + b"claims"


@pytest.mark.parametrize(
    "path",
    [
        "/studies/alpha/../../secret.txt",
        "/studies/alpha/%2e%2e/%2e%2e/secret.txt",
        "/studies/alpha/..%2f..%2fsecret.txt",
        "/studies/alpha/charts/../../../secret.txt",
        "/studies/alpha/charts/../a.png",  # even one that stays inside: no ".." at all
        "/studies/alpha/leak.png",  # a link out of the folder
        "/studies/alpha/.hidden.png",
        "/studies/alpha/report.md",  # not a kind of file the page serves
        "/studies/alpha//etc/passwd",
        "/studies/claims/alpha/charts/a.png",  # the claims page serves the results' top files only
        "/studies/claims/../secret.txt",
        "/studies/gone",
        "/studies/gone/report.md",
        "/studies/..",
        "/studies/nothing",
        "/studies/alpha/nothing.png",
    ],
)
def test_a_path_out_of_a_study_folder_is_refused(results, path):
    r = create_app(results_dir=results).test_client().get(path, follow_redirects=True)
    assert r.status_code == 404
    assert b"not for the page" not in r.data


def test_no_results_folder_says_there_are_no_studies(tmp_path):
    r = create_app(results_dir=tmp_path / "none").test_client().get("/studies")
    assert r.status_code == 200 and b"There are no studies here" in r.data


# compare from the form

BAD = [  # (form, the same as CLI arguments)
    ({"game": "whist", "rules_b": "honours=false", "n": "abc"}, ["--game", "whist", "--vs", "honours=false", "--n", "abc"]),
    ({"game": "wist", "rules_b": "honours=false"}, ["--game", "wist", "--vs", "honours=false"]),
    ({"game": "whist", "rules_b": ""}, ["--game", "whist"]),
    ({"game": "whist", "rules_b": "honours=maybe"}, ["--game", "whist", "--vs", "honours=maybe"]),
    ({"game": "whist", "rules_b": "honours"}, ["--game", "whist", "--vs", "honours"]),
    ({"game": "whist", "rules_a": "target=5\ntarget=7", "rules_b": "honours=false"},
     ["--game", "whist", "--rule", "target=5", "--rule", "target=7", "--vs", "honours=false"]),
    ({"game": "whist", "rules_b": "honours=true"}, ["--game", "whist", "--vs", "honours=true"]),
    ({"game": "whist", "rules_b": "honours=false", "n": "0"}, ["--game", "whist", "--vs", "honours=false", "--n", "0"]),
    ({"game": "whist", "rules_b": "honours=false", "players": "7"},
     ["--game", "whist", "--vs", "honours=false", "--players", "7"]),
    ({"game": "whist", "rules_b": "honours=false", "seed": "x"}, ["--game", "whist", "--vs", "honours=false", "--seed", "x"]),
    ({"game": "whist", "preset_a": "longest", "rules_b": "honours=false"},
     ["--game", "whist", "--preset", "longest", "--vs", "honours=false"]),
    ({"game": "whist", "preset_b": "nope"}, ["--game", "whist", "--vs", "preset=nope"]),
    ({"game": "whist", "rules_b": "honours=false", "strategy": "bogus"},
     ["--game", "whist", "--vs", "honours=false", "--strategy", "bogus"]),
    ({"game": "whist", "rules_b": "honours=false", "strategy": "random:draw"},
     ["--game", "whist", "--vs", "honours=false", "--strategy", "random:draw"]),
]  # fmt: skip


def _cli_line(args: list[str]) -> str:
    r = run("compare", *args)
    assert r.exit_code == 2, r.output
    line = r.stderr.strip()
    assert line.startswith("whistsim: error: ") and "\n" not in line
    return re.sub(
        r" \(see \w+ compare --help\)$", "", line.removeprefix("whistsim: error: ")
    )  # the terminal's hint


@pytest.mark.parametrize("form,args", BAD)
def test_a_bad_value_from_the_form_gets_the_clis_line_and_starts_nothing(form, args):
    app = create_app(results_dir=RESULTS)
    c = app.test_client()
    want = _cli_line(args)
    r = c.post("/api/compare", data=form)
    assert r.status_code == 400 and r.json == {"error": want}
    page = c.post("/compare", data=form)  # the form without script: shown on the form, values kept
    assert page.status_code == 400 and str(escape(want)) in page.get_data(as_text=True)
    assert len(app.extensions["whistsim.jobs"]) == 0


def test_a_path_py_player_is_refused_by_the_page(tmp_path):
    r = (
        create_app(results_dir=RESULTS)
        .test_client()
        .post(
            "/api/compare",
            json={"game": "whist", "rules_b": "honours=false", "strategy": f"{tmp_path}/mine.py:decide"},
        )
    )
    assert r.status_code == 400 and "the page seats the built-in players only" in r.json["error"]


def test_a_run_posted_by_another_sites_page_is_refused():
    app = create_app(results_dir=RESULTS)
    form = {"game": "whist", "rules_b": "honours=false", "n": "10"}
    r = app.test_client().post("/api/compare", data=form, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and r.json["error"].startswith(
        "a request from http://evil.example is refused"
    )
    assert len(app.extensions["whistsim.jobs"]) == 0


def _finish(c, job_id: str, within_s: float = 300) -> dict:
    t0 = time.monotonic()
    while time.monotonic() - t0 < within_s:
        j = c.get(f"/api/compare/{job_id}").json
        if j["state"] in OVER:
            return j
        time.sleep(0.1)
    raise AssertionError(f"comparison {job_id} still {j['state']} after {within_s} s")


@pytest.mark.parametrize(
    "form",
    [
        {"game": "whist", "rules_b": "honours=false", "n": "200", "seed": "1"},
        {"game": "whist", "preset_a": "short", "rules_a": "revokes=true\nclaim=0.5", "preset_b": "long",
         "rules_b": "revoke_score=deduct", "strategy": "heuristic", "n": "150", "seed": "3"},
    ],
)  # fmt: skip
def test_a_small_compare_from_the_form_answers_as_the_cli_does_with_its_chart(form):
    c = create_app(results_dir=RESULTS).test_client()
    r = c.post("/api/compare", json=form)
    assert r.status_code == 202, r.json
    j = _finish(c, r.json["id"])
    assert j["state"] == "done" and j["done"] == int(form["n"]) and not j["error"]
    words = shlex.split(j["command"])  # the command line the page says is the same
    assert words[:2] == ["whistsim", "compare"]
    cli = run(*words[1:])
    assert cli.exit_code == 0, cli.output
    assert j["text"] == cli.stdout.rstrip("\n")
    chart = c.get(f"/api/compare/{j['id']}/chart.png")
    assert chart.status_code == 200 and chart.mimetype == "image/png" and chart.data.startswith(PNG)
    page = c.get(r.json["page"]).get_data(as_text=True)
    assert j["text"].splitlines()[0] in page and f"/api/compare/{j['id']}/chart.png" in page


def test_cancel_stops_a_long_compare_promptly_with_the_table_of_the_deals_played():
    app = create_app(results_dir=RESULTS)
    c, n = app.test_client(), 10**9
    try:
        r = c.post("/api/compare", data={"game": "whist", "rules_b": "honours=false", "n": str(n)})
        job_id = r.json["id"]
        t0 = time.monotonic()
        while c.get(f"/api/compare/{job_id}").json["done"] == 0:
            assert time.monotonic() - t0 < 300
            time.sleep(0.05)
        busy = c.post("/api/compare", data={"game": "whist", "rules_b": "honours=false", "n": "10"})
        assert busy.status_code == 409 and "a comparison is running already" in busy.json["error"]
        t0 = time.monotonic()
        assert c.post(f"/api/compare/{job_id}/cancel").status_code == 200
        while c.get(f"/api/compare/{job_id}").json["state"] in ("checking", "running"):
            time.sleep(0.02)
        assert time.monotonic() - t0 < 3.0  # the deals stop after the chunk in play: about half a second
        j = _finish(c, job_id, 60)
    finally:  # a failure leaves no run going on in the background
        app.extensions["whistsim.jobs"].cancel_all()
    assert j["state"] == "cancelled" and 0 < j["done"] < n
    assert j["note"] == f"cancelled after {j['done']:,} of {n:,} deals: the table is of those"
    assert f"the same {j['done']:,} deals under both" in j["text"]


def test_an_unknown_comparison_is_404_in_one_line():
    c = create_app(results_dir=RESULTS).test_client()
    r = c.get("/api/compare/nothing")
    assert r.status_code == 404 and r.json["error"].startswith("no comparison 'nothing'")
    assert c.get("/compare/nothing").status_code == 404
