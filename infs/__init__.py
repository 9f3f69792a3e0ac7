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
