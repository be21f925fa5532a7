"""The two sides of `iorace compare`: what a comparison reads of each, a stored session (its id), several pooled
(ids joined by commas), a session's JSON export, or `git:REV` (the latest stored session made at that git
revision), each as a Side of CellSamples; and the sessions before B that rule persist judges B with. Judged in
judge.py, drawn in draw.py."""

from __future__ import annotations

import json
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from iorace.analyse.analysis import analyse
from iorace.analyse.contention import contention
from iorace.analyse.stats import NO_LEVEL, Level
from iorace.core import gzfile, machine
from iorace.core.errors import UsageError
from iorace.core.host import host_of
from iorace.core.ids import CellId, TableId
from iorace.store.db import SessionData, Store, open_existing


@dataclass
class CellSample:
    """One cell of one side: what a comparison needs, from a stored session or a JSON export."""

    suite: str
    dataset: str
    params: dict[str, str]
    key: str  # language/variant
    toolchain: str
    profile: str
    label: str
    status: str
    metric: str  # inner | wall | cpu: what `values` measure (Run.metric_ns)
    values: list[float]  # seconds, one per timed run
    instructions: int | None = None
    kind: str = "variant"
    rounds: dict[int, float] = field(default_factory=dict)  # the cost of each measured round (paired ratios pair them)
    table: TableId = field(default_factory=lambda: TableId("", "", "{}"))  # the table the cell is ranked in
    toolchain_version: str = ""  # the version line of its toolchain ('' from a JSON export without it)
    estimated_cycles: int | None = None  # cachegrind's cache simulation: L1 + 5 x LL + 35 x RAM hits (exact)
    scale_params: tuple[str, ...] = ()  # its suite's parameters that only scale the work (passes, --target-ms's)
    level: Level = NO_LEVEL  # its session's session-to-session level of its suite's ratios (analyse/session_spread.py)
    layouts: dict[int, int | None] = field(default_factory=dict)  # each measured round's code layout (run/layouts.py)
    layout_set: tuple[str, ...] = ()  # which programs those are: its command and its layouts' names (): one layout

    @property
    def ident(self) -> CellId:
        """Its identity across sessions, the scale parameters left out: --target-ms sizes a cell's passes anew in
        every session, and a cell is compared per unit of work, so 12 passes and 14 are the same cell."""
        return CellId.of(self.suite, self.dataset, self.params, self.key, self.toolchain, self.profile, self.scale_params)

    @property
    def name(self) -> str:
        return f"{self.suite} {self.dataset} {self.label}"


@dataclass
class Side:
    name: str  # "session 12", "old.json"
    git_revision: str
    started: str
    cells: list[CellSample]
    # What the side ran on besides the code (context_of): the machine, its context, the session's options.
    context: dict = field(default_factory=dict)

    @property
    def suites(self) -> set[str]:
        return {c.suite for c in self.cells}


def _params(params: dict) -> dict[str, str]:
    return {k: str(v) for k, v in params.items()}


def per_unit(values: list[float], rounds: dict[int, float], metric: str, scale_params: list[str], units: dict) -> tuple:
    """A cell of a suite whose cells differ in their amount of work (passes, what --target-ms sizes anew in each
    session) is compared across sessions per unit of that work: its values and rounds divided by its work, and
    its metric named so ("inner/byte"); other cells as they are."""
    unit = next(iter(units), "") if scale_params else ""
    work = units.get(unit) if unit else None
    if not work:
        return values, rounds, metric
    name = unit[:-1] if unit.endswith("s") else unit
    return [v / work for v in values], {k: v / work for k, v in rounds.items()}, f"{metric}/{name}"


