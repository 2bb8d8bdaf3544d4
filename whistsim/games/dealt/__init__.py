"""The dealt games, Scotch Whist (with French Whist) and Whist: one kernel family.

``engine`` holds the rules of a deal (deal, turn-up, follow suit, trick winner
leads, sets of hands, scoring per side); ``play`` the batch kernel that plays
whole games to the target; ``records`` and ``narrate`` the record format,
replay and ``show``; ``figures`` the per-game summaries. ``games.scotch`` and
``games.whist`` add their rule options.

Per-game columns of a batch (``Batch.game``, ``Batch.side`` [n, sides],
``Batch.seat`` [n, players]) are listed in ``play.GAME_COLUMNS``,
``play.SIDE_COLUMNS`` and ``play.SEAT_COLUMNS``.
"""
