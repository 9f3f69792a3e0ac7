"""The bundle file: one per program, data only (docs/bundles.md).

Layout (integers little-endian)::

    magic            8 bytes   b"INFSBNDL"
    format version   u16       FORMAT_VERSION
    infs version     u16 n, then n bytes of UTF-8 (the infs that wrote it)
    payload length   u64
    payload sha256   32 bytes
    payload          u64 m, m bytes of UTF-8 JSON (an object: {"sections": {...}}),
                     u32 k, then k blobs, each u64 length + bytes

and nothing after.  The JSON's sections are named (``SECTIONS``); binary data
a section needs is a blob it refers to by number.  Loading checks all of it
-- the magic, the versions, the lengths against the bytes there are, the
checksum, the JSON (no NaN, no duplicate keys, no depth Python cannot parse),
the sections' names and types -- and says what is wrong in one
``BundleError`` line; it reads nothing that is code (no pickle, no marshal,
nothing evaluated) and runs nothing.  ``load_program`` then compiles the host
section (``host_program.compile_host``, which checks every op).

Imports numpy only through ``host_program`` (no xDSL).
"""

from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from infs.runtime.bundle.errors import BundleError

MAGIC = b"INFSBNDL"
FORMAT_VERSION = 2
MAX_BUNDLE_BYTES = 1 << 31  # 2 GiB: more than any program's bundle; a length past it is a damaged header
MAX_VERSION_BYTES = 64
MAX_BLOBS = 1 << 16

SECTIONS: dict[str, str] = {
    "program": "what the bundle is of: {'name': str, 'entry': str | null}",
    "host": "the host functions as data (host_form.host_data); each offloaded op an offload call by kind and index",
    "regions": "the tDFG record of each graph offload, by index (tdfg_records.GraphRecord.to_data; bundle.regions)",
}
"""The named sections of format 2; any other section is an error.  The offloaded parts
run through the executors the caller gives ``HostProgram.run`` (``bundle.executor``
runs the graphs of the regions section)."""

_SECTION_TYPES = {"program": dict, "host": dict, "regions": dict}
_HEAD = struct.Struct("<8sHH")
_TAIL = struct.Struct("<Q32s")


_version: list[str] = []  # (read once per process)


def infs_version() -> str:
    """The installed infs's version (as ``infs.version_text`` reads it; no import of ``infs``'s face)."""
    if not _version:
        _version.append(_dist_info_version() or _metadata_version())
    return _version[0]


def _dist_info_version() -> str | None:
    """The ``Version:`` of the first ``infs-*.dist-info/METADATA`` on ``sys.path``, the
    distribution ``importlib.metadata`` finds first, read without importing it (it imports
    email, zipfile and csv: 30-70 ms of every bundle's start); None when there is none
    (an egg, a zip), and ``importlib.metadata`` answers."""
    import os
    import sys

    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and name.partition("-")[0].lower() == "infs":
                try:
                    with open(os.path.join(entry or ".", name, "METADATA"), encoding="utf-8") as f:
                        for line in f:
                            if line.startswith("Version:"):
                                return line.partition(":")[2].strip()
                            if not line.strip():
                                break  # (the headers end at the first empty line)
                except OSError:
                    pass
                return None
    return None


def _metadata_version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("infs")
    except (ImportError, PackageNotFoundError):
        return "0+unknown"


@dataclass
class Bundle:
    sections: dict[str, Any]
    blobs: list[bytes] = field(default_factory=list)
    infs_version: str = ""
    format_version: int = FORMAT_VERSION


def dumps(sections: dict[str, Any], blobs: list[bytes] | tuple[bytes, ...] = (), version: str | None = None) -> bytes:
    """The bundle's bytes (sections checked as the loader checks them)."""
    _check_sections(sections, "bundle")
    try:
        doc = json.dumps({"sections": sections}, allow_nan=False, separators=(",", ":"), sort_keys=True).encode()
    except (TypeError, ValueError) as e:
        raise BundleError(f"bundle: a section is not JSON data ({e})") from None
    parts = [struct.pack("<Q", len(doc)), doc, struct.pack("<I", len(blobs))]
    for b in blobs:
        parts += [struct.pack("<Q", len(b)), bytes(b)]
    payload = b"".join(parts)
    ver = (infs_version() if version is None else version).encode()
    if len(ver) > MAX_VERSION_BYTES:
        raise BundleError(f"bundle: infs version {ver[:20]!r}... is longer than {MAX_VERSION_BYTES} bytes")
    return _HEAD.pack(MAGIC, FORMAT_VERSION, len(ver)) + ver + _TAIL.pack(len(payload), hashlib.sha256(payload).digest()) + payload


def write(path: str | Path, sections: dict[str, Any], blobs: list[bytes] | tuple[bytes, ...] = ()) -> None:
    data = dumps(sections, blobs)
    try:
        Path(path).write_bytes(data)
    except OSError as e:
        raise BundleError(f"{path}: cannot write the bundle: {e.strerror or e}") from None


def read(path: str | Path, any_infs: bool = False) -> Bundle:
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BUNDLE_BYTES + 1)
    except OSError as e:
        raise BundleError(f"{path}: cannot read the bundle: {e.strerror or e}") from None
    return loads(data, str(path), any_infs)


