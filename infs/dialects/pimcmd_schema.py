"""The ``pimcmd`` command kinds, by mnemonic (``COMPUTE``, ``SHIFT``, ...): what a
record's ``kind`` is and what the passes, the simulator and the runtime compare
it with (``c.kind is K.COMPUTE``), plus the tile geometry they share.

Takes nothing; gives the kinds, ``COMMANDS`` (every kind, once),
``CommandKind`` (their type), ``COMPUTE_ARITY``, ``tile_grid`` and ``TiledLattice``.
"""

from __future__ import annotations

from infs.dialects import pimcmd as _pc
from infs.dialects.pimcmd import COMPUTE_ARITY, TiledLattice, tile_grid  # noqa: F401

CommandKind = type[_pc.Command]
ARRAY, TRANSPOSE_IN, RELEASE = _pc.ArrayOp, _pc.TransposeInOp, _pc.ReleaseOp
COMPUTE, SHIFT, BCAST, SYNC, READOUT, WRITEIN = _pc.ComputeOp, _pc.ShiftOp, _pc.BcastOp, _pc.SyncOp, _pc.ReadoutOp, _pc.WriteInOp
MV, BC, REDUCE = _pc.MoveOp, _pc.BroadcastOp, _pc.ReduceOp
NEAR_REDUCE, NEAR_LOAD, NEAR_STORE, RESULT = _pc.NearReduceOp, _pc.NearLoadOp, _pc.NearStoreOp, _pc.ResultOp
COMMANDS = _pc.COMMANDS
