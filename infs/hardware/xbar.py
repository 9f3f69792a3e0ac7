"""The crossbar part of the hardware description: STREAM's READ-based
OR-plane crossbars and processing-element components (STREAM, §VII-§VIII,
Table III), the WRITE-based baselines' per-operation figures, and the CMOS
figures the paper publishes, as data.

Takes nothing; gives frozen records (``XbarTech``, ``Component``) and the
published tables (``TABLE_III``, ``CMOS_TABLE_VII_UM2``, ``PAPER_CLAIMS``).
The cost model that uses them lives in ``infs.sim.xbar.cost``; this part of
the hardware package is not a field of ``HardwareConfig`` (the crossbar
target has its own records).

Sources, cited beside every constant:

* STREAM §VIII: 128x128 crossbars, R_LRS 10 kOhm, R_HRS 10 MOhm; READ
  29.31 ns / 1.08 pJ and WRITE 50.88 ns / 3.91 nJ, which STREAM (§II-C) takes
  from PipeLayer [35];
* STREAM Table III: area and power of each PE component (the paper took
  them from VTEAM [53], ISAAC [54] and FloatPIM [55]);
* STREAM Table VII: CMOS ASIC areas from Synopsys DC with gscl-45nm (the
  paper's results, published data here, not a model of ours);
* STREAM §VIII-C: the ratios the paper reports (Table VI, Fig. 17, Fig. 18),
  used only to print "paper" beside "ours".

Imports nothing from infs.
"""

from __future__ import annotations

from dataclasses import dataclass

UM2_PER_MM2 = 1.0e6


@dataclass(frozen=True)
class XbarTech:
    """The memristor crossbar technology (STREAM §VIII)."""

    rows: int = 128  # wordlines per crossbar, STREAM §VII "dimension 128x128"
    cols: int = 128  # bitlines per crossbar, STREAM §VII
    r_lrs_ohm: float = 10.0e3  # R_LRS 10 kOhm, STREAM §VIII (VTEAM fit [53])
    r_hrs_ohm: float = 10.0e6  # R_HRS 10 MOhm, STREAM §VIII
    read_ns: float = 29.31  # READ latency, STREAM §II-C / §VIII citing PipeLayer [35]
    read_pj: float = 1.08  # READ energy, STREAM §II-C citing PipeLayer [35]
    write_ns: float = 50.88  # WRITE latency, STREAM §II-C / §VIII citing PipeLayer [35]
    write_pj: float = 3910.0  # WRITE energy 3.91 nJ, STREAM §II-C citing PipeLayer [35]


@dataclass(frozen=True)
class Component:
    """One row of STREAM Table III: a PE component's area and power."""

    name: str
    spec: str
    area_um2: float
    power_mw: float


# STREAM Table III, "Area-Power Cost of STREAM Components" (row by row).
CROSSBAR = Component("crossbar", "128x128", 25.0, 0.3)  # Table III row 1
CONTROLLER = Component("controller", "1 unit", 6.27, 0.01)  # Table III row 2
SHIFTER = Component("shifter", "1 unit", 60.0, 0.05)  # Table III row 3
INPUT_REGISTER = Component("IR", "1 B", 1.05, 0.0006)  # Table III row 4 (per byte)
OUTPUT_REGISTER = Component("OR", "1 B", 2.93, 0.001)  # Table III row 5 (per byte)
LOCAL_BUS = Component("local bus", "128 wires", 0.03 * UM2_PER_MM2, 2.33)  # Table III row 6
STAIRCASE_UNIT = Component("staircase unit", "10 crossbars, 1 IR / 5 OR, 1 shifter", 0.0003 * UM2_PER_MM2, 3.06)  # Table III row 7
ADDER = Component("ADDER", "9 B, 48 crossbars, 18 IR / 9 OR", 0.0012 * UM2_PER_MM2, 14.42)  # Table III row 8
EDRAM_BUFFER = Component("eDRAM buffer", "20 KB", 0.026 * UM2_PER_MM2, 6.47)  # Table III row 9
PE = Component("PE", "1 ADDER, 128 staircase units, 9 OR / 1 shifter", 0.0657 * UM2_PER_MM2, 412.63)  # Table III row 10
BUS = Component("bus", "128-bit bandwidth", 15.7 * UM2_PER_MM2, 13.0)  # Table III row 11

