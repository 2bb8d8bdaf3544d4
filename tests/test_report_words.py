"""The words of the committed reports: plain words outside "What was run", a link to "How to read this",
and every finding template held to its own tables (summary.csv, paired.csv): a sentence that says
"both lose" or "caught least with 2 players" is recomputed from every cell it speaks of.

The checks are rules, not today's numbers, so they stay true when `make experiments` regenerates results.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from whistsim.core.stats import Estimate, holm, p_two_sided

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
# Reports the experiment framework renders (whistsim experiment): every one has summary.csv and "What was run".
FRAMEWORK = sorted(
    p.parent.name
    for p in RESULTS.glob("*/report.md")
    if (p.parent / "summary.csv").is_file() and "## What was run" in p.read_text(encoding="utf-8")
    and not p.parent.name.startswith("design_")
)  # fmt: skip
# Code names and statistics jargon a card player does not know (docs/reports.md#how-to-read-this).
FORBIDDEN = [r"Holm", r"Wilson", r"unit=", r"\bchunks?\b", r"pimc", r"R²", r"\bpar\b", r"\b[a-z_]+\[\d+\]"]


def _report(name: str) -> str:
    return (RESULTS / name / "report.md").read_text(encoding="utf-8")


def _plain_lines(text: str) -> list[tuple[int, str]]:
    """The report's lines a reader reads as words: all but "What was run" and the glossary line."""
    out, section = [], None
    for i, line in enumerate(text.split("\n")):
        if line.startswith("## "):
            section = line[3:].strip()
        if section == "What was run" or line.startswith("Figures (the column in summary.csv"):
            continue
        out.append((i + 1, line))
    return out


def findings(name: str) -> list[str]:
    text = _report(name)
    block = text.split("## Findings", 1)[1].split("\n## ", 1)[0]
    return [line[2:] for line in block.split("\n") if line.startswith("- ")]


def _est(row) -> Estimate:
    return Estimate(float(row["mean"]), float(row["sd"]), int(row["n"]))


def test_the_how_to_read_section_exists_in_the_standard():
    text = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    assert "\n## How to read this\n" in text
    section = text.split("## How to read this", 1)[1].split("\n## ", 1)[0]
    for words in ("95% interval", "n**", "Paired deals", "Adjusted for several comparisons", "The players"):
        assert words in section


@pytest.mark.parametrize("name", FRAMEWORK)
def test_every_report_links_how_to_read_this_near_its_top(name):
    top = "\n".join(_report(name).split("\n")[:4])
    assert "../../docs/reports.md#how-to-read-this" in top


@pytest.mark.parametrize("name", FRAMEWORK)
def test_reports_use_no_code_names_or_jargon_outside_what_was_run(name):
    bad = [
        f"line {i}: {m.group(0)!r} in {line[:120]!r}"
        for i, line in _plain_lines(_report(name))
        for pat in FORBIDDEN
        for m in [re.search(pat, line)]
        if m
    ]
    assert not bad, "\n".join(bad)


# ---- each finding template against its own tables ------------------------------------------------


def _draw_rows(name: str) -> pd.DataFrame:
    """Each policy's paired change in seat 0's points, with the adjusted verdict recomputed from paired.csv."""
    paired = pd.read_csv(RESULTS / name / "paired.csv")
    rows = paired[paired["figure"] == "points[0]"].copy()
    adj = holm([p_two_sided(_est(r)) for _, r in rows.iterrows()])
    rows["clear"] = [a < 0.05 for a in adj]
    policy = rows["seat 0 while the stock lasts"].astype(str)
    rows["everywhere"] = policy.str.match(r"^pimc2?$") | (
        policy.str.startswith("pimc") & ~policy.str.contains("search=stock")
    )
    return rows


_COUNTED = re.compile(
    r"(?:(both|all (\d+)) (policies that change only play while the stock lasts|players that search every "
    r"decision[^,]*?) (lose|gain) points|the one (policy that changes only play while the stock lasts|player that "
    r"search(?:es)? every decision[^,]*?) (loses|gains) points)"
)


