"""The studies and compare in a real browser (the system's headless Chromium): every study page's
charts load, a small compare runs from the form to its answer and chart, a bad value shows the
CLI's line, the Cancel button stops a run; a study page's screenshot for the docs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from serve_helpers import LiveServer, browser, needs_browser  # noqa: F401 (browser: a fixture)

from whistsim.tools.comparison import compare, format_comparison

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
SHOT = ROOT / "docs" / "img" / "serve-study.png"
SHOT_OF = "seat_advantage"  # its question, findings and first chart in one tall screen

pytestmark = needs_browser


@pytest.fixture(scope="module")
def server():
    s = LiveServer(results_dir=str(RESULTS))
    yield s
    s.app.extensions["whistsim.jobs"].cancel_all()
    s.stop()


@pytest.fixture
def page(browser):  # noqa: F811 (the fixture imported above)
    p = browser.new_page(viewport={"width": 1280, "height": 1000})
    yield p
    p.close()


def _images_shown(name: str) -> int:
    source = RESULTS / "claims.md" if name == "claims" else RESULTS / name / "report.md"
    return len(re.findall(r"!\[[^\]]*\]\(", source.read_text()))


def test_every_study_page_shows_every_chart_it_names(server, page):
    page.goto(server.url + "/studies")
    names = page.eval_on_selector_all("a.study-title", "els => els.map(e => e.getAttribute('href'))")
    assert sorted(n.removeprefix("/studies/") for n in names) == sorted(
        [p.parent.name for p in RESULTS.glob("*/report.md")] + ["claims"]
    )
    for href in names:
        page.goto(server.url + href, wait_until="load")
        images = page.eval_on_selector_all(
            ".report img", "els => els.map(e => [e.getAttribute('src'), e.complete, e.naturalWidth])"
        )
        assert len(images) == _images_shown(href.removeprefix("/studies/")), href
        for src, complete, width in images:
            assert complete and width > 0, f"{href}: {src} did not load"
        if href == f"/studies/{SHOT_OF}":
            SHOT.parent.mkdir(parents=True, exist_ok=True)
            page.set_viewport_size({"width": 1280, "height": 1600})
            page.screenshot(path=str(SHOT))
            page.set_viewport_size({"width": 1280, "height": 1000})
    assert SHOT.stat().st_size > 10_000


def test_a_small_compare_runs_from_the_form_to_its_answer_and_chart(server, page):
    page.goto(server.url + "/compare")
    page.select_option("#cf-game", "whist")
    page.fill("#cf-rules-b", "honours=false")
    page.fill("#cf-n", "abc")
    page.click("#cf-run")
    page.wait_for_function("document.getElementById('cf-error').textContent.length > 0")
    assert page.text_content("#cf-error") == "Invalid value for '--n': 'abc' is not a valid integer."
    page.fill("#cf-n", "200")
    page.fill("#cf-seed", "1")
    page.click("#cf-run")
    page.wait_for_selector("#job-text:not([hidden])", timeout=120_000)
    page.wait_for_function("(() => { const i = document.getElementById('job-chart'); "
                           "return !i.hidden && i.complete && i.naturalWidth > 0; })()")  # fmt: skip
    want = format_comparison(compare("whist", vs={"honours": "false"}, n=200, seed=1))
    assert page.text_content("#job-text") == want
    assert (
        page.text_content("#job-command")
        == "whistsim compare --game whist --vs honours=false --n 200 --seed 1"
    )
    assert re.search(r"/compare/[0-9a-f]+$", page.url)  # the run's own page
    assert page.get_attribute("#job-bar", "value") == "200"


def test_the_cancel_button_stops_a_long_compare(server, page):
    page.goto(server.url + "/compare")
    page.select_option("#cf-game", "whist")
    page.fill("#cf-rules-b", "honours=false")
    page.fill("#cf-n", "1000000000")
    page.click("#cf-run")
    page.wait_for_function("document.getElementById('job-status').textContent.includes(' of 1,000,000,000 deals')",
                           timeout=120_000)  # fmt: skip
    page.click("#job-cancel")
    page.wait_for_selector("#job-note:not([hidden])", timeout=30_000)
    assert re.fullmatch(r"cancelled after [\d,]+ of 1,000,000,000 deals: the table is of those",
                        page.text_content("#job-note"))  # fmt: skip
    assert page.is_visible("#job-text") and page.is_hidden("#job-cancel")
