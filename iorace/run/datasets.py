"""Generate datasets once into the cache (deterministic bytes), or take the user's own file."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from iorace.core.errors import UsageError
from iorace.core.paths import cache_dir
from iorace.manifest.cells import DatasetRef
from iorace.manifest.suites import Suite


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 22):
            h.update(block)
    return h.hexdigest()


def check_user_file(path: Path) -> Path:
    """A --input file must exist, be a regular file and be readable: else one clear line, exit 2."""
    if not path.exists():
        raise UsageError(f"--input {path}: no such file")
    if not path.is_file():
        raise UsageError(f"--input {path}: not a regular file")
    if not os.access(path, os.R_OK):
        raise UsageError(f"--input {path}: not readable (permission denied)")
    return path.resolve()


def materialize(suite: Suite, ds: DatasetRef) -> None:
    """Fill ds.path and ds.sha256, generating the dataset if it is not cached yet."""
    if ds.user_path is not None:
        ds.path = check_user_file(ds.user_path)
        ds.sha256 = sha256_file(ds.path)
        return
    folder = cache_dir() / "data" / suite.name / suite.module_hash()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ds.name.replace(":", "-")
    digest_file = path.with_name(path.name + ".sha256")
    if not (path.exists() and digest_file.exists()):
        tmp = path.with_name(path.name + f".tmp{os.getpid()}")
        try:
            suite.module().generate(ds.name, tmp)
        except Exception as e:  # a generator bug is the suite's fault: say which suite and dataset
            tmp.unlink(missing_ok=True)
            raise UsageError(f"suite {suite.name}: generating dataset {ds.name} failed: {type(e).__name__}: {e}") from None
        digest_file.write_text(sha256_file(tmp))
        tmp.rename(path)
    ds.path = path
    ds.sha256 = digest_file.read_text().strip()
