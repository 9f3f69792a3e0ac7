"""infs: Infinity Stream on xDSL (compiler, JIT runtime, simulator)."""


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("infs")
    except (ImportError, PackageNotFoundError):  # running from a source tree that is not installed
        return "0+unknown"


__version__ = _version()


def version_text(prog: str) -> str:
    """The ``--version`` line of the infs tools."""
    from importlib.metadata import version

    return f"{prog} (infs {__version__}) built on xdsl {version('xdsl')}"


def __getattr__(name: str):
    # ``infs.kernel`` (Python kernels, issue 14 item 4) loads xDSL: only when used,
    # so that ``import infs`` stays cheap
    if name == "kernel":
        from infs.frontend.python_kernel import kernel

        return kernel
    raise AttributeError(f"module 'infs' has no attribute '{name}'")
