"""infs: Infinity Stream on xDSL (compiler, JIT runtime, simulator)."""


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("infs")
    except (ImportError, PackageNotFoundError):  # running from a source tree that is not installed
        return "0+unknown"


def version_text(prog: str) -> str:
    """The ``--version`` line of the infs tools."""
    from importlib.metadata import version

    return f"{prog} (infs {_version()}) built on xdsl {version('xdsl')}"


def __getattr__(name: str):
    # Loaded on first use, so that ``import infs`` stays cheap (start-up time):
    # ``infs.kernel`` (Python kernels) loads xDSL; ``__version__``
    # reads the installed metadata (importlib.metadata imports email, zipfile... 30-70 ms).
    if name == "kernel":
        from infs.frontend.python_kernel import kernel

        return kernel
    if name == "__version__":
        globals()["__version__"] = v = _version()
        return v
    raise AttributeError(f"module 'infs' has no attribute '{name}'")
