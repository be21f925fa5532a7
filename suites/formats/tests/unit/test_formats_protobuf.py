"""formats: the committed protobuf code is what its generator writes from proto/catalogue.proto today (Python's,
by Debian's protoc 3.21; proto/regen.sh regenerates it and Go's), so a schema change cannot leave it behind."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[2]


def test_committed_python_code_is_protocs(tmp_path: Path) -> None:
    protoc = shutil.which("protoc")
    if protoc is None:
        pytest.skip("protoc not installed (scripts/setup: protobuf-compiler)")
    version = subprocess.run([protoc, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    if not version.startswith("libprotoc 3.21."):
        pytest.skip(f"{version}: the committed code is Debian 12's protoc 3.21's (proto/regen.sh)")
    subprocess.run([protoc, f"-I{SUITE / 'proto'}", f"--python_out={tmp_path}", str(SUITE / "proto" / "catalogue.proto")], check=True)
    committed = (SUITE / "python" / "catalogue_pb2.py").read_bytes()
    assert (tmp_path / "catalogue_pb2.py").read_bytes() == committed, "python/catalogue_pb2.py is stale: run proto/regen.sh"
