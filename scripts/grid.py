"""The formats suite's answer as `make docs` draws it (scripts/docs.py): for each stored session of the study that
holds it (`grid = "formats"` in its study.toml), one grid per data set and op, formats (the variants) by
languages, each cell its ratio to the table's fastest cell with its 95% interval, then the bytes each format's
programs write, with their zlib and zstd sizes (measured by the harness: run/encoded.py), and the library
behind each cell (its manifest description, which names the version)."""

from __future__ import annotations

from collections import defaultdict

LANGUAGE_ORDER = ["cpp", "rust", "go", "java", "python", "c", "d"]


def _ratio(cell: dict) -> str:
    if cell.get("status") != "ok":
        return cell.get("status", "-")
    ratio, ci = cell.get("ratio"), cell.get("ratio_ci95")
    if ratio is None:
        return "untimed"
    text = f"{ratio:.2f}x"
    if ci and ci[0] is not None and ci[1] is not None and ci != [ratio, ratio]:
        text += f" [{ci[0]:.2f}-{ci[1]:.2f}]"
    elif ratio != 1.0:
        text += " (no interval: raced out early)"  # the race stopped timing it far behind (run/race.py)
    return f"**{text}**" if ratio == 1.0 else text


def _languages(cells: list[dict]) -> list[str]:
    found = {c["language"] for c in cells}
    return [lang for lang in LANGUAGE_ORDER if lang in found] + sorted(found - set(LANGUAGE_ORDER))


def _table(rows: list[str], columns: list[str], value: dict[tuple[str, str], str], corner: str) -> list[str]:
    out = [f"| {corner} | " + " | ".join(columns) + " |", "|---|" + "--:|" * len(columns)]
    for row in rows:
        out.append(f"| {row} | " + " | ".join(value.get((row, col), "") for col in columns) + " |")
    return out


def cells_of(doc: dict, suite: str) -> list[dict]:
    """The suite's cells of an export, the variant cells only (an A/A twin, a limit row: not the grid's)."""
    every = doc.get("results", []) + doc.get("iorace_unmeasured", [])
    return [c for c in every if c.get("suite") == suite and c.get("kind", "variant") == "variant"]


def _skipped_by_size(cells: list[dict]) -> bool:
    """Skipped for the data set (a variant's `skip`, as the full tier's cells at quick), not for the op."""
    return all(str(c.get("detail", "")).startswith("not run on ") for c in cells)


def _skip_reason(cells: list[dict]) -> str:
    """The manifest's reason in a skipped cell's detail: "not run on quick: full tier (suite.toml)" -> "full tier"."""
    detail = str(cells[0].get("detail", ""))
    return detail.partition(": ")[2].removesuffix(" (suite.toml)") or "skipped"


def grids(doc: dict, suite: str = "formats") -> list[str]:
    """A session's grids (one per data set and op) and its size table, as Markdown lines."""
    cells = cells_of(doc, suite)
    if not cells:
        return ["(no cell of the suite in this export)"]
    languages = _languages(cells)
    formats = sorted({c["variant"] for c in cells})
    lines: list[str] = []
    tables: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for c in cells:
        tables[(c["dataset"], str(c.get("parameters", {}).get("op", "")))].append(c)
    for (dataset, op), group in sorted(tables.items()):
        toolchains = {c["toolchain"] for c in group}
        value: dict[tuple[str, str], str] = {}
        for c in group:
            key = (c["variant"], c["language"])
            shown = _ratio(c) + (f" ({c['toolchain']})" if len(toolchains) > len({c["language"] for c in group}) else "")
            value[key] = f"{value[key]}<br>{shown}" if key in value else shown
        # a format whose every cell of this op the manifest leaves out (skip_params: op=read of a format parsed, not
        # read in place) is no row of its grid, only named under it
        mine = {f: [c for c in group if c["variant"] == f] for f in formats}
        left_out = [f for f in formats if mine[f] and all(c.get("status") == "skipped" for c in mine[f])]
        rows = [f for f in formats if f not in left_out]
        lines += [f"**{op or 'all'}** · {dataset}: each cell's time over the fastest cell's, 95% interval", ""]
        lines += _table(rows, languages, value, "format")
        lines.append("")
        by_op = [f for f in left_out if not _skipped_by_size(mine[f])]
        by_size = [f for f in left_out if _skipped_by_size(mine[f])]
        if by_op:
            lines += [f"Not run with op={op} (the manifest's skip_params): {', '.join(by_op)}.", ""]
        if by_size:
            lines += [f"Not run on {dataset} (the variants' skip: {_skip_reason(mine[by_size[0]])}): {', '.join(by_size)}.", ""]
    sizes: dict[tuple[str, str], str] = {}
    libraries: dict[tuple[str, str], str] = {}
    for c in cells:
        extra = c.get("extra") or {}
        if "bytes" in extra:
            sizes[(c["variant"], c["language"])] = f"{extra['bytes']:,.0f} / {extra.get('zlib', 0):,.0f} / {extra.get('zstd', 0):,.0f}"
        libraries[(c["variant"], c["language"])] = c.get("description", "").split(":")[0]
    datasets = sorted({c["dataset"] for c in cells})
    if sizes:
        lines += [f"Bytes written ({', '.join(datasets)}), then zlib-6 and zstd-3 of them, all measured by the harness:", ""]
        lines += _table([f for f in formats if any(v == f for v, _ in sizes)], languages, sizes, "format")
        lines.append("")
    lines += ["Libraries:", ""]
    lines += _table(formats, languages, libraries, "format")
    return lines
