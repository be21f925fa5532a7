"""What this machine is, and what about it makes timings less trustworthy."""
from __future__ import annotations

import os
import platform
import subprocess
import time
from pathlib import Path

import psutil

LOAD_WARN = 0.5
BUSY_PROCESS_PCT = 10.0


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _governor() -> str:
    path = Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    try:
        return path.read_text().strip()
    except OSError:
        return "unknown (no cpufreq: a VM, or the host decides)"


def info() -> dict:
    freq = psutil.cpu_freq()
    return {
        "hostname": platform.node(),
        "cpu_model": _cpu_model(),
        "cores": os.cpu_count(),
        "kernel": platform.release(),
        "os": platform.platform(),
        "governor": _governor(),
        "cpu_mhz": round(freq.current) if freq else None,
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "load": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
    }


def busy_processes(sample_s: float = 0.5) -> list[tuple[str, int, float]]:
    """(name, pid, cpu %) of other processes using more than BUSY_PROCESS_PCT of a core right now."""
    me = {os.getpid(), os.getppid()}
    procs = [p for p in psutil.process_iter(["name"]) if p.pid not in me]
    for p in procs:
        try:
            p.cpu_percent(None)
        except psutil.Error:
            pass
    time.sleep(sample_s)
    busy = []
    for p in procs:
        try:
            pct = p.cpu_percent(None)
        except psutil.Error:
            continue
        if pct > BUSY_PROCESS_PCT:
            busy.append((p.info["name"] or "?", p.pid, pct))
    return sorted(busy, key=lambda t: -t[2])


def warnings(m: dict, busy: list[tuple[str, int, float]]) -> list[str]:
    out = []
    if m["load"][0] > LOAD_WARN:
        out.append(f"load average {m['load'][0]} > {LOAD_WARN}: other work competes for the CPU; "
                   "compare ratios from one interleaved run, not absolute times")
    for name, pid, pct in busy[:5]:
        out.append(f"busy process: {name} (pid {pid}) uses {pct:.0f}% of a core")
    gov = m["governor"]
    if gov not in {"performance"} and not gov.startswith("unknown"):
        out.append(f"CPU frequency governor is {gov!r}: clock speed may change during runs "
                   "(`cpupower frequency-set -g performance` as root fixes it)")
    if (m["cores"] or 1) <= 2:
        out.append(f"only {m['cores']} cores: the harness itself shares them with the program being timed")
    return out


def git_revision(path: Path) -> str:
    try:
        rev = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(path), "status", "--porcelain", "--", "."], capture_output=True,
                               text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    if rev.returncode != 0:
        return "unknown (not a git checkout)"
    return rev.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
