"""The record form of pimcmd commands: typed fields generated from the command
kinds (``pimcmd_schema``), which the op definitions are built from and checked
against, so a misspelled field is an error and nothing else is stored."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.irdl import OptPropertyDef, operand_def, prop_def

from infs import api
from infs.dialects import pimcmd as pc
from infs.dialects import pimcmd_schema as K
from infs.dialects.pimcmd_records import Cmd, RecordError, record_class
from infs.dialects.pimcmd_records_ir import from_op
from infs.runtime.driver import RunOptions, run_program
from infs.workloads import WORKLOADS

COMMANDS = (K.COMPUTE, K.SHIFT, K.BCAST, K.ARRAY, K.SYNC, K.NEAR_STORE, K.NEAR_LOAD, K.READOUT, K.WRITEIN, K.MV, K.BC, K.REDUCE, K.TRANSPOSE_IN)


def _compute(**extra):
    return Cmd(K.COMPUTE, {"op": "add", "type": "f32", "dst": 1, "srcs": (2, 3), **extra})


def test_fields_are_the_kinds_and_the_ops_properties():
    """One definition: the records' fields, the kind's fields and the op's IRDL properties agree, field for field."""
    assert {op.KIND for op in pc.COMMAND_OPS} == set(K.COMMANDS) and len(pc.COMMAND_OPS) == len(K.COMMANDS)
    for op in pc.COMMAND_OPS:
        kind = op.KIND
        d = op.get_irdl_definition()
        props = [(n, isinstance(p, OptPropertyDef)) for n, p in d.properties.items() if n != "operandSegmentSizes"]
        assert props == [(p.name, p.optional) for p in kind.props], op.name
        assert list(record_class(kind).NAMES) == [n for n, _ in props] + (["arr"] if kind.ARRAY_OPERAND else [])
        assert ([n for n, _ in d.operands] == ["array"]) == kind.ARRAY_OPERAND and op.name == kind.name
        assert (op.REG_READS, op.REG_WRITES, op.REGISTERS, op.PATTERNED, op.TENSOR_LEVEL) == (kind.REG_READS, kind.REG_WRITES, kind.REGISTERS, kind.PATTERNED, kind.TENSOR_LEVEL)


def test_an_op_that_drifts_from_its_kind_is_refused_at_definition():
    kind = K.CommandKind("test_drift.cmd", (K.Prop("dst", "int"), K.Prop("tiles", "pattern", optional=True)))
    pc.command(kind)(type("DriftOk", (pc._KeywordSyntax,), {}))  # as the kind says: defined
    extra = type("DriftExtra", (pc._KeywordSyntax,), {"src": prop_def(IntegerAttr)})
    with pytest.raises(TypeError, match=r"'test_drift.cmd' properties .* are not its kind's"):
        pc.command(kind)(extra)
    with_operand = type("DriftOperand", (pc._KeywordSyntax,), {"array": operand_def(MemRefType)})
    with pytest.raises(TypeError, match=r"'test_drift.cmd' operands \['array'\] are not its kind's"):
        pc.command(kind)(with_operand)
    with pytest.raises(ValueError, match="defined twice"):
        K.CommandKind("test_drift.cmd", ())
    with pytest.raises(ValueError, match="unknown value kind 'float'"):
        K.Prop("x", "float")


def test_kinds_are_plain_objects_that_survive_pickling():
    assert pickle.loads(pickle.dumps(K.COMPUTE)) is K.COMPUTE
    assert K.COMPUTE.reads({"srcs": (3, 4)}) == (3, 4) and K.ARRAY.registers({"wordline": 7}) == (7,)
    assert repr(Cmd(K.SYNC)) == "Cmd(sync, {})" and record_class(K.NEAR_LOAD).__name__ == "NearLoadRecord"


def test_a_misspelled_field_raises_when_built_changed_or_read():
    with pytest.raises(RecordError, match=r"'pimcmd.compute' has no field 'dts'"):
        Cmd(K.COMPUTE, {"op": "add", "type": "f32", "dts": 1})
    c = _compute()
    with pytest.raises(RecordError, match="no field 'tile'"):
        c.with_(tile=(1,))
    with pytest.raises(RecordError, match="no field 'srsc'"):
        c.get("srsc")
    with pytest.raises(KeyError, match="no field 'srsc'"):
        c["srsc"]
    with pytest.raises(AttributeError):
        c.srsc  # noqa: B018
    with pytest.raises(AttributeError):
        c.srsc = 1  # slots: no attribute but the fields


def test_absent_and_foreign_fields():
    c = _compute()
    assert c.tiles is None and c.get("tiles", "-") == "-" and "tiles" not in c and "dst" in c
    with pytest.raises(KeyError):
        c["tiles"]
    s = Cmd(K.SYNC)
    assert s.get("tiles") is None  # a field of other commands: the default
    assert s.fields() == {}


def test_a_field_named_like_the_records_api():
    n = Cmd(K.NEAR_STORE, {"kind": "add", "type": "f32", "input": 0})
    assert n.kind is K.NEAR_STORE and n["kind"] == "add" and n.fields()["kind"] == "add"
    assert n.with_(kind="max")["kind"] == "max" and n["kind"] == "add"


def test_with_copies_equality_and_pickle():
    c = _compute(const=2.0)
    d = c.with_(dst=7)
    assert (c.dst, d.dst, d.const, d.srcs) == (1, 7, 2.0, (2, 3))
    assert c == _compute(const=2.0) and c != d and c != Cmd(K.SYNC)
    assert pickle.loads(pickle.dumps(d)) == d
    assert list(d.fields()) == ["op", "type", "dst", "srcs", "const"]  # declaration order


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["vec_add", "stencil1d", "stencil2d", "dwt2d", "conv2d", "mm_outer", "kmeans_outer", "gather_mlp_outer"]), st.sampled_from(["tiny", "small-16"]))
def test_records_survive_the_op_form(name, config):
    """Every command the JIT emits for a workload: records -> op -> records is the identity."""
    w = WORKLOADS[name]
    sizes = w.sizes("small")
    values = w.make_inputs(sizes, np.random.default_rng(0))
    rep = run_program(api.parse_file(str(w.path)), w.call_args(values, sizes), w.entry, RunOptions(config=config, mode="in", machine_mode="analysis"))
    lowered = [low for _, low, *_ in rep.programs]
    assert lowered
    for low in lowered:
        assert from_op(low.program).cmds == low.record.cmds