@pytest.mark.parametrize("name", ["draw_phase", "draw_phase_pimc"])
def test_draw_phase_headline_counts_every_policy_with_its_sign(name):
    if not (RESULTS / name / "paired.csv").is_file():
        pytest.skip("not run")
    rows = _draw_rows(name)
    head = findings(name)[0]
    claims = list(_COUNTED.finditer(head))
    assert claims, head
    for m in claims:
        group = m.group(3) or m.group(5)
        verb = m.group(4) or m.group(6)
        mine = rows[rows["everywhere"] == ("every decision" in group)]
        if m.group(2):
            assert len(mine) == int(m.group(2)), head
        if m.group(1) == "both":
            assert len(mine) == 2, head
        if m.group(5):
            assert len(mine) == 1, head
        want = (mine["mean"] < 0) if verb.startswith("lose") else (mine["mean"] > 0)
        assert (want & mine["clear"]).all(), f"{head}\n{mine[['label', 'mean', 'ci_low', 'ci_high']]}"
    # Every compared policy is spoken of: no group of cells is left out of the headline.
    groups = {"every decision" in (m.group(3) or m.group(5)) for m in claims}
    if "of the " not in head.split(";")[0]:
        assert groups == set(rows["everywhere"]), head


def test_draw_phase_never_says_every_policy_loses_while_one_gains():
    for name in ("draw_phase", "draw_phase_pimc"):
        if not (RESULTS / name / "paired.csv").is_file():
            continue
        rows = _draw_rows(name)
        text = " ".join(findings(name))
        if (rows["mean"] > 0).any():
            assert "every policy" not in text and "all policies" not in text


def _scotch_ten():
    summary = pd.read_csv(RESULTS / "scotch_ten" / "summary.csv")
    main = summary[(summary["figure"] == "tens_caught") & (summary["players' strategy"] == "heuristic")]
    return summary, main.set_index("players")["mean"]


def test_scotch_ten_least_and_most_are_the_least_and_most_of_every_player_count():
    _, caught = _scotch_ten()
    first = findings("scotch_ten")[0]
    m = re.search(r"least often with (\d+) players.*most often with (\d+) players", first)
    assert m, first
    assert int(m.group(1)) == caught.idxmin() and int(m.group(2)) == caught.idxmax()


def test_scotch_ten_less_and_more_often_lists_recomputed_from_the_paired_table():
    paired = pd.read_csv(RESULTS / "scotch_ten" / "paired.csv")
    # Every player strength against random players (the comparisons the sentence counts).
    rows = paired[(paired["figure"] == "tens_caught") & paired["baseline"].str.endswith("strategy=random")]
    adj = holm([p_two_sided(_est(r)) for _, r in rows.iterrows()])
    text = next(f for f in findings("scotch_ten") if "caught less often with" in f)
    n = int(re.search(r"adjusted for the (\d+) comparisons", text).group(1))
    assert n == len(rows)
    heur = [(int(r["players"]), r["mean"], a) for (_, r), a in zip(rows.iterrows(), adj, strict=True)
            if r["players' strategy"] == "heuristic"]  # fmt: skip
    down = [p for p, mean, a in heur if mean < 0 and a < 0.05]
    up = [p for p, mean, a in heur if mean > 0 and a < 0.05]
    m = re.search(r"less often with (.*?) players and more often with (.*?) \(", text)

    def listed(s: str) -> list[int]:
        return [] if s == "none" else [int(x) for x in re.findall(r"\d+", s)]

    assert listed(m.group(1)) == down and listed(m.group(2)) == up


def test_scotch_ten_shares_given_a_holder_state_the_deals_that_holder_held_it():
    _, caught = _scotch_ten()
    text = next(f for f in findings("scotch_ten") if "dealt to the dealer" in f)
    for m in re.finditer(
        r"of the about ([\d,]+) deals in which .*? held it: one in (\d+) of ([\d,]+)\)", text
    ):
        held, p, n = (int(x.replace(",", "")) for x in m.groups())
        assert abs(held - n / p) <= 1
    assert "deals in which the dealer held it" in text and "deals in which the elder hand held it" in text


def test_scotch_ten_says_why_it_is_caught_more_often_and_names_the_counts_it_measured():
    _, caught = _scotch_ten()
    why = next(f for f in findings("scotch_ten") if f.startswith("Why "))
    m = re.match(
        r"Why more often with (\d+) players than with (\d+) \(measured on ([\d,]+) recorded deals", why
    )
    assert m and int(m.group(1)) == caught.idxmax() and int(m.group(2)) == caught.idxmin()
    assert "## Why the Ten is caught" in _report("scotch_ten")


