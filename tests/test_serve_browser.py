"""The table in a real browser (headless Chromium): whole deals played by clicking, the record
downloaded and judged, and every response the page received checked for hidden cards.

Skipped, saying why, without the system's Chromium or the playwright package. With
``WHISTSIM_SCREENSHOTS=1`` the mid-deal screenshot is written to docs/img/serve-table.png.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import serve_helpers
from serve_helpers import Mirror, cards_named, needs_browser

import whistsim

pytestmark = needs_browser
browser, live_server = serve_helpers.browser, serve_helpers.live_server  # the shared fixtures
ROOT = Path(__file__).resolve().parent.parent
CLICKABLE = "#t-hand button.card.legal:not([disabled]):not([data-names-suit]), #t-moves button"


class Watched:
    """A page whose every response is kept, to be checked against the hidden cards of the moment."""

    def __init__(self, browser, url: str) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 860}, accept_downloads=True)
        self.responses = []
        self.errors = []
        self.page.route("**/*", self._keep)  # every response passes the test on its way to the page
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.url = url
        self.mirror: Mirror | None = None
        self.checked = 0

    def _keep(self, route) -> None:
        """Fetch what the page asked for, keep the body, hand it on unchanged. (Bodies read from
        ``page.on("response")`` are lost when the page navigates, as it does after Deal.)"""
        r = route.fetch()
        self.responses.append((route.request.url, r.headers.get("content-type", ""), r.body()))
        route.fulfill(response=r)

    def check(self) -> None:
        """Every response since the last check: the table's JSON moves the mirror on, then no
        response may name a card another seat or the stock holds now."""
        for url, kind, body in self.responses[self.checked :]:
            if "/api/tables" in url and kind.startswith("application/json"):
                data = json.loads(body)
                if "log" in data and self.mirror is not None:
                    self.mirror.follow(data["log"])
            if self.mirror is not None:
                leaked = cards_named(body.decode("utf-8", "replace")) & self.mirror.hidden()
                assert not leaked, f"{url} held {sorted(leaked)}, held by another seat or the stock"
        self.checked = len(self.responses)

    def sit(self, game: str, seed: int, player: str, seat: int = 0) -> None:
        page = self.page
        page.goto(self.url + "/")
        page.wait_for_selector("#setup[data-ready]")
        page.select_option("#f-game", game)
        page.fill("#f-seed", str(seed))
        page.select_option("#f-seat", str(seat))
        for sel in page.query_selector_all("#f-players select"):
            if sel.is_enabled():
                sel.select_option(player)
        self.mirror = Mirror(game, seat, seed)
        page.click("#f-deal")
        page.wait_for_selector("#table[data-over]")
        self.check()

    def click_move(self, rng: random.Random) -> None:
        page = self.page
        before = page.get_attribute("#table", "data-moves")
        choices = page.query_selector_all(CLICKABLE)
        assert choices, "your move, but nothing to click"
        rng.choice(choices).click()
        page.wait_for_function(
            "before => { const t = document.querySelector('#table');"
            " return t.dataset.moves !== before && !t.classList.contains('busy'); }",
            arg=before,
        )
        self.check()

    def play_out(self, rng: random.Random, stop_after: int | None = None) -> int:
        clicks = 0
        while self.page.get_attribute("#table", "data-over") != "1":
            if stop_after is not None and clicks == stop_after:
                break
            self.click_move(rng)
            clicks += 1
        return clicks

    def download_record(self, tmp_path: Path) -> str:
        with self.page.expect_download() as d:
            self.page.click("#t-record")
        path = tmp_path / "deal.jsonl"
        d.value.save_as(path)
        self.check()
        return path.read_text()


def test_a_whole_whist_deal_played_by_clicking_gives_a_record_replay_accepts(browser, live_server, tmp_path):
    w = Watched(browser, live_server.url)
    w.sit("whist", 5, "heuristic", seat=1)
    assert w.play_out(random.Random(1)) >= 8  # the last cards may be your only moves, made for you
    w.page.wait_for_selector("#t-costs table")  # the solver's account of your cards
    assert len(w.page.query_selector_all("#t-account .trick-row")) == 13
    text = w.download_record(tmp_path)
    assert whistsim.judge(0, text.strip()).ok
    assert json.loads(text)["moves"] == w.mirror.g.moves
    assert not w.errors, w.errors
    w.page.close()


def test_a_whole_welsh_whist_game_played_by_clicking_gives_a_record_replay_accepts(
    browser, live_server, tmp_path
):
    w = Watched(browser, live_server.url)
    w.sit("welsh", 3, "counter")
    assert len(w.page.query_selector_all("#t-seats .seat")) == 3  # the default: 3 players
    w.play_out(random.Random(2))
    text = w.download_record(tmp_path)
    judged = whistsim.judge(0, text.strip())
    assert judged.ok and judged.result == w.mirror.g.result()
    assert "dealt games" in w.page.inner_text("#t-costs")
    assert not w.errors, w.errors
    w.page.close()


def test_hint_undo_and_the_last_trick_work_from_the_page(browser, live_server, tmp_path):
    w = Watched(browser, live_server.url)
    w.sit("whist", 7, "heuristic")
    page = w.page
    page.click("#b-hint")
    page.wait_for_selector("#t-hint:not(:empty)")
    assert page.inner_text("#t-hint").startswith("heuristic would play")
    hand = page.eval_on_selector_all("#t-hand button.card", "bs => bs.map(b => b.dataset.card)")
    w.click_move(random.Random(3))
    page.click("#b-last")
    assert "trick 1" in page.inner_text("#t-lasttrick")
    before = page.get_attribute("#table", "data-moves")
    page.click("#b-undo")
    page.wait_for_function("b => document.querySelector('#table').dataset.moves !== b", arg=before)
    w.check()
    assert page.eval_on_selector_all("#t-hand button.card", "bs => bs.map(b => b.dataset.card)") == hand
    assert not w.errors, w.errors
    page.close()


def test_a_bad_rule_value_in_the_form_shows_the_cli_line(browser, live_server):
    page = browser.new_page()
    page.goto(live_server.url + "/")
    page.wait_for_selector("#setup[data-ready]")
    page.fill('[name="opt-packs"]', "x")
    page.click("#f-deal")
    page.wait_for_selector("#setup-error:not(:empty)")
    assert page.inner_text("#setup-error") == "rule packs='x': expected an integer"
    assert page.url.endswith("/")
    page.close()


def test_a_screenshot_of_a_whist_deal_a_few_tricks_in(browser, live_server, tmp_path):
    w = Watched(browser, live_server.url)
    w.sit("whist", 5, "pimc")  # the default players, as a person meets them
    w.play_out(random.Random(4), stop_after=4)
    w.page.click("#b-hint")
    w.page.wait_for_selector("#t-hint:not(:empty)")
    out = tmp_path / "serve-table.png"
    w.page.screenshot(path=str(out), full_page=False)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000
    if os.environ.get("WHISTSIM_SCREENSHOTS") == "1":
        (ROOT / "docs" / "img").mkdir(exist_ok=True)
        (ROOT / "docs" / "img" / "serve-table.png").write_bytes(out.read_bytes())
    w.page.close()
