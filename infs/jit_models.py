"""The JIT models' names and rates (``HardwareConfig.jit_model``; CAL'22 §2, ASPLOS §4.2).

How the runtime's lowering of a tDFG into commands is charged: ``per-lowering``
(``jit_us_per_lowering`` per lowering), ``per-command``
(``jit_cycles_per_command`` per command), the named rates of
``JIT_COMMAND_CYCLES`` per command, or ``measured`` (the lowering's own wall
time).  ``infs.hardware`` prices them; the tools list them (``infs-run
--jit-model``) without loading the hardware model, so this table imports
nothing.
"""

from __future__ import annotations


# The named per-command JIT models (``jit_model``), cycles per lowered command.
# gem5 charges the rate once per PUM context, on each command but syncs
# (gem-forge-gem5, branch gem-forge, src/cpu/gem_forge/accelerator/stream/cache/
# pum/MLCPUMManager.cc, MLCPUMManager::configurePUMEngine, lines 3662-3682).
JIT_COMMAND_CYCLES: dict[str, int] = {
    # CAL'22 §2 (cal:139): Inf-S's "lightweight hardware pipeline to lower tDFG (10 cycles/cmd)";
    # gem5's configs/example/gem_forge/run.py:393 --gem-forge-stream-pum-compile-lat-per-cmd default "10"
    "hardware": 10,
    # gem5's src/mem/ruby/slicc_interface/Controller.py:206-207, stream_pum_compile_lat_per_cmd =
    # Param.UInt32(100, ...), the controller's default when run.py does not set it
    "gem5-controller": 100,
    # CAL'22 §2 (cal:137): Inf-S_soft "invokes a runtime library to lower tDFG into bit-serial
    # commands (about 1k cycles per command)"
    "software": 1000,
}
JIT_MODELS = ("per-lowering", "per-command", *JIT_COMMAND_CYCLES, "measured")
JIT_MODEL_SOURCES: dict[str, str] = {
    "hardware": "CAL'22 §2 (cal:139): Inf-S's hardware lowering pipeline, '10 cycles/cmd'; gem5 configs/example/gem_forge/run.py:393, --gem-forge-stream-pum-compile-lat-per-cmd default 10, which configs/ruby/MESI_Three_Level_Stream.py:296-297 passes to every controller",
    "gem5-controller": "gem5 src/mem/ruby/slicc_interface/Controller.py:206-207, stream_pum_compile_lat_per_cmd = Param.UInt32(100, ...): the controller's default when run.py does not override it",
    "software": "CAL'22 §2 (cal:137): Inf-S_soft 'invokes a runtime library to lower tDFG into bit-serial commands (about 1k cycles per command)'",
}
