"""Our capnp programs against upstream's benchmark programs, cell by cell (scripts/capnp-vs-upstream).

Builds, in a work folder, from the same library versions as the suite:
  - upstream C++: capnproto's `c++/src/benchmark/capnproto-{carsales,catrank,eval}.c++` at the tag of the
    installed libcapnp (`pkg-config --modversion capnp`, 0.9.2 here), its schemas compiled with the
    installed `capnp`, `g++ -std=c++17 -O3` against the installed libcapnp (the suite's g++ release line);
  - ours C++: suites/capnp/cpp/capnp.cpp (and any --cpp-variant), the same way (the suite's g++ line, -O3);
  - upstream Rust: capnproto-rust's `benchmark/` at a commit (default: b4050dc8, "prepare for v0.27.0
    release"), its path dependencies replaced by the crates.io versions in our Cargo.lock (capnp, capnpc),
    `cargo build --release --offline` (the crates come from cargo's cache, as the suite's build does);
  - ours Rust: suites/capnp/rust, `cargo build --release --offline --bin capnp` (and any --rust-bin).
Upstream's sources come from git checkouts: --capnproto / --capnproto-rust, else a blobless clone from
GitHub into the work folder, made once (nothing of theirs is committed here).

Then, per cell (case x in-memory config x language), N pairs of runs, the two programs in alternating
order (ours first in even pairs, upstream first in odd ones); each run's CPU time (user + system, from
wait4's rusage). Per cell: the geometric mean of the pairs' ratios ours / upstream with a 95% t interval
over the pairs' log ratios, and the verdict: `yes` when the whole interval lies within 5% of 1, `NO` when
the ratio itself is more than 5% off, `yes?` when the ratio is within 5% but the interval reaches out.
Every run's exit status is checked: each program runs its per-iteration check (a wrong answer exits
non-zero). Ours' checksums are verified by the harness (`iorace run capnp --check-only`), not here.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SUITE = REPO / "suites" / "capnp"
CASES = ["carsales", "catrank", "eval"]
# the six in-memory configs: ours' name -> upstream's (mode, reuse, compression)
CONFIGS = {
    "object-reuse": ("object", "reuse", "none"),
    "object": ("object", "no-reuse", "none"),
    "bytes-reuse": ("bytes", "reuse", "none"),
    "bytes": ("bytes", "no-reuse", "none"),
    "bytes-packed-reuse": ("bytes", "reuse", "packed"),
    "bytes-packed": ("bytes", "no-reuse", "packed"),
}
# t quantiles (0.975) by degrees of freedom
T975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    11: 2.201,
    12: 2.179,
    13: 2.160,
    14: 2.145,
    15: 2.131,
    16: 2.120,
    17: 2.110,
    18: 2.101,
    19: 2.093,
    20: 2.086,
    24: 2.064,
    29: 2.045,
    39: 2.023,
}


def t975(df: int) -> float:
    keys = [k for k in sorted(T975) if k <= df]
    return T975[keys[-1]] if keys else T975[1]


def sh(cmd: list[str] | str, cwd: Path | None = None, env: dict | None = None) -> str:
    shell = isinstance(cmd, str)
    p = subprocess.run(cmd, cwd=cwd, env=env, shell=shell, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"capnp-vs-upstream: failed ({p.returncode}): {cmd}\n{p.stdout}{p.stderr}")
    return p.stdout


def upstream_clone(work: Path, name: str) -> Path:
    """A bare, blobless clone of github.com/capnproto/NAME in the work folder (made once, reused after)."""
    repo = work / f"{name}.git"
    if not repo.exists():
        work.mkdir(parents=True, exist_ok=True)
        sh(["git", "clone", "--quiet", "--bare", "--filter=blob:none", f"https://github.com/capnproto/{name}", str(repo)])
    return repo


def lock_version(crate: str) -> str:
    text = (SUITE / "rust" / "Cargo.lock").read_text()
    m = re.search('name = "' + re.escape(crate) + r'"\nversion = "([^"]+)"', text)
    if not m:
        sys.exit(f"capnp-vs-upstream: {crate} not in suites/capnp/rust/Cargo.lock")
    return m.group(1)


def build(
    work: Path, capnproto: Path, capnproto_rust: Path, rust_rev: str, rust_bins: list[str], cpp_variants: list[str]
) -> dict[str, Any]:
    libver = sh(["pkg-config", "--modversion", "capnp"]).strip()
    cpp_tag = f"v{libver}"
    work.mkdir(parents=True, exist_ok=True)
    progs: dict[str, Path] = {}
    info = [
        f"libcapnp {libver} (pkg-config), capnp: {sh(['capnp', '--version']).strip()}",
        f"g++: {sh(['g++', '--version']).splitlines()[0]}",
        f"cargo: {sh(['cargo', '--version']).strip()}",
    ]

    # upstream C++
    up = work / "upstream-cpp"
    if up.exists():
        shutil.rmtree(up)
    up.mkdir()
    sh(f"git -C {capnproto} archive {cpp_tag} c++/src/benchmark | tar -x -C {up}")
    bench = up / "c++" / "src" / "benchmark"
    sh("capnp compile -oc++:. carsales.capnp catrank.capnp eval.capnp", cwd=bench)
    for case in CASES:
        sh(
            [
                "g++",
                "-std=c++17",
                "-O3",
                "-I.",
                "-o",
                str(work / f"upstream-cpp-{case}"),
                f"capnproto-{case}.c++",
                f"{case}.capnp.c++",
                "-lcapnp",
                "-lkj",
            ],
            cwd=bench,
        )
        progs[f"upstream-cpp-{case}"] = work / f"upstream-cpp-{case}"
    info.append(
        f"upstream C++: {capnproto} tag {cpp_tag} ({sh(['git', '-C', str(capnproto), 'rev-parse', cpp_tag]).strip()}), "
        "c++/src/benchmark/capnproto-CASE.c++, g++ -std=c++17 -O3 -lcapnp -lkj"
    )

    # ours C++: the suite's g++ build line (release cflags -O3)
    ours = work / "ours-cpp"
    if ours.exists():
        shutil.rmtree(ours)
    ours.mkdir()
    src = SUITE
    sh(f"capnp compile -oc++:. --src-prefix={src}/schema {src}/schema/*.capnp", cwd=ours)
    for v in cpp_variants:
        source = v.replace("-", "_")
        sh(f"g++ -std=c++17 -O3 -I. -o {work}/ours-cpp-{v} {src}/cpp/{source}.cpp *.capnp.c++ -lcapnp -lkj", cwd=ours)
        progs[f"ours-cpp-{v}"] = work / f"ours-cpp-{v}"
    info.append(f"ours C++: suites/capnp/cpp/ {', '.join(cpp_variants)}, g++ -std=c++17 -O3 -lcapnp -lkj")

    # upstream Rust: benchmark/ with crates.io capnp/capnpc at our Cargo.lock's versions
    capnp_v, capnpc_v = lock_version("capnp"), lock_version("capnpc")
    ur = work / "upstream-rust-src"
    if ur.exists():
        shutil.rmtree(ur)
    ur.mkdir()
    sh(f"git -C {capnproto_rust} archive {rust_rev} benchmark | tar -x -C {ur}")
    rb = ur / "benchmark"
    toml = (rb / "Cargo.toml").read_text()
    toml = toml.replace('capnpc = { path = "../capnpc" }', f'capnpc = "={capnpc_v}"')
    toml = toml.replace('capnp = { path = "../capnp" }', f'capnp = "={capnp_v}"')
    toml = re.sub(r"\[lints\]\nworkspace = true\n?", "", toml)
    toml += "\n[profile.release]\ndebug = false\n\n[workspace]\n"
    (rb / "Cargo.toml").write_text(toml)
    sh(
        ["cargo", "build", "--quiet", "--release", "--offline", "--bin", "benchmark", "--target-dir", str(work / "upstream-rust-target")],
        cwd=rb,
    )
    shutil.copy(work / "upstream-rust-target" / "release" / "benchmark", work / "upstream-rust-bin")
    progs["upstream-rust"] = work / "upstream-rust-bin"
    full_rev = sh(["git", "-C", str(capnproto_rust), "rev-parse", rust_rev]).strip()
    info.append(
        f"upstream Rust: {capnproto_rust} {full_rev} benchmark/, capnp ={capnp_v}, capnpc ={capnpc_v} (crates.io), cargo build --release"
    )

    # ours Rust
    for b in rust_bins:
        sh(
            [
                "cargo",
                "build",
                "--quiet",
                "--release",
                "--offline",
                "--bin",
                b,
                "--manifest-path",
                str(SUITE / "rust" / "Cargo.toml"),
                "--target-dir",
                str(work / "ours-rust-target"),
            ]
        )
        shutil.copy(work / "ours-rust-target" / "release" / b, work / f"ours-rust-{b}")
        progs[f"ours-rust-{b}"] = work / f"ours-rust-{b}"
    info.append(f"ours Rust: suites/capnp/rust bins {', '.join(rust_bins)}, cargo build --release")
    return {"progs": progs, "info": info}


def cpu_run(argv: list[str]) -> float:
    """Run argv, return its CPU time (user + system) in seconds; exit if it fails."""
    start = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode() if p.stderr else ""
    if p.stderr:
        p.stderr.close()
    if p.returncode != 0:
        sys.exit(f"capnp-vs-upstream: {' '.join(argv)} failed ({p.returncode}):\n{err}")
    del start
    return ru.ru_utime + ru.ru_stime


def cachegrind_ir(argv: list[str]) -> int:
    """Instructions executed by one run of argv (cachegrind's Ir, the client and, for pipes, not the server)."""
    fd, out = tempfile.mkstemp(prefix="capnp-vs-upstream-cg-")
    os.close(fd)
    try:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}", "--quiet", *argv]
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
        if p.returncode != 0:
            sys.exit(f"capnp-vs-upstream: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
        for line in Path(out).read_text().splitlines():
            if line.startswith("summary:"):
                return int(line.split()[1])
        sys.exit(f"capnp-vs-upstream: cachegrind wrote no summary for {' '.join(argv)}")
    finally:
        os.unlink(out)


def instructions(cells: list, iters: dict, info: list[str]) -> None:
    print(
        "capnp-vs-upstream --instructions: instructions executed (cachegrind Ir, one run each), ours / upstream; "
        "iterations per run: " + ", ".join(f"{c} {iters[c]}" for c in CASES)
    )
    for line in info:
        print("  " + line)
    print()
    print(f"{'row':<24} {'case':<9} {'config':<19} {'ours Ir':>14} {'upstream Ir':>14} {'ratio':>6}")
    for ours_name, case, config, ours, up in cells:
        a, b = cachegrind_ir(ours), cachegrind_ir(up)
        print(f"{ours_name:<24} {case:<9} {config:<19} {a:>14,} {b:>14,} {a / b:6.3f}", flush=True)


def summarize(ratios: list[float]) -> tuple[float, float, float]:
    logs = [math.log(r) for r in ratios]
    m = statistics.mean(logs)
    half = t975(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else float("inf")
    return math.exp(m), math.exp(m - half), math.exp(m + half)


def verdict(r: float, lo: float, hi: float, tol: float = 0.05) -> str:
    if lo >= 1 / (1 + tol) and hi <= 1 + tol:
        return "yes"
    if r < 1 / (1 + tol) or r > 1 + tol:
        return "NO"
    return "yes?"


def make_cells(args: argparse.Namespace, progs: dict, iters: dict, iters_file: Path) -> list:
    """(row, case, config, ours' argv, upstream's argv) per cell, in the order they run."""
    cells = []
    for lang in args.lang or ["cpp", "rust"]:
        ours_list = (
            [(f"cpp/{v}", progs[f"ours-cpp-{v}"]) for v in args.cpp_variant or ["capnp"]]
            if lang == "cpp"
            else [(f"rust/{b}", progs[f"ours-rust-{b}"]) for b in args.rust_bin or ["capnp"]]
        )
        for ours_name, ours_prog in ours_list:
            for case in args.case or CASES:
                for config in args.config or list(CONFIGS):
                    mode, reuse, comp = CONFIGS[config]
                    if lang == "cpp":
                        up = [str(progs[f"upstream-cpp-{case}"]), mode, reuse, comp, iters[case]]
                    else:
                        up = [str(progs["upstream-rust"]), case, mode, reuse, comp, iters[case]]
                    ours = [str(ours_prog), case, config, str(iters_file)]
                    cells.append((ours_name, case, config, ours, up))
    return cells


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--work", type=Path, default=Path(os.environ.get("IORACE_CACHE", tempfile.gettempdir())) / "capnp-vs-upstream")
    ap.add_argument(
        "--capnproto",
        type=Path,
        default=None,
        help="a git checkout (or bare repo) of github.com/capnproto/capnproto (default: cloned into --work)",
    )
    ap.add_argument(
        "--capnproto-rust",
        type=Path,
        default=None,
        help="a git checkout (or bare repo) of github.com/capnproto/capnproto-rust (default: cloned into --work)",
    )
    ap.add_argument("--rust-rev", default="b4050dc8fba019a67f989c33fd97ea3871f16574")
    ap.add_argument("--iters", default="carsales=5000,catrank=400,eval=40000", help="iterations per run, per case")
    ap.add_argument("--case", action="append", choices=CASES, help="only these cases (repeatable)")
    ap.add_argument("--config", action="append", choices=list(CONFIGS), help="only these configs")
    ap.add_argument("--lang", action="append", choices=["cpp", "rust"], help="only these languages")
    ap.add_argument(
        "--cpp-variant",
        action="append",
        default=None,
        help="our C++ variant(s), suites/capnp/cpp/NAME.cpp with - as _ (default: capnp)",
    )
    ap.add_argument("--rust-bin", action="append", default=None, help="our Rust bin(s) to compare with upstream's (default: capnp)")
    ap.add_argument("--no-build", action="store_true", help="use the programs an earlier run built in --work")
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="instead of timing: one run of each program per cell under cachegrind (--cache-sim=no), "
        "instructions executed ours / upstream (exact; pass smaller --iters: valgrind is ~50x slower)",
    )
    args = ap.parse_args()
    iters = dict(kv.split("=") for kv in args.iters.split(","))
    rust_bins = args.rust_bin or ["capnp"]
    cpp_variants = args.cpp_variant or ["capnp"]
    if args.no_build:  # the programs an earlier run built in --work
        progs = {f"upstream-cpp-{c}": args.work / f"upstream-cpp-{c}" for c in CASES}
        progs |= {f"ours-cpp-{v}": args.work / f"ours-cpp-{v}" for v in cpp_variants}
        progs |= {f"ours-rust-{b}": args.work / f"ours-rust-{b}" for b in rust_bins}
        progs["upstream-rust"] = args.work / "upstream-rust-bin"
        built: dict[str, Any] = {"progs": progs, "info": [f"programs built earlier in {args.work} (--no-build)"]}
    else:
        capnproto = args.capnproto or upstream_clone(args.work, "capnproto")
        capnproto_rust = args.capnproto_rust or upstream_clone(args.work, "capnproto-rust")
        built = build(args.work, capnproto, capnproto_rust, args.rust_rev, rust_bins, cpp_variants)
    progs = built["progs"]
    iters_file = args.work / ("iters-" + "-".join(iters[c] for c in CASES) + ".txt")
    iters_file.write_text("".join(f"{c} {iters[c]}\n" for c in CASES))

    cells = make_cells(args, progs, iters, iters_file)
    if args.instructions:
        instructions(cells, iters, built["info"])
        return
    print(
        "capnp-vs-upstream: ours / upstream, CPU time (user + system) per run, "
        f"{args.pairs} pairs per cell in alternating order; iterations per run: " + ", ".join(f"{c} {iters[c]}" for c in CASES)
    )
    for line in built["info"]:
        print("  " + line)
    print(
        f"  machine: {os.uname().nodename}, {os.cpu_count()} cores, load average at start "
        f"{os.getloadavg()[0]:.2f}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    print(
        "  verdict: yes = the 95% interval lies within 5% of 1; yes? = the ratio does, the interval reaches "
        "out; NO = the ratio is more than 5% off"
    )
    print()
    print(f"{'row':<24} {'case':<9} {'config':<19} {'ours s':>7} {'upst s':>7} {'ratio':>6}  {'95% interval':<13}  within 5%")
    counts = {"yes": 0, "yes?": 0, "NO": 0}
    for ours_name, case, config, ours, up in cells:
        cpu_run(ours)  # one warm-up run each (page cache, binary)
        cpu_run(up)
        ratios, t_ours, t_up = [], [], []
        for i in range(args.pairs):
            if i % 2 == 0:
                a = cpu_run(ours)
                b = cpu_run(up)
            else:
                b = cpu_run(up)
                a = cpu_run(ours)
            t_ours.append(a)
            t_up.append(b)
            ratios.append(a / b)
        r, lo, hi = summarize(ratios)
        v = verdict(r, lo, hi)
        counts[v] += 1
        print(
            f"{ours_name:<24} {case:<9} {config:<19} {statistics.median(t_ours):7.3f} {statistics.median(t_up):7.3f} "
            f"{r:6.3f}  [{lo:.3f}, {hi:.3f}]  {v}",
            flush=True,
        )
    print()
    print(
        f"cells: {len(cells)}; within 5% (interval inside): {counts['yes']}; ratio within 5%, interval "
        f"reaching out: {counts['yes?']}; more than 5% off: {counts['NO']}; load average at end "
        f"{os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
