"""Would another estimator of a ratio give narrower honest intervals? (tools/interval_estimators.py)

Takes two JSON exports of back-to-back sessions of the same cells and, per estimator of a cell's log ratio to
its table's reference over rounds (rounds paired by position: the exports' `times` are in round order), prints
the median 95% half-width, the changes between the sessions, and how calibrated the estimator's standard errors
are (z between the sessions of each cell, and of disjoint pairs of cells, which share nothing). Heavy-tailed
rounds would favour the trimmed mean, the median or Hodges-Lehmann; the mean of logs (what iorace uses) is
the best of them when the rounds' noise is close to normal.

usage: .venv/bin/python tools/interval_estimators.py SESSION1.json SESSION2.json   (asserts nothing)
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import stats as sps

Estimate = tuple[float, float, float]  # (log ratio, standard error, 95% half-width on the log scale)
RNG_SEED = 0
BOOTSTRAP = 1000


def mean(logs: np.ndarray) -> Estimate:
    n = len(logs)
    se = float(logs.std(ddof=1) / np.sqrt(n))
    return float(logs.mean()), se, float(sps.t.ppf(0.975, n - 1)) * se


def trimmed(share: float) -> Callable[[np.ndarray], Estimate]:
    """Yuen's trimmed mean: the winsorized spread over (1 - 2 share) sqrt(n), t with n - 2k - 1 df."""

    def estimate(logs: np.ndarray) -> Estimate:
        n = len(logs)
        k = int(share * n)
        ordered = np.sort(logs)
        winsorized = np.clip(logs, ordered[k], ordered[n - k - 1])
        se = float(winsorized.std(ddof=1) / ((1 - 2 * share) * np.sqrt(n)))
        return float(ordered[k : n - k].mean()), se, float(sps.t.ppf(0.975, n - 2 * k - 1)) * se

    return estimate


def bootstrapped(statistic: Callable[[np.ndarray], float]) -> Callable[[np.ndarray], Estimate]:
    def estimate(logs: np.ndarray) -> Estimate:
        rng = np.random.default_rng(RNG_SEED)
        draws = np.array([statistic(rng.choice(logs, len(logs))) for _ in range(BOOTSTRAP)])
        se = float(draws.std(ddof=1))
        return statistic(logs), se, 1.96 * se

    return estimate


def hodges_lehmann(x: np.ndarray) -> float:
    i, j = np.triu_indices(len(x))
    return float(np.median((x[i] + x[j]) / 2))


ESTIMATORS: dict[str, Callable[[np.ndarray], Estimate]] = {
    "mean of logs (t)": mean,
    "10% trimmed (Yuen)": trimmed(0.1),
    "20% trimmed (Yuen)": trimmed(0.2),
    "median (bootstrap)": bootstrapped(lambda x: float(np.median(x))),
    "Hodges-Lehmann (bootstrap)": bootstrapped(hodges_lehmann),
}


def tables(path: Path) -> dict[tuple, dict[str, tuple[np.ndarray, bool, str]]]:
    """Per table (suite, dataset, parameters): each verified cell's per-round costs, whether it is the table's
    reference (ratio 1.00) and its kind."""
    out: dict[tuple, dict[str, tuple[np.ndarray, bool, str]]] = {}
    text = gzip.decompress(path.read_bytes()).decode() if path.name.endswith(".gz") else path.read_text()  # X.json.gz too
    for cell in json.loads(text)["results"]:
        if cell["status"] != "ok":
            continue
        key = (cell["suite"], cell["dataset"], json.dumps(cell["parameters"], sort_keys=True))
        costs = np.asarray(cell["inner_times"] if cell["metric"] == "inner" else cell["times"], float)
        out.setdefault(key, {})[cell["label"]] = (costs, cell.get("ratio") == 1.0, cell["kind"])
    return out


def log_ratios(session: dict, pairs: bool) -> dict[tuple, np.ndarray]:
    """Each compared cell's per-round log ratio to its table's reference or, with pairs, of disjoint pairs of
    cells (in label order) to each other."""
    out = {}
    for key, cells in session.items():
        labels = sorted(label for label, (_, _, kind) in cells.items() if kind not in ("limit", "bulk"))
        if pairs:
            couples = list(zip(labels[::2], labels[1::2], strict=False))
        else:
            reference = next((label for label, (_, is_ref, _) in cells.items() if is_ref), None)
            couples = [(label, reference) for label in labels if reference and label != reference]
        for a, b in couples:
            n = min(len(cells[a][0]), len(cells[b][0]))
            if n >= 5:
                out[(key, a, b)] = np.log(cells[a][0][:n] / cells[b][0][:n])
    return out


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    try:
        first, second = (tables(Path(p)) for p in sys.argv[1:])
    except (OSError, ValueError, KeyError) as exc:
        sys.exit(f"interval-estimators: not two iorace JSON exports ({exc})")
    for name, estimate in ESTIMATORS.items():
        widths: list[float] = []
        changes: list[float] = []
        zs: list[float] = []
        pair_zs: list[float] = []
        for pairs, into in ((False, zs), (True, pair_zs)):
            a, b = log_ratios(first, pairs), log_ratios(second, pairs)
            for k in a.keys() & b.keys():
                (la, sa, ha), (lb, sb, hb) = estimate(a[k]), estimate(b[k])
                into.append((lb - la) / np.hypot(sa, sb))
                if not pairs:
                    widths += [np.exp(ha) - 1, np.exp(hb) - 1]
                    changes.append(abs(np.exp(lb - la) - 1))
        print(
            f"{name:27} half-width median {np.median(widths):5.1%}  change median {np.median(changes):5.1%} "
            f"largest {max(changes):5.1%}  sd(z) {np.std(zs, ddof=1):.2f}, disjoint pairs {np.std(pair_zs, ddof=1):.2f} "
            f"({len(zs)} cells, {len(pair_zs)} pairs)"
        )


if __name__ == "__main__":
    main()
