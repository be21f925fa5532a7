"""What this machine is, and what about it makes timings less trustworthy."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import re
import subprocess
import time
from pathlib import Path

import psutil

from iorace.core.errors import UsageError

LOAD_WARN = 0.5  # load average per core above which timings are disturbed
BUSY_PROCESS_PCT = 10.0  # doctor names other processes using more than this % of a core
BUSY_OTHERS_PCT = 50.0  # iorace run warns when other processes together use more than this % of a core


def _cpuinfo() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo ({} where there is none)."""
    fields: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if not line.strip():
                break  # the first processor's block ends here
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return fields


def _cpu_model() -> str:
    return _cpuinfo().get("model name") or platform.processor() or "unknown"


def _cpu_stepping() -> str:
    """Family, model and stepping: two CPUs of one model name can differ there (a new stepping, a microcode)."""
    cpu = _cpuinfo()
    parts = [f"{key} {cpu[key]}" for key in ("cpu family", "model", "stepping") if cpu.get(key)]
    return ", ".join(parts) or "unknown"


def _caches() -> str:
    """The first CPU's caches from sysfs: 'L1d 32K, L1i 32K, L2 512K, L3 32768K' ('unknown' without sysfs)."""
    out = []
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            level, kind, size = ((index / f).read_text().strip() for f in ("level", "type", "size"))
        except OSError:
            continue
        out.append(f"L{level}{ {'Data': 'd', 'Instruction': 'i'}.get(kind, '') } {size}")
    return ", ".join(out) or "unknown"


def _virtualization() -> str:
    """What the machine runs in: systemd-detect-virt's word ('kvm', 'docker', 'none'), else whether the CPU says
    it runs under a hypervisor."""
    try:
        proc = subprocess.run(["systemd-detect-virt"], capture_output=True, text=True, timeout=5, check=False)
        if proc.stdout.strip():
            return proc.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return "hypervisor" if "hypervisor" in _cpuinfo().get("flags", "").split() else "unknown"


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
        "cpu_vendor": _cpuinfo().get("vendor_id", ""),  # GenuineIntel, AuthenticAMD: which host (core/host.py)
        "cores": os.cpu_count(),
        "physical_cores": psutil.cpu_count(logical=False),
        "cpu_stepping": _cpu_stepping(),
        "caches": _caches(),
        "virtualization": _virtualization(),
        "kernel": platform.release(),
        "os": platform.platform(),
        "governor": _governor(),
        "cpu_mhz": round(freq.current) if freq else None,
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "load": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "aslr": _aslr(),
        "mitigations": mitigations(),
        "data_fs": data_filesystem(),
    }


def mitigations() -> dict[str, str]:
    """The kernel's state of each CPU vulnerability (/sys/devices/system/cpu/vulnerabilities: 'Mitigation:
    ...', 'Not affected', 'Vulnerable'): a changed mitigation moves syscall-heavy timings by itself."""
    root = Path("/sys/devices/system/cpu/vulnerabilities")
    out = {}
    with contextlib.suppress(OSError):
        for f in sorted(root.iterdir()):
            with contextlib.suppress(OSError):
                out[f.name] = f.read_text().strip()
    return out


def data_filesystem(path: Path | None = None) -> str:
    """The filesystem and device that hold the datasets (the cache's data folder): 'ext4 on /dev/nvme0n1p2'."""
    from iorace.core.paths import cache_dir

    where = os.path.realpath(path or cache_dir())
    best = None
    with contextlib.suppress(OSError):
        for part in psutil.disk_partitions(all=True):
            mount = part.mountpoint.rstrip("/") or "/"
            if (where == mount or where.startswith(mount.rstrip("/") + "/")) and (best is None or len(mount) > len(best.mountpoint)):
                best = part
    return f"{best.fstype} on {best.device}" if best else "unknown"


NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
FINGERPRINT_FACTS = ("cpu_model", "cores", "memory_gb")  # of info(): what makes timings of two machines comparable
FINGERPRINT_EXTRA = ("cpu_stepping", "physical_cores", "caches", "virtualization")  # ... and, since 2026-11-23, these


def name(given: str | None) -> str:
    """The machine's name stored with a session: --machine NAME, else $IORACE_MACHINE, else the host's name
    (a container's changes every time: name CI runners and VMs yourself)."""
    for value, what in ((given, "--machine"), (os.environ.get("IORACE_MACHINE"), "IORACE_MACHINE")):
        if value:
            if not NAME.fullmatch(value):
                raise UsageError(f"{what} {value!r}: a machine's name is 1-64 letters, digits, '.', '_' or '-', e.g. ci-runner-2")
            return value
    host = platform.node()
    return host if NAME.fullmatch(host) else "unknown"


def fingerprint(facts: dict) -> str:
    """A short hash of what makes two machines' timings comparable (the CPU model and its family, model and
    stepping, logical and physical cores, caches, memory in whole GiB, virtualization): the same on every
    session of one machine whatever its name, its kernel or its load, different on another kind. A fact a
    session was stored without is left out of the hash, so older sessions keep their fingerprint. '' when
    the facts are unknown (a session stored without them)."""
    if not facts.get("cpu_model"):
        return ""
    key = [facts.get("cpu_model"), facts.get("cores"), round(facts.get("memory_gb") or 0)]
    key += [[k, facts[k]] for k in FINGERPRINT_EXTRA if facts.get(k) is not None]
    return hashlib.sha256(json.dumps(key).encode()).hexdigest()[:12]


CONTEXT_FACTS = ("kernel", "mitigations", "data_fs")  # of info(): what breaks a machine's history when it changes


def context(facts: dict, toolchains: dict) -> dict:
    """What a session ran on besides the hardware, kept apart from what does not break a history (load,
    clock): the kernel, the CPU vulnerability mitigations, the data folder's filesystem and device, and the
    toolchains' versions."""
    return {**{k: facts.get(k, "") for k in CONTEXT_FACTS}, "toolchains": dict(toolchains)}


def context_fingerprint(ctx: dict) -> str:
    """A short hash of a session's context (kernel, mitigations, data filesystem; not the toolchains, whose
    versions each cell has: a cell's own toolchain's upgrade breaks its history, another's does not).
    Under one machine name, a new one starts a new history. '' when unknown."""
    key = [ctx.get(k) or "" for k in CONTEXT_FACTS]
    if not any(key):
        return ""
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]


def context_changes(a: dict, b: dict) -> list[str]:
    """What differs between two contexts (machine.context), one short text each: 'kernel 6.1 -> 6.12',
    'mitigation spectre_v2: ... -> ...', 'toolchain gcc: gcc 12 -> gcc 13'."""
    out = []
    if (a.get("kernel") or "") != (b.get("kernel") or ""):
        out.append(f"kernel {a.get('kernel') or '?'} -> {b.get('kernel') or '?'}")
    ma, mb = a.get("mitigations") or {}, b.get("mitigations") or {}
    for name in sorted(set(ma) | set(mb)):
        if ma.get(name) != mb.get(name):
            out.append(f"mitigation {name}: {ma.get(name, '?')} -> {mb.get(name, '?')}")
    if (a.get("data_fs") or "") != (b.get("data_fs") or ""):
        out.append(f"data filesystem {a.get('data_fs') or '?'} -> {b.get('data_fs') or '?'}")
    ta, tb = a.get("toolchains") or {}, b.get("toolchains") or {}
    for name in sorted(set(ta) & set(tb)):
        if ta[name] != tb[name]:
            out.append(f"toolchain {name}: {ta[name]} -> {tb[name]}")
    return out


def _aslr() -> str:
    """The kernel's address-space layout randomisation (kernel.randomize_va_space): 2 = full, 0 = off."""
    try:
        return Path("/proc/sys/kernel/randomize_va_space").read_text().strip()
    except OSError:
        return "unknown"


