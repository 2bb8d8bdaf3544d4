# %% [markdown]
# # Play against the bot, then study the variant
#
# A rules discussion starts at the table: play a deal of Welsh Whist where
# false passes are allowed and the leader may challenge (Parlett's challenge
# rule), then measure what the variant does over many deals.
#
# In a terminal: `whistsim play --game welsh --rule revokes=true --rule challenge=parlett`.
# Here the moves come from a list: an empty string plays the hint player's move.

# %%
import json

import whistsim

rules = {"revokes": True, "challenge": "parlett"}
out = whistsim.play_game("welsh", rules=rules, strategies=["cheater"], seed=3, moves=None)
print("\n".join(out.transcript[-8:]))
print(whistsim.judge(0, json.dumps(out.record)).ok)  # the record replays like any other

# %% [markdown]
# Now the variant over many deals, against the same deals with revokes off:
# how often do cheaters pass falsely, how many are caught, and what does it
# do to the points?

# %%
c = whistsim.compare(
    "welsh",
    rules={"challenge": "parlett"},
    vs={"revokes": True},
    strategies=["cheater:rate=smart", "greedy", "greedy"],
    n=5_000,
    seed=3,
)
c.summary().set_index("figure").loc[["false_passes", "challenges", "challenges_won", "points[0]", "win[0]"]]

# %% [markdown]
# Per game and seat, for plotting (pandas or seaborn):

# %%
sim = whistsim.simulate(
    "welsh",
    n=2_000,
    seed=3,
    rules=rules,
    strategies=["cheater:rate=smart", "greedy", "greedy"],
    keep_games=True,
)
games = sim.games()
games.groupby("seat")[["points", "cards_won", "win"]].mean()
