"""Hardware configurations and cost profiles (re-exported from ``infs.hardware`` and its modules,
where they live because the compiler needs them too)."""

from infs.hardware import *  # noqa: F403
from infs.hardware import BUILTIN, PIMEVAL_STEPS, PROFILES, ConfigError, CostProfile, HardwareConfig, get_profile, load_config  # noqa: F401
