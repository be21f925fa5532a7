"""Shared fixtures: run the real `iorace` CLI in a subprocess, as a user would; and the rule of the two tiers.

The tests: the harness's in tests/, each suite's in suites/<suite>/tests/ (pyproject.toml's testpaths); in
each, unit/ holds the fast tier and everything else is the slow tier (see pytest_collection_modifyitems).
This conftest sits at the repository's root so that it serves both.

No test folder is a package (no __init__.py): pytest's default import mode (prepend) puts the folder of this
conftest and of each test module on sys.path, and this conftest puts tests/ and tests/unit/ there too, so
helpers import by name from any test folder (`conftest`; `suite_code`, `pgserver` from tests/; `sessions`,
`fakes`, `consumers` from tests/unit/), and a test file's name must be unique across every test folder
(hence suites/capnp/tests/unit/test_capnp_unit.py beside suites/capnp/tests/test_capnp.py). Keep this the
only conftest.py: pytest imports each one as the module `conftest`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent
TESTS = REPO / "tests"
TEST_SUITES = TESTS / "suites"
UNIT = TESTS / "unit"
# Helpers of tests/ for every test folder; and tests/test_pgstore.py runs the fast tier's store tests again
# on PostgreSQL: it imports them by name, as pytest does when it collects tests/unit/.
sys.path[:0] = [str(UNIT), str(TESTS)]
if os.environ.get("PYTEST_XDIST_WORKER"):
    # an xdist worker starts with COLUMNS=80 and LINES=24 set: the width the CLI would then print at (its default
    # off a terminal is 260 columns, which the tests' expected lines assume), in a subprocess or in-process
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)


def tier_of(path: Path) -> str | None:
    """A test file's tier, by its folder: "fast" in tests/unit/ or suites/<suite>/tests/unit/, "slow" anywhere
    else in tests/ or suites/<suite>/tests/, None outside the test folders."""
    parts = path.relative_to(REPO).parts if path.is_relative_to(REPO) else ()
    if parts[:1] == ("tests",):
        inside = parts[1:]
    elif parts[:1] == ("suites",) and parts[2:3] == ("tests",):
        inside = parts[3:]
    else:
        return None
    return "fast" if len(inside) > 1 and inside[0] == "unit" else "slow"


@pytest.hookimpl(tryfirst=True)  # before -m deselects anything: every collected test has its tier's mark
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The two tiers, by folder: a test folder's unit/ (tests/unit/, suites/<suite>/tests/unit/) is the fast
    one (`make test-quick`, `pytest -m "not slow"`: no toolchain builds, seconds), and every other test in
    tests/ or suites/<suite>/tests/ is marked slow here (no line in its file says so). A test marked slow
    inside a unit/ folder stops the run before anything runs: move it out of unit/."""
    wrong = []
    for item in items:
        tier = tier_of(item.path.resolve())
        if tier == "slow":
            item.add_marker(pytest.mark.slow)
        elif tier == "fast" and item.get_closest_marker("slow") is not None:
            wrong.append(f"{item.nodeid}: marked slow inside a unit/ folder, the fast tier (move it out of unit/)")
    if wrong:
        raise pytest.UsageError("tests on the wrong side of the fast/slow line:\n  " + "\n  ".join(wrong))
    if os.environ.get("PYTEST_XDIST_WORKER"):  # a worker of `make test`: the slow tier first (see below)
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable; the same in every worker


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """In several workers (`make test`: pytest-xdist, -n auto --dist loadfile), loadfile's rule for the slow
    tier, test by test for the fast one: a slow file's tests go to one worker, after one another, so that its
    module-scoped fixtures (a whole session that the file's tests read) run once, and what its tests share on
    disk (the rdb fuzz driver's folder, the build cache a test looks into) is not raced by its neighbours;
    the fast tier's tests go one by one to whichever worker is free, so that they fill the end and the
    workers finish together (the workers put the slow tier first: pytest_collection_modifyitems). Another
    --dist is xdist's own."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SlowFilesWhole(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if tier_of(REPO / path) == "slow" else nodeid

    return SlowFilesWhole(config, log)


@dataclass
class IoraceResult:
    returncode: int
    stdout: str
    stderr: str
    export: dict | None  # the --export-json document, when the run wrote one

    def cells(self, **match) -> list[dict]:
        """Exported cells whose fields equal every keyword given (e.g. status="ok"): the timed ones in
        hyperfine's `results` and every other one in `iorace_unmeasured`."""
        doc = self.export or {}
        rows = doc.get("results", []) + doc.get("iorace_unmeasured", [])
        return [r for r in rows if all(r.get(k) == v for k, v in match.items())]


