"""Recording of fuzz outcomes: counts, and every failing case written out to reproduce it.

A case is a *mismatch* (a wrong value: an ``AssertionError`` from a check) or
an *internal error* (any other exception from a check; for the CLI fuzzer, an
exit 70, "internal error", a traceback or a hang).  Each failure gets a
directory ``OUT/<kind>-<check>-<n>/`` holding ``case.txt`` (what ran, the
machine, the error) and whatever files the check wrote (input, command).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path


class Recorder:
    def __init__(self, out: Path | None, label: str):
        self.out = out
        self.label = label
        self.counts: Counter = Counter()  # cases / mismatches / internal errors
        self.outcomes: Counter = Counter()  # per check, what happened
        self.seen: set[str] = set()
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)

    def case(self, check: str, outcome: str = "ok") -> None:
        self.counts["cases"] += 1
        self.outcomes[f"{check}: {outcome}"] += 1

    def failure(self, kind: str, check: str, text: str, files: dict[str, bytes | str] | None = None, key: str | None = None) -> Path | None:
        """Count one failure (kind: 'mismatch' or 'internal') and write it out."""
        assert kind in ("mismatch", "internal")
        self.counts["mismatches" if kind == "mismatch" else "internal errors"] += 1
        sig = hashlib.sha1((key or text).encode()).hexdigest()[:12]
        if self.out is None:
            return None
        d = self.out / f"{kind}-{check}-{self.label}-{sig}"
        d.mkdir(parents=True, exist_ok=True)
        (d / "case.txt").write_text(text)
        for name, data in (files or {}).items():
            p = d / name
            if isinstance(data, bytes):
                p.write_bytes(data)
            else:
                p.write_text(data)
        return d

    def dump(self, path: Path) -> None:
        path.write_text(json.dumps({"counts": dict(self.counts), "outcomes": dict(self.outcomes)}, indent=1, sort_keys=True))

    def finish(self, title: str, stats: Path | None) -> int:
        """Write the counts to ``stats`` (for ``run_fuzz.py``), print the closing line, and
        return the exit status: non-zero when anything failed."""
        if stats:
            self.dump(stats)
        c = self.counts
        print(f"{title}: {c['cases']} cases, {c['mismatches']} mismatches, {c['internal errors']} internal errors")
        return 1 if c["mismatches"] or c["internal errors"] else 0


def fuzz_out() -> Path | None:
    v = os.environ.get("INFS_FUZZ_OUT")
    return Path(v) if v else None
