"""Front ends that produce the plain-loop MLIR ``extract-streams`` reads.

``python_kernel``: ``@infs.kernel`` on a Python function of ``for`` loops over
numpy arrays (issue 14, item 4).  Nothing in infs imports this package but
``infs/__init__`` (lazily, for ``infs.kernel``) and the tests.
"""
