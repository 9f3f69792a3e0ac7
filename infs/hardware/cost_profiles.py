"""Cost profiles: the price of one bit-serial compute command on the SRAM arrays.

Takes an op name, an element type and whether a constant operand is written
first; gives its cycles under a profile (``PROFILES``, named by a config's
``profile``):

* ``infs`` -- one documented source per op (``INFS_LATENCY``: the paper's
  text first, then the authors' gem5 model, then PIMeval): n-bit int add n
  cycles, int mul n^2 + 5n (ASPLOS §5.2), fp add/mul/div/min/max/cmp n^2 and
  fp fma 2n^2 (gem5), int div PIMeval's step count;
* ``pimeval-bitsimd-v`` -- PIMeval-PIMbench's published BITSIMD-V step
  counts, priced ``reads*tR + writes*tW + logic*tL`` (tR = tW = tL = 1 cycle
  for an SRAM row here; configurable).

Data movement (intra-array shifts: n cycles per flattened bitline of distance,
or n with ``parallel_intra_shift``; broadcasts: one alignment, fan-out free;
H-tree, mesh, sync, DRAM) is priced the same under both profiles
(``sim/sram/timing.py``, which cites gem5 for each).  Also PIMeval's table
(``PIMEVAL_STEPS``) and the rows it does not publish, derived
(``pimeval_extrapolated``).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from infs.element_types import ELEMENT_BITS, is_float_element
from infs.hardware.part_fields import ConfigError


def _kind_of(ty: str) -> str:
    """The latency table (``INFS_LATENCY``) of an element type."""
    return "fp" if is_float_element(ty) else "int"


# ``infs`` profile: cycles = c2*n^2 + c1*n + c0 for an n-bit element, or the
# PIMeval step count where neither the paper nor gem5 prices the op.  One
# documented source per op, in this order of precedence:
# the paper's text first, then the authors' gem5 model, then PIMeval.
#   asplos:L  = line L of the ASPLOS'23 paper's plain text (infinity-stream-asplos23.txt);
#   gem5      = PolyArch/gem-forge-gem5@gem-forge, MLCPUMManager::getComputeLat
#               (src/cpu/gem_forge/accelerator/stream/cache/pum/MLCPUMManager.cc:2532-2602),
#               which prices an op by its x86 micro-op class (avxop.isa lines given);
#   PIMeval   = the BITSIMD-V step table below (R + W + L, 1 cycle each).
# "§2.2 step" is the paper's description of one bit-serial step (asplos:111:
# activate the operands' bit rows together, the PEs operate on the sensed bits,
# write the result bit back): one cycle per bit for any bitwise op.
# i1 values are 0/1 with mod-2 arithmetic: an i1 op costs one §2.2 step per
# bitwise row of its PIMEVAL_MAP["bool"] composition (``CostProfile``).


@dataclass(frozen=True)
class OpLatency:
    """Cycles of one bit-serial command: ``c2 n^2 + c1 n + c0``, or PIMeval's step
    count when ``pimeval``; ``source`` is where the number comes from."""

    c2: float
    c1: float
    c0: float
    source: str
    pimeval: bool = False

    def formula(self) -> str:
        if self.pimeval:
            return "PIMeval R+W+L"
        terms = [f"{_num(self.c2)}n^2" if self.c2 else "", f"{_num(self.c1)}n" if self.c1 else "", _num(self.c0) if self.c0 else ""]
        return " + ".join(t for t in terms if t).replace("1n", "n") or "0"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


_STEP = "paper §2.2 step (asplos:111): one cycle per bit"
_ADD = "paper §2.2 (asplos:111 'O(n) for integer addition'; Eq. 1 latency 32 for int32 add, asplos:115-117)"
INFS_LATENCY: dict[str, dict[str, OpLatency]] = {
    "int": {
        "add": OpLatency(0, 1, 0, _ADD),
        "sub": OpLatency(0, 1, 0, _ADD + "; a subtraction is an addition of the complement"),
        "mul": OpLatency(1, 5, 0, "paper §5.2 (asplos:396): 'n^2 + 5n for n-bit integer multiply' (gem5 used n^2/2)"),
        "fma": OpLatency(1, 6, 0, "paper §5.2 mul (n^2 + 5n, asplos:396) + §2.2 add (n) (gem5 SimdMultAcc: n^2/2 + n)"),
        "div": OpLatency(0, 0, 0, "paper silent, gem5 has no int divide (getComputeLat panics): PIMeval BITSIMD-V div row", pimeval=True),
        "min": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (vpminsd is Vminsi, avxop.isa:380-381)"),
        "max": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (int min/max share Vminsi's class, avxop.isa:380-381)"),
        "cmp_lt": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (Vcmpeq, avxop.isa:386-387)"),
        "cmp_le": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (Vcmpeq, avxop.isa:386-387)"),
        "cmp_eq": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (Vcmpeq, avxop.isa:386-387)"),
        "select": OpLatency(0, 1, 0, _STEP + " (gem5's SimdMiscOp would charge 1 cycle for the whole n-bit select; the paper's per-bit step is the conservative choice)"),
        "and": OpLatency(0, 1, 0, _STEP + " (gem5 SimdAddOp, Vandi avxop.isa:362-363: n)"),
        "or": OpLatency(0, 1, 0, _STEP + " (gem5 SimdCmpOp, Vor avxop.isa:374-375: n)"),
        "xor": OpLatency(0, 1, 0, _STEP + " (gem5 SimdCmpOp, Vxor avxop.isa:368-369: n)"),
        "not": OpLatency(0, 1, 0, _STEP + " (xor with ones)"),
        "abs": OpLatency(0, 2, 0, "paper silent, gem5 silent: negate (n, §2.2 add) + select by the sign (n, §2.2 step), the conservative composition"),
        "neg": OpLatency(0, 1, 0, _ADD + "; 0 - x"),
        "relu": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n: relu is max(x, 0) (Vminsi class, avxop.isa:380-381)"),
        "copy": OpLatency(0, 1, 0, _STEP + " (read and write each bit row; gem5's SimdMiscOp 1 cycle is not physical)"),
    },
    "fp": {
        "add": OpLatency(1, 0, 0, "gem5 SimdFloatAddOp = n^2 (paper silent, defers to [17])"),
        "sub": OpLatency(1, 0, 0, "gem5 SimdFloatAddOp = n^2 (Vsubf, avxop.isa:296-297)"),
        "mul": OpLatency(1, 0, 0, "gem5 SimdFloatMultOp = n^2 (Vmulf, avxop.isa:302-303)"),
        "fma": OpLatency(2, 0, 0, "gem5 SimdFloatMultAccOp = 2n^2 (Vfmaddf, avxop.isa:445-446)"),
        "div": OpLatency(1, 0, 0, "gem5 SimdFloatDivOp = n^2 (Vdivf, avxop.isa:314-315)"),
        "min": OpLatency(1, 0, 0, "gem5 SimdFloatAddOp = n^2 (Vminf, avxop.isa:266-267)"),
        "max": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2 (Vmaxf, avxop.isa:284-285)"),
        "cmp_lt": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2 (vcmpps's micro-op has no class, avxop.isa:751, which would make it 1 cycle; the SimdFloatCmpOp case is the conservative reading)"),
        "cmp_le": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2 (as cmp_lt)"),
        "cmp_eq": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2 (as cmp_lt)"),
        "select": OpLatency(0, 1, 0, _STEP + " (bitwise on the n bit rows)"),
        "and": OpLatency(0, 1, 0, _STEP + " (gem5 SimdAddOp, Vandf avxop.isa:290-291: n)"),
        "or": OpLatency(0, 1, 0, _STEP + " (gem5 SimdCmpOp, Vor avxop.isa:374-375: n)"),
        "xor": OpLatency(0, 1, 0, _STEP + " (gem5 SimdCmpOp, Vxor avxop.isa:368-369: n)"),
        "not": OpLatency(0, 1, 0, _STEP + " (xor with ones)"),
        "abs": OpLatency(0, 1, 0, "gem5: and with a sign mask, SimdAddOp = n (Vandf, avxop.isa:290-291)"),
        "neg": OpLatency(0, 1, 0, "gem5: xor with the sign bit, SimdCmpOp = n (Vxor, avxop.isa:368-369)"),
        "relu": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2: relu is max(x, 0.0) (Vmaxf, avxop.isa:284-285)"),
        "copy": OpLatency(0, 1, 0, _STEP + " (read and write each bit row)"),
    },
}  # fmt: skip
# A constant operand is first written to the bitlines, one bit row per cycle:
# ASPLOS §5.2 (asplos:396) "first broadcasts constant operands (if any) to
# bitlines"; gem5 prices it as FloatMemReadOp = n ("one cycle to read 1 bit of
# constant value").
CONST_OPERAND = OpLatency(0, 1, 0, "paper §5.2 (asplos:396) + gem5 FloatMemReadOp = n")

# PIMeval-PIMbench BITSIMD-V step counts (libpimeval/src/pimPerfEnergyTables.cpp
# @40ce162, MIT licence; the rows infs uses from shared/data/pimeval_bitsimd_v_steps.csv).
PIMEVAL_BITSIMD_V_CSV = """\
dtype,op,reads,writes,logic
bool,not,1,1,1
bool,and,2,1,2
bool,or,2,1,2
bool,xor,2,1,2
int8,abs,9,8,34
int8,add,16,8,25
int8,sub,16,8,25
int8,mul,72,36,136
int8,div,196,137,336
int8,not,8,8,8
int8,and,16,8,16
int8,or,16,8,16
int8,xor,16,8,16
int8,gt,16,1,25
int8,lt,16,1,25
int8,eq,16,1,26
int8,min,32,8,41
int8,max,32,8,41
int8,add_scalar,8,8,33
int8,sub_scalar,8,8,33
int8,mul_scalar,36,36,172
int8,div_scalar,146,145,394
int8,and_scalar,8,8,24
int8,or_scalar,8,8,24
int8,xor_scalar,8,8,24
int8,gt_scalar,8,1,33
int8,lt_scalar,8,1,33
int8,eq_scalar,8,1,34
int8,min_scalar,16,8,57
int8,max_scalar,16,8,57
int16,abs,17,16,66
int16,add,32,16,49
int16,sub,32,16,49
int16,mul,272,136,528
int16,div,772,469,1176
int16,not,16,16,16
int16,and,32,16,32
int16,or,32,16,32
int16,xor,32,16,32
int16,gt,32,1,49
int16,lt,32,1,49
int16,eq,32,1,50
int16,min,64,16,81
int16,max,64,16,81
int16,add_scalar,16,16,65
int16,sub_scalar,16,16,65
int16,mul_scalar,136,136,664
int16,div_scalar,546,485,1418
int16,and_scalar,16,16,48
int16,or_scalar,16,16,48
int16,xor_scalar,16,16,48
int16,gt_scalar,16,1,65
int16,lt_scalar,16,1,65
int16,eq_scalar,16,1,66
int16,min_scalar,32,16,113
int16,max_scalar,32,16,113
int32,abs,33,32,130
int32,add,64,32,97
int32,sub,64,32,97
int32,mul,1056,528,2080
int32,div,3076,1709,4392
int32,not,32,32,32
int32,and,64,32,64
int32,or,64,32,64
int32,xor,64,32,64
int32,gt,64,1,97
int32,lt,64,1,97
int32,eq,64,1,98
int32,min,128,32,161
int32,max,128,32,161
int32,add_scalar,32,32,129
int32,sub_scalar,32,32,129
int32,mul_scalar,528,528,2608
int32,div_scalar,2114,1741,5386
int32,and_scalar,32,32,96
int32,or_scalar,32,32,96
int32,xor_scalar,32,32,96
int32,gt_scalar,32,1,129
int32,lt_scalar,32,1,129
int32,eq_scalar,32,1,130
int32,min_scalar,64,32,225
int32,max_scalar,64,32,225
fp32,add,1331,685,1687
fp32,sub,1331,685,1687
fp32,mul,1852,1000,3054
fp32,div,2744,1458,4187
fp32,mul_scalar,1852,1000,3054
int64,abs,65,64,258
int64,add,128,64,193
int64,sub,128,64,193
int64,not,64,64,64
int64,and,128,64,128
int64,or,128,64,128
int64,xor,128,64,128
int64,gt,128,1,193
int64,lt,128,1,193
int64,eq,128,1,194
int64,min,256,64,321
int64,max,256,64,321
int64,add_scalar,64,64,257
int64,sub_scalar,64,64,257
int64,and_scalar,64,64,192
int64,or_scalar,64,64,192
int64,xor_scalar,64,64,192
int64,gt_scalar,64,1,257
int64,lt_scalar,64,1,257
int64,eq_scalar,64,1,258
int64,min_scalar,128,64,449
int64,max_scalar,128,64,449
"""


def _parse_pimeval(text: str) -> dict[tuple[str, str], tuple[int, int, int]]:
    rows = csv.DictReader(io.StringIO(text))
    return {(r["dtype"], r["op"]): (int(r["reads"]), int(r["writes"]), int(r["logic"])) for r in rows}


PIMEVAL_STEPS = _parse_pimeval(PIMEVAL_BITSIMD_V_CSV)
"""The rows PIMeval publishes (test_sim_config checks them against the shared table)."""
PIMEVAL_DTYPE = {"f64": "fp64", "i64": "int64", "f32": "fp32", "i32": "int32", "i16": "int16", "i8": "int8", "i1": "bool"}

# Rows PIMeval does not publish, which 64-bit elements need (its simulator
# prints "Unimplemented bit-serial runtime estimation" for them:
# libpimeval/src/pimPerfEnergyBitSerial.cpp).
# * int64 mul / div (and their _scalar rows): each of reads, writes, logic is
#   the quadratic in n through PIMeval's own int8/int16/int32 rows, at n = 64.
#   The published rows are exactly quadratic (int32 mul: reads n^2 + n, writes
#   (n^2 + n)/2, logic 2n^2 + n; div: reads 3n^2 + 4, writes 1.5n^2 + 5.5n - 3,
#   logic 4n^2 + 9n + 8), and the same extrapolation reproduces every int64 row
#   PIMeval does publish (add, min, abs, compares... test_wide_types checks it).
# * fp64 add / sub / mul / div (mul_scalar): PIMeval has no fp64 row at all; its
#   fp32 row scaled by (64/32)^2 = 4, gem5's law for every bit-serial fp op
#   (n^2 in the element's bits, INFS_LATENCY["fp"]), the one fp width law the
#   model's sources give (the paper defers fp circuits to its refs [17, 29, 60]).
PIMEVAL_EXTRAPOLATED_SOURCE = {
    "int64": "PIMeval int8/int16/int32 rows, each count's quadratic in n evaluated at n = 64",
    "fp64": "PIMeval fp32 row x (64/32)^2 (gem5's n^2 fp law; PIMeval publishes no fp64 row)",
}


def _quadratic_at(points: list[tuple[int, int]], x: int) -> int:
    """The quadratic through three (n, value) points, at ``x`` (Lagrange, exact)."""
    from fractions import Fraction

    total = Fraction(0)
    for i, (xi, yi) in enumerate(points):
        term = Fraction(yi)
        for j, (xj, _) in enumerate(points):
            if j != i:
                term *= Fraction(x - xj, xi - xj)
        total += term
    return int(math.ceil(total))


def pimeval_extrapolated(dtype: str, op: str) -> tuple[int, int, int] | None:
    """A (reads, writes, logic) row PIMeval does not publish, derived as
    ``PIMEVAL_EXTRAPOLATED_SOURCE`` says; None when no derivation applies."""
    if dtype == "int64" and all((f"int{b}", op) in PIMEVAL_STEPS for b in (8, 16, 32)):
        rows = [PIMEVAL_STEPS[(f"int{b}", op)] for b in (8, 16, 32)]
        return tuple(_quadratic_at([(b, r[i]) for b, r in zip((8, 16, 32), rows)], 64) for i in range(3))  # type: ignore[return-value]
    if dtype == "fp64" and ("fp32", op) in PIMEVAL_STEPS:
        return tuple(4 * v for v in PIMEVAL_STEPS[("fp32", op)])  # type: ignore[return-value]
    return None


def pimeval_row(dtype: str, op: str) -> tuple[int, int, int] | None:
    """PIMeval's published row, else its extrapolation (``pimeval_extrapolated``), else None."""
    return PIMEVAL_STEPS.get((dtype, op)) or pimeval_extrapolated(dtype, op)


