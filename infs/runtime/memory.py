"""The host's memory: how much it can still allocate, and sizes as people read them.

The runtime checks that the host can hold what a run materializes (arrays,
a reference evaluation's points) before it allocates anything, so that a
too-large input is one line naming what needs how much, not a MemoryError or
the kernel's OOM killer (``checked_alloc``, ``reference.check_domain_memory``,
infs-run's arguments).  The standard library and numpy only: the host's
interpreter and the bundle's closure-compiled host share it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np


def phantom_array(shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
    """An array of the given shape that holds no data (every element is one
    cell): what a timing-only run needs of the host's memory."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype=dtype), shape=tuple(int(s) for s in shape), strides=(0,) * len(shape), writeable=True)


def checked_alloc(shape: Sequence[int], dtype: np.dtype, what: str, error: type[Exception]) -> np.ndarray:
    """``np.zeros`` after checking the host has the memory: else ``error`` (the
    caller's one-line error class), not a MemoryError."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(int(s) for s in shape) * dtype.itemsize
    avail = available_memory()
    if avail is not None and nbytes > avail:
        raise error(f"{what} of shape {list(shape)} x {dtype} needs {human_bytes(nbytes)}; this host has {human_bytes(avail)} available")
    try:
        return np.zeros(tuple(shape), dtype=dtype)
    except (MemoryError, ValueError) as e:
        raise error(f"{what} of shape {list(shape)} x {dtype} ({human_bytes(nbytes)}) cannot be allocated: {e}") from None


def available_memory() -> int | None:
    """Bytes this host can still allocate (Linux ``MemAvailable``), or None if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def human_bytes(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if n < 1024 or unit == "PB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"  # unreachable