TABLE_III: tuple[Component, ...] = (
    CROSSBAR, CONTROLLER, SHIFTER, INPUT_REGISTER, OUTPUT_REGISTER, LOCAL_BUS,
    STAIRCASE_UNIT, ADDER, EDRAM_BUFFER, PE, BUS,
)

STAIRCASE_CROSSBARS = 10  # crossbars per staircase unit, Table III row 7
STAIRCASE_UNITS_PER_PE = 128  # Table III row 10
ADDER_CROSSBARS = 48  # Table III row 8
ADDER_BITS_PER_PAIR = 3  # §VIII-B, Fig. 16: a 3-bit adder is the largest a 128x128 crossbar pair holds
BUS_BITS = 128  # Table III row 11, bus bandwidth per transfer

# STREAM Table VII: combinational area of the first eight ISCAS85 circuits as
# CMOS ASICs (Synopsys DC, gscl-45nm, FreePDK [56]) -- the paper's published
# results, um^2; and its worst-case STREAM area for the same circuits.
CMOS_TABLE_VII_UM2: dict[str, float] = {
    "c432": 575.4,
    "c499": 726.01,
    "c880": 1059.7,
    "c1355": 1729.84,
    "c1908": 1419.2,
    "c2670": 2212.28,
    "c3540": 3348.9,
    "c5315": 5246.3,
}
STREAM_TABLE_VII_WORST_UM2 = 1250.0  # Table VII, STREAM worst case (c1355 row)

# The ratios STREAM reports (§VIII-C), for "paper" columns only.
PAPER_CLAIMS: dict[str, float] = {
    "table6_contra_area_vs_stream_o": 5.3,  # CONTRA uses 5.3x less area than STREAM-O, §VIII-C1
    "table6_contra_area_vs_stream_m": 5.0,  # ... 5.0x less than STREAM-M, §VIII-C1
    "table6_stream_o_latency_vs_contra": 143.3,  # STREAM-O 143.3x lower latency, §VIII-C1
    "table6_stream_o_energy_vs_contra": 1.6,  # STREAM-O 1.6x lower energy, §VIII-C1
    "table6_stream_m_latency_vs_stream_o": 1.4,  # STREAM-M 1.4x over STREAM-O, §VIII-C1
    "table6_stream_m_energy_vs_stream_o": 1.6,  # §VIII-C1
    "fig17_stream_o_area_vs_simpler": 3.7,  # STREAM-O 3.7x more area than SIMPLER, §VIII-C2
    "fig17_stream_m_area_vs_simpler": 3.3,  # §VIII-C2
    "fig17_stream_o_energy_vs_simpler": 6.2,  # STREAM-O 6.2x less energy, §VIII-C2
    "fig17_stream_o_latency_vs_simpler": 2.0,  # STREAM-O 2x lower latency, §VIII-C2
    "fig17_stream_m_energy_vs_stream_o": 3.2,  # §VIII-C2
    "fig17_stream_m_latency_vs_stream_o": 2.1,  # §VIII-C2
    "fig18_cmos_area_vs_stream": 8.21,  # Fig. 18, §VIII-C3
    "fig18_cmos_latency_vs_stream": 1449.0,  # Fig. 18, §VIII-C3
    "fig18_cmos_energy_vs_stream": 4.14,  # Fig. 18, §VIII-C3
    "table7_cmos_area_vs_stream_worst": 13.0,  # Table VII, §VIII-C3
    "fig13_stream_o_tech_dependent_reduction": 0.30,  # technology-dependent optimization -30% gates, §VIII-A1
    "fig13_stream_o_mapping_growth": 2.5,  # crossbar mapping 2.5x gates (dummy nodes), §VIII-A1
    "fig15_stream_m_tech_dependent_reduction": 0.57,  # -57% gates, §VIII-A2
    "fig15_stream_m_mapping_growth": 1.8,  # mapping +80% gates, §VIII-A2
    "fig14_c1355_nodes_eliminate_0": 448.0,  # Fig. 14(a): c1355's multi-level nodes before elimination, §VIII-A2
    "fig14_c1355_nodes_eliminate_30": 95.0,  # Fig. 14(a): after eliminate 30, §VIII-A2
}

# MAGIC (Kvatinsky et al. [24], STREAM §II-A): a gate is an initialization
# (the output cell written to LRS) and an evaluation (the output conditionally
# switched), both WRITE-class operations of the crossbar.

DEFAULT_TECH = XbarTech()
