"""``make bench``: speed measured as ratios against references in the same run (the floor
kernels, DDS for the solver, OpenSpiel for play) and pimc's decisions per second."""
