"""The SRAM target's lowering: a tDFG to ``pimcmd`` commands for bit-serial in-L3 arrays (ASPLOS §4).

``lower_pim.py`` is the ``lower-pim`` pass and the JIT's one lowering (``lower_graph``):
``choose-layout`` (``layout``, ``choose_layout``), ``tdfg-to-pimcmd``, then the record steps on
``PimProgram`` records (``pim_program``): ``decompose``, ``expand-mv-bc``, ``lower-shift``,
``lower-compute``, ``lower-reduce``, ``map-banks``, ``insert-sync``, ``allocate-wordlines``
(``tile_patterns`` holds their shared bitline patterns).
"""
