"""The studies in the browser and ``compare`` from a form: routes ``/studies``, ``/compare`` and
``/api/compare/...``.

Every committed report under the results folder (each folder with a ``report.md``, and
``claims.md``) is rendered as a page with its charts, tables and findings; its images and data
files are served from that study's folder alone, and links between reports lead to their pages.
"""

from __future__ import annotations

import functools
import re
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import flask

from ..core.options import WhistsimError
from . import jobs as jobs_

bp = flask.Blueprint("studies", __name__)

CLAIMS = "claims"  # results/claims.md: the claims check, a page beside the studies
SERVED = {".png", ".svg", ".jpg", ".jpeg", ".gif", ".csv", ".json", ".txt"}  # a study's files on offer
DATA = {".csv", ".json"}  # listed under a study as its data


@dataclass(frozen=True)
class Study:
    name: str  # the page's name: the folder's, or "claims"
    report: Path  # the markdown file
    folder: Path  # the files it may serve
    flat: bool  # only files directly in ``folder`` (claims: results/ itself holds the other studies)
    title: str
    first: str  # the first finding (markdown), or the first paragraph


def results_dir() -> Path:
    return Path(flask.current_app.config.get("RESULTS_DIR") or "results")


_ITEM = re.compile(r"(?:[-*+]|\d+\.) ")  # a list item's marker


def _summary(text: str) -> tuple[str, str]:
    """A report's title and its first finding: the first item under "## Findings", else its
    first paragraph of text."""
    lines = text.splitlines()
    title = next((ln[2:].strip() for ln in lines if ln.startswith("# ")), "")
    if "## Findings" in lines:
        items = lines[lines.index("## Findings") + 1 :]
        start = next((i for i, ln in enumerate(items) if _ITEM.match(ln)), None)
        if start is not None:
            out = [_ITEM.sub("", items[start], count=1)]
            for ln in items[start + 1 :]:
                if not ln.strip() or _ITEM.match(ln) or ln.startswith("#"):
                    break
                out.append(ln.strip())
            return title, " ".join(out)
    for p in re.split(r"\n\s*\n", text):
        p = p.strip()
        if p and not p.startswith(("#", "![", "|", "```", "<")):
            return title, " ".join(p.split())
    return title, ""


def find_studies(results: Path) -> list[Study]:
    """Every report under ``results``: the claims check first, then the studies by title."""
    if not results.is_dir():
        return []
    folders = [p.name for p in sorted(results.iterdir()) if p.is_dir() and p.name != CLAIMS]
    studies = [_summarised(s) for name in folders if (s := _study_in(results, name)) is not None]
    claims = _study_in(results, CLAIMS)
    return ([_summarised(claims)] if claims is not None else []) + sorted(
        studies, key=lambda s: (s.title or s.name).lower()
    )


def _study_in(results: Path, name: str) -> Study | None:
    """The study called ``name`` (its folder's name, or "claims"), its title not yet read."""
    if name == CLAIMS:
        report = results / f"{CLAIMS}.md"
        return Study(CLAIMS, report, results, True, "", "") if report.is_file() else None
    if "/" in name or "\\" in name or name.startswith(".") or not name:
        return None
    report = results / name / "report.md"
    if not report.is_file() or not _inside(report.resolve(), results.resolve()):  # a link out of results
        return None
    return Study(name, report, results / name, False, "", "")


def _summarised(s: Study) -> Study:
    return Study(s.name, s.report, s.folder, s.flat, *_summary(_read(s.report)))


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _study(name: str) -> Study:
    s = _study_in(results_dir(), name)
    if s is None:
        flask.abort(404)
    return s


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def file_of(study: Study, results: Path, path: str) -> Path | None:
    """The file ``path`` names inside the study's folder, or None: no ``..``, no hidden or absolute
    path, nothing a link leads out of the folder (or out of the results) to, only the kinds served."""
    parts = path.split("/")
    if "\\" in path or any(not p or p.startswith(".") for p in parts):  # "..", hidden, absolute, "a//b"
        return None
    if study.flat and len(parts) != 1:
        return None
    target = (study.folder / path).resolve()
    if not (_inside(target, study.folder.resolve()) and _inside(target, results.resolve())):
        return None
    if target.suffix.lower() not in SERVED or not target.is_file():
        return None
    return target