# How infs ops map onto PIMeval's table: per element kind, a list of
# (dtype row, table op, multiplicity) summed.  ``copy`` is a plain n-row copy
# (n reads, n writes).  With a constant operand the ``*_scalar`` row is used
# when PIMeval publishes one (or ``pimeval_row`` derives one).  PIMeval has no
# fp compare/min/max/logic rows: those take the integer rows of the same width
# (``"int="``: int32 for f32, int64 for f64; a sign-magnitude compare is an
# integer compare on the same bits); neg/abs/relu on a float rewrite the sign
# row of a copy.  i1 values
# are 0/1 and their arithmetic is mod 2, so every i1 op is a few bool rows.
PIMEVAL_MAP: dict[str, dict[str, list[tuple[str, str, int]]]] = {
    "int": {
        "add": [("=", "add", 1)], "sub": [("=", "sub", 1)], "mul": [("=", "mul", 1)],
        "div": [("=", "div", 1)], "fma": [("=", "mul", 1), ("=", "add", 1)],
        "min": [("=", "min", 1)], "max": [("=", "max", 1)],
        "cmp_lt": [("=", "lt", 1)], "cmp_le": [("=", "gt", 1), ("bool", "not", 1)],
        "cmp_eq": [("=", "eq", 1)],
        "and": [("=", "and", 1)], "or": [("=", "or", 1)], "xor": [("=", "xor", 1)],
        "not": [("=", "not", 1)], "abs": [("=", "abs", 1)],
        "neg": [("=", "sub_scalar", 1)],  # 0 - x
        "relu": [("=", "max_scalar", 1)],  # max(x, 0)
        "select": [("=", "and", 2), ("=", "or", 1)],  # (c & a) | (~c & b)
        "copy": [("=", "copy", 1)],
    },
    "fp": {
        "add": [("=", "add", 1)], "sub": [("=", "sub", 1)], "mul": [("=", "mul", 1)],
        "div": [("=", "div", 1)], "fma": [("=", "mul", 1), ("=", "add", 1)],
        "min": [("int=", "min", 1)], "max": [("int=", "max", 1)],
        "cmp_lt": [("int=", "lt", 1)], "cmp_le": [("int=", "gt", 1), ("bool", "not", 1)],
        "cmp_eq": [("int=", "eq", 1)],
        "and": [("int=", "and", 1)], "or": [("int=", "or", 1)], "xor": [("int=", "xor", 1)],
        "not": [("int=", "not", 1)],
        "abs": [("=", "copy", 1), ("bool", "and", 1)], "neg": [("=", "copy", 1), ("bool", "not", 1)],
        "relu": [("=", "copy", 1), ("bool", "and", 1)],
        "select": [("int=", "and", 2), ("int=", "or", 1)],
        "copy": [("=", "copy", 1)],
    },
    "bool": {
        "add": [("=", "xor", 1)], "sub": [("=", "xor", 1)], "mul": [("=", "and", 1)],
        "div": [("=", "and", 1)], "fma": [("=", "and", 1), ("=", "xor", 1)],
        "min": [("=", "and", 1)], "max": [("=", "or", 1)],
        "cmp_lt": [("=", "not", 1), ("=", "and", 1)], "cmp_le": [("=", "not", 1), ("=", "or", 1)],
        "cmp_eq": [("=", "xor", 1), ("=", "not", 1)],
        "and": [("=", "and", 1)], "or": [("=", "or", 1)], "xor": [("=", "xor", 1)],
        "not": [("=", "not", 1)], "abs": [("=", "copy", 1)], "neg": [("=", "copy", 1)],
        "relu": [("=", "copy", 1)], "select": [("=", "and", 2), ("=", "or", 1)],
        "copy": [("=", "copy", 1)],
    },
}  # fmt: skip


