"""The cores: the Base configuration's cost model of a region run by the out-of-order cores
(``baseline``: ASPLOS §2.2, §7, Table 2).
"""
