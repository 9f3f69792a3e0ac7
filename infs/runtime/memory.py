"""The host's memory: how much it can still allocate, and sizes as people read them.

The runtime checks that the host can hold what a run materializes (arrays,
a reference evaluation's points) before it allocates anything, so that a
too-large input is one line naming what needs how much, not a MemoryError or
the kernel's OOM killer (``host.checked_alloc``, ``reference.check_domain_memory``,
infs-run's arguments).  Standard library only.
"""

from __future__ import annotations

import os


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
