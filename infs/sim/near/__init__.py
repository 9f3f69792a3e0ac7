"""Near-memory streams: the stream engines at the L3 banks (NSC, HPCA'22) that run a region
near the data when it is not computed in the arrays (``engine``: the Near-L3 cost model).
"""
