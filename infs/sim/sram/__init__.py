"""The SRAM target's machine: bit-serial arrays in the L3 banks running ``pimcmd`` records.

``machine`` executes programs (functional and analysis), ``bitlevel``/``bit_kernels`` run
compute commands on bit-planes, ``timing`` prices each command, ``geometry`` is the tiled
layout the machine and its cost model share.
"""
