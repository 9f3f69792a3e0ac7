"""The crossbar target's passes (STREAM): netlists in ``hw``/``comb`` to mapped ``xbar`` kernels.

One pass per file: ``optimize_aig``, ``synthesize_stream_o``, ``synthesize_stream_m``,
``map_staircase``, ``decompose_pe``; their algorithms in ``synthesis`` (plain
netlists, shared with the bench), ABC in ``abc``, the IR <-> plain forms in
``netlist_ir``.
"""
