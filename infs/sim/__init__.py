"""The simulated machine that runs ``pimcmd`` programs (ASPLOS §4-§5).

``Machine(config)`` holds every wordline register of every SRAM array as numpy
vectors and executes programs functionally (word-level or bit-level) or in
analysis mode; ``machine.stats`` has cycles, traffic and energy broken down as
the paper's Fig. 12-14.  ``load_config`` gives the hardware configurations.
"""

from infs.sim.config import BUILTIN, PROFILES, ConfigError, CostProfile, HardwareConfig, load_config
from infs.sim.sram.machine import Machine, SimError
from infs.sim.stats import Stats

__all__ = [
    "BUILTIN",
    "PROFILES",
    "ConfigError",
    "CostProfile",
    "HardwareConfig",
    "Machine",
    "SimError",
    "Stats",
    "load_config",
]