def _own_tree() -> set[int]:
    """This process, its parent and every descendant (the launcher and the program being timed)."""
    me = psutil.Process()
    try:
        return {me.pid, os.getppid(), *(c.pid for c in me.children(recursive=True))}
    except psutil.Error:
        return {me.pid, os.getppid()}


def busy_processes(sample_s: float = 0.5, threshold: float = BUSY_PROCESS_PCT) -> list[tuple[str, int, float]]:
    """(name, pid, cpu %) of other processes (not iorace's own) using more than threshold % of a core now."""
    me = _own_tree()
    procs = [p for p in psutil.process_iter(["name"]) if p.pid not in me]
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.cpu_percent(None)
    time.sleep(sample_s)
    busy = []
    for p in procs:
        try:
            pct = p.cpu_percent(None)
        except psutil.Error:
            continue
        if pct > threshold and p.pid not in me:
            busy.append((p.info["name"] or "?", p.pid, pct))
    return sorted(busy, key=lambda t: -t[2])


def busy_sample(sample_s: float = 0.25) -> dict:
    """How busy the machine is now, apart from iorace: the 1-minute load average per core and the CPU
    (% of one core) that other processes use over sample_s, with the busiest of them."""
    others = busy_processes(sample_s, threshold=1.0)
    return {
        "load_per_core": round(os.getloadavg()[0] / (os.cpu_count() or 1), 2),
        "others_pct": round(sum(pct for _, _, pct in others)),
        "busiest": [f"{name} (pid {pid}) {pct:.0f}%" for name, pid, pct in others[:3]],
    }


def busy_warning(before: dict, after: dict) -> str:
    """One line when other processes used more than BUSY_OTHERS_PCT of a core just before or just after
    measuring ('' when quiet). The load average is not judged here: it decays over minutes, so it still
    shows the work that ended before the session (a build, the session before), and the runs themselves
    say whether anything ran beside them (analyse.contention)."""
    why = []
    for when, s in (("before", before), ("after", after)):
        if s["others_pct"] > BUSY_OTHERS_PCT:
            why.append(f"other processes used {s['others_pct']}% of a core {when} measuring ({', '.join(s['busiest'])})")
    if not why:
        return ""
    return "the machine was busy: " + "; ".join(why) + ": ratios may not reproduce in another session"


def warnings(m: dict, busy: list[tuple[str, int, float]]) -> list[str]:
    out = []
    per_core = m["load"][0] / (m["cores"] or 1)
    if per_core > LOAD_WARN:
        out.append(
            f"load average {m['load'][0]} on {m['cores']} cores ({per_core:.2f} per core > {LOAD_WARN}): "
            "other work competes for the CPU; compare ratios from one interleaved run, not absolute times"
        )
    for name, pid, pct in busy[:5]:
        out.append(f"busy process: {name} (pid {pid}) uses {pct:.0f}% of a core")
    gov = m["governor"]
    if gov not in {"performance"} and not gov.startswith("unknown"):
        out.append(
            f"CPU frequency governor is {gov!r}: clock speed may change during runs "
            "(`cpupower frequency-set -g performance` as root fixes it)"
        )
    if m.get("aslr") == "0":
        out.append(
            "ASLR is off (kernel.randomize_va_space = 0): every run gets the same memory layout, a bias the rounds "
            "cannot average away (`sysctl kernel.randomize_va_space=2` turns it on)"
        )
    if (m["cores"] or 1) <= 2:
        out.append(f"only {m['cores']} cores: the harness itself shares them with the program being timed")
    return out


def git_revision(path: Path) -> str:
    try:
        rev = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=False)
        dirty = subprocess.run(
            ["git", "-C", str(path), "status", "--porcelain", "--", "."], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    if rev.returncode != 0:
        return "unknown (not a git checkout)"
    return rev.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