def _link(url: str, here: Path, results: Path, studies: list[Study]) -> str | None:
    """A report's link or image address as the page's: a report's page, a file of a study,
    the address itself (another site, an anchor), or None for a file no page serves."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return url
    if parts.path.startswith("/"):
        return None
    frag = f"#{parts.fragment}" if parts.fragment else ""
    target = (here / unquote(parts.path)).resolve()
    if target.is_dir():
        target = target / "report.md"
    for s in studies:
        if target == s.report.resolve():
            return flask.url_for("studies.study", name=s.name) + frag
    for s in sorted(studies, key=lambda s: s.flat):  # a study's own folder before the results' top
        folder = s.folder.resolve()
        if _inside(target, folder):
            rel = target.relative_to(folder).as_posix()
            if file_of(s, results, rel) is not None:
                return flask.url_for("studies.study_file", name=s.name, path=rel) + frag
    return None


class _Links:
    """A markdown tree processor: every ``<a href>`` and ``<img src>`` through :func:`_link`;
    tables wrapped to scroll sideways on a narrow screen."""

    def __init__(self, here: Path, results: Path, studies: list[Study]) -> None:
        self.here, self.results, self.studies = here, results, studies

    def run(self, root: ET.Element) -> None:
        for parent in list(root.iter()):
            for i, el in enumerate(list(parent)):
                if el.tag == "a" and el.get("href"):
                    url = _link(el.get("href"), self.here, self.results, self.studies)
                    if url is None:  # a file beside the results (docs/...): its name, unlinked
                        el.tag = "span"
                        el.set("title", el.attrib.pop("href"))
                        el.set("class", "unlinked")
                    else:
                        el.set("href", url)
                elif el.tag == "img" and el.get("src"):
                    url = _link(el.get("src"), self.here, self.results, self.studies)
                    if url is None:
                        alt, src = el.get("alt", ""), el.get("src")
                        el.tag, el.text, el.attrib = "span", f"[{alt}]", {"class": "unlinked", "title": src}
                    else:
                        el.set("src", url)
                elif el.tag == "table":
                    wrap = ET.Element("div", {"class": "table-wrap"})
                    wrap.tail, el.tail = el.tail, None
                    parent.remove(el)
                    wrap.append(el)
                    parent.insert(i, wrap)


def render_markdown(text: str, here: Path, results: Path, studies: list[Study]) -> tuple[str, str]:
    """Markdown -> (HTML, its table of contents as HTML)."""
    import markdown
    from markdown.treeprocessors import Treeprocessor

    links = _Links(here, results, studies)

    class Tree(Treeprocessor):
        def run(self, root):
            links.run(root)

    md = markdown.Markdown(
        extensions=["tables", "fenced_code", "sane_lists", "toc"],
        extension_configs={"toc": {"toc_depth": "2-3"}},
    )
    md.treeprocessors.register(Tree(md), "whistsim_links", 1)  # after the inline patterns made the links
    return md.convert(text), md.toc


@functools.lru_cache(maxsize=64)
def _page(report: str, mtime_ns: int, results: str, root_url: str) -> tuple[str, str]:
    """A report's page, kept while its file is unchanged (the claims check is long); ``root_url``:
    the links it makes start there."""
    res = Path(results)
    return render_markdown(_read(Path(report)), Path(report).parent, res, find_studies(res))


def _inline(text: str, study: Study, results: Path, studies: list[Study]) -> str:
    html, _ = render_markdown(text, study.report.parent, results, studies)
    return re.sub(r"^<p>(.*)</p>$", r"\1", html.strip(), flags=re.S)


@bp.get("/studies")
def index():
    results = results_dir()
    studies = find_studies(results)
    rows = [(s, _inline(s.first, s, results, studies)) for s in studies]
    return flask.render_template("studies.html", rows=rows, results=results)


@bp.get("/studies/<name>")
def study(name: str):
    s = _study(name)
    results = results_dir()
    html, toc = _page(str(s.report), s.report.stat().st_mtime_ns, str(results), flask.request.root_url)
    data = _data_files(s, results)
    try:
        source = s.report.resolve().relative_to(results.resolve().parent).as_posix()
    except ValueError:
        source = str(s.report)
    top = [p for p in data if "/" not in p]
    return flask.render_template("study.html", study=s, html=html, toc=toc, data=top,
                                 charts_data=[p for p in data if "/" in p], source=source)  # fmt: skip


def _data_files(s: Study, results: Path) -> list[str]:
    """The study's data files (CSV, JSON) the page serves; the claims check's are its own, named for it."""
    found = s.folder.glob(f"{CLAIMS}*") if s.flat else s.folder.rglob("*")
    rel = (p.relative_to(s.folder).as_posix() for p in found if p.suffix.lower() in DATA)
    return sorted(r for r in rel if file_of(s, results, r) is not None)


@bp.get("/studies/<name>/<path:path>")
def study_file(name: str, path: str):
    s = _study(name)
    target = file_of(s, results_dir(), path)
    if target is None:
        flask.abort(404)
    return flask.send_file(target, max_age=60)


# compare from a form


@bp.record_once
def _jobs_of_app(state) -> None:
    state.app.extensions["whistsim.jobs"] = jobs_.Jobs()


def _jobs() -> jobs_.Jobs:
    return flask.current_app.extensions["whistsim.jobs"]


def _games() -> dict:
    """Each game's presets, options (with their help) and built-in players, for the form."""
    from ..core.options import alternatives, written
    from ..games import NAMES, get_game

    out = {}
    for name in NAMES:
        g = get_game(name)
        options = [{"key": o.key, "default": written(o.default), "doc": o.doc,
                    "choices": alternatives(written(c) for c in o.choices) if o.choices else ""}
                   for o in g.options]  # fmt: skip
        out[name] = {"title": g.title, "presets": list(g.presets), "options": options,
                     "players": g.players.names()}  # fmt: skip
    return out


