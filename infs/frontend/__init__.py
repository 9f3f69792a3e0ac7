"""Front ends that produce the plain-loop MLIR ``extract-streams`` reads.

``python_kernel``: ``@infs.kernel`` on a Python function of ``for`` loops over
numpy arrays.  Nothing in infs imports this package but
``infs/__init__`` (lazily, for ``infs.kernel``) and the tests.
"""
