"""The C++ seed rows over link layouts, with where each side's hot loop lies (frozen beside its result).

Reads each session's per-layout ratios (tools/pair_timer.py --per-layout, cpp48-per-layout-N.tsv) and where each
binary's per-byte loop starts (placement-cpp.tsv), and fits, by least squares over the layouts of a row,

    log(ours_k / original_k) = a + g(class of ours_k) - h(class of original_k)

where a class is the loop's start mod 64 (functions are 16-aligned, so each side's loop has four classes) and
g, h are zero at each side's first class. The two sides' loops differ in offset and sometimes in length, so each
side gets its own g or h. The row's figure is the ratio with each side's placement drawn uniformly from its four
classes, exp(a + mean g - mean h): a link order decides the class, and a program with few functions draws some
classes more often than others (a property of that program's function list, not of its loop), so the layouts'
plain mean is re-weighted to equal classes (post-stratification). Where both sides run a loop of the same length
starting at the same offset mod 16 (the same classes), the script also fits one f for both and prints exp(a),
the ratio at the same placement, as by_placement.py does for the D rows.

usage: python by_placement_cpp.py SESSION...   (from this folder; e.g. 1 2)"""

from __future__ import annotations

import csv
import gzip
import math
import sys
from pathlib import Path

import numpy as np
from scipy import stats

HERE = Path(__file__).resolve().parent
# row label -> (our binary's stem, its mode, the original's stem); cpp48-pairs.tsv names the same binaries
ROWS = {
    "g++-1(count, as written)": ("g-ours-fread_buffer_as_written", "count", "g-orig-1-1"),
    "llvm-c++-1(count, as written)": ("c-ours-fread_buffer_as_written", "count", "c-orig-1-1"),
    "g++-2(count, as written)": ("g-ours-mmap_as_written", "count", "g-orig-2-1"),
    "llvm-c++-2(count, as written)": ("c-ours-mmap_as_written", "count", "c-orig-2-1"),
    "g++-3(count)": ("g-ours-fgetc", "count", "g-orig-3-1"),
    "llvm-c++-3(count)": ("c-ours-fgetc", "count", "c-orig-3-1"),
    "g++-3(count, fgetc_unlocked, as written)": ("g-ours-fgetc_unlocked_as_written", "count", "g-orig-4-1"),
    "llvm-c++-3(count, fgetc_unlocked, as written)": ("c-ours-fgetc_unlocked_as_written", "count", "c-orig-4-1"),
    "g++-5(count, as written)": ("g-ours-dlsym_fread_as_written", "count", "g-orig-5-1"),
    "llvm-c++-5(count, as written)": ("c-ours-dlsym_fread_as_written", "count", "c-orig-5-1"),
    "g++-1(sum)": ("g-ours-fread_buffer", "sum", "g-orig-1-2"),
    "llvm-c++-1(sum)": ("c-ours-fread_buffer", "sum", "c-orig-1-2"),
    "g++-2(sum, as written)": ("g-ours-mmap_as_written", "sum", "g-orig-2-2"),
    "llvm-c++-2(sum, as written)": ("c-ours-mmap_as_written", "sum", "c-orig-2-2"),
    "g++-3(sum)": ("g-ours-fgetc", "sum", "g-orig-3-2"),
    "llvm-c++-3(sum)": ("c-ours-fgetc", "sum", "c-orig-3-2"),
    "g++-3(sum, fgetc_unlocked)": ("g-ours-fgetc_unlocked", "sum", "g-orig-4-2"),
    "llvm-c++-3(sum, fgetc_unlocked, as written)": ("c-ours-fgetc_unlocked_as_written", "sum", "c-orig-4-2"),
    "g++-5(sum)": ("g-ours-dlsym_fread", "sum", "g-orig-5-2"),
    "llvm-c++-5(sum)": ("c-ours-dlsym_fread", "sum", "c-orig-5-2"),
    # the as-written twins of the rows above that had none (timed in sessions of their own, same binaries' layouts)
    "g++-1(sum, as written)": ("g-ours-fread_buffer_as_written", "sum", "g-orig-1-2"),
    "llvm-c++-1(sum, as written)": ("c-ours-fread_buffer_as_written", "sum", "c-orig-1-2"),
    "g++-3(count, as written)": ("g-ours-fgetc_as_written", "count", "g-orig-3-1"),
    "llvm-c++-3(count, as written)": ("c-ours-fgetc_as_written", "count", "c-orig-3-1"),
    "g++-3(sum, as written)": ("g-ours-fgetc_as_written", "sum", "g-orig-3-2"),
    "llvm-c++-3(sum, as written)": ("c-ours-fgetc_as_written", "sum", "c-orig-3-2"),
    "g++-3(sum, fgetc_unlocked, as written)": ("g-ours-fgetc_unlocked_as_written", "sum", "g-orig-4-2"),
    "g++-5(sum, as written)": ("g-ours-dlsym_fread_as_written", "sum", "g-orig-5-2"),
    "llvm-c++-5(sum, as written)": ("c-ours-dlsym_fread_as_written", "sum", "c-orig-5-2"),
}


