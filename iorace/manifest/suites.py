"""Discover suites (the checkout's suites/ plus --suite-dir) and load their Python module."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from iorace.core.errors import UsageError
from iorace.core.paths import REPO_SUITES
from iorace.manifest.schema import SuiteManifest, Toolchain, load_manifest, parse_toolchains, read_toml

TOOLCHAINS_FILE = Path(__file__).resolve().parent / "toolchains.toml"


def _deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


@functools.cache
def base_toolchain_data() -> dict:
    return read_toml(TOOLCHAINS_FILE)


def base_toolchains() -> dict[str, Toolchain]:
    return parse_toolchains(TOOLCHAINS_FILE, base_toolchain_data())


@dataclass
class Suite:
    dir: Path
    manifest: SuiteManifest
    toolchains: dict[str, Toolchain]
    _module: ModuleType | None = field(default=None, repr=False)
    _module_hash: str | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def module_path(self) -> Path:
        return self.dir / self.manifest.module

    def module(self) -> ModuleType:
        """Import suite.py (generate / expected / units) by file path, once."""
        if self._module is None:
            path = self.module_path
            if not path.exists():
                raise UsageError(f"{self.dir / 'suite.toml'}: module: {self.manifest.module} does not exist")
            spec = importlib.util.spec_from_file_location(f"iorace_suite_{self.name}", path)
            if spec is None or spec.loader is None:
                raise UsageError(f"{self.dir / 'suite.toml'}: module: cannot import {path}")
            mod = importlib.util.module_from_spec(spec)
            # registered before it runs, as `import` does: dataclasses (with postponed annotations) and
            # pickle look the module up in sys.modules
            sys.modules[spec.name] = mod
            sys.path.insert(0, str(self.dir))  # let suite.py import its siblings
            try:
                spec.loader.exec_module(mod)
            except BaseException:
                sys.modules.pop(spec.name, None)
                raise
            finally:
                sys.path.remove(str(self.dir))
            for fn in ("generate", "expected"):
                if not callable(getattr(mod, fn, None)):
                    raise UsageError(f"{path}: defines no {fn}() function")
            self._module = mod
        return self._module

    def module_hash(self) -> str:
        """Hash of the code that generate() and expected() may run: every Python file, schema and JSON file
        of the suite (subfolders too: a reference parser may live in python/) and the manifest's data_deps
        (code of another suite), but not suite.toml, so editing a variant does not regenerate data, nor the
        suite's tests/ (nor a data_deps suite's), so editing a test does not either.
        Datasets and expected answers are cached under it. Hashed once per Suite, as the module is imported
        once: a session asks for it per cell (845 in make bench), and walking the suite's folder each time
        cost make bench 45 s."""
        if self._module_hash is None:
            self._module_hash = self._hash_module_files()
        return self._module_hash

    def _hash_module_files(self) -> str:
        h = hashlib.sha256()
        files = [
            p
            for p in self.dir.rglob("*")
            if p.suffix in {".py", ".proto", ".json"}
            and p.is_file()
            and not {"target", "__pycache__", "node_modules"} & set(p.relative_to(self.dir).parts)
            and p.relative_to(self.dir).parts[0] != "tests"
        ]
        for rel in self.manifest.data_deps:
            dep = (self.dir / rel).resolve()
            files += [p for p in dep.rglob("*.py") if p.relative_to(dep).parts[0] != "tests"] if dep.is_dir() else [dep]
        for p in sorted(set(files)):
            h.update(str(p.relative_to(self.dir) if p.is_relative_to(self.dir) else p.name).encode())
            h.update(p.read_bytes())
        return h.hexdigest()[:16]


def load_suite(suite_dir: Path) -> Suite:
    manifest_path = suite_dir / "suite.toml"
    manifest = load_manifest(manifest_path)
    data = base_toolchain_data()
    for name, over in manifest.toolchains.items():
        data = {**data, name: _deep_merge(data.get(name, {}), over)}
    return Suite(dir=suite_dir.resolve(), manifest=manifest, toolchains=parse_toolchains(manifest_path, data))


def suite_roots(extra_dirs: list[Path]) -> list[Path]:
    roots = [REPO_SUITES]
    for d in extra_dirs:
        if not d.is_dir():
            raise UsageError(f"--suite-dir {d}: not a directory")
        roots.append(d)
    return roots


def find_suite_dirs(extra_dirs: list[Path]) -> dict[str, Path]:
    """name -> folder for every folder with a suite.toml; a --suite-dir may itself be a suite."""
    found: dict[str, Path] = {}
    for root in suite_roots(extra_dirs):
        candidates = [root] if (root / "suite.toml").exists() else sorted(root.iterdir()) if root.is_dir() else []
        for d in candidates:
            if (d / "suite.toml").exists():
                found[d.name] = d
    return found


def load_suites(names: list[str], extra_dirs: list[Path]) -> list[Suite]:
    """The named suites (all when none is named), validated. Unknown names are a usage error."""
    dirs = find_suite_dirs(extra_dirs)
    if not names:
        names = sorted(dirs)
    unknown = [n for n in names if n not in dirs]
    if unknown:
        raise UsageError(f"unknown suite {unknown[0]!r} (known: {', '.join(sorted(dirs)) or 'none'})")
    return [load_suite(dirs[n]) for n in names]


def load_each_suite(extra_dirs: list[Path]) -> tuple[list[Suite], dict[str, str]]:
    """Every suite that loads, and each one that does not with its one-line error: a broken manifest is that
    suite's problem, and `list` still shows the others."""
    loaded, broken = [], {}
    for name, folder in sorted(find_suite_dirs(extra_dirs).items()):
        try:
            loaded.append(load_suite(folder))
        except UsageError as e:
            broken[name] = str(e)
    return loaded, broken
