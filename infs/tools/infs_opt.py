"""``infs-opt``: the infs optimizer driver (an ``xDSLOptMain``, ``infs.tools.opt_driver``).

Accepts xDSL pipelines (``-p 'a{x=1 y=2},b'``) and MLIR's conventions: pass
flags (``--tensorize --lower-pim='sizes=N=64 config=tiny'``), full pipelines
(``--pass-pipeline='builtin.module(tensorize,func.func(cse))'``),
``--mlir-print-ir-{before,after}[-all]``, ``--mlir-timing`` and
``--verify-diagnostics`` with ``// expected-error`` annotations.  Every error
is one line with file:line:col where known, and a non-zero exit; no
tracebacks.

The driver is xDSL's, so it is loaded for every run and for ``--help`` (which
lists every pass with its options, read from the pass classes); ``--version``
alone is answered without it (start-up: no xDSL, no numpy).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from infs import version_text


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        print(version_text("infs-opt"))
        return 0
    from infs.tools import opt_driver

    return opt_driver.main(args)


if __name__ == "__main__":
    raise SystemExit(main())
