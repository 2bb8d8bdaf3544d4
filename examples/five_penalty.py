# %% [markdown]
# # Is the five-penalty fairer?
#
# Welsh Whist's standard scoring counts 10 for each Ten and Taffy won and 1
# for every other card. The five-penalty variant makes each Five cost 5
# instead. Does that make the game fairer, or only closer?
#
# "Fairer" here means: does the seat that moves first win more often than the
# others (turn-position win rates), and are the winning margins wider or
# narrower for the points on the table? Both rule sets are played on the same
# deals (`whistsim.compare`), so each difference is taken deal by deal.
# (Open this file in Jupyter with jupytext, or run it as a script.)

# %%
import whistsim

N = 20_000  # deals; each figure comes with its 95% CI, so more deals only narrow them
c = whistsim.compare("welsh", vs={"scoring": "five_penalty"}, strategies=["greedy"], n=N, seed=1)
table = c.summary().set_index("figure")
table.loc[["total_points", "rel_margin", "rel_spread", "top_tie", "pos_win[0]", "pos_win[1]", "pos_win[2]"]]

# %% [markdown]
# The total changes by a constant (eight Fives in two packs, each worth 6
# points less), which the table shows as a difference with a zero-width
# interval. The turn-position win rates answer the fairness question: a
# difference whose interval holds 0 is no evidence of a change.

# %%
for k in range(3):
    row = table.loc[f"pos_win[{k}]"]
    moved = "moves first" if k == 0 else f"moves {k + 1}{'nd' if k == 1 else 'rd'}"
    verdict = (
        "no clear change" if row.ci_low <= 0 <= row.ci_high else ("more" if row["diff"] > 0 else "fewer")
    )
    print(
        f"the player who {moved}: wins {row.mean_a:.3f} -> {row.mean_b:.3f} "
        f"(diff {row['diff']:+.4f}, 95% CI [{row.ci_low:+.4f}, {row.ci_high:+.4f}]): {verdict}"
    )

# %% [markdown]
# Relative margins (the winning margin over the points per player) say
# whether games become closer for their size:

# %%
row = table.loc["rel_margin"]
print(
    f"relative margin {row.mean_a:.3f} -> {row.mean_b:.3f}, diff 95% CI [{row.ci_low:+.4f}, {row.ci_high:+.4f}]"
)
