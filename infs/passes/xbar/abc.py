"""ABC as a subprocess: the technology-independent half of STREAM's synthesis (§IV-A, §V-A).

Takes a ``Netlist``; gives the ``Netlist`` ABC returns (read back with the BLIF
reader).  The binary is Debian's ``berkeley-abc`` package (the ABC of
Brayton and Mishchenko the paper names [46]); ``AbcMissing`` says so when it
is absent.  ``resyn2`` is spelled out: it is an alias of ABC's ``abc.rc``,
which the package does not load.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from infs.dialects.netlist_records import Gate, Netlist, parse_blif, write_blif

ABC_BINARY = "berkeley-abc"  # the Debian package's binary (and the package's name)
ABC_PACKAGE = "berkeley-abc"
# ABC's resyn2 script (abc.rc): AIG rewriting, refactoring and balancing
RESYN2 = "balance; rewrite; refactor; balance; rewrite; rewrite -z; balance; refactor -z; rewrite -z; balance"

# STREAM-O's cell library (§IV-A): INV and OR gates of up to five inputs (the
# initial netlist "consists of gates with at most 5 inputs", §IV-B), every
# cell of cost 1 "which encourages the use of larger OR-gates"; pin delays 1.
OR_INV_GENLIB = "\n".join(
    [
        "GATE ZERO 1 O=CONST0;",
        "GATE ONE 1 O=CONST1;",
        "GATE BUF 1 O=a; PIN * NONINV 1 999 1 0 1 0",
        "GATE INV 1 O=!a; PIN * INV 1 999 1 0 1 0",
        "GATE OR2 1 O=a+b; PIN * NONINV 1 999 1 0 1 0",
        "GATE OR3 1 O=a+b+c; PIN * NONINV 1 999 1 0 1 0",
        "GATE OR4 1 O=a+b+c+d; PIN * NONINV 1 999 1 0 1 0",
        "GATE OR5 1 O=a+b+c+d+e; PIN * NONINV 1 999 1 0 1 0",
    ]
) + "\n"


class AbcMissing(RuntimeError):
    """The ``berkeley-abc`` binary is not installed."""


class AbcFailed(RuntimeError):
    """ABC ran but gave no netlist (its message, one line)."""


def abc_available() -> bool:
    return shutil.which(ABC_BINARY) is not None


def run_abc(netlist: Netlist, script: str, outputs: int = 1) -> list[Netlist]:
    """Run ``script`` on ``netlist``: ``{in}`` is the input BLIF, ``{lib}`` the OR/INV library,
    ``{out0}``, ``{out1}``, ... the BLIF files read back (``outputs`` of them).  The netlists
    returned list, as their outputs, the signals of ``netlist``'s outputs in order."""
    exe = shutil.which(ABC_BINARY)
    if exe is None:
        raise AbcMissing(f"ABC is not installed: install the Debian package '{ABC_PACKAGE}' (apt-get install {ABC_PACKAGE})")
    if not netlist.outputs:  # nothing to compute (ABC writes no file for it)
        return [Netlist(netlist.name, netlist.inputs, (), ()) for _ in range(outputs)]
    # an output that is a primary input of the same name is a BLIF ABC refuses: a buffer gets a new name,
    # and the netlists returned name their outputs' signals (``outputs``) with the new names
    taken = set(netlist.inputs) | {g.name for g in netlist.gates}
    renamed = []
    extra = []
    for o in netlist.outputs:
        if o in netlist.inputs:
            new = o + "__po"
            while new in taken:
                new += "_"
            taken.add(new)
            extra.append(Gate(new, "buf", (o,)))
            renamed.append(new)
        else:
            renamed.append(o)
    if extra:
        netlist = Netlist(netlist.name, netlist.inputs, tuple(renamed), netlist.gates + tuple(extra))
    with tempfile.TemporaryDirectory(prefix="infs-abc-") as tmp:
        src = os.path.join(tmp, "in.blif")
        lib = os.path.join(tmp, "or_inv.genlib")
        with open(src, "w") as f:
            f.write(write_blif(netlist))
        with open(lib, "w") as f:
            f.write(OR_INV_GENLIB)
        outs = {f"out{k}": os.path.join(tmp, f"out{k}.blif") for k in range(outputs)}
        text = script.format(**{"in": src, "lib": lib}, **outs)
        proc = subprocess.run([exe, "-q", text], capture_output=True, text=True, timeout=600, cwd=tmp)
        results = []
        for k in range(outputs):
            path = outs[f"out{k}"]
            if not os.path.exists(path):
                msg = " ".join((proc.stdout + proc.stderr).split())[:300]
                raise AbcFailed(f"ABC wrote no netlist for '{netlist.name}' ({msg or 'no message'})")
            with open(path) as f:
                got = parse_blif(f.read(), f"ABC output for {netlist.name}")
            if set(got.inputs) - set(netlist.inputs) or set(got.outputs) != set(netlist.outputs):
                raise AbcFailed(f"ABC changed the ports of '{netlist.name}'")
            results.append(Netlist(netlist.name, netlist.inputs, netlist.outputs, got.gates))
        return results