_GAMES_LOCK = threading.Lock()


def _games_once() -> dict:
    with _GAMES_LOCK:
        app = flask.current_app
        if "whistsim.games" not in app.extensions:
            app.extensions["whistsim.games"] = _games()
        return app.extensions["whistsim.games"]


DEFAULTS = {"game": "whist", "preset_a": "", "rules_a": "", "preset_b": "", "rules_b": "honours=false",
            "players": "", "strategy": "random", "n": "20000", "seed": "0"}  # fmt: skip
# n: the page's first answer comes in seconds (the CLI's default is 100,000)


def _compare_page(values: dict, job=None, error: str = "", status: int = 200):
    page = flask.render_template("compare.html", values=values, games=_games_once(), job=job, error=error)
    return page, status


@bp.get("/compare")
def compare_form():
    values = {**DEFAULTS, **{k: v for k, v in flask.request.args.items() if k in DEFAULTS}}
    return _compare_page(values)


@bp.post("/compare")
def compare_submit():
    """The form without script: a bad value is shown on the form (400); a good one starts the run
    and leads to its page."""
    values = {**DEFAULTS, **{k: v for k, v in flask.request.form.items() if k in DEFAULTS}}
    try:
        job = _jobs().start(jobs_.CompareRequest.from_form(flask.request.form))
    except WhistsimError as e:
        return _compare_page(values, error=str(e), status=409 if isinstance(e, jobs_.Busy) else 400)
    return flask.redirect(flask.url_for("studies.compare_job", job_id=job.id), 303)


@bp.before_request
def _same_site_only():
    """A run started or cancelled by another site's page (a form posted to localhost) is refused."""
    origin = flask.request.headers.get("Origin")
    if flask.request.method == "POST" and origin and urlsplit(origin).netloc != flask.request.host:
        message = f"a request from {origin} is refused: compare runs from this server's own page"
        if flask.request.path.startswith("/api/"):
            return flask.jsonify(error=message), 403
        return flask.render_template("error.html", message=message, status=403), 403
    return None


def _job(job_id: str) -> jobs_.Job:
    job = _jobs().get(job_id)
    if job is None:
        raise _NoJob(f"no comparison {job_id!r}: it was never started here, or it finished over an hour ago")
    return job


class _NoJob(WhistsimError):
    pass


@bp.errorhandler(_NoJob)
def _no_job(e):
    if flask.request.path.startswith("/api/"):
        return flask.jsonify(error=str(e)), 404
    return flask.render_template("error.html", message=str(e), status=404), 404


@bp.errorhandler(jobs_.Busy)
def _busy(e):
    if flask.request.path.startswith("/api/"):
        return flask.jsonify(error=str(e)), 409
    return flask.render_template("error.html", message=str(e), status=409), 409


@bp.get("/compare/<job_id>")
def compare_job(job_id: str):
    job = _job(job_id)
    return _compare_page(job.request.form(), job=job.to_json())


@bp.post("/api/compare")
def api_compare_start():
    form = flask.request.form
    if flask.request.is_json:
        given = flask.request.get_json(silent=True)
        if not isinstance(given, dict):
            raise WhistsimError("expected the form's fields, or a JSON object of them")
        form = {k: "" if v is None else str(v) for k, v in given.items()}
    job = _jobs().start(jobs_.CompareRequest.from_form(form))
    body = job.to_json()
    body["page"] = flask.url_for("studies.compare_job", job_id=job.id)
    return flask.jsonify(body), 202


@bp.get("/api/compare/<job_id>")
def api_compare_job(job_id: str):
    return flask.jsonify(_job(job_id).to_json())


@bp.post("/api/compare/<job_id>/cancel")
def api_compare_cancel(job_id: str):
    job = _job(job_id)
    job.cancel_asked.set()
    return flask.jsonify(job.to_json())


@bp.get("/api/compare/<job_id>/chart.png")
def api_compare_chart(job_id: str):
    job = _job(job_id)
    if not job.chart:
        raise _NoJob(f"comparison {job_id}: no chart yet ({job.state})")
    return flask.Response(job.chart, mimetype="image/png")
