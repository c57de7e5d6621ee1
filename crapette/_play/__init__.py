"""What the play layer's public modules share: the greedy heuristic, progress reports, the simulation's report.

The public modules of the layer (:mod:`crapette.evaluation`, :mod:`crapette.bots`,
:mod:`crapette.simulation`, ...) stay at their own paths.
"""
