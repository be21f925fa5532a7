"""The harness's packages follow the data flow: each imports only the packages below it (docs/ARCHITECTURE.md).

Read from the source (every `import`, also inside functions and TYPE_CHECKING blocks), not from a running
interpreter, so an import that only a rare path takes still counts."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

IORACE = Path(__file__).resolve().parents[2] / "iorace"

# Bottom to top. The race decides rounds from the ratios' intervals, so `analyse` sits below `run`.
LAYERS = ["core", "manifest", "store", "analyse", "run", "report", "compare", "export", "cli"]
TOP_LEVEL = {"__init__", "__main__"}  # the package's own entry points: the version and `python -m iorace`
DEEPEST_CHAIN = 7  # packages on the longest import chain (cli -> ... -> core)
# Not the harness's code: the variant kit holds the helpers variant programs build with or import (its Python
# module runs in a variant's process), so it is no layer and imports nothing of iorace.
KIT = "variant_kit"


def package_of(module: str) -> str:
    """'iorace.run.measure' -> 'run'; the top-level modules (iorace, iorace.__main__) are their own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def module_name(path: Path) -> str:
    rel = path.relative_to(IORACE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The iorace modules (or packages) one source file imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("iorace"):
            found.add(node.module)
            found |= {
                f"{node.module}.{a.name}" for a in node.names if (IORACE.parent / node.module.replace(".", "/") / f"{a.name}.py").exists()
            }
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("iorace")}
    return found


@cache
def graph() -> dict[str, set[str]]:
    """package -> the other packages it imports."""
    out: dict[str, set[str]] = {}
    for path in IORACE.rglob("*.py"):
        here = package_of(module_name(path))
        if here == KIT:
            continue
        out.setdefault(here, set())
        out[here] |= {package_of(m) for m in imports_of(path) if m != "iorace"} - {here}
    return out


def wrong_way(edges: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{a} imports {b}"
        for a, targets in edges.items()
        if a not in TOP_LEVEL
        for b in targets
        if b not in TOP_LEVEL and LAYERS.index(b) > LAYERS.index(a)
    )


def longest_chain(edges: dict[str, set[str]]) -> list[str]:
    """The longest path of imports; a cycle counts as endless (it is returned with its first package again)."""

    def walk(p: str, seen: tuple[str, ...]) -> tuple[str, ...]:
        if p in seen:
            return (*seen, p, *(("...",) * len(LAYERS)))  # longer than any allowed chain
        return max((walk(q, (*seen, p)) for q in edges.get(p, ())), key=len, default=(*seen, p))

    return list(max((walk(p, ()) for p in edges), key=len))


def test_every_package_is_a_layer():
    assert set(graph()) - TOP_LEVEL == set(LAYERS), "a new package needs its place in LAYERS (and in docs/ARCHITECTURE.md)"


def test_the_variant_kit_imports_nothing_of_iorace():
    found = {path.name: imports_of(path) for path in (IORACE / KIT).rglob("*.py")}
    assert found and not any(found.values()), found


def test_imports_point_down():
    assert wrong_way(graph()) == []


def test_import_chain_is_short():
    chain = longest_chain({k: v - TOP_LEVEL for k, v in graph().items() if k not in TOP_LEVEL})
    assert len(chain) <= DEEPEST_CHAIN, " -> ".join(chain)


@pytest.mark.parametrize(
    ("edges", "expected"),
    [({"store": {"run"}}, ["store imports run"]), ({"run": {"store", "core"}}, [])],
)
def test_the_check_sees_a_wrong_way_import(edges, expected):
    """The rule itself: an upward import is named, downward ones pass."""
    assert wrong_way(edges) == expected