def test_the_recorded_deals_behind_why_catch_the_ten_as_often_as_the_run():
    # The trick-by-trick reading of records agrees with the engine's own count of Tens caught.
    from whistsim.experiments.spec import load_spec
    from whistsim.experiments.studies.scotch_ten import measure_why

    spec = load_spec(ROOT / "experiments" / "scotch_ten.toml")
    _, caught = _scotch_ten()
    why = measure_why(spec, [2, 7], "heuristic", deals=600)
    for p in (2, 7):
        e = why[p]["caught"]
        assert e.low - 0.01 <= caught[p] <= e.high + 0.01
        assert why[p]["caught_exposed"].mean >= e.mean  # caught needs a higher trump against it
        assert why[p]["caught_exposed"].n == round(why[p]["exposed"].mean * e.n)


def _paired(name: str, figure: str) -> pd.DataFrame:
    paired = pd.read_csv(RESULTS / name / "paired.csv")
    return paired[paired["figure"] == figure]


def test_french_shorter_or_longer_is_counted_over_every_player_count():
    rows = _paired("french", "deals")
    adj = holm([p_two_sided(_est(r)) for _, r in rows.iterrows()])
    shorter = sum(r["mean"] < 0 and a < 0.05 for (_, r), a in zip(rows.iterrows(), adj, strict=True))
    text = findings("french")[0]
    if "are shorter at every player count" in text:
        assert shorter == len(rows)
    else:
        m = re.search(r"are shorter at (\d+) and longer at (\d+) of (\d+)", text)
        assert m and int(m.group(1)) == shorter and int(m.group(3)) == len(rows)


def test_whist_honours_longer_without_honours_only_when_every_change_is_above_0():
    rows = _paired("whist_honours", "deals")
    text = next(f for f in findings("whist_honours") if f.startswith("Without honours a game"))
    if "lasts longer" in text:
        assert (rows["ci_low"] > 0).all()
    if "is shorter" in text:
        assert (rows["ci_high"] < 0).all()


def test_whist_length_lengthens_only_when_every_change_is_above_0():
    paired = pd.read_csv(RESULTS / "whist_length" / "paired.csv")
    rows = paired[(paired["figure"] == "deals") & (paired["axis"] == "honours")]
    text = next((f for f in findings("whist_length") if f.startswith("Leaving honours out")), None)
    if text is None or rows.empty:
        pytest.skip("no such finding")
    main = text.split("(")[1].split(" players")[0]
    rows = rows[rows.filter(like="players").iloc[:, 0].astype(str) == main] if main else rows
    if " lengthens " in text:
        assert (rows["ci_low"] > 0).all()


def test_seat_advantage_counts_every_setting_where_moving_first_clearly_helps():
    summary = pd.read_csv(RESULTS / "seat_advantage" / "summary.csv")
    first = summary[summary["figure"] == "pos_edge[0]"]
    clear = int((first["ci_low"] > 0).sum())
    text = findings("seat_advantage")[0]
    m = re.search(r"in (\d+) of (\d+) settings", text)
    assert m and int(m.group(1)) == clear and int(m.group(2)) == len(first)
    if text.startswith("Moving first helps in every setting"):
        assert clear == len(first)


@pytest.mark.parametrize("name", ["skill_whist", "skill_scotch"])
def test_skill_beats_only_when_the_interval_is_above_half(name):
    for text in findings(name):
        m = re.search(r"(beats|loses to|is not told apart from) .*?\(95% CI ([\d.]+)–([\d.]+)%", text)
        if not m:
            continue
        lo, hi = float(m.group(2)), float(m.group(3))
        assert {"beats": lo > 50, "loses to": hi < 50}.get(m.group(1), lo <= 50 <= hi), text


def test_scotch_seats_ahead_and_behind_counts_recomputed_from_the_summary():
    summary = pd.read_csv(RESULTS / "scotch_seats" / "summary.csv")
    heur = summary[summary["players' strategy"] == "heuristic"] if "players' strategy" in summary else summary
    rows = [r for _, r in heur.iterrows() if r["figure"] == f"deal_edge[{int(r['players']) - 1}]"]
    adj = holm([p_two_sided(_est(r)) for r in rows])
    ahead = sum(r["mean"] > 0 and a < 0.05 for r, a in zip(rows, adj, strict=True))
    behind = sum(r["mean"] < 0 and a < 0.05 for r, a in zip(rows, adj, strict=True))
    text = findings("scotch_seats")[0]
    m = re.search(r"ahead at (\d+) and behind at (\d+) of (\d+) player counts", text)
    assert m and (int(m.group(1)), int(m.group(2)), int(m.group(3))) == (ahead, behind, len(rows))