def loads(data: bytes, source: str = "bundle", any_infs: bool = False) -> Bundle:
    """A bundle's sections and blobs from its bytes, every field checked.
    ``any_infs``: accept a bundle another infs version wrote (its format is ours)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise BundleError(f"{source}: a bundle is bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) > MAX_BUNDLE_BYTES:
        raise BundleError(f"{source}: more than {MAX_BUNDLE_BYTES} bytes: not a bundle this infs writes")
    if len(data) < len(MAGIC) or data[: len(MAGIC)] != MAGIC:
        raise BundleError(f"{source}: not an infs bundle (no {MAGIC.decode()} magic at its start)")
    if len(data) < _HEAD.size:
        raise BundleError(f"{source}: truncated in its header ({len(data)} bytes)")
    _, fmt, nver = _HEAD.unpack_from(data)
    if fmt != FORMAT_VERSION:
        raise BundleError(f"{source}: bundle format {fmt}; this infs reads format {FORMAT_VERSION} (recompile the program)")
    if nver > MAX_VERSION_BYTES:
        raise BundleError(f"{source}: damaged header (an infs version of {nver} bytes)")
    pos = _HEAD.size
    if len(data) < pos + nver + _TAIL.size:
        raise BundleError(f"{source}: truncated in its header ({len(data)} bytes)")
    try:
        ver = data[pos : pos + nver].decode("utf-8")
    except UnicodeDecodeError:
        raise BundleError(f"{source}: damaged header (its infs version is not text)") from None
    pos += nver
    n, digest = _TAIL.unpack_from(data, pos)
    pos += _TAIL.size
    have = len(data) - pos
    if n > have:
        raise BundleError(f"{source}: truncated: its payload is {n} bytes, {have} are there")
    if n < have:
        raise BundleError(f"{source}: {have - n} bytes after its payload (not one bundle)")
    payload = data[pos:]
    if hashlib.sha256(payload).digest() != digest:
        raise BundleError(f"{source}: checksum mismatch: the payload was changed or damaged")
    if not any_infs and ver != infs_version():
        raise BundleError(f"{source}: written by infs {ver}, this is infs {infs_version()} (recompile the program)")
    sections, blobs = _payload(payload, source)
    return Bundle(sections, blobs, ver, fmt)


def _payload(p: bytes, source: str) -> tuple[dict[str, Any], list[bytes]]:
    def take(n: int, what: str) -> bytes:
        nonlocal pos
        if pos + n > len(p):
            raise BundleError(f"{source}: damaged payload ({what} runs past its end)")
        out = p[pos : pos + n]
        pos += n
        return out

    pos = 0
    (m,) = struct.unpack("<Q", take(8, "the JSON's length"))
    doc = take(m, "the JSON")
    (k,) = struct.unpack("<I", take(4, "the blob count"))
    if k > MAX_BLOBS:
        raise BundleError(f"{source}: damaged payload ({k} blobs, more than {MAX_BLOBS})")
    blobs = []
    for i in range(k):
        (b,) = struct.unpack("<Q", take(8, f"blob #{i}'s length"))
        blobs.append(take(b, f"blob #{i}"))
    if pos != len(p):
        raise BundleError(f"{source}: damaged payload ({len(p) - pos} bytes after its last blob)")
    value = _json(doc, source)
    if not isinstance(value, dict) or set(value) != {"sections"}:
        raise BundleError(f"{source}: its JSON is not an object with one field 'sections'")
    _check_sections(value["sections"], source)
    return value["sections"], blobs


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON data here")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"key {k[:40]!r} twice in one object")
        out[k] = v
    return out


def _json(doc: bytes, source: str) -> Any:
    try:
        text = doc.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BundleError(f"{source}: its JSON is not UTF-8 (byte {e.start})") from None
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique)
    except RecursionError:
        raise BundleError(f"{source}: its JSON nests too deep") from None
    except ValueError as e:  # json.JSONDecodeError, an int of too many digits, NaN, a duplicate key
        raise BundleError(f"{source}: malformed JSON: {str(e).splitlines()[0][:120]}") from None


def _check_sections(sections: Any, source: str) -> None:
    if not isinstance(sections, dict):
        raise BundleError(f"{source}: its sections are not an object")
    for name, value in sections.items():
        if name not in SECTIONS:
            raise BundleError(f"{source}: unknown section {name[:40]!r} (format {FORMAT_VERSION} has {', '.join(SECTIONS)})")
        if not isinstance(value, _SECTION_TYPES[name]):
            raise BundleError(f"{source}: section '{name}' is {type(value).__name__}, not {_SECTION_TYPES[name].__name__}")
    if "host" not in sections:
        raise BundleError(f"{source}: no 'host' section")
    prog = sections.get("program", {})
    for key, value in prog.items():
        if key not in ("name", "entry") or not (value is None or isinstance(value, str)):
            raise BundleError(f"{source}: section 'program' field {key[:40]!r} is not a name")


def load_program(path: str | Path, any_infs: bool = False):
    """The bundle at ``path`` and its host program compiled to closures."""
    from infs.runtime.bundle.host_program import compile_host

    b = read(path, any_infs)
    try:
        return b, compile_host(b.sections["host"])
    except BundleError as e:
        raise BundleError(f"{path}: {e}") from None
    except RecursionError:
        raise BundleError(f"{path}: its host section nests too deep") from None