HEADER = ("row", "session", "layouts", "our classes (bytes)", "their classes (bytes)", "over layouts [95%]")
HEADER += ("equal classes [95%]", "same placement [95%]")


def opened(name: str):
    """HERE/NAME, or NAME.gz (the study keeps its larger tables gzipped), as text."""
    return gzip.open(HERE / f"{name}.gz", "rt", newline="") if (HERE / f"{name}.gz").exists() else (HERE / name).open(newline="")


def per_layout(session: str) -> dict[str, dict[int, float]]:
    """Row label -> layout -> its log ratio ours / original (CPU), from the mean of its pairs' log ratios."""
    out: dict[str, dict[int, float]] = {}
    with opened(f"cpp48-per-layout-{session}.tsv") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            label = r["label"].removesuffix(" over layouts")
            out.setdefault(label, {})[int(r["layout"])] = math.log(float(r["cpu ratio [95%]"].split()[0]))
    return out


def placement() -> dict[tuple[str, str], tuple[int, int]]:
    """(binary, mode) -> (the loop's start mod 64, its length in bytes)."""
    with opened("placement-cpp.tsv") as f:
        return {(r["binary"], r["mode"]): (int(r["start_mod64"]), int(r["loop_bytes"])) for r in csv.DictReader(f, delimiter="\t")}


def fit(y: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Least squares: the coefficients, their covariance, the residual degrees of freedom."""
    beta, _, rank, _ = np.linalg.lstsq(x, y, rcond=None)
    dof = len(y) - rank
    resid = y - x @ beta
    return beta, (resid @ resid / dof) * np.linalg.pinv(x.T @ x), dof


def interval(est: float, se: float, dof: int) -> str:
    t = stats.t.ppf(0.975, dof)
    return f"{math.exp(est):.3f} [{math.exp(est - t * se):.3f}-{math.exp(est + t * se):.3f}]"


def dummies(classes: list[int], levels: list[int]) -> np.ndarray:
    return np.array([[1.0 if c == lv else 0.0 for lv in levels[1:]] for c in classes]).reshape(len(classes), len(levels) - 1)


def row_figures(y: np.ndarray, ours: list[int], theirs: list[int], same_loop: bool) -> tuple[str, str, str]:
    """The layouts' plain mean, the mean re-weighted to equal classes on each side, and (where both sides'
    classes are the same) the ratio at the same placement."""
    n = len(y)
    plain = interval(y.mean(), y.std(ddof=1) / math.sqrt(n), n - 1)
    lo, lt = sorted(set(ours)), sorted(set(theirs))
    x = np.hstack([np.ones((n, 1)), dummies(ours, lo), -dummies(theirs, lt)])
    beta, cov, dof = fit(y, x)
    # a + mean over our classes of g - mean over theirs of h (g, h = 0 at the first class; the columns of
    # theirs are negated, so their coefficients are h itself)
    weights = np.concatenate([[1.0], np.full(len(lo) - 1, 1 / len(lo)), np.full(len(lt) - 1, -1 / len(lt))])
    strat = interval(weights @ beta, math.sqrt(weights @ cov @ weights), dof)
    same = "-"
    if same_loop and lo == lt:
        x1 = np.hstack([np.ones((n, 1)), dummies(ours, lo) - dummies(theirs, lo)])
        b1, c1, d1 = fit(y, x1)
        same = interval(b1[0], math.sqrt(c1[0, 0]), d1)
    return plain, strat, same


def main() -> None:
    sessions = sys.argv[1:] or ["1"]
    where = placement()
    print("\t".join(HEADER))
    for label, (ours, mode, theirs) in ROWS.items():
        for s in sessions:
            ratios = per_layout(s)[label]
            layouts = sorted(ratios)
            y = np.array([ratios[k] for k in layouts])
            co = [where[(f"{ours}-L{k}", mode)][0] for k in layouts]
            ct = [where[(f"{theirs}-L{k}", mode)][0] for k in layouts]
            bo, bt = where[(f"{ours}-L1", mode)][1], where[(f"{theirs}-L1", mode)][1]
            plain, strat, same = row_figures(y, co, ct, bo == bt)
            print("\t".join([label, s, str(len(y)), f"{sorted(set(co))} ({bo})", f"{sorted(set(ct))} ({bt})", plain, strat, same]))


if __name__ == "__main__":
    main()