# ---- the studies outside the experiment framework: rule design; and the game odds' own tables --------

OTHER = sorted(p.parent.name for p in RESULTS.glob("design_*/report.md"))


def _words(line: str) -> str:
    """A line as a reader reads it: without link targets and file names (`play-over-par.png` is where a
    chart lies, not a word in the text)."""
    line = re.sub(r"\]\([^)]*\)", "]", line)
    return re.sub(r"`[^`]*\.(?:png|csv|json|md)`", "", line)


@pytest.mark.parametrize("name", OTHER)
def test_every_other_report_links_how_to_read_this_near_its_top(name):
    top = "\n".join(_report(name).split("\n")[:4])
    assert "../../docs/reports.md#how-to-read-this" in top


@pytest.mark.parametrize("name", OTHER)
def test_other_reports_use_no_code_names_or_jargon_outside_what_was_run(name):
    bad = [
        f"line {i}: {m.group(0)!r} in {line[:120]!r}"
        for i, line in _plain_lines(_report(name))
        for pat in [*FORBIDDEN, r"\bDP\b", r"\bTPE\b", r"\bvariance\b"]
        for m in [re.search(pat, _words(line))]
        if m
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", [n for n in OTHER if n != "luck_skill"])
def test_a_change_in_a_share_is_said_in_percentage_points_not_points(name):
    # "+6.4 points" of a share of games reads as the game's points; luck_skill's points are the game's own.
    bad = [
        line[:120]
        for _, line in _plain_lines(_report(name))
        if re.search(r"[+-]\d[\d.]*%? points\b", line) or re.search(r"\[[+-][\d.]+ points", line)
    ]
    assert not bad, "\n".join(bad)


def _close(text: str, x: float) -> bool:
    """A figure as printed (``51.4%``, ``+0.563``, ``-6.4``) is ``x`` rounded to its printed digits."""
    scale = 100.0 if text.endswith("%") else 1.0
    digits = text.rstrip("%").lstrip("+")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return abs(float(digits) - scale * x) <= 0.5 * 10**-decimals + 1e-9


def _numbered_findings(name: str) -> list[str]:
    block = _report(name).split("## Findings", 1)[1].split("\n## ", 1)[0]
    return [
        re.sub(r"^(?:\d+\.|-) ", "", line) for line in block.split("\n") if re.match(r"(?:\d+\.|-) ", line)
    ]


_CI = r"(\d+\.\d)% \(95% CI (\d+\.\d)-(\d+\.\d)%\)"


def test_game_odds_first_finding_quotes_the_table_and_orders_the_targets_as_it_does():
    s = pd.read_csv(RESULTS / "game_odds" / "tables" / "figures.csv").set_index("setting")
    first = _numbered_findings("game_odds")[0]
    quoted = re.findall(_CI, first)[:3]
    rows = [s.loc[f"whist_{t}_honours"] for t in (5, 7, 10)]
    assert len(quoted) == 3, first
    for (v, lo, hi), r in zip(quoted, rows, strict=True):
        assert _close(v + "%", r["leader_wins"]), (v, r)
        assert _close(lo + "%", r["leader_wins_low"]) and _close(hi + "%", r["leader_wins_high"]), (lo, hi, r)
    apart = [a["leader_wins_low"] > b["leader_wins_high"] for a, b in zip(rows, rows[1:], strict=False)]
    below = [a["leader_wins_high"] < b["leader_wins_low"] for a, b in zip(rows, rows[1:], strict=False)]
    assert ("more the shorter the game" in first) == all(apart)
    assert ("more the longer the game" in first) == all(below)


def test_game_odds_honours_finding_recomputed_from_its_table_with_the_comparisons_it_adjusts_for():
    h = pd.read_csv(RESULTS / "game_odds" / "tables" / "honours.csv")
    s = pd.read_csv(RESULTS / "game_odds" / "tables" / "figures.csv").set_index("setting")
    adj = holm(list(h["p"]))
    assert all(a == pytest.approx(b, rel=1e-3) for a, b in zip(adj, h["p_adjusted"], strict=True))
    text = next(f for f in _numbered_findings("game_odds") if f.startswith(("Honours", "On the same deals")))
    quoted = re.findall(
        r"([+-]\d+\.\d) percentage points at (\d+) \(95% CI ([+-]\d+\.\d) to ([+-]\d+\.\d)\)", text
    )
    assert [int(q[1]) for q in quoted] == list(h["target"]), text
    for (d, t, lo, hi), (_, r) in zip(quoted, h.iterrows(), strict=True):
        on, off = s.loc[f"whist_{t}_honours", "leader_wins"], s.loc[f"whist_{t}_no_honours", "leader_wins"]
        assert (
            _close(d, 100 * r["leader_wins_change"])
            and _close(lo, 100 * r["low"])
            and _close(hi, 100 * r["high"])
        )
        assert abs(100 * (on - off) - float(d)) <= 0.06  # the change is the table's on less off
    clear = [a < 0.05 for a in h["p_adjusted"]]
    assert f"adjusted for the {len(h)} comparisons of honours on with off" in text
    assert ("each told apart from 0" in text) == all(clear)
    if not all(clear):
        assert f"told apart from 0 at {sum(clear)} of {len(h)}" in text
    assert text.startswith("Honours make one deal more decisive") == (
        all(clear) and (h["leader_wins_change"] > 0).all()
    )
    assert text.startswith("Honours make one deal less decisive") == (
        all(clear) and (h["leader_wins_change"] < 0).all()
    )


def test_game_odds_agreement_with_whole_games_counted_from_the_check_table():
    check = pd.read_csv(RESULTS / "game_odds" / "tables" / "check.csv")
    agree = (check["dp_low"] <= check["direct_high"]) & (check["direct_low"] <= check["dp_high"])
    assert (agree == check["agree"]).all()
    text = _numbered_findings("game_odds")[-1]
    m = re.search(r"at (\d+) of (\d+) checked scores", text)
    assert m and (int(m.group(1)), int(m.group(2))) == (int(agree.sum()), len(check)), text


def _split() -> pd.DataFrame:
    """The luck study's split per (game, variant, players), recomputed from summary.csv: the cards' share is
    the squared correlation of par and the margin, from the SDs of par, actual and play (= actual - par),
    with Fisher's z interval."""
    import math

    summary = pd.read_csv(RESULTS / "luck_skill" / "summary.csv")
    rows = {}
    for _, g in summary.groupby("cell"):
        f, first = g.set_index("figure"), g.iloc[0]
        game = first["game"]
        if game == "whist":
            variant = "honours" if str(first["honours"]).lower() == "true" else "no honours"
        else:
            variant = "french" if str(first["French ten of diamonds"]).lower() == "true" else "scotch"
        side0 = first["side 0 (seats 0 and 2) plays"]
        players = (
            first["every seat plays"]
            if pd.isna(side0)
            else f"{side0} (side 0) vs {first['every seat plays']}"
        )
        sp, sa, sd, n = f.loc["par", "sd"], f.loc["actual", "sd"], f.loc["play", "sd"], int(f.loc["par", "n"])
        r = (sa * sa + sp * sp - sd * sd) / (2 * sa * sp)
        z, se = math.atanh(r), 1 / math.sqrt(n - 3)
        lo, hi = math.tanh(z - 1.96 * se), math.tanh(z + 1.96 * se)
        rows[(game, variant, players)] = {
            "cards_share": r * r, "cards_share_low": 0.0 if lo < 0 < hi else min(lo * lo, hi * hi),
            "cards_share_high": max(lo * lo, hi * hi), "n": n,
            "play_low": f.loc["play", "ci_low"], "play_high": f.loc["play", "ci_high"],
        }  # fmt: skip
    return pd.DataFrame.from_dict(rows, orient="index")


def test_luck_first_finding_quotes_the_share_the_cards_explain_from_the_table():
    r = _split().loc[("whist", "honours", "heuristic")]
    first = _numbered_findings("luck_skill")[0]
    m = re.search(r"the cards explain (\d+\.\d%) \(95% CI (\d+\.\d)–(\d+\.\d)%, n=([\d,]+) deals\)", first)
    assert m and first.startswith("In Whist (honours scored) between four rule-based players"), first
    assert _close(m.group(1), r["cards_share"]) and _close(m.group(2) + "%", r["cards_share_low"])
    assert _close(m.group(3) + "%", r["cards_share_high"]) and int(m.group(4).replace(",", "")) == r["n"]


def test_luck_more_or_less_than_only_when_the_two_intervals_do_not_overlap():
    split = _split()
    pairs = {  # the finding's opening words: (its cell, the cell it is set against)
        "Without honours": (("whist", "no honours", "heuristic"), ("whist", "honours", "heuristic")),
        "With the French ten": (("scotch", "french", "pimc"), ("scotch", "scotch", "pimc")),
        "Between four random players": (("whist", "honours", "random"), ("whist", "honours", "heuristic")),
    }
    for text in _numbered_findings("luck_skill"):
        for opening, (a, b) in pairs.items():
            if not text.startswith(opening):
                continue
            x, y = split.loc[a], split.loc[b]
            word = (
                "more than" if x["cards_share_low"] > y["cards_share_high"]
                else "less than" if x["cards_share_high"] < y["cards_share_low"]
                else "not clearly different from"
            )  # fmt: skip
            assert f": {word} the " in text, text


def test_luck_searchers_above_the_open_hand_value_only_when_every_interval_is_above_0():
    split = _split()
    rows = [
        split.loc[(g, v, "pimc (side 0) vs heuristic")]
        for g, v in (("whist", "honours"), ("scotch", "scotch"))
    ]
    text = next(
        f for f in _numbered_findings("luck_skill") if f.startswith("Players who search sampled deals")
    )
    if "score more than the open-hand value" in text:
        assert all(r["play_low"] > 0 for r in rows)
    elif "score less than the open-hand value" in text:
        assert all(r["play_high"] < 0 for r in rows)
    else:
        assert "not clearly more or less than" in text
        assert not all(r["play_low"] > 0 for r in rows) and not all(r["play_high"] < 0 for r in rows)


DESIGNS = [n for n in OTHER if n.startswith("design_")]


def _objectives(summary: pd.DataFrame) -> list[str]:
    return [c[: -len("_fresh_mean")] for c in summary.columns if c.endswith("_fresh_mean")]


@pytest.mark.parametrize("name", DESIGNS)
def test_design_first_finding_recomputed_from_the_summary_table(name):
    summary = pd.read_csv(RESULTS / name / "summary.csv")
    keys = _objectives(summary)
    chosen = summary[summary["status"] == "chosen"]
    standard = summary[summary["standard"]].iloc[0]
    first = _numbered_findings(name)[0]
    if first.startswith("The best set on fresh deals"):
        m = re.match(
            r"The best set on fresh deals holds (\d+) variants? \(n=[\d,]+ fresh deals each\): ", first
        )
        assert m and int(m.group(1)) == len(chosen), first
        for _, row in chosen.iterrows():
            item = re.search(re.escape(row["rules"]) + r" \(([^)]*)\)", first)
            assert item, (row["rules"], first)
            values = [part.rsplit(" ", 1)[-1] for part in item.group(1).split(", ")]
            it = iter(keys)  # each value is one objective's fresh figure, in the objectives' order
            assert all(any(_close(v, row[f"{k}_fresh_mean"]) for k in it) for v in values), (values, row)
    elif first.startswith("The best variant found"):
        num = r"[+-]?[\d.]+%?"
        m = re.match(
            rf"The best variant found, (.+?), brings .+? to ({num}) \(.*?\) against ({num}) \(.*?\) under the "
            rf"standard rules .*?the difference is ({num})( percentage points)? \(95% CI ({num}) to ({num})", first
        )  # fmt: skip
        assert m, first
        row = summary[summary["rules"] == m.group(1)]
        assert len(row) == 1 and row.iloc[0]["status"] == "chosen", first
        row = row.iloc[0]
        k = next(k for k in keys if _close(m.group(2), row[f"{k}_fresh_mean"]))
        assert _close(m.group(3), standard[f"{k}_fresh_mean"])
        pp = 100.0 if m.group(2).endswith("%") else 1.0  # a change in a share is printed in percentage points
        assert _close(m.group(4), pp * row[f"{k}_vs_standard"]), first
        assert _close(m.group(6), pp * row[f"{k}_vs_standard_ci_low"]), first
        assert _close(m.group(7), pp * row[f"{k}_vs_standard_ci_high"]), first
        assert bool(m.group(5)) == m.group(2).endswith("%")  # a share's change in percentage points
    else:
        assert first.startswith(("No variant beats the standard rules", "No variant survived")), first
        assert chosen.empty or list(chosen["standard"]) == [True]


@pytest.mark.parametrize("name", FRAMEWORK)
def test_a_report_names_its_spec_by_its_place_in_the_repository_not_this_machines_folders(name):
    spec_line = next(line for line in _report(name).split("\n") if line.startswith("- Spec: "))
    assert not re.search(r"`/", spec_line), spec_line
