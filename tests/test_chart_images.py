"""Charts checked on the drawn image: every committed chart redrawn from its data, and each image check
made to fail on a figure that has its defect."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from whistsim.experiments import charts as C
from whistsim.experiments.results import Chart, ChartSeries

RESULTS = Path(__file__).resolve().parent.parent / "results"


def committed() -> list[Path]:
    """Every chart's data under results/ (studies, game odds, luck and skill, the claims)."""
    found = []
    for side in sorted(RESULTS.rglob("*.json")):
        if side.name.startswith(".") or any(p.startswith(".") for p in side.relative_to(RESULTS).parts):
            continue
        data = json.loads(side.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "series" in data and "png" in data:
            found.append(side)
    return found


@pytest.mark.parametrize("side", committed(), ids=lambda p: str(p.relative_to(RESULTS)))
def test_every_committed_chart_redraws_with_n_players_and_a_clean_image(side, tmp_path, monkeypatch):
    data = json.loads(side.read_text(encoding="utf-8"))
    assert C.problems(data) == [], C.problems(data)
    assert C.N_TEXT.search(data["n"]) and data["players"].strip()
    # the image as drawn says who played and how many
    assert (
        data["players"][:1].upper() + data["players"][1:] in data["caption"] and data["n"] in data["caption"]
    )
    assert not C.title_states_a_range(data["title"]), data["title"]
    chart = C.from_data(data)
    # the figure draw renders and saves is the one checked (a second render of it would be the same),
    # by render's own check of it (checking it again would find the same)
    drawn, real = [], C.render
    monkeypatch.setattr(C, "render", lambda ch: drawn.append(real(ch)) or drawn[-1])
    checked, real_check = [], C.image_problems
    monkeypatch.setattr(
        C, "image_problems", lambda fig: checked.append((fig, real_check(fig))) or checked[-1][1]
    )
    C.draw(chart, tmp_path / "c.png")  # refuses (ChartError) an image that no layout fixes
    assert len(drawn) == 1 and [bad for fig, bad in checked if fig is drawn[0][0]] == [[]]
    again = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert again["caption"] == data["caption"] and again["series"] == data["series"]


def _chart(**over) -> Chart:
    kw = dict(name="c", title="Points rise with the number of players", xlabel="players at the table",
              ylabel="points per game", n="n=1,000 games a point", players="rule-based players (greedy)",
              series=[ChartSeries("greedy players", [2, 3], [1.0, 2.0], [0.5, 1.5], [1.5, 2.5])])  # fmt: skip
    kw.update(over)
    return Chart(**kw)


@pytest.mark.parametrize(
    "over, why",
    [(dict(n=""), "no n"), (dict(n="1,000 games"), "no n"), (dict(players=""), "no players"),
     (dict(players="seat 0 plays=hoarder"), "code name")],
)  # fmt: skip
def test_a_chart_without_its_n_or_its_players_is_refused(tmp_path, over, why):
    with pytest.raises(C.ChartError, match=why):
        C.draw(_chart(**over), tmp_path / "c.png")
    assert not (tmp_path / "c.png").exists()


def test_the_caption_opens_with_who_played_and_n(tmp_path):
    C.draw(_chart(caption="Error bars: 95% CIs."), tmp_path / "c.png")
    data = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert data["caption"].startswith("Rule-based players (greedy); n=1,000 games a point. Error bars")
    assert C.from_data(data).caption == "Error bars: 95% CIs."


def test_a_range_in_a_title_is_told_from_a_change():
    assert C.title_states_a_range("Points per player: from 27 (8 players) to 108 (2 players)")
    assert C.title_states_a_range("The first seat's points range from -15 to 150")
    assert not C.title_states_a_range("Cards' share of the points falls from 15% to 13% (4 players)")
    assert not C.title_states_a_range("The side ahead wins 65% of games to 10 points and 73% to 5")


def test_the_run_fills_n_and_the_players_strength_in_plain_words():
    assert C.strength("pimc:budget=8") == C.strength("pimc2") == "players who search sampled deals"
    assert C.strength("random:draw=0.3") == "random players"
    assert C.strength("hoarder:lead=sure") == "rule-based players"
    assert C.players_of(["random", "heuristic", "heuristic", "pimc"]) == (
        "random players, rule-based players (heuristic) and players who search sampled deals"
    )


# ---- each image check, on a figure that has its defect ----------------------------------------


def _fig() -> tuple[Figure, object]:
    fig = Figure(figsize=(6, 4), dpi=100)
    FigureCanvasAgg(fig)
    return fig, fig.subplots()


def test_overlapping_tick_labels_are_found():
    fig, ax = _fig()
    ax.plot(range(6), range(6))
    ax.set_xticks(range(6), [f"a long category label number {i}" for i in range(6)])
    bad = C.image_problems(fig)
    assert any(b.startswith("overlap: x tick label") for b in bad), bad
    ax.set_xticks(range(6), [str(i) for i in range(6)])
    assert C.image_problems(fig) == []


def test_a_text_over_another_is_found():
    fig, ax = _fig()
    ax.plot([0, 1], [0, 1])
    ax.text(0.5, 0.5, "one annotation", transform=ax.transAxes)
    ax.text(0.52, 0.5, "another annotation", transform=ax.transAxes)
    assert any(b.startswith("overlap: annotation") for b in C.image_problems(fig))


def test_a_series_hidden_under_another_is_found():
    fig, ax = _fig()
    ax.errorbar([1, 2, 3], [1.0, 2.0, 3.0], yerr=0.1, marker="o", ms=5, label="first")
    ax.errorbar([1, 2, 3], [1.0, 2.0, 3.0], yerr=0.1, marker="o", ms=5, label="second")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    bad = C.image_problems(fig)
    assert any("hidden" in b and "'first'" in b for b in bad) and not any("'second'" in b for b in bad), bad


def test_a_legend_entry_with_nothing_drawn_is_found():
    fig, ax = _fig()
    ax.plot([1, 2], [1, 2], marker="o", label="drawn")
    ax.plot([], [], marker="o", label="empty")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    assert any("'empty' has nothing drawn" in b for b in C.image_problems(fig))


def test_a_mark_clipped_by_the_frame_is_found():
    fig, ax = _fig()
    ax.plot([1, 2, 3], [91.0, 95.0, 98.9], marker="o", ms=5)
    ax.set_ylim(0, 98.9)  # the last mark sits on the top of the frame, half cut off
    assert any(b.startswith("outside:") for b in C.image_problems(fig))
    ax.set_ylim(0, 105)
    assert C.image_problems(fig) == []


def test_tangled_lines_are_found():
    fig, ax = _fig()
    for k in range(6):
        ax.plot(range(6), [(i + k) % 3 for i in range(6)], marker="o", ms=3, label=f"line {k}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    assert any(b.startswith("tangled:") for b in C.image_problems(fig))


# ---- the framework fixes by layout what it can ------------------------------------------------


def test_series_on_the_same_points_are_dodged_apart(tmp_path):
    same = [ChartSeries(lab, [5, 7, 10], [73.0, 68.0, 65.0], [72.5, 67.5, 64.5], [73.5, 68.5, 65.5])
            for lab in ("heuristic players", "random players")]  # fmt: skip
    layout = C.draw(_chart(series=same), tmp_path / "c.png")
    assert layout.dodge


def test_long_category_labels_are_wrapped_or_turned(tmp_path):
    cats = [f"Whist to {t} points with honours" for t in (5, 7, 10)] + [
        "Scotch, 4 players",
        "Scotch, 6 players",
    ]
    s = ChartSeries("a", cats, [60.0, 62.0, 64.0, 55.0, 40.0], [59.0, 61.0, 63.0, 54.0, 39.0],
                    [61.0, 63.0, 65.0, 56.0, 41.0])  # fmt: skip
    layout = C.draw(_chart(series=[s], kind="bars", categorical=True), tmp_path / "c.png")
    assert layout.wrap or layout.rotate or layout.width > 8


def test_many_crossing_lines_become_small_multiples(tmp_path):
    ss = [ChartSeries(f"{p} players", list(range(1, 7)), [float((i + p) % 3) for i in range(6)],
                      [(i + p) % 3 - 0.1 for i in range(6)], [(i + p) % 3 + 0.1 for i in range(6)])
          for p in range(2, 9)]  # fmt: skip
    layout = C.draw(_chart(series=ss), tmp_path / "c.png")
    assert layout.panels


def test_a_mark_at_the_top_of_the_data_is_not_clipped(tmp_path):
    s = ChartSeries("a", [2, 3, 4], [98.9, 97.5, 91.4], [98.8, 97.4, 91.2], [99.0, 97.6, 91.6])
    fig, _ = C.render(_chart(series=[s]))
    assert not [b for b in C.image_problems(fig) if b.startswith("outside")]


def test_a_chart_no_layout_fixes_is_refused(tmp_path, monkeypatch):
    # two series on the very same points, drawn with marks so large that no dodge moves one clear
    s = [ChartSeries(lab, [1, 2], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0]) for lab in ("a", "b")]
    real = C.figure

    def huge(chart, layout=None):
        fig = real(chart, layout or C.Layout())
        for line in fig.axes[0].get_lines():
            if line.get_marker() == "o":
                line.set_markersize(400)
        return fig

    monkeypatch.setattr(C, "figure", huge)
    with pytest.raises(C.ChartError, match=re.escape("no layout fixes it")):
        C.draw(_chart(series=s), tmp_path / "c.png")
    assert not (tmp_path / "c.png").exists()
