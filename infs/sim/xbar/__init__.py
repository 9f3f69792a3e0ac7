"""The crossbar target's simulator (STREAM): functional evaluation of mapped
programs (``evaluate``), the cost model and its baselines (``cost``), truth
tables as two-level OR-plane kernels (``two_level``), MAGIC NOR netlists for
the WRITE-based baselines (``magic``) and bit-sliced sparse MVM (``mvm``)."""
