"""Red-team regressions of the simulator's bit-level mode (``infs/sim/bitlevel.py``,
``infs/sim/bit_kernels.py``, ``Machine._exec_compute``'s bit-level branch).

Each test failed before its fix; the module docstring of a test says what was wrong."""

from __future__ import annotations

import threading

import numpy as np

from infs.sim.bitlevel import BitSerial


def test_bit_serial_commands_on_several_threads_give_each_its_own_words():
    """The plane buffers kept between commands (``bitlevel.scratch``) were one set
    per process, and the kernels release the GIL: two threads running bit-level
    commands (two machines, e.g. ``api.run`` from a thread pool) wrote each
    other's operand planes, a silent wrong answer on every bitline.  Buffers
    are per thread now."""
    n = 1 << 16
    rng = np.random.default_rng(0)
    data = [(rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32), rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)) for _ in range(4)]
    want = [a * b for a, b in data]
    BitSerial(64).run("mul", "i32", [data[0][0][:64], data[0][1][:64]])  # compile the kernels first
    wrong: list[tuple[int, int]] = []
    start = threading.Barrier(len(data))

    def work(i: int) -> None:
        start.wait()
        for _ in range(6):
            got = BitSerial(n).run("mul", "i32", list(data[i]))
            if not np.array_equal(got, want[i]):
                wrong.append((i, int(np.count_nonzero(got != want[i]))))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(data))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong, f"(thread, wrong words): {wrong}"
