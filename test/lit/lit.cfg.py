# lit configuration for the infs FileCheck tests.
import os
import sys

import lit.formats

config.name = "infs"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "Inputs"]

# Tools from the interpreter's venv (infs-opt, filecheck), without activating it.
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("FileCheck", "filecheck"))
config.substitutions.append(("%infs-opt", "infs-opt"))
# Round trip: custom form -> generic form -> parse again -> custom form.
config.substitutions.append(("%roundtrip", "infs-opt %s --print-op-generic | infs-opt"))
# The crossbar target's synthesis runs ABC (Debian's berkeley-abc): its tests say REQUIRES: berkeley-abc.
import shutil  # noqa: E402

if shutil.which("berkeley-abc"):
    config.available_features.add("berkeley-abc")
