"""When a change counts: the rules a gate (`iorace compare --rule`) can apply to a change with its interval.

A fixed percentage on noisy numbers cannot be quiet (CodSpeed: a 2% gate at a cv of 2.66% fires falsely
about 45% of the time), and a test alone flags changes too small to matter. The field's gates that stopped
crying wolf do one of:

- z: the change is significant (two-sided p < ALPHA, Holm-adjusted over a comparison's cells), its 95%
  interval excludes 1 and its point estimate is beyond the threshold (asv, benchstat; tango-bench: |z| and a
  noise floor). iorace's rule until now.
- interval: the whole 95% interval is beyond the threshold (jdx/mise: "ratio minus its error exceeds 10%";
  anything else is inconclusive, not a pass or a fail).
- persist: the z rule holds in each of the last N sessions against the same baseline (CockroachDB: a
  regression must show in 3 consecutive runs); a change that one session of noise made does not repeat.

`tools/changepoint_bench.py` measures each on synthetic comparisons with a known truth
(docs/changepoints-benchmark.txt, section 8; a table of 6 cells, per-round sd 0.10-0.25, 5-15 rounds,
threshold 5%), with the t test compare now makes (Welch's degrees of freedom: the standard errors of 5-15
rounds are themselves noisy; with the normal, z gave 11.6): z 5.4 false flags per 100 comparisons and 7% of
10% steps found, interval 6.6 and 9%, persist (3 sessions) 0.0 and 1%. DEFAULT_RULE stays z,
the only one that judges two sessions alone at its power; a nightly gate that has the sessions should use
persist, and `history`'s change points for the question "when did it change".
"""

from __future__ import annotations

import enum

from iorace.analyse.stats import Ratio

ALPHA = 0.05
PERSIST_SESSIONS = 3  # persist's N (CockroachDB's 3 consecutive runs)


class Rule(enum.StrEnum):
    Z = "z"
    INTERVAL = "interval"
    PERSIST = "persist"

    def describe(self, threshold: float, sessions: int = PERSIST_SESSIONS) -> str:
        """What the rule asks, as `compare` says it under its table."""
        beyond = f"{threshold:.0%}"
        return {
            Rule.Z: f"rule z: p < {ALPHA} (Holm), the 95% interval excluding 1 and the change beyond {beyond}",
            Rule.INTERVAL: f"rule interval: the whole 95% interval beyond {beyond}",
            Rule.PERSIST: f"rule persist: rule z against A in each of the last {sessions} sessions",
        }[self]


DEFAULT_RULE = Rule.Z


def direction(rule: Rule, ratio: Ratio | None, p_value: float | None, threshold: float) -> int:
    """+1 (slower), -1 (faster) or 0, for one change judged by `rule` (persist: the z rule of one session; the
    caller asks it of each of the sessions)."""
    if ratio is None:
        return 0
    if rule is Rule.INTERVAL:
        if ratio.low is None or ratio.high is None:
            return 0
        return 1 if ratio.low > 1 + threshold else -1 if ratio.high < 1 - threshold else 0
    significant = p_value is not None and p_value < ALPHA and ratio.low is not None and not ratio.overlaps_one()
    if not significant:
        return 0
    return 1 if ratio.value > 1 + threshold else -1 if ratio.value < 1 - threshold else 0
