"""Code layouts: each compiled cell linked several times, its code in other places, so that a ratio between two
cells is not the accident of where one link put a hot loop.

One build is one layout: the same 21-byte loop ran 1.55x slower where it crossed a 64-byte line, and two builds of
one loop ran 0.63-1.49x of each other as linked (docs/results/2026-11-27-seed-fidelity-layouts). The field's
remedy, since Stabilizer (Curtsinger & Berger 2013) no longer builds, is to link K binaries with different layouts
and sample them (lld's --shuffle-sections and its run_benchmark.py, Go's -randlayout and its bent driver).

How a layout is made here, per language:
- C, C++, D (gcc, g++, clang, clang++, gdc, ldc2) and Rust (cargo): the cell is built a second time with compiler
  shims first on PATH (`bin/` of `tools_dir()`): every compile gets one section per function, and the final link
  goes through lld with `--reproduce`, which keeps every input of the link in a tar (the temporary objects too).
  Rust already emits one section per function; rustc links through `cc`, which is the shim. From that tar each
  layout is one lld run (milliseconds for a small C program): its function sections shuffled by a seed of its own
  and, in front of everything, 0, 16, 32 or 48 bytes of padding (the shifts in turn). Each layout a shuffle of its
  own: an earlier design linked one shuffle at the four shifts (a *block*), which placed a hot function once in
  each of its four places mod 64, but sampled the order of functions once a block; over eight layouts (two
  shuffles) capnp's C++ moved up to 1.6x with the order, and 10 of 38 A/A twins missed 1.00
  (docs/results/2026-11-27-seed-readbytes-layouts, make-bench-1.txt). With a shuffle a layout, every layout is
  an independent draw of placement, and the intervals are over pairs of layouts (stats.layout_clusters).
- Go: `go build` again with `-ldflags=-randlayout=SEED` (GOFLAGS), one seed a layout. Go aligns functions to
  32 bytes, so a function has only two places mod 64; they are drawn, not balanced.
- Java, Python and programs the suite did not build (peers): one layout. HotSpot places JIT code per process
  (each run is a process already); every Python row runs one interpreter binary.

Layouts live in the build cache beside their build (`build/<key>/layouts/`), by name: a warm cache links nothing.
The as-linked program (the plain build) is what `--layouts 1` times, as before; with K layouts it is the first of
them (named `as-linked`), beside K - 1 relinked ones, so that each report can show the as-linked figure too.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import tarfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from iorace.core.layout import AS_LINKED, LayoutSet
from iorace.core.paths import cache_dir
from iorace.manifest.cells import Cell
from iorace.run import build

LAYOUT_FORMAT = "1"  # bump to relink every cached layout
SHIFTS = (0, 16, 32, 48)  # bytes of .text linked first, in turn: each 16-byte-aligned function's four places mod 64
TWIN_SEEDS = 1000  # the A/A twin's shuffles start here: layouts of its own, independent of its reference's
BALANCE_SEED_STEP = 100_000  # the seeds layouts.balance tries when a layout's own cannot place the hot function
LINKED_LANGUAGES = ("c", "cpp", "d", "rust")  # relinked from lld's --reproduce tar
COMPILER_SHIMS = ("cc", "c++", "gcc", "g++", "clang", "clang++", "gdc", "ldc2")
LINK_TIMEOUT = 300


@dataclass
class _Capture:
    """What the second, shimmed build left: the link that made the program, and where the program lies."""

    repro: Path  # the extracted --reproduce folder (response.txt and every input)
    relpath: str  # the program's path in the build folder, e.g. "prog"


def one_layout_reason(cell: Cell) -> str:
    """Why a cell of this language has one layout only ('' when it can have several)."""
    lang = cell.variant.language
    if lang in LINKED_LANGUAGES or lang == "go":
        return ""
    if lang == "java":
        return "one layout: Java is not linked (HotSpot places its compiled code per process, and each run is one)"
    if lang == "python":
        return "one layout: every Python row runs the one interpreter binary"
    return f"one layout: {lang} programs are not relinked"


# ---------------------------------------------------------------------------------------------------------------
# The linker and the shims


@cache
def lld_command() -> tuple[str, ...] | None:
    """The lld to link layouts with: rustup's rust-lld (LLD 22 here, the linker rustc already links Rust cells
    with, and one that has every option used here), else Debian's `ld.lld` (scripts/setup installs the `lld`
    package when no rust-lld is found). None when neither is there."""
    try:
        sysroot = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True, timeout=60).stdout.strip()
        host = re.search(r"^host: (\S+)", subprocess.run(["rustc", "-vV"], capture_output=True, text=True, timeout=60).stdout, re.M)
    except (OSError, subprocess.SubprocessError):
        sysroot, host = "", None
    if sysroot and host:
        rust_lld = Path(sysroot) / "lib" / "rustlib" / host.group(1) / "bin" / "rust-lld"
        if rust_lld.exists():
            return (str(rust_lld), "-flavor", "gnu")
    found = shutil.which("ld.lld")
    return (found,) if found else None


def _shim(name: str) -> str:
    """A compiler shim: the real `name` (the next one on PATH) with one section per function, and, when it links,
    lld keeping every input of the link (--reproduce) in $IORACE_LAYOUT_CAPTURE. Without that variable it only
    passes its arguments on."""
    linking_flags = '-fuse-ld=lld "-B$here/../ld" "-Wl,--reproduce=$capture/link-$$.tar"'
    if name == "ldc2":  # LDC's own spellings; it links through `cc`, which is the shim that captures
        compile_flags, linking_flags = "--function-sections", "--linker=lld"
    else:
        compile_flags = "-ffunction-sections"
    return f"""#!/usr/bin/env bash
