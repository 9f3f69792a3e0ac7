"""Hardware descriptions, shared by the compiler (layout, lowering) and the simulator.

(Transitional: the definitions live in ``infs.sim.config`` until they move here.)
"""

from infs.sim.config import ConfigError, HardwareConfig, load_config  # noqa: F401
