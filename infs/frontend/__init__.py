"""Front ends that produce the plain-loop MLIR ``extract-streams`` reads.

``python_kernel``: ``@infs.kernel`` on a Python function of ``for`` loops over
numpy arrays (the decorator); ``kernel_codegen`` emits one specialization's
affine MLIR, ``kernel_types`` gives the value kinds (numpy 2's promotion),
``kernel_syntax`` what it reads of Python's ``ast``, ``kernel_ranges`` the
per-call checks of Python ints narrowed to array element types.  Nothing in
infs imports this package but ``infs/__init__`` (lazily, for ``infs.kernel``)
and the tests.
"""
