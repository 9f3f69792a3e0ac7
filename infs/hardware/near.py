"""The near-memory stream engines of the L3 banks (SE_L3, NSC [nsc]), section ``[near]``.

Takes nothing but the field machinery.  Gives ``PART``: what near-memory
streams (``sim/near/engine.py``) cost beyond the L3 and the mesh, with their
defaults (ASPLOS Table 2 / NSC Table V where the papers give a number, else
the assumption is stated next to the field), ranges and sources:

* an L3 stream engine does one 512-bit vector op per cycle (``simd_lanes``
  of the cores' vectors), ``vector_div_cycles`` (3) a divide (Table 2: 4 FP
  dividers of 12 cycles); ``vector_other_cycles`` (1) -- casts and other ops
  (assumed; cores too);
* ``se_init_cycles`` (4) -- SE_L3 compute initiation (Table 2);
  ``se_config_bytes`` (64) -- a stream configuration / migration message
  (NSC Table IV: ~450 bits of fields, one line); ``se_sync_lines`` (8) --
  flow control (credit + done) every 8 lines per stream (NSC §IV-B collects
  ranges every 8 iterations, one line each when vectorized);
  ``se_buffer_bytes`` (1024, 1..2^30) -- each SE_L3's stream buffer space per
  core (NSC Table V: 64 kB per bank, 1 kB per core), which bounds the lines a
  bank's streams have in flight and, the whole 64 kB less those lines, the
  reused data a stream engine can hold between uses (``near.rereads``);
  ``se_streams_per_core`` (12) -- streams an SE_L3 takes per core (NSC Table
  V); a region with more is not offloaded (``near.not_offloadable``);
* NSC's SE_core: ``se_core_fifo_bytes`` (2048, 1..2^30) -- the FIFO a floated
  stream's data waits in for the core; ``scc_count`` (2) stream computing
  contexts of ``scc_rob_entries`` (64; 0: in-order) ROB entries in all;
* which of NSC's configurations the near model prices (``near_config``, one
  of ``NEAR_CONFIGS``: NS by default), its lock (``near_lock``, one of
  ``NEAR_LOCKS``: the multi-reader single-writer lock by default) and
  whether the stream engines have a scalar PE (``near_scalar_pe``).

Every other count is 1..2^20.
"""

from __future__ import annotations

from infs.hardware.part_fields import BYTES, COUNT, TABLE_2, ConfigError, ConfigField, FieldRange, Part

# NSC's configurations the near model prices (HPCA'22 §VI; ``sim/near/engine.py``
# ``nsc_terms`` says what separates them); Base is the core model (``mode core``).
NEAR_CONFIGS = ("NS", "NS_no_sync", "NS_decouple", "NS_no_comp", "INST", "SINGLE")
NEAR_LOCKS = ("mrsw", "exclusive")  # NSC §IV-C: the multi-reader single-writer lock, or an exclusive one