@dataclass(frozen=True)
class CostProfile:
    """Prices one compute command (cycles for the whole, bitline-parallel command)."""

    name: str
    t_read: float = 1.0
    t_write: float = 1.0
    t_logic: float = 1.0

    def compute_cycles(self, op: str, ty: str, has_const: bool = False) -> int:
        bits = ELEMENT_BITS[ty]
        if self.name == "infs":
            if ty == "i1":
                # i1 arithmetic is mod 2: each op is a few bitwise steps on one bit
                # row (the PIMEVAL_MAP "bool" compositions), one §2.2 step each.
                return int(sum(m for _dt, _op, m in PIMEVAL_MAP["bool"][op]) + (CONST_OPERAND.c1 if has_const else 0))
            lat = INFS_LATENCY[_kind_of(ty)][op]
            if lat.pimeval:
                r, w, l = self.steps(op, ty, has_const)
                return r + w + l
            cycles = lat.c2 * bits * bits + lat.c1 * bits + lat.c0
            if has_const:  # CONST_OPERAND
                cycles += CONST_OPERAND.c1 * bits
            return int(math.ceil(cycles))
        r, w, l = self.steps(op, ty, has_const)
        return int(math.ceil(r * self.t_read + w * self.t_write + l * self.t_logic))

    def steps(self, op: str, ty: str, has_const: bool = False) -> tuple[int, int, int]:
        """PIMeval (reads, writes, logic) row counts for one command."""
        bits = ELEMENT_BITS[ty]
        dt = PIMEVAL_DTYPE[ty]
        kind = "bool" if ty == "i1" else _kind_of(ty)
        total = [0, 0, 0]
        for row_dt, top, mult in PIMEVAL_MAP[kind][op]:
            rdt = dt if row_dt == "=" else f"int{bits}" if row_dt == "int=" else row_dt
            scalar = pimeval_row(rdt, top + "_scalar") if has_const else None
            if top == "copy":
                row = (bits, bits, 0)
            elif scalar is not None:
                row = scalar
            elif (plain := pimeval_row(rdt, top)) is not None:
                row = plain
            else:
                raise KeyError(f"no PIMeval step count for {top} on {rdt}")
            for i in range(3):
                total[i] += mult * row[i]
        return total[0], total[1], total[2]


PROFILES: dict[str, CostProfile] = {
    "infs": CostProfile("infs"),
    "pimeval-bitsimd-v": CostProfile("pimeval-bitsimd-v"),
}


def get_profile(name: str) -> CostProfile:
    if name not in PROFILES:
        raise ConfigError(f"unknown cost profile '{name}' (known: {', '.join(PROFILES)})")
    return PROFILES[name]
