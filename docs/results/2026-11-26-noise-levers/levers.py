#!/usr/bin/env python3
"""The noise levers, read from the JSON exports of run.sh (session-N-CFG.json; CFG is the configuration).

Per configuration, over its sessions: for each table's three fastest cells, the second and third against the
first, the sd of the log ratio of the two runs of the same round (what a ratio's interval is made of), the
sd of each cell's own log time and their correlation (what pairing in time can cancel), the 95% half-width
over the rounds, the A/A pairs' sd and coverage, every cell's ratio's agreement between the configuration's
two sessions (z), the median CPU share and the session's length. Frozen beside its result: a one-off."""

from __future__ import annotations

import collections
import gzip
import json
import math
import re
import statistics as st
import sys
from pathlib import Path

from scipy import stats

AA = "~aa"


def costs(r: dict) -> dict[int, float]:
    """Round -> cost per unit of work (the cell's metric), so cells sized differently compare."""
    times = r["inner_times"] if r["metric"] == "inner" and r["inner_times"] else r["times"]
    scale = 1.0
    for k in r.get("scale_parameters") or []:
        v = r["parameters"].get(k)
        if v is not None:
            scale *= float(v)
    return {rd: t / scale for rd, t in zip(r["rounds"], times, strict=True)}


def paired(a: dict[int, float], b: dict[int, float]) -> list[float]:
    return [math.log(b[k] / a[k]) for k in a if k in b]


def half_width(logs: list[float]) -> float:
    n = len(logs)
    return math.expm1(stats.t.ppf(0.975, n - 1) * st.stdev(logs) / math.sqrt(n))


def tables(results: list[dict]) -> dict:
    out = collections.defaultdict(list)
    for r in results:
        if r["status"] != "ok" or not r["times"] or r["ratio"] is None:
            continue
        params = {k: v for k, v in r["parameters"].items() if k not in (r.get("scale_parameters") or [])}
        out[(r["suite"], r["dataset"], json.dumps(params, sort_keys=True))].append(r)
    return out


def top_pairs(compared: list[dict], out: dict) -> None:
    """The second and third fastest against the fastest: sd of log ratio, half-width, own sds, correlation."""
    first = costs(compared[0])
    for c in compared[1:3]:
        mine = costs(c)
        logs = paired(first, mine)
        if len(logs) >= 3:
            out["top_sd"].append(st.stdev(logs))
            out["top_hw"].append(half_width(logs))
            la = [math.log(first[k]) for k in first if k in mine]
            lb = [math.log(mine[k]) for k in first if k in mine]
            out["top_own"] += [st.stdev(la), st.stdev(lb)]
            out["top_corr"].append(st.correlation(la, lb))


def aa_pairs(cells: list[dict], out: dict) -> None:
    """Each A/A twin against its original: sd of log ratio and whether the interval covers 1.00."""
    by_label = {c["label"].replace(AA, ""): c for c in cells if AA not in c["variant"]}
    for c in cells:
        twin_of = by_label.get(c["label"].replace(AA, "")) if AA in c["variant"] else None
        logs = paired(costs(twin_of), costs(c)) if twin_of is not None else []
        if len(logs) >= 3:
            out["aa_sd"].append(st.stdev(logs))
            m, hw = st.mean(logs), stats.t.ppf(0.975, len(logs) - 1) * st.stdev(logs) / math.sqrt(len(logs))
            out["aa_cover"].append(m - hw <= 0 <= m + hw)


def load(path: Path) -> dict:
    """A JSON export, stored plain or gzipped (session-N-CFG.json.gz)."""
    return json.loads(gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_text())


def session_figures(path: Path) -> dict:
    d = load(path)
    out: dict = {k: [] for k in ("top_sd", "top_own", "top_corr", "top_hw", "aa_sd", "aa_cover")}
    shares: list[float] = []
    ratios = {}
    for key, cells in tables(d["results"]).items():
        compared = sorted((c for c in cells if c["kind"] not in ("limit", "control") and AA not in c["variant"]), key=lambda c: c["ratio"])
        if len(compared) >= 2:
            top_pairs(compared, out)
        aa_pairs(cells, out)
        for c in compared[1:]:
            logs = paired(costs(compared[0]), costs(c))
            if len(logs) >= 3:
                ratios[(key, c["label"])] = (st.mean(logs), st.stdev(logs) / math.sqrt(len(logs)))
        shares += [st.median(c["cpu_shares"]) for c in cells if c.get("cpu_shares")]
    info = d["iorace"]
    t0 = info["started"]
    t1 = info["finished"]
    import datetime as dt

    minutes = (dt.datetime.fromisoformat(t1) - dt.datetime.fromisoformat(t0)).total_seconds() / 60
    return dict(**out, ratios=ratios, share=st.median(shares), minutes=minutes)


def med(xs: list[float]) -> str:
    return f"{st.median(xs):.3f}" if xs else "-"


def main() -> None:
    by_cfg: dict[str, list[tuple[str, dict]]] = collections.defaultdict(list)
    for arg in sys.argv[1:]:
        p = Path(arg)
        m = re.match(r"session-(\d+)-([A-Z])\.json(?:\.gz)?$", p.name)
        if not m:
            continue
        suite = load(p)["results"][0]["suite"]
        by_cfg[(m.group(2), suite)].append((p.name, session_figures(p)))
    print("per configuration and suite, over its sessions (medians over the pairs):")
    print(
        "cfg suite      sessions  sd(log ratio) top  sd(log time) own  corr  half-width top(10 rounds)"
        "  A/A sd  A/A covers  |z|<1.96  sd(z)  CPU share  minutes"
    )
    for (cfg, suite), sessions in sorted(by_cfg.items()):
        figs = [f for _, f in sessions]
        top_sd = [x for f in figs for x in f["top_sd"]]
        own = [x for f in figs for x in f["top_own"]]
        corr = [x for f in figs for x in f["top_corr"]]
        hw = [x for f in figs for x in f["top_hw"]]
        aa = [x for f in figs for x in f["aa_sd"]]
        cover = [x for f in figs for x in f["aa_cover"]]
        zs = []
        if len(figs) >= 2:
            a, b = figs[0]["ratios"], figs[1]["ratios"]
            for k in a.keys() & b.keys():
                (ma, sa), (mb, sb) = a[k], b[k]
                if sa > 0 or sb > 0:
                    zs.append((ma - mb) / math.hypot(sa, sb))
        zshare = f"{sum(abs(z) < 1.96 for z in zs) / len(zs):.0%} of {len(zs)}" if zs else "-"
        zsd = f"{st.stdev(zs):.2f}" if len(zs) > 1 else "-"
        shares = "/".join(f"{f['share']:.2f}" for f in figs)
        minutes = "/".join(f"{f['minutes']:.1f}" for f in figs)
        width = st.median(hw) if hw else float("nan")
        print(
            f"{cfg:3} {suite:10} {len(figs):8}  {med(top_sd):>17}  {med(own):>16}  {med(corr):>4}  {width:>26.1%}"
            f"  {med(aa):>6}  {sum(cover)}/{len(cover):<9}  {zshare:>9}  {zsd:>5}  {shares:>9}  {minutes}"
        )


if __name__ == "__main__":
    main()
