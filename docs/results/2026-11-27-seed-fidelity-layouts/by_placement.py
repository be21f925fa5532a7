"""Where the hot code lies, and what it costs, from the layout sessions (frozen beside its result).

Reads each session's per-layout ratios (tools/pair_timer.py --per-layout) and where each binary's hot code
lies (placement-*.tsv), and fits, by least squares over the layouts of a row,

    log(ours_k / original_k) = a + f(class of ours_k) - f(class of original_k)

where a class is where the hot code starts, mod 64 (readbytes #6 and #7: the counting loop's head; deser: the
virtual grainUByte called 48 times an op), f(0) = 0. Both sides run the same loop or function at the same
offset in it, so one f serves both; exp(a) is then ours / original at the same placement, the row's work
without the placement accident, and exp(f(c)) what placement class c costs against class 0. The same fit
with an f per side checks that assumption. Layout k of ours and of the original are unrelated draws, each
pair timed side by side (so the machine's speed cancels in the pair's ratio).

usage: python by_placement.py SESSION...   (from this folder; e.g. 1 2 3)"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

import numpy as np
from scipy import stats

HERE = Path(__file__).resolve().parent
ROWS = {  # row label prefix -> (per-layout file stem, placement file, our prefix, their prefix, class column)
    "d2-LDC-6": ("rb6", "placement-readbytes.tsv", "ours-L", "orig-L", "head_mod64"),
    "d2-LDC-7": ("rb6", "placement-readbytes.tsv", "ours7-L", "orig7-L", "head_mod64"),
    "deser-classes": ("deser", "placement-deser.tsv", "ours-L", "orig-L", "grainUByte_mod64"),
    "deser-structs": ("deser", "placement-deser.tsv", "ours-s-L", "orig-s-L", "grainUByte_mod64"),
}


def per_layout(stem: str, session: str) -> dict[str, dict[int, float]]:
    """Row label -> layout -> its log ratio ours / original (CPU), the mean of its pairs' log ratios."""
    out: dict[str, dict[int, float]] = {}
    with (HERE / f"{stem}-per-layout-{session}.tsv").open() as f:
        for r in csv.DictReader(f, delimiter="\t"):
            out.setdefault(r["label"], {})[int(r["layout"])] = math.log(float(r["cpu ratio [95%]"].split()[0]))
    return out


def classes(placement: str, column: str) -> dict[str, int]:
    with (HERE / placement).open() as f:
        return {r["binary"]: int(r[column]) for r in csv.DictReader(f, delimiter="\t")}


def fit(y: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Least squares with each coefficient's standard error and the residual degrees of freedom."""
    beta, _, rank, _ = np.linalg.lstsq(x, y, rcond=None)
    dof = len(y) - rank
    resid = y - x @ beta
    cov = (resid @ resid / dof) * np.linalg.pinv(x.T @ x)
    return beta, np.sqrt(np.diag(cov)), dof


def ci(b: float, se: float, dof: int) -> str:
    t = stats.t.ppf(0.975, dof)
    return f"{math.exp(b):.3f} [{math.exp(b - t * se):.3f}-{math.exp(b + t * se):.3f}]"


def report(label: str, ys: dict[int, float], ours: list[int], theirs: list[int]) -> None:
    levels = sorted(set(ours) | set(theirs))
    others = levels[1:]  # f(levels[0]) = 0
    y = np.array([ys[k] for k in sorted(ys)])
    x = np.array([[1.0] + [float(o == c) - float(t == c) for c in others] for o, t in zip(ours, theirs, strict=True)])
    beta, se, dof = fit(y, x)
    mean = stats.t.ppf(0.975, len(y) - 1) * np.std(y, ddof=1) / math.sqrt(len(y))
    print(f"{label}: {len(y)} layouts")
    centre = float(y.mean())
    print(
        f"  mean over layouts                         {math.exp(centre):.3f} [{math.exp(centre - mean):.3f}-{math.exp(centre + mean):.3f}]"
    )
    print(f"  at the same placement (exp a)             {ci(beta[0], se[0], dof)}")
    for i, c in enumerate(others, 1):
        print(f"  placement {c:2d} mod 64 against {levels[0]} (exp f)    {ci(beta[i], se[i], dof)}")
    count = {c: (ours.count(c), theirs.count(c)) for c in levels}
    print("  layouts per class, ours / original:       " + ", ".join(f"{c}: {o}/{t}" for c, (o, t) in count.items()))
    # the check: an f per side (ours' and the original's placement costs fitted apart)
    x2 = np.array([[1.0] + [float(o == c) for c in others] + [-float(t == c) for c in others] for o, t in zip(ours, theirs, strict=True)])
    b2, se2, dof2 = fit(y, x2)
    n = len(others)
    apart = ", ".join(f"{c}: {math.exp(b2[1 + i]):.3f} / {math.exp(b2[1 + n + i]):.3f}" for i, c in enumerate(others))
    print(f"  f apart, ours / original:                 {apart} (a: {ci(b2[0], se2[0], dof2)})")


def main() -> None:
    sessions = sys.argv[1:] or ["1"]
    for prefix, (stem, placement, mine, theirs, column) in ROWS.items():
        where = classes(placement, column)
        for session in sessions:
            table = per_layout(stem, session)
            label = next((k for k in table if k.startswith(prefix)), None)
            if label is None:
                continue
            ys = table[label]
            ks = sorted(ys)
            report(f"session {session}, {label}", ys, [where[f"{mine}{k}"] for k in ks], [where[f"{theirs}{k}"] for k in ks])


if __name__ == "__main__":
    main()
