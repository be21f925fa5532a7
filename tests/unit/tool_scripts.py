"""tools/*.py are scripts, not a package: the unit tier loads one as a module to test its functions."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load_tool(name: str) -> types.ModuleType:
    """tools/NAME.py, executed as a module of that name."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
