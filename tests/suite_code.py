"""Suites' own Python code, loaded by file path, for the suites' tests of both tiers: the fast ones in
suites/<suite>/tests/unit/ and the slow ones in suites/<suite>/tests/ (tests/ is on sys.path through the
root conftest.py, for every test folder)."""

from __future__ import annotations

import functools
import importlib.util
import os
import struct
import sys
from types import ModuleType

from conftest import REPO


@functools.cache
def suite_module(name: str) -> ModuleType:
    """suites/NAME/suite.py (its generate, expected, units and the reference's helpers), imported once."""
    spec = importlib.util.spec_from_file_location(f"test_{name}_suite", REPO / "suites" / name / "suite.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def rdbfuzz() -> ModuleType:
    """suites/rdb/fuzz/rdbfuzz.py, the differential fuzz driver (its builds go to IORACE_CACHE, by default
    the checkout's .cache)."""
    os.environ.setdefault("IORACE_CACHE", str(REPO / ".cache"))
    spec = importlib.util.spec_from_file_location("rdbfuzz", REPO / "suites" / "rdb" / "fuzz" / "rdbfuzz.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def serialize_bad_inputs(good: bytes) -> dict[str, bytes]:
    """name -> bytes of a file every serialize decoder (and the reference) must reject with one line;
    good: the tiny dataset's bytes."""
    ref = suite_module("serialize")
    first = len(ref.encode(ref.make_record(0)))
    corrupt_bool = bytearray(good)
    corrupt_bool[first + 15] = 2  # record 1's bool byte
    long_name = bytearray(good[: first * 2])
    long_name[first + 36 : first + 38] = struct.pack(">H", 60)  # record 1's name runs past the end
    return {
        "empty": b"",
        "truncated-header": good[: first + 20],
        "truncated-name": good[: len(good) - 3],
        "corrupt-bool": bytes(corrupt_bool),
        "name-past-end": bytes(long_name),
    }
