"""`iorace seeds`: each seed's own configuration, declared in its suite's [seed] block, as the cells of one run.

A seed's rows are its published table's rows; each names the cell that answers it here (its variant,
toolchain, profile and parameters) or says why none can. The cells of a seeds run are exactly the cells its
rows name, at the seed's own size (or --size), so the seed's table is the session's own: measured, stored,
reported and exported by the run machinery like any session.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from iorace.core.errors import UsageError
from iorace.manifest.cells import Cell, dataset_refs, expand
from iorace.manifest.schema import SeedConfig, SeedRow
from iorace.manifest.suites import Suite


def seeded(suites: list[Suite]) -> dict[str, tuple[Suite, SeedConfig]]:
    """Every seed the suites declare, by name, in the seeds' order (their write-ups' numbers)."""
    out: dict[str, tuple[Suite, SeedConfig]] = {}
    for s in suites:
        if (cfg := s.manifest.seed_config) is not None:
            if cfg.name in out:
                raise UsageError(f"{s.dir / 'suite.toml'}: seed: name {cfg.name!r} is also suite {out[cfg.name][0].name}'s")
            out[cfg.name] = (s, cfg)
    return dict(sorted(out.items(), key=lambda kv: kv[1][1].file))


def select(suites: list[Suite], names: list[str]) -> list[tuple[Suite, SeedConfig]]:
    """The seeds named (all when none is), or a usage error naming the known ones."""
    known = seeded(suites)
    if unknown := [n for n in names if n not in known]:
        raise UsageError(f"no seed {unknown[0]!r} (seeds: {', '.join(known) or 'none'})")
    return [known[n] for n in dict.fromkeys(names)] if names else list(known.values())


def matches(row: SeedRow, cell: Cell) -> bool:
    """Whether `cell` is the one the row names: its variant, toolchain, profile and the row's parameters."""
    return (
        bool(row.cell)
        and (cell.variant.key, cell.toolchain.name, cell.profile) == (row.variant_key, row.toolchain, row.profile)
        and all(cell.params.get(k) == v for k, v in row.params.items())
    )


def mapping(suite: Suite, sizes: list[str] | None = None) -> list[tuple[SeedRow, list[Cell]]]:
    """Each seed row with the cells it names among every cell of the suite at the seed's size (or `sizes`,
    as --size takes them): one per dataset for a row that runs here, none for a row with a `why`."""
    cfg = suite.manifest.seed_config
    if cfg is None:
        return []
    refs = dataset_refs(suite, sizes or [f"{suite.name}={cfg.size}"], [])
    every = expand(suite, refs, [], [], ["all"], [])
    return [(row, [c for c in every if matches(row, c)]) for row in suite.manifest.seed_rows()]


def unmapped(suite: Suite) -> list[str]:
    """The seed rows that map to no cell and give no reason, or to more than one cell per dataset: what
    must never happen (a row would vanish from the seed's table, or stand for two cells)."""
    out = []
    for row, cells in mapping(suite):
        if row.cell and len(cells) != 1:
            found = ", ".join(c.label for c in cells) or "no cell"
            out.append(f"{suite.name}: seed row {row.label!r} ({row.cell} {row.params or ''}): {found}")
    return out


def rows_matching(suite: Suite, globs: list[str]) -> set[str]:
    """`iorace seeds --row`: the labels of the seed's rows that match one of `globs` (case-insensitive), with
    the rows their ratios divide by, and theirs in turn: a row re-timed alone still has its baseline beside it."""
    cfg = suite.manifest.seed_config
    if cfg is None:
        return set()
    rows = {r.label: r for r in suite.manifest.seed_rows()}
    todo = [label for label in rows if any(fnmatchcase(label.lower(), g.lower()) for g in globs)]
    picked: set[str] = set()
    while todo:
        label = todo.pop()
        if label in picked or label not in rows:
            continue
        picked.add(label)
        todo.append(rows[label].baseline or cfg.baseline)
    return picked


def cells(suite: Suite, sizes: list[str], rows: list[str] | None = None) -> list[Cell]:
    """The cells of one seed's configuration: those its rows name (only the rows `rows` picks, when given:
    rows_matching), each once, in the suite's order, at the seed's own size unless --size names one for every
    suite (NAME) or for this one (SUITE=NAME)."""
    if problems := unmapped(suite):
        raise UsageError(problems[0])
    mine = [v for v in sizes if "=" not in v or v.startswith(f"{suite.name}=")]
    wanted = rows_matching(suite, rows) if rows else None
    picked = {id(c): c for row, found in mapping(suite, mine or None) if wanted is None or row.label in wanted for c in found}
    return list(picked.values())
