"""Which host a session ran on, in words a table can carry: 'Intel Xeon (6/207)', 'AMD EPYC Zen 4 (25/17)'.

One kind of machine (the project's 2-vCPU VM, always named `vm`) is served by different hosts, and a ratio
can differ between them far beyond its interval (readbytes' java-1: 38-41x on an Intel Xeon, 8.0-8.3x on an
AMD EPYC Zen 4). So answers are kept per host: a table of several sessions groups them by host, and pooling,
the session level and the round planner take sessions of one host only.

A host is what its sessions record (core/machine.info): the CPU's model string, vendor, family and model,
the logical cores, and the machine's name. machine.fingerprint hashes more (memory, caches, stepping) and
less where an older session lacks a fact; the host is the coarser key, one a reader can check by eye.
Only the standard library: scripts/docs.py reads stored exports with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FAMILY_MODEL = re.compile(r"cpu family (\d+), model (\d+)")
_TRADEMARKS = re.compile(r"\((?:R|TM|tm|r)\)|\bProcessor\b|\s*\bCPU\s*@.*$|@.*$|\b\d+-Core\b")


def _zen(family: int, model: int) -> str:
    """AMD's core generation of a family/model (AMD's revision guides): family 23 is Zen to Zen 2, 25 Zen 3 and
    Zen 4 by model range, 26 Zen 5; '' for any other."""
    if family == 23:
        return "Zen 2" if model >= 0x30 else "Zen"
    if family == 25:
        return "Zen 4" if 0x10 <= model <= 0x1F or 0x60 <= model <= 0xAF else "Zen 3"
    if family == 26:
        return "Zen 5"
    return ""


@dataclass(frozen=True, order=True)
class Host:
    """The host of a session; two sessions' answers are comparable only on equal hosts."""

    vendor: str  # 'Intel', 'AMD', '' when unknown
    family: int | None  # the CPU family and model (/proc/cpuinfo): None in a session stored before they were
    model: int | None
    cpu_model: str  # the model string as recorded ('AMD EPYC', 'Intel(R) Xeon(R) Processor')
    cores: int | None
    name: str  # the machine's name (run --machine): every host of this VM kind is 'vm'

    @property
    def label(self) -> str:
        """'Intel Xeon (6/207)', 'AMD EPYC Zen 4 (25/17)'; '(family unknown)' for a session stored without it."""
        brand = " ".join(_TRADEMARKS.sub(" ", self.cpu_model).split()) or "unknown CPU"
        if self.vendor == "AMD" and self.family is not None and self.model is not None and (zen := _zen(self.family, self.model)):
            brand += f" {zen}"
        where = f"{self.family}/{self.model}" if self.family is not None else "family unknown"
        return f"{brand} ({where})"


def vendor_of(facts: dict) -> str:
    """The CPU's vendor: recorded (cpu_vendor, since hosts are told apart), else read off the model string."""
    recorded = {"GenuineIntel": "Intel", "AuthenticAMD": "AMD"}.get(facts.get("cpu_vendor") or "", facts.get("cpu_vendor") or "")
    if recorded:
        return recorded
    text = (facts.get("cpu_model") or "").upper()
    return "Intel" if "INTEL" in text else "AMD" if "AMD" in text else ""


def host_of(facts: dict, name: str = "") -> Host:
    """A session's host from its stored machine facts (machine.info) and machine name; an older session's facts
    lack the family and model (cpu_stepping, recorded since 2026-11-23), so its host says 'family unknown'."""
    found = _FAMILY_MODEL.search(facts.get("cpu_stepping") or "")
    family, model = (int(found.group(1)), int(found.group(2))) if found else (None, None)
    cores = facts.get("cores")
    return Host(vendor_of(facts), family, model, facts.get("cpu_model") or "", cores if isinstance(cores, int) else None, name or "")


def labels(hosts: list[Host]) -> dict[Host, str]:
    """Each host's label, with its machine name and cores added where two hosts would otherwise read alike."""
    out = {}
    for h in hosts:
        twins = [o for o in hosts if o.label == h.label and o != h]
        out[h] = f"{h.label} on {h.name or '?'}, {h.cores or '?'} cores" if twins else h.label
    return out


def left_out_note(kept: Host, others: dict[int, Host], what: str) -> str:
    """One line when `what` took only the sessions of host `kept`: which sessions of which hosts it left out."""
    if not others:
        return ""
    by_host: dict[Host, list[int]] = {}
    for sid, h in sorted(others.items()):
        by_host.setdefault(h, []).append(sid)
    named = labels([kept, *by_host])
    parts = "; ".join(f"{', '.join(map(str, ids))} ({named[h]})" for h, ids in by_host.items())
    s = "s" if len(others) > 1 else ""
    return f"{what} uses only sessions of host {named[kept]}: session{s} {parts} left out (another host's ratios differ)"