FIELDS = (
    ConfigField(
        "se_init_cycles", "int", 4,  # SE_L3 compute initiation latency (Table 2)
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": SE_L3 4 cy. compute init. lat.", "Fig. 11 (Near-L3 on short regions)",
    ),
    ConfigField(
        "vector_div_cycles", "int", 3,  # SE_L3 512-bit divide: Table 2's 4 FP dividers, 12 cycles each, unpipelined
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": '4 FP Div (12 cy.)': a 512-bit divide every 12 / 4 cycles, unpipelined (the paper does not say; the conservative reading); the SE_L3's (the Base cores divide on their FP-SIMD units, core_fp_simd_cycles)", "Fig. 11 (Near-L3 on divide-heavy regions)",
    ),
    ConfigField(
        "vector_other_cycles", "int", 1,  # casts and other ops: one vector op (assumed)
        FieldRange("int", 1, COUNT),
        "assumed: casts and other ops take one vector op", "Fig. 11 (Base)",
    ),
    ConfigField(
        "se_config_bytes", "int", 64,  # stream configure/migrate message (NSC Table IV fields, ~450 bits)
        FieldRange("int", 1, COUNT),
        "NSC Table IV: ~450 bits of stream fields, one line", "Fig. 12/13 (Near-L3 control traffic)",
    ),
    ConfigField(
        "se_sync_lines", "int", 8,  # SE_core <-> SE_L3 credit/done every 8 lines per stream (NSC §IV-B)
        FieldRange("int", 1, COUNT),
        "NSC §IV-B: ranges collected every 8 iterations", "Fig. 12/13 (Near-L3 control traffic)",
    ),
    ConfigField(
        "se_buffer_bytes", "int", 1024,  # SE_L3 stream buffer per core in each bank (NSC Table V: 64 kB, 1 kB per core)
        FieldRange("int", 1, BYTES),
        "NSC Table V (nsc:338-341): 64 kB stream buffer per bank, 1 kB per core", "Fig. 11 (Near-L3 in-flight lines), Fig. 15 (Near-L3: which reuse the SE holds)",
    ),
    ConfigField(
        "se_streams_per_core", "int", 12,  # streams an SE_L3 takes per core (NSC Table V: 12 per core, 768 in all)
        FieldRange("int", 1, COUNT),
        "NSC Table V (nsc:341): SE_L3 '12 streams per core, 768 total'; a region with more cannot be offloaded and runs on the cores", "Fig. 11 (Near-L3 on conv3d: 20 streams)",
    ),
    # NSC's SE_core (Table V 'SE_core (IO4-OOO8): 256B/1kB/2kB FIFO, 12 streams, 2 SCCs, total
    # -/32/64 ROB-entry'): the FIFO a floated stream's data waits in for the core (NS_no_comp,
    # near.nsc_terms: Little's law over the round trip), the stream computing contexts'
    # ROB entries that bound the SCM's ops in flight (0: the in-order IO4, one op per SCC).
    ConfigField(
        "se_core_fifo_bytes", "int", 2048,
        FieldRange("int", 1, BYTES),
        "NSC Table V 'SE_core (IO4-OOO8): 256B/1kB/2kB FIFO': a floated stream's data waits there for the core (NS_no_comp: FIFO / round trip bytes per cycle per core)", "NSC Fig. 9 (NS_no_comp)",
    ),
    ConfigField(
        "scc_count", "int", 2,  # NSC Table V '2 SCCs'; §VII-C 'we set the default OOO8 configuration to 2 SCCs'
        FieldRange("int", 1, COUNT),
        "NSC Table V '2 SCCs'; §VII-C 'we set the default OOO8 configuration to 2 SCCs'", "NSC Fig. 9/14 (SCM compute rate)",
    ),
    ConfigField(
        "scc_rob_entries", "int", 64,  # NSC Table V 'total -/32/64 ROB-entry'; §VII-C 'with total 64 ROB entries'
        FieldRange("int", 0, COUNT),  # 0: in-order SCCs (NSC Table V's '-' for IO4)
        "NSC Table V 'total -/32/64 ROB-entry' (IO4/OOO4/OOO8); §VII-C 'with total 64 ROB entries': the SCM's ops in flight (0: in-order, one per SCC)", "NSC Fig. 14 (SCM compute rate)",
    ),
    # Which of NSC's configurations (§VI: Base is ``mode core``) the near model prices
    # (``near.NEAR_CONFIGS``): NS (range-sync, the default of NSC and of ASPLOS's Near-L3,
    # asplos:101 'coordinates with the remote CPU core'), NS_no_sync, NS_decouple,
    # NS_no_comp, INST, SINGLE.
    ConfigField(
        "near_config", "str", "NS",
        FieldRange("str"),  # also one of NEAR_CONFIGS
        "NSC §VI's configurations (near.NEAR_CONFIGS; Base is mode core); NS by default, NSC's and ASPLOS's Near-L3 (asplos:101 'coordinates with the remote CPU core')", "NSC Fig. 9-12; ASPLOS Fig. 11 (Near-L3)",
    ),
    ConfigField(
        "near_lock", "str", "mrsw",  # NSC §VII-D 'By default, we use MRSW lock' (or 'exclusive', Fig. 16)
        FieldRange("str"),  # also one of NEAR_LOCKS
        "NSC §VII-D 'By default, we use MRSW lock' (§IV-C); 'exclusive' for Fig. 16", "NSC Fig. 16",
    ),
    ConfigField(
        "near_scalar_pe", "bool", True,  # NSC §VII-D 'Both SE_core and SE_L3 has a scalar PE' (Fig. 17 turns it off)
        FieldRange("bool"),
        "NSC §VII-D 'Both SE_core and SE_L3 has a scalar PE to handle simple operations and avoid invoking SCM'", "NSC Fig. 17",
    ),
)

def _known_near_config(cfg, where: str) -> None:
    if cfg.near_config not in NEAR_CONFIGS:
        raise ConfigError(f"{where}: near_config: unknown near-stream configuration '{cfg.near_config}' (known: {', '.join(NEAR_CONFIGS)})")


def _known_lock(cfg, where: str) -> None:
    if cfg.near_lock not in NEAR_LOCKS:
        raise ConfigError(f"{where}: near_lock: unknown lock '{cfg.near_lock}' (known: {', '.join(NEAR_LOCKS)})")


PART = Part("near", "the L3 banks' near-memory stream engines", FIELDS, (_known_near_config, _known_lock))
