"""Shared fixtures for the ``whistsim serve`` tests: a live server in a thread, a headless Chromium.

A test module imports what it needs (``from serve_helpers import browser, live_server``);
browser tests skip, saying why, when the system's Chromium or the playwright package is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections import Counter

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]  # fmt: skip


def chromium_path() -> str | None:
    """The system's Chromium (Debian's package), or None."""
    if os.path.exists("/usr/bin/chromium"):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if chromium_path() is None:
        return "no system Chromium (/usr/bin/chromium; Debian: apt-get install chromium)"
    return None


needs_browser = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")


class LiveServer:
    """The app served on a free localhost port in a thread: ``url``, ``app``, ``stop()``."""

    def __init__(self, results_dir: str = "results") -> None:
        from whistsim.serve import create_app, make_server

        self.app = create_app(results_dir=results_dir)
        self.server = make_server("127.0.0.1", 0, app=self.app)
        self.url = f"http://127.0.0.1:{self.server.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def live_server():
    """A live server for the module's tests (the committed results/ for the studies)."""
    server = LiveServer()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (the system's), shared by the module's tests; skipped when missing."""
    reason = browser_missing()
    if reason is not None:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


# -- hidden cards on the wire
_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b|(?<![0-9A-Za-z])(?:10|[2-9JQKA])[♣♦♥♠]")
_PRETTY = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_named(text: str) -> set[str]:
    """Every card a text names, as codes: ``"7H"`` and ``"7♥"`` both give 7H, ``"10♣"`` TC."""
    out = set()
    for m in _CODE.finditer(text):
        t = m.group(0)
        suit = _PRETTY.get(t[-1], t[-1])
        rank = t[:-1]
        out.add(("T" if rank == "10" else rank) + suit)
    return out


class Mirror:
    """The same deal held in the test: it follows the public moves the page is sent and says
    which cards the person's seat may not see (other hands and the stock, less cards shown)."""

    def __init__(self, game, seat, seed, preset=None, rules=None):
        import whistsim

        self.deal = lambda: whistsim.new_game(game, seed=seed, preset=preset, rules=rules)
        self.g = self.deal()
        self.seat = seat

    def follow(self, log):
        moves = [e["move"] for e in log]
        if moves[: len(self.g.moves)] != self.g.moves:  # taken back (undo): the deal again
            self.g = self.deal()
        for entry in log[len(self.g.moves) :]:
            self.g.play(entry["move"])
        assert self.g.moves == [e["move"] for e in log]

    def hidden(self) -> set[str]:
        rec = self.g.record()
        if self.g.game == "welsh":
            every = Counter(rec["deck"])
            public = set()
        else:
            every = Counter(c for hands in rec["hands"] for h in hands for c in h)
            public = {rec["trump"]}  # the turned-up card: the dealer holds it, everyone saw it
        mine = Counter(self.g.view(self.seat).hand)
        played = Counter(m.split(":")[1].split("=")[0] for m in self.g.moves)
        unseen = every - mine - played
        return {c for c in unseen if c not in mine and c not in played and c not in public}


def check_hidden(body: bytes, mirror: Mirror, where: str) -> None:
    leaked = cards_named(body.decode()) & mirror.hidden()
    assert not leaked, f"{where}: the page was sent {sorted(leaked)}, held by another seat or the stock"