# iorace's layout shim for {name} (iorace/run/layouts.py): sections per function, links through lld --reproduce.
here=$(cd "$(dirname "$0")" && pwd)
rest=$(printf '%s' "$PATH" | tr ':' '\\n' | grep -vxF "$here" | paste -sd: -)
real=$(PATH="$rest" command -v {name}) || {{ echo "iorace layout shim: no {name} on PATH" >&2; exit 127; }}
capture=${{IORACE_LAYOUT_CAPTURE:-}}
[[ -z $capture ]] && exec "$real" "$@"
output=a.out next=
for arg in "$@"; do
  [[ -n $next ]] && {{ output=$arg; next=; }}
  case $arg in
    -c|-S|-E|-M|-MM|--version|-v|-dumpversion|-dumpmachine|-print-*) exec "$real" {compile_flags} "$@";;
    -o) next=1;;
    -o*) output=${{arg#-o}};;
  esac
done
[[ $output == /* ]] || output=$PWD/$output
printf '%s\\n' "$output" > "$capture/link-$$.out"  # lld's response file keeps only the output's name
exec "$real" {compile_flags} {linking_flags} "$@"
"""


def tools_dir() -> Path:
    """The shims (bin/) and lld as `ld.lld` (ld/), made once per content in the cache."""
    lld = lld_command()
    assert lld is not None, "lld_command() first"
    ld_script = f'#!/bin/sh\nexec {shlex.join(lld)} "$@"\n'
    texts = {f"bin/{n}": _shim(n) for n in COMPILER_SHIMS} | {"ld/ld.lld": ld_script}
    digest = hashlib.sha256(repr(sorted(texts.items())).encode()).hexdigest()[:16]
    root = cache_dir() / "layout-tools" / digest
    if not (root / ".made").exists():
        tmp = root.with_name(f"{digest}.tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        for rel, text in texts.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text)
            (tmp / rel).chmod(0o755)
        (tmp / ".made").write_text("")
        try:
            tmp.rename(root)
        except OSError:  # another process made it meanwhile
            shutil.rmtree(tmp, ignore_errors=True)
    return root


# ---------------------------------------------------------------------------------------------------------------
# Layout names and the designs


def layout_names(count: int, seed_base: int = 0) -> list[str]:
    """`count` layout names, a shuffle seed of its own each, the shifts in turn: s1+0 s2+16 s3+32 s4+48 s5+0 ..."""
    return [f"s{seed_base + 1 + i}+{SHIFTS[i % len(SHIFTS)]}" for i in range(count)]


def go_names(count: int, seed_base: int = 0) -> list[str]:
    return [f"go{seed_base + 1 + i}" for i in range(count)]


def _parse_name(name: str) -> tuple[int, int]:
    m = re.fullmatch(r"s(\d+)\+(\d+)", name)
    assert m, name
    return int(m.group(1)), int(m.group(2))


# ---------------------------------------------------------------------------------------------------------------
# Making them


def layouts_for(cell: Cell, count: int, seed_base: int = 0) -> LayoutSet:
    """The cell's `count` layouts, linked now or found in the cache (its build must be done: cell.build_dir).
    Never fails the cell: whatever goes wrong leaves it one layout, and the note says why."""
    if count < 2 or cell.build_dir is None:
        return LayoutSet()
    why = one_layout_reason(cell)
    if why:
        return LayoutSet(note=why)
    root = cell.build_dir / "layouts"
    relinked = count - 1 if seed_base == 0 else count  # the cell's own first layout is its as-linked build
    try:
        if cell.variant.language == "go":
            made = _go_layouts(cell, root, go_names(relinked, seed_base))
        elif lld_command() is None:
            return LayoutSet(note="one layout: no lld here (rustup's rust-lld or Debian's lld; scripts/setup installs it)")
        else:
            made = _lld_layouts(cell, root, layout_names(relinked, seed_base))
    except _NoLayouts as e:
        return LayoutSet(note=f"one layout: {e}")
    if seed_base:
        return made  # an A/A twin's layouts are all its own: none shared with its reference
    # The as-linked build is one of the layouts: the figure a plain build gives is then measured beside the others
    # (placement.Placement.as_linked), and counts as one more draw of where a linker puts the code.
    note = f"{made.note}; and the as-linked build ({AS_LINKED})"
    return LayoutSet((made.replaces, *made.programs), (AS_LINKED, *made.names), made.replaces, note)


class _NoLayouts(Exception):
    """Why a cell keeps its one, as-linked layout."""


def _lld_layouts(cell: Cell, root: Path, names: list[str]) -> LayoutSet:
    capture = _captured(cell, root)
    lld = lld_command()
    assert lld is not None
    programs = []
    for name in names:
        program = root / name / capture.relpath
        if not program.exists():
            _link(lld, capture.repro, name, program)
        programs.append(str(program))
    assert cell.build_dir is not None
    note = f"{len(names)} layouts: lld --shuffle-sections, a seed each, each used in turn"
    return LayoutSet(tuple(programs), tuple(names), str(cell.build_dir / capture.relpath), note)


def _link(lld: tuple[str, ...], repro: Path, name: str, program: Path) -> None:
    """One layout from the captured link: its sections shuffled by the name's seed, the shift's padding first."""
    seed, shift = _parse_name(name)
    pad = _pad_object(repro, shift)
    program.parent.mkdir(parents=True, exist_ok=True)
    tmp = program.with_name(program.name + f".tmp{os.getpid()}")
    argv = [*lld, *([pad] if pad else []), "@response.txt", f"--shuffle-sections=.text.*={seed}", "-o", str(tmp)]
    proc = subprocess.run(argv, cwd=repro, capture_output=True, text=True, timeout=LINK_TIMEOUT)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise _NoLayouts(f"relinking failed: {last}")
    tmp.chmod(0o755)
    tmp.rename(program)


def _pad_object(repro: Path, shift: int) -> str:
    """An object whose only content is `shift` bytes of .text (int3), put first on lld's command line so that
    every function after it moves by `shift` (a relative path: the captured link runs chrooted in `repro`)."""
    if shift == 0:
        return ""
    name = f"iorace-pad-{shift}.o"
    if not (repro / name).exists():
        src = repro / f"iorace-pad-{shift}.s"
        src.write_text(f'.section .text,"ax",@progbits\n.p2align 4\n.skip {shift}, 0xcc\n')
        proc = subprocess.run(["as", "-o", name, src.name], cwd=repro, capture_output=True, text=True, timeout=LINK_TIMEOUT)
        if proc.returncode != 0:
            raise _NoLayouts(f"the assembler could not make the padding: {proc.stderr.strip()[-200:]}")
    return name


def _captured(cell: Cell, root: Path) -> _Capture:
    """The link of the cell's program, captured once into root/capture (found there on a warm cache)."""
    done = root / "capture" / "done"
    if done.exists():
        stored_relpath, stored_repro = done.read_text().split("\n")[:2]
        return _Capture(Path(stored_repro), stored_relpath)
    tmp = root / f"capture.tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        tar, relpath = _capture_build(cell, tmp)
        repro_parent = root / "capture"
        shutil.rmtree(repro_parent, ignore_errors=True)
        repro_parent.mkdir(parents=True)
        with tarfile.open(tar) as t:
            top = t.getnames()[0].split("/")[0]
            if hasattr(tarfile, "tar_filter"):  # Python 3.11.4 on: refuse members that would land outside
                t.extractall(repro_parent, filter="tar")
            else:
                t.extractall(repro_parent)  # lld's own tar of this build's inputs
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    repro = repro_parent / top
    (repro_parent / "done").write_text(f"{relpath}\n{repro}\n")
    return _Capture(repro, relpath)


def _capture_build(cell: Cell, tmp: Path) -> tuple[Path, str]:
    """The cell's build again in `tmp`, through the shims: the --reproduce tar of the link that made its
    program, and the program's path in the build folder."""
    out, links = tmp / "out", tmp / "links"
    out.mkdir(parents=True)
    links.mkdir()
    env = {**os.environ, **cell.variant.env, "PATH": f"{tools_dir() / 'bin'}:{os.environ.get('PATH', '')}"}
    env["IORACE_LAYOUT_CAPTURE"] = str(links)
    command = build.build_command(cell, out)
    for attempt in range(2):
        output, code = build.run_command(command, out, env)
        if code != 0:
            raise _NoLayouts(f"the build with one section per function through lld failed: {_last_line(output)}")
        found = _find_program(links, out)
        if found is not None:
            return found
        if attempt == 0:  # cargo found its program up to date and linked nothing: make it link again
            now = time.time()
            for source in cell.variant.sources:
                os.utime(cell.suite.dir / source, (now, now))
    raise _NoLayouts("the build linked no program of its build folder through the shims (nothing to relink)")


def _find_program(links: Path, out: Path) -> tuple[Path, str] | None:
    """The captured link whose output is a program in the build folder (by content: cargo copies its program
    out of its target folder): (its --reproduce tar, the program's path in the folder)."""
    in_out = {_sha(p): str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and os.access(p, os.X_OK)}
    for tar in sorted(links.glob("link-*.tar")):
        made = Path(tar.with_suffix(".out").read_text().strip())  # what the shim read of the link's -o
        if made.is_file() and (rel := in_out.get(_sha(made))):
            return tar, rel
    return None


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _last_line(output: str) -> str:
    lines = [ln for ln in output.strip().splitlines() if ln.strip()]
    return lines[-1].strip()[:200] if lines else "no output"


def _go_layouts(cell: Cell, root: Path, names: list[str]) -> LayoutSet:
    """Go links itself: each layout is `go build` again (its compile cache makes that a link) with
    -ldflags=-randlayout=SEED in GOFLAGS."""
    assert cell.build_dir is not None
    rels = [w for w in build.run_argv(cell, Path(os.devnull)) if w.startswith(str(cell.build_dir) + os.sep)]
    if not rels:
        raise _NoLayouts("the run's command names no program of its build folder")
    replaces = rels[0]
    relpath = os.path.relpath(replaces, cell.build_dir)
    programs, digests = [], set()
    for name in names:
        program = root / name / relpath
        if not program.exists():
            tmp = root / f"{name}.tmp{os.getpid()}"
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            seed = name.removeprefix("go")
            env = {**os.environ, **cell.variant.env}
            env["GOFLAGS"] = f"{env.get('GOFLAGS', '')} -ldflags=-randlayout={seed}".strip()
            output, code = build.run_command(build.build_command(cell, tmp), tmp, env)
            if code != 0 or not (tmp / relpath).exists():
                shutil.rmtree(tmp, ignore_errors=True)
                raise _NoLayouts(f"go build -ldflags=-randlayout failed: {_last_line(output)}")
            shutil.rmtree(root / name, ignore_errors=True)
            tmp.rename(root / name)
        programs.append(str(program))
        digests.add(_sha(program))
    if len(names) > 1 and len(digests) < 2:
        raise _NoLayouts("every -randlayout seed gave the same program (does the build set -ldflags itself?)")
    return LayoutSet(tuple(programs), tuple(names), replaces, f"{len(names)} layouts: go build -ldflags=-randlayout=SEED")


def balance(cell: Cell, layouts: LayoutSet, symbol: str, found: str) -> LayoutSet:
    """The same layouts with `symbol` (the cell's hottest function: run/hotspot.py) placed alike: its start mod 64
    in each of its four 16-byte places in turn over the layouts, by relinking a layout whose shift puts it
    elsewhere with the shift that puts it there (same shuffle seed; the shift moves every function by 16, 32 or
    48 bytes). A loop's start is its function's plus a fixed offset, so the loop is balanced too: its mean over
    the layouts is not the luck of how many draws put it across a line. The as-linked build keeps its place and
    the others follow on from it. Returns the layouts unchanged, the note saying why, where that cannot be done."""
    if not layouts or not layouts.names or layouts.names[-1].startswith("go"):
        return layouts
    if not symbol:
        return LayoutSet(layouts.programs, layouts.names, layouts.replaces, f"{layouts.note}; drawn, not balanced: {found}")
    assert cell.build_dir is not None
    root = cell.build_dir / "layouts"
    # What balancing these layouts by this symbol gave, kept: a warm cache runs no nm and no lld (a symbol no
    # shift or seed could place cost up to 17 relinks and nm runs a layout, every session)
    key = hashlib.sha256(repr((LAYOUT_FORMAT, layouts.names, layouts.programs, symbol)).encode()).hexdigest()[:16]
    kept = root / "balanced" / f"{key}.json"
    if lld_command() is None:
        return LayoutSet(layouts.programs, layouts.names, layouts.replaces, f"{layouts.note}; drawn, not balanced: no lld here")
    outcome = _kept_balance(kept)
    if outcome is None:
        outcome = _balanced(cell, layouts, symbol, root)
        kept.parent.mkdir(parents=True, exist_ok=True)
        tmp = kept.with_name(f"{kept.name}.tmp{os.getpid()}")
        tmp.write_text(json.dumps(outcome))
        tmp.rename(kept)
    if "why" in outcome:
        return LayoutSet(layouts.programs, layouts.names, layouts.replaces, f"{layouts.note}; drawn, not balanced: {outcome['why']}")
    note = f"{layouts.note}; balanced by its hottest function, {found}: its start mod 64 in each of its four places in turn"
    return LayoutSet(tuple(outcome["programs"]), tuple(outcome["names"]), layouts.replaces, note)


def _kept_balance(path: Path) -> dict | None:
    """A balance kept by an earlier session: {"names", "programs"} or {"why"}; None when there is none (or one
    of its programs is gone from the cache)."""
    try:
        outcome = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(outcome, dict) or not ("why" in outcome or all(Path(p).exists() for p in outcome.get("programs", [""]))):
        return None
    return outcome


def _balanced(cell: Cell, layouts: LayoutSet, symbol: str, root: Path) -> dict:
    """The relinks that put `symbol` in each of its four places in turn: {"names", "programs"}, or {"why"} not."""
    try:
        relpath = _captured(cell, root).relpath
        places = [_place(Path(p), symbol) for p in layouts.programs]
        base = places[0] if layouts.names[0] == AS_LINKED else 0  # the as-linked build keeps its place: layout i goes i on
        programs, names = list(layouts.programs), list(layouts.names)
        for i, name in enumerate(names):
            if name == AS_LINKED:
                continue
            want = (base + i) % len(SHIFTS)
            if places[i] == want:
                continue
            names[i], programs[i] = _relinked_at(cell, root, relpath, name, places[i], want, symbol)
    except _NoLayouts as e:
        return {"why": str(e)}
    return {"names": names, "programs": programs}


def _relinked_at(cell: Cell, root: Path, relpath: str, name: str, place: int, want: int, symbol: str) -> tuple[str, str]:
    """A layout like `name` (its seed, another shift, or failing that other seeds) that starts `symbol` at the
    16-byte place `want` mod 64: its name and program."""
    lld = lld_command()
    assert lld is not None
    seed, shift = _parse_name(name)
    first = f"s{seed}+{(shift + SHIFTS[(want - place) % len(SHIFTS)]) % 64}"  # moves it, where nothing realigns it
    # else the other shifts, then other seeds (a section aligned to 64 bytes shuffled before it absorbs a shift)
    tries = [first] + [f"s{seed + BALANCE_SEED_STEP * j}+{sh}" for j in range(4) for sh in SHIFTS]
    for moved in dict.fromkeys(tries):
        program = root / moved / relpath
        if not program.exists():
            _link(lld, _captured(cell, root).repro, moved, program)
        if _place(program, symbol) == want:
            return moved, str(program)
    raise _NoLayouts(f"no shift or seed tried put {symbol} at {want * 16} bytes mod 64 (is it aligned to more?)")


def _place(program: Path, symbol: str) -> int:
    """Which of its four 16-byte places mod 64 `symbol` starts at in `program` (0-3), from nm."""
    address = _functions(str(program)).get(symbol)
    if address is None:
        raise _NoLayouts(f"nm does not find {symbol} in {program.name}")
    return (address % 64) // 16


@cache
def _functions(program: str) -> dict[str, int]:
    """Every function nm finds defined in a program, by name (a layout's program never changes once linked)."""
    proc = subprocess.run(["nm", "--defined-only", program], capture_output=True, text=True, timeout=LINK_TIMEOUT, check=False)
    out = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            out[parts[2]] = int(parts[0], 16)
    return out


def use_order(layouts: LayoutSet, rng: random.Random) -> list[int]:
    """The order a cell runs its layouts in, one a timed run, over and over: a random permutation, so that its
    layouts are used equally often (balanced, not drawn) and the rounds r, r + K, r + 2K ... of any two cells
    ran the same pair of programs (the report's intervals are over those pairs: stats.layout_clusters)."""
    order = list(range(len(layouts)))
    rng.shuffle(order)
    return order
