"""Bundles: one file per program, data only (docs/bundles.md).

* ``host_form`` -- a module's host functions as plain JSON-able data (the only
  module here that imports xDSL);
* ``host_program`` -- that data checked and compiled into nested Python
  closures over numpy (no xDSL, no passes);
* ``container`` -- the file: magic, format version, infs version, sha256 of
  the payload, named sections.

This package face imports nothing, so that loading a bundle loads no xDSL.
"""
