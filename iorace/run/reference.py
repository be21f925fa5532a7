"""Expected answers (and work units) from the suite's Python module, cached per dataset checksum and parameters."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from iorace.core.errors import UsageError
from iorace.core.paths import cache_dir
from iorace.manifest.cells import DatasetRef
from iorace.manifest.suites import Suite


def _cached(what: str, suite: Suite, ds: DatasetRef, params: dict, compute: Callable[[], object]) -> object:
    key = hashlib.sha256(json.dumps([what, suite.module_hash(), ds.sha256, params], sort_keys=True).encode())
    path = cache_dir() / "reference" / suite.name / f"{key.hexdigest()[:32]}.json"
    if path.exists():
        return json.loads(path.read_text())["value"]
    value = json.loads(json.dumps(compute()))  # JSON normal form, the same as a cached value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"value": value}))
    return value


def expected(suite: Suite, ds: DatasetRef, params: dict) -> object:
    def compute() -> object:
        try:
            return suite.module().expected(ds.path, dict(params))
        except Exception as e:  # corrupt or unsupported input: the reference says why
            raise UsageError(f"{ds.name}: the {suite.name} reference cannot compute an answer: {e}") from None

    return _cached("expected", suite, ds, params, compute)


def units(suite: Suite, ds: DatasetRef, params: dict) -> dict[str, int]:
    """Work done by one run ({"bytes": ...}), for throughput columns; {} when the suite does not say."""
    fn = getattr(suite.module(), "units", None)
    if not callable(fn):
        return {}
    return _cached("units", suite, ds, params, lambda: dict(fn(ds.path, dict(params))))  # type: ignore[return-value]


def same_answer(answer: object, expected_value: object) -> bool:
    """Answers compare in JSON normal form: 10 == 10 but 10 != "10"; key order does not matter."""
    return json.dumps(answer, sort_keys=True) == json.dumps(expected_value, sort_keys=True)
