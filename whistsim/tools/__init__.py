"""Tools built on the games: exact odds of a deal's outcome, tournaments between players,
paired comparisons of two rule sets, idle-setting advice, and the table a person plays at."""
