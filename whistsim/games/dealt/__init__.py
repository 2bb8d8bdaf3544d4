"""The dealt games, Scotch Whist (with French Whist) and Whist: one kernel family.

``engine`` holds the rules, each once (deal, turn-up, follow suit, trick winner
leads, sets of hands, scoring per side; revoke claims, count-out, the game won);
``rules`` the rule options and their slots in the kernels' array; ``kernels`` the
batch kernel's parts, which play whole games to the target; ``records`` and ``narrate`` the record format,
replay and ``show``; ``figures`` the per-game summaries. ``games.scotch`` and
``games.whist`` add their rule options.

Per-game columns of a batch (``Batch.game``, ``Batch.side`` [n, sides],
``Batch.seat`` [n, players]) are listed in ``kernels.GAME_COLUMNS``,
``kernels.SIDE_COLUMNS`` and ``kernels.SEAT_COLUMNS``.
"""
