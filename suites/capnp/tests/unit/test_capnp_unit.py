"""capnp suite, its Python reference (suite.py): upstream's random generator, C integer semantics, the
checksums every implementation agrees on, iteration files. The cells themselves: ../test_capnp.py (slow)."""

from __future__ import annotations

import pytest
from suite_code import suite_module

suite = suite_module("capnp")


# --- the reference -------------------------------------------------------------------------------------


def test_xorshift_first_draws():
    # the first outputs of upstream's generator with its seeds (printed by the C++ FastRand of cpp/common.hpp)
    rng = suite.FastRand()
    assert [rng.next() for _ in range(5)] == [1087165779, 1241479616, 2749882543, 2468124387, 3042750366]
    rng = suite.FastRand()
    rng.skip(3)
    assert rng.next() == 2468124387


def test_c_integer_semantics():
    assert suite._div(-7, 2) == -3 and suite._mod(-7, 2) == -1
    assert suite._div(7, -2) == -3 and suite._mod(7, -2) == 1
    assert suite._div(5, 0) == suite.INT32_MAX and suite._mod(5, 0) == suite.INT32_MAX
    assert suite._div(suite.INT32_MIN, -1) == suite.INT32_MAX and suite._mod(suite.INT32_MIN, -1) == suite.INT32_MAX
    assert suite._wrap32(suite.INT32_MAX + 1) == suite.INT32_MIN


def test_reference_checksums_match_the_implementations():
    # agreed by cpp/capnp, cpp/protobuf, cpp/null, rust/capnp and rust/prost in every config (tiny counts)
    assert suite.checksum("carsales", 40) == 3500896671
    assert suite.checksum("catrank", 8) == 2164663605909  # the leading results' bytes only (as the seed's benchmark sums them)
    assert suite.checksum("eval", 400) == 98808266745
    assert suite.checksum("eval", 0) == 0


def test_catrank_checksum_parts():
    rng = suite.FastRand()
    good, text = suite.catrank_request(rng)
    assert 0 <= good < 1000 and text > 0
    assert suite.checksum("catrank", 1) == (good << 32) + text


def test_iterations_files(tmp_path):
    p = tmp_path / "iters.txt"
    suite.generate("tiny", p)
    assert suite.read_counts(p) == suite.DATASETS["tiny"]
    assert suite.expected(p, {"case": "eval", "config": "pipe"}) == {"iterations": 400, "checksum": suite.checksum("eval", 400)}
    assert suite.units(p, {"case": "catrank", "config": "bytes"}) == {"messages": 8}
    # scale (what --target-ms sizes) is a percentage of the count, rounded up; divide then divides it
    assert suite.units(p, {"case": "eval", "config": "bytes", "scale": 25}) == {"messages": 100}
    assert suite.units(p, {"case": "catrank", "config": "bytes", "scale": 30}) == {"messages": 3}  # 2.4 up
    assert suite.units(p, {"case": "eval", "config": "bytes", "scale": 250, "divide": 3}) == {"messages": 334}
    with pytest.raises(ValueError, match="scale must be"):
        suite.units(p, {"case": "eval", "config": "bytes", "scale": 0})
    for bad in ["carsales ten\n", "carsales 1 2\n", "dogs 3\n", "eval 1\neval 2\n"]:
        p.write_text(bad)
        with pytest.raises(ValueError):
            suite.read_counts(p)
    p.write_text("# only eval\neval 5\n")
    with pytest.raises(ValueError, match="no iteration count for carsales"):
        suite.expected(p, {"case": "carsales", "config": "object"})
