"""The network: the mesh of tiles and each bank's H-tree (ASPLOS §5, Table 2), section ``[noc]``.

Takes nothing but the field machinery.  Gives ``PART``: the mesh's rows and
columns (one L3 bank and one core per tile), its links (width, latency),
routers (pipeline stages) and multicast, the sizes of its control and
command messages, and the H-tree inside a bank -- ``htree_levels`` 1..16
(the in-way levels of a degree-``htree_degree`` tree, then one level joining
the ways; a tree with too few in-way levels joins the rest of a way at its
top one), ``htree_degree`` 2..64, ``htree_leaf_bytes_per_cycle`` and
``htree_bytes_per_cycle`` 1..2^20 -- with their defaults (paper-64), ranges
and sources.  ``mesh_rows``/``mesh_cols`` are 1..64; ``router_stages``
0..2^20; every other count 1..2^20.
"""

from __future__ import annotations

from infs.hardware.part_fields import COUNT, TABLE_2, ConfigField, FieldRange, Part

FIELDS = (
    ConfigField(
        "mesh_rows", "int", 8,
        FieldRange("int", 1, 64),
        TABLE_2 + ": 8x8 cores/mesh", "Fig. 12/13 (NoC traffic)",
    ),
    ConfigField(
        "mesh_cols", "int", 8,
        FieldRange("int", 1, 64),
        TABLE_2 + ": 8x8 cores/mesh", "Fig. 12/13 (NoC traffic)",
    ),
    ConfigField(
        "htree_levels", "int", 5,  # Table 2; gem5's tree: log2(16 arrays per way) = 4 in-way levels + the way level
        FieldRange("int", 1, 16),
        TABLE_2 + ": 5-level H tree", "Fig. 14 (move cycles)",
    ),
    ConfigField(
        "htree_degree", "int", 2,  # gem5 CacheMemory.cc (CacheMemory::CacheMemory): cacheParams.arrayTreeDegree = 2
        FieldRange("int", 2, 64, "a tree needs at least 2 children per node"),
        "gem5 CacheMemory.cc (CacheMemory::CacheMemory): arrayTreeDegree = 2, the tree joining the arrays of a way "
        "(DataMoveCompiler::compileInterArrayShift's splits); 2^4 = 16 arrays per way, the way level the 5th of Table 2", "Fig. 14 (move cycles)",
    ),
    ConfigField(
        "htree_leaf_bytes_per_cycle", "int", 4,  # gem5 CacheMemory.cc (CacheMemory::CacheMemory): cacheParams.arrayTreeLeafBandwidth = 4
        FieldRange("int", 1, COUNT),
        "gem5 CacheMemory.cc (CacheMemory::CacheMemory): arrayTreeLeafBandwidth = 4; PUMEngine::estimateCommandLatency "
        "charges ceil(bitlines / 32) x bits cycles per array per level; 16 ways x 4 B = Table 2's 64 B per bank", "Fig. 14 (move cycles)",
    ),
    ConfigField(
        "htree_bytes_per_cycle", "int", 64,  # total per bank (Table 2): the root, what a bank reads out, writes in or receives
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": H tree 64B total BW", "Fig. 14 (move and final-reduce cycles)",
    ),
    ConfigField(
        "link_bytes", "int", 32,
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": 32B 1 cy. link", "Fig. 12/13 (NoC traffic and drain time)",
    ),
    ConfigField(
        "link_cycles", "int", 1,
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": 32B 1 cy. link", "Fig. 14 (sync cycles)",
    ),
    ConfigField(
        "router_stages", "int", 5,
        FieldRange("int", 0, COUNT),
        TABLE_2 + ": 5-stage router", "Fig. 14 (sync cycles)",
    ),
    ConfigField(
        "multicast", "bool", True,
        FieldRange("bool"),
        TABLE_2 + ": multicast X-Y routing", "Fig. 15 (broadcast-heavy outer products)",
    ),
    ConfigField(
        "control_bytes", "int", 8,  # a control message (sync report, ack)
        FieldRange("int", 1, COUNT),
        "assumed: one 8 B control message (sync report, ack); the paper gives no size", "Fig. 12/13 (control traffic)",
    ),
    ConfigField(
        "command_bytes", "int", 16,  # one in-memory command sent to a bank
        FieldRange("int", 1, COUNT),
        "assumed: 16 B per command (pattern + op); the paper gives no size", "Fig. 12/13 (control traffic)",
    ),
)

PART = Part("noc", "the mesh NoC and each bank's H-tree", FIELDS)