def run_iorace(
    args: list[str],
    tmp_path: Path,
    timeout: float = 1800,
    export: bool = True,
    env: dict | None = None,
    allow_contended: bool = True,
) -> IoraceResult:
    """Run `python -m iorace ARGS` with a private database (and, for `run`, a JSON export); env: extra variables.

    The tests measure on whatever machine runs them, busy or not, and check the report, not the machine's
    quiet: their exports are allowed from a contended session (`--allow-contended`) unless a test says
    otherwise (tests/test_contention_e2e.py checks the refusal itself)."""
    env = {**os.environ, **(env or {})}
    env.setdefault("IORACE_CACHE", str(REPO / ".cache"))  # builds/data shared between tests
    cmd = [sys.executable, "-m", "iorace", *args]
    json_path = tmp_path / "export.json"
    if args and args[0] in ("run", "seeds", "show", "report") and allow_contended and "--allow-contended" not in args:
        cmd.append("--allow-contended")
    if args and args[0] == "run" and "--target-ms" not in args:
        # the manifest's sizes: a tiny cell sized up to --target-ms's default (100 ms a run) would make every timed
        # test slower for nothing (tests/test_target_ms.py tests the sizing)
        cmd += ["--target-ms", "none"]
    if args and args[0] in ("run", "seeds") and "--layouts" not in args:
        # the as-linked build: a test of the report, the race or the store needs no relinked layouts (a second build
        # of every compiled cell); tests/test_layouts_e2e.py tests them, and the default's value is tested too
        cmd += ["--layouts", "1"]
    if args and args[0] in ("run", "seeds"):  # the commands that measure: a private database, an export
        cmd += ["--db", str(tmp_path / "iorace.sqlite")]
        if export:
            cmd += ["--export-json", str(json_path)]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    doc = json.loads(json_path.read_text()) if export and json_path.exists() else None
    return IoraceResult(proc.returncode, proc.stdout, proc.stderr, doc)


# The toolchains scripts/setup installs on Debian. A test that needs them says so and skips clearly on a
# machine without them; on a machine set up by scripts/setup they are all there.
SETUP_TOOLCHAINS = {
    "gcc": "gcc",
    "g++": "g++",
    "clang": "clang",
    "clang++": "clang++",
    "gdc": "gdc",
    "ldc2": "ldc2",
    "cargo": "cargo",
    "go": "go",
    "javac": "javac",
}


def require_toolchains(*names: str) -> None:
    """Skip the calling test, naming what is missing, unless every named toolchain is on PATH."""
    import shutil

    missing = [n for n in names if shutil.which(SETUP_TOOLCHAINS.get(n, n)) is None]
    if missing:
        pytest.skip(f"needs the toolchains {', '.join(missing)} (scripts/setup installs them)")


@pytest.fixture
def iorace(tmp_path):
    """`iorace(["run", "readbytes", "--size", "tiny"])` -> IoraceResult."""

    def _run(args, **kw):
        return run_iorace(list(args), tmp_path, **kw)

    return _run


@dataclass
class Out:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def iorace_inprocess(capsys, monkeypatch):
    """In-process, for the fast tier (no subprocess: start-up imports cost seconds on a loaded machine):
    `iorace_inprocess("compare", "1", "2", "--db", path)` -> Out."""

    def run(*args: str) -> Out:
        monkeypatch.setattr(sys, "argv", ["iorace", *args])
        capsys.readouterr()
        from iorace.cli import main

        with pytest.raises(SystemExit) as exit_:
            main()
        out = capsys.readouterr()
        return Out(exit_.value.code or 0, out.out, out.err)

    return run


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for the whole test session (tests/pgserver.py: initdb into a temporary
    folder, a free port of 127.0.0.1), stopped and removed at the end; skipped, saying why, where none can
    start (no initdb, no psycopg)."""
    import pgserver

    why = pgserver.why_not()
    if why:
        pytest.skip(why)
    server = pgserver.PgServer()
    try:
        yield server.init().start()
    finally:
        server.remove()


@pytest.fixture
def pg_database(pg_server):
    """The URL of a new, empty database on the test session's PostgreSQL server."""
    return pg_server.new_database()