def side_from_session(s: SessionData, name: str | None = None) -> Side:
    cells = []
    for g in analyse(s):
        for r in g.rows:
            c = r.cell
            raw_rounds = {k: v * r.scale for k, v in r.cost_by_round().items()}  # each round's own time
            values, rounds, metric = per_unit(r.primary_values(), raw_rounds, r.metric, g.scale_params, c.units)
            cells.append(
                CellSample(
                    c.suite,
                    c.dataset,
                    _params(c.params),
                    c.key,
                    c.toolchain,
                    c.profile,
                    c.label,
                    c.status,
                    metric,
                    values,
                    c.instructions,
                    c.kind,
                    rounds,
                    TableId.of(g.suite, g.dataset, g.params, g.scale_params),
                    c.toolchain_version,
                    c.estimated_cycles,
                    tuple(g.scale_params),
                    g.session_level,
                    r.layout_by_round(),
                    _layout_set(c.command, c.layout_names),
                )
            )
    return Side(name or f"session {s.id}", s.git_revision, s.started, cells, context_of(_meta(s)))


def _layout_set(command: object, names: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The identity of a cell's code layouts: its command's words (its program lies in the build cache under its
    build's content key; a layout replaces that word), numbers left out (the work --target-ms sizes anew in a
    session), and its layouts' names (a seed and a shift each, found in that build's cache by name); () for a
    cell of one layout."""
    if not names:
        return ()
    try:
        words = list(command) if isinstance(command, (list, tuple)) else shlex.split(str(command))
    except ValueError:
        words = str(command).split()
    return (*(str(w) for w in words if not str(w).isdigit()), "|", *names)


def _meta(s: SessionData) -> dict:
    names = ("machine", "machine_name", "machine_fingerprint", "machine_context", "toolchains", "options")
    quiet = contention(s)
    return {
        **{k: getattr(s, k) for k in names},
        "contention": quiet.as_dict(),
        "contention_line": quiet.line,
        "host_note": s.options.get("host_note", ""),
    }


def context_of(meta: dict) -> dict:
    """A side's context from a session's fields (or a JSON export's `iorace` section, which has the same names)."""
    facts = meta.get("machine") or {}
    ctx = meta.get("machine_context") or machine.context(facts, meta.get("toolchains") or {})
    return {
        "machine": meta.get("machine_name") or facts.get("hostname") or "",
        "fingerprint": meta.get("machine_fingerprint") or machine.fingerprint(facts),
        "cpu_model": facts.get("cpu_model") or "",
        # the host (core/host.py): one machine name is served by hosts whose ratios differ
        "host": host_of(facts, meta.get("machine_name") or "").label if facts.get("cpu_model") else "",
        "host_note": meta.get("host_note") or "",  # a pooled side's sessions of another host, left out
        "context": ctx,
        "options": meta.get("options") or {},
        # was its machine quiet (a JSON export carries the numbers, a stored session the line too)
        "contended": bool((meta.get("contention") or {}).get("contended")),
        "contention_line": meta.get("contention_line") or "contended (from its JSON export)",
    }


REQUIRED = ("suite", "dataset", "variant", "language", "toolchain", "profile", "status", "label")


def side_from_json(path: Path) -> Side:
    try:
        doc = json.loads(gzfile.read_text(path))  # an export stored gzipped (X.json.gz) too
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: cannot read: {e}") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}: not JSON ({e})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("iorace"), dict) or not isinstance(doc.get("results"), list):
        raise UsageError(f"{path}: not an iorace JSON export (no 'iorace' section and 'results' list)")
    cells = []
    for r in doc["results"] + list(doc.get("iorace_unmeasured") or []):
        if not isinstance(r, dict) or any(k not in r for k in REQUIRED):
            raise UsageError(f"{path}: not an iorace JSON export (a result lacks {', '.join(REQUIRED)})")
        metric = r.get("metric") or "wall"
        values = [float(v) for v in r.get({"inner": "inner_times", "cpu": "cpu_times"}.get(metric, "times")) or []]
        # one run per round: by the round each was made in (an older export without them: in order)
        by_round = dict(zip(r.get("rounds") or range(len(values)), values, strict=False))
        layouts = dict(zip(r.get("rounds") or range(len(values)), r.get("layouts") or [], strict=False))
        values, by_round, metric = per_unit(values, by_round, metric, r.get("scale_parameters") or [], r.get("units_per_run") or {})
        cells.append(
            CellSample(
                r["suite"],
                r["dataset"],
                _params(r.get("parameters") or {}),
                f"{r['language']}/{r['variant']}",
                r["toolchain"],
                r["profile"],
                r["label"],
                r["status"],
                metric,
                values,
                r.get("instructions"),
                str(r.get("kind") or "variant"),
                by_round,
                TableId.of(r["suite"], r["dataset"], r.get("parameters") or {}, r.get("scale_parameters") or ()),
                estimated_cycles=r.get("estimated_cycles"),
                scale_params=tuple(r.get("scale_parameters") or ()),
                level=Level(float(r.get("session_sd") or 0.0), float(r.get("session_sd_per_round") or 0.0)),
                layouts=layouts,
                layout_set=_layout_set(str(r.get("command") or ""), r.get("layout_names") or []),
            )
        )
    meta = doc["iorace"]
    return Side(path.name, str(meta.get("git_revision", "?")), str(meta.get("started", "?")), cells, context_of(meta))


def _resolve_rev(rev: str) -> str:
    """A git revision name (HEAD~1, a branch, a short hash) as the full hash, when this checkout knows it."""
    from iorace.core.paths import REPO_SUITES

    try:
        out = subprocess.run(
            ["git", "-C", str(REPO_SUITES.parent), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return rev
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else rev


def session_at_revision(store: Store, rev: str, suites: set[str] | None = None) -> int:
    """The latest stored session made at git revision `rev` (preferring one with a suite in `suites`)."""
    full = _resolve_rev(rev)
    rows = store.revisions()
    matching = [sid for sid, g in rows if g.split("+")[0].startswith(full.lower()) or g.split("+")[0] == full]
    if not matching:
        raise UsageError(f"git:{rev}: no stored session was made at that revision ({full[:12]})")
    if suites:
        for sid in matching:
            have = store.suites_of_session(sid)
            if have & suites:
                return sid
    return matching[0]


def load_side(spec: str, db: Path | str, other: Side | None = None) -> Side:
    """A session id, several joined by commas (pooled: pool.pool), git:REV, or a JSON export's path."""
    if "," in spec and all(p.strip().isdigit() for p in spec.split(",")):
        from iorace.analyse.pool import pool

        store = _open(db, spec)
        pooled = pool([store.load(int(p)) for p in spec.split(",")])  # one host's sessions: the last one's
        ids = pooled.options.get("pooled", [pooled.id])
        return side_from_session(pooled, f"sessions {', '.join(map(str, ids))} (pooled)" if len(ids) > 1 else f"session {pooled.id}")
    if spec.startswith("git:"):
        store = _open(db, spec)
        sid = session_at_revision(store, spec[4:], other.suites if other else None)
        return side_from_session(store.load(sid), f"session {sid} (git {spec[4:]})")
    if spec.isdigit():
        return side_from_session(_open(db, spec).load(int(spec)))
    path = Path(spec)
    if path.is_file():
        return side_from_json(path)
    raise UsageError(f"{spec}: not a session id, a git:REV or an existing JSON export")


def _open(db: Path | str, spec: str) -> Store:
    return open_existing(db, f"{spec}: ")


def sessions_before(spec: str, db: Path | str, a: Side, n: int) -> list[Side]:
    """The n sessions before B (a stored session id) on B's machine with a suite of A, after A when A is a
    stored session: what rule persist judges B with."""
    if not spec.isdigit():
        raise UsageError(f"--rule persist: B must be a stored session id (not {spec}): its earlier sessions are read from the store")
    store = _open(db, spec)
    b_id = int(spec)
    names = store.machine_names()
    after = int(a.name.split()[1]) if a.name.startswith("session ") and a.name.split()[1].isdigit() else 0
    ids = sorted({sid for suite in a.suites for sid in store.sessions_with_suite(suite)})
    mine = [sid for sid in ids if after < sid < b_id and names.get(sid) == names.get(b_id)]
    if len(mine) < n:
        raise UsageError(
            f"--rule persist: {n + 1} sessions wanted (B and {n} before it on its machine, after A); "
            f"{len(mine) + 1} there ({', '.join(map(str, [*mine, b_id]))})"
        )
    return [side_from_session(store.load(sid)) for sid in mine[-n:]]
