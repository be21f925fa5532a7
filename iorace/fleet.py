"""Many machines, one store (issue 21): which machines a store has seen (`iorace machines`), and which
rankings hold across them (`iorace compare-machines SUITE`)."""

from __future__ import annotations

from iorace.store import Store
from iorace.tables import Column, Table


def _date(text: str | None) -> str:
    return (text or "?")[:16].replace("T", " ")


def machines_table(store: Store) -> Table:
    """One row per machine (its name and fingerprint) the store has seen: its CPU model and cores (from its
    latest session), how many sessions, the first and the last."""
    columns = [
        Column("machine", "left"),
        Column("fingerprint", "left"),
        Column("CPU model", "left", wrap=True),
        Column("cores"),
        Column("sessions"),
        Column("first session", "left"),
        Column("last session", "left"),
    ]
    rows = [
        [
            m["machine_name"] or "?",
            m["machine_fingerprint"] or "?",
            str(m["facts"].get("cpu_model") or "?"),
            str(m["facts"].get("cores") or "?"),
            str(m["sessions"]),
            _date(m["first_started"]),
            _date(m["last_started"]),
        ]
        for m in store.machines()
    ]
    return Table("machines in the store", "", columns, rows)
