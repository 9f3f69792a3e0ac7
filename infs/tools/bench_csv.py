"""``infs-bench``'s CSV files: floats in full, read back as the numbers they were.
Shared by the suite (``infs_bench``) and its studies (``bench_pointnet``)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any


def write_csv(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    with path.open("w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=keys)
        wr.writeheader()
        for r in rows:
            # floats in full (the shortest text that reads back as the same number): six
            # significant digits made a row's energy and paper-size traffic differ from
            # infs-run --json's figures for the same run
            wr.writerow({k: (repr(float(v)) if isinstance(v, float) else v) for k, v in r.items()})


def csv_value(v: str) -> Any:
    """A CSV cell as what it was written from: a bool, an int, a float or text."""
    if v in ("True", "False"):
        return v == "True"
    for t in (int, float):
        try:
            return t(v)
        except ValueError:
            pass
    return v


def read_csv(path: Path) -> list[dict]:
    """Rows of a bench CSV, numbers as numbers."""
    with path.open() as f:
        return [{k: csv_value(v) for k, v in r.items() if v != ""} for r in csv.DictReader(f)]
