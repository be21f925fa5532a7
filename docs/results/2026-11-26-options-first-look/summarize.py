"""Each stored session's precision and length: the median, over tables, of the 95% half-width of the ratios
of the table's three fastest compared cells (the reference's own ratio, 1 with no width, left out), and of
every compared cell, and the
minutes from its start to its end. Usage: summarize.py DB"""

from __future__ import annotations

import statistics
import sys
from datetime import datetime

from iorace.analyse.analysis import analyse
from iorace.analyse.contention import contention
from iorace.store.db import Store

store = Store(sys.argv[1])
for sid in store.session_ids():
    s = store.load(sid)
    widths, every = [], []
    for g in analyse(s):
        ranked = sorted((r for r in g.rows if r.ok and r.kind.compared), key=lambda r: r.cost)
        half = [r.vs_fastest.half_width if r.vs_fastest is not None else None for r in ranked]
        widths += [w for w in half[:3] if w]
        every += [w for w in half if w]
    minutes = (datetime.fromisoformat(s.finished or s.started) - datetime.fromisoformat(s.started)).total_seconds() / 60
    options = {k: s.options.get(k) for k in ("target_ms", "metric", "order") if s.options.get(k) not in (None, "shuffle")}
    print(
        f"session {sid} {options or 'default'}: median half-width {statistics.median(widths):.1%} over {len(widths)} ratios "
        f"(tables' three fastest), {statistics.median(every):.1%} over all {len(every)}; {minutes:.1f} min; {contention(s).line}"
    )
