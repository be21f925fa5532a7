"""capnp suite: every cell's answer on tiny data through the real CLI, and the error
paths (corrupt or truncated messages in the bytes path and on the pipe, a killed server, bad iteration
files): one line on stderr, a non-zero exit, no hang and no server process left behind."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time

import psutil
import pytest

from conftest import run_iorace

# The reference's own tests (the fast tier): unit/test_capnp_unit.py beside this file.

CONFIGS = [
    "object-reuse",
    "object",
    "bytes-reuse",
    "bytes",
    "bytes-packed-reuse",
    "bytes-packed",
    "pipe-reuse",
    "pipe",
    "pipe-packed-reuse",
    "pipe-packed",
]
# per case x config: cpp/capnp, capnp-eval-local, protobuf, null with g++ and clang++ (release);
# rust/capnp, capnp-flat, capnp-no-utf8, capnp-reuse-string, prost in release (debug on request); python/pycapnp
CELLS_PER_PARAMS = 4 * 2 + 5 + 1


# --- every cell through the real CLI -------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    return run_iorace(["run", "capnp", "--size", "tiny", "--check-only"], tmp_path_factory.mktemp("tiny"))


def test_tiny_every_cell_ok(tiny_run):
    rows = tiny_run.cells(suite="capnp")
    bad = [(r["label"], r["status"], r["detail"]) for r in rows if r["status"] != "ok"]
    assert not bad, bad[:20]
    assert len(rows) == 3 * len(CONFIGS) * CELLS_PER_PARAMS, len(rows)
    assert {r["profile"] for r in rows if r["language"] == "rust"} == {"release"}
    assert tiny_run.returncode == 0, tiny_run.stderr[-2000:]


@pytest.fixture(scope="module")
def tiny_debug_run(tmp_path_factory):
    """The Rust cells built with --profile debug (not a default profile): overflow checks on."""
    return run_iorace(
        ["run", "capnp", "--size", "tiny", "--check-only", "--variant", "rust/*", "--profile", "debug"],
        tmp_path_factory.mktemp("tiny-debug"),
    )


def test_tiny_rust_debug_builds_answer_right(tiny_debug_run):
    """Debug builds panic on integer overflow: every Rust cell, built with --profile debug, still answers right."""
    res = tiny_debug_run
    rows = res.cells(suite="capnp")
    bad = [(r["label"], r["status"], r["detail"]) for r in rows if r["status"] != "ok"]
    assert not bad, bad[:20]
    assert len(rows) == 3 * len(CONFIGS) * 5 and {r["profile"] for r in rows} == {"debug"}
    assert res.returncode == 0, res.stderr[-2000:]


def _programs(tiny_run) -> dict[str, list[str]]:
    """variant@toolchain:profile -> the program's command line before CASE CONFIG ITERS_FILE (the built
    binary; for Python the interpreter and the script)."""
    progs = {}
    for r in tiny_run.cells(suite="capnp", status="ok"):
        argv = shlex.split(r["command"])
        first = argv.index(r["parameters"]["case"])  # CASE CONFIG ITERS_FILE [DIVIDE] SCALE follow the program
        progs[f"{r['language']}/{r['variant']}@{r['toolchain']}:{r['profile']}"] = argv[:first]
    return progs


def _leftovers(prog: list[str]) -> list[int]:
    """Processes still running the program (its binary, or its script for Python)."""
    found = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        cmd = p.info.get("cmdline") or []
        if cmd[: len(prog)] == prog:
            found.append(p.info["pid"])
    return found


def _run(argv, env=None, timeout=60):
    return subprocess.run(argv, check=False, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})


def test_spoiled_messages_end_with_one_line(tiny_run, tiny_debug_run, tmp_path):
    """CAPNP_BENCH_FAULT spoils the first request (truncated to half, or its first word overwritten with
    0xff) in the bytes path and on the pipe: every serializing program (Rust's debug builds too) ends with
    one line and exit 1."""
    iters = tmp_path / "iters.txt"
    iters.write_text("carsales 5\ncatrank 3\neval 50\n")
    progs = {k: v for k, v in {**_programs(tiny_run), **_programs(tiny_debug_run)}.items() if not k.startswith("cpp/null@")}
    assert len(progs) == 3 * 2 + 5 * 2 + 1, sorted(progs)
    problems = []
    for name, prog in sorted(progs.items()):
        for case in ("catrank", "eval"):
            for config in ("bytes", "bytes-packed-reuse", "pipe", "pipe-packed", "pipe-reuse"):
                for fault in ("truncate", "garbage"):
                    what = f"{name} {case} {config} {fault}"
                    try:
                        p = _run([*prog, case, config, str(iters)], {"CAPNP_BENCH_FAULT": fault}, timeout=30)
                    except subprocess.TimeoutExpired:
                        problems.append(f"{what}: hung")
                        continue
                    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
                    if p.returncode != 1 or len(lines) != 1 or "iorace-result" in p.stderr:
                        problems.append(f"{what}: exit {p.returncode}, stderr {lines[-3:]}")
                    if config.startswith("pipe") and _leftovers(prog):
                        problems.append(f"{what}: server left behind")
    assert not problems, "\n".join(problems)


def test_killed_server_ends_the_client(tiny_run, tmp_path):
    """A server that dies mid-run (SIGKILL) ends the client with one line and a non-zero exit, no hang."""
    iters = tmp_path / "iters.txt"
    iters.write_text("eval 1000000000\n")
    progs = _programs(tiny_run)
    for name in (
        "cpp/capnp@g++:release",
        "rust/capnp@cargo:release",
        "cpp/protobuf@g++:release",
        "rust/prost@cargo:release",
        "python/pycapnp@python3:release",
    ):
        prog = progs[name]
        client = subprocess.Popen([*prog, "eval", "pipe", str(iters)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 20
            children = []
            while not children and time.monotonic() < deadline:
                time.sleep(0.2)
                children = psutil.Process(client.pid).children()
            assert children, f"{name}: no server process"
            time.sleep(0.3)
            os.kill(children[0].pid, signal.SIGKILL)
            _, err = client.communicate(timeout=20)
        finally:
            if client.poll() is None:
                client.kill()
                client.wait()
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert client.returncode == 1, (name, client.returncode, lines)
        assert len(lines) == 1 and "server killed by signal 9" in lines[0], (name, lines)
        assert not _leftovers(prog), name


def test_bad_command_lines_and_iteration_files(tiny_run, tmp_path):
    missing = tmp_path / "iters.txt"
    missing.write_text("eval 5\n")
    garbled = tmp_path / "garbled.txt"
    garbled.write_text("carsales many\n")
    for name, prog in sorted(_programs(tiny_run).items()):
        for args in (
            ["carsales", "object", str(missing)],
            ["carsales", "object", str(garbled)],
            ["carsales", "object", str(tmp_path / "absent.txt")],
            ["dogs", "object", str(missing)],
            ["eval", "object-packed", str(missing)],
            ["eval", "object", str(missing), "0"],  # SCALE (DIVIDE for python/pycapnp) is at least 1
            ["eval", "object", str(missing), "ten"],
        ):
            p = _run([*prog, *args], timeout=30)
            lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
            assert p.returncode == 1 and len(lines) == 1, (name, args, p.returncode, lines)
        p = _run([*prog, "eval"], timeout=30)
        assert p.returncode == 2 and p.stderr.startswith("usage:"), (name, p.stderr)


def test_reference_refuses_a_file_without_the_case(tmp_path):
    bad = tmp_path / "iters.txt"
    bad.write_text("eval 3\n")
    res = run_iorace(
        [
            "run",
            "capnp",
            "--input",
            str(bad),
            "--param",
            "case=carsales",
            "--param",
            "config=object",
            "--variant",
            "cpp/null",
            "--check-only",
        ],
        tmp_path,
        export=False,
    )
    assert res.returncode == 2, res.stderr[-500:]
    assert "no iteration count for carsales" in res.stderr


def test_list_says_why_java_and_go_have_no_row(iorace):
    out = iorace(["list", "capnp"])
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "no java row: toolchain capnpc-java: capnpc-java not found" in text
    assert "no go row: toolchain capnpc-go" in text and "403" in text
