"""The foundations every layer stands on: cards and their bit sets, rule options, random streams,
player specs, batches of results, figures with their intervals, tables, atomic files, waits
announced, and the kernel cache. Nothing here knows a game."""
