"""`iorace compare` and `iorace history` on hand-built sessions in a temporary database (no toolchain)."""

import dataclasses
import re

import numpy as np
import pytest
import sessions
from sessions import save, session

from iorace.export.json_export import write_json
from iorace.report.document import build

BASE = [0.0100, 0.0101, 0.0099, 0.0102, 0.0098, 0.0100, 0.0101, 0.0099]


def cell(variant: str, times: list[float] | None = None, **kw):
    """A cell of the `demo` suite whose runs took `times` seconds (inner)."""
    kw.setdefault("suite", "demo")
    kw.setdefault("params", {"passes": 1})
    return sessions.cell(variant, inner=[t * 1000 for t in times] if times else None, **kw)


def scaled(factor: float) -> list[float]:
    return [t * factor for t in BASE]


def three_sessions(path):
    """Session 1 (git 1111111): a and b. Session 2 (git 2222222): a 20% slower, b unchanged, c new,
    d now failing. Session 3 (git 3333333): a 20% faster than in session 1. In the database `path`."""
    save(path, session([cell("a", BASE), cell("b", BASE), cell("d", BASE), cell("gone", BASE)], git="1111111"))
    save(
        path,
        session(
            [cell("a", scaled(1.2)), cell("b", scaled(1.001)), cell("c", BASE), cell("d", status="failed", detail="exit code 3")],
            git="2222222",
            started="2026-11-22T08:00:00+00:00",
        ),
    )
    save(
        path,
        session(
            [cell("a", scaled(0.8)), cell("b", BASE), cell("d", BASE), cell("gone", BASE)],
            git="3333333",
            started="2026-11-22T09:00:00+00:00",
        ),
    )
    return path


@pytest.fixture
def history_db(tmp_path):
    """An empty store for a test's own history (tests/test_pgstore.py: a PostgreSQL server's database)."""
    return tmp_path / "history.sqlite"


@pytest.fixture
def db(tmp_path):
    """The three sessions in a file (tests/test_pgstore.py: pushed to a PostgreSQL server)."""
    return three_sessions(tmp_path / "db.sqlite")


def table_rows(text: str) -> dict[str, str]:
    """The lines of a terminal table by their first column (cells are set apart by two spaces or more)."""
    return {re.split(r"\s{2,}", line.strip())[0]: line for line in text.splitlines() if re.search(r"\S\s{2,}\S", line)}


def test_a_significant_slowdown_beyond_the_threshold_fails_the_comparison(iorace_inprocess, db):
    out = iorace_inprocess("compare", "1", "2", "--db", str(db))
    assert out.returncode == 1, out.stderr
    lines = table_rows(out.stdout)
    a = lines["demo tiny c/a@gcc:release[passes=1]"]
    assert "regressed" in a and "+19.9%" in a  # against b, which moved +0.1%
    assert lines["demo tiny c/b@gcc:release[passes=1]"].rstrip().endswith("~")  # the typical mover, by its own times
    assert "status changed: demo tiny c/d@gcc:release[passes=1]: ok -> failed" in out.stdout
    assert "appeared in B: demo tiny c/c@gcc:release[passes=1] (ok)" in out.stdout
    assert "disappeared from A: demo tiny c/gone@gcc:release[passes=1] (ok)" in out.stdout
    assert "regressed: demo tiny c/a@gcc:release[passes=1]: +19.9%" in out.stderr
    assert "regressed: demo tiny c/d@gcc:release[passes=1]: ok -> failed" in out.stderr


def test_within_the_threshold_or_faster_passes(iorace_inprocess, db):
    out = iorace_inprocess("compare", "1", "3", "--db", str(db))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "improved" in out.stdout and "-20.0%" in out.stdout
    assert "1 improved" in out.stdout
    # session 2 is 20% slower for a, and d broke: a 25% threshold forgives a, never d
    out = iorace_inprocess("compare", "1", "2", "--db", str(db), "--threshold", "25%")
    assert out.returncode == 1 and "c/a@" not in out.stderr and "c/d@" in out.stderr


def test_markdown_for_a_pull_request(iorace_inprocess, db):
    out = iorace_inprocess("compare", "1", "2", "--db", str(db), "--markdown")
    assert out.returncode == 1
    text = out.stdout
    assert text.startswith("### iorace compare: **regressed**\n")
    assert "| cell | metric | A median | B median | change [95% CI] | p | instructions | verdict |" in text
    row = next(line for line in text.splitlines() if line.startswith("| demo tiny c/a@"))
    assert row.endswith("| **regressed** |") and "| 10.0 ms | 12.0 ms | +19.9% [" in row
    assert "- status changed: demo tiny c/d@gcc:release[passes=1]: ok -> failed" in text
    assert "\nThe smallest slowdown it could flag in a cell, were it the only change: " in text


def test_json_exports_compare_like_the_sessions(iorace_inprocess, db, tmp_path):
    from iorace.store.db import Store

    store = Store(db)
    write_json(build(store.load(1)), tmp_path / "a.json")
    write_json(build(store.load(2)), tmp_path / "b.json")
    out = iorace_inprocess("compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert out.returncode == 1, out.stderr
    assert "regressed: demo tiny c/a@gcc:release[passes=1]: +19.9%" in out.stderr
    assert "c/d@gcc:release[passes=1]: ok -> failed" in out.stdout  # found in iorace_unmeasured


def test_gzipped_json_exports_compare_as_the_plain_ones(iorace_inprocess, db, tmp_path):
    """docs/results keeps large exports as X.json.gz (core/gzfile.py): compare reads them as they are."""
    import gzip

    from iorace.store.db import Store

    store = Store(db)
    for name, sid in (("a", 1), ("b", 2)):
        write_json(build(store.load(sid)), tmp_path / f"{name}.json")
        (tmp_path / f"{name}.json.gz").write_bytes(gzip.compress((tmp_path / f"{name}.json").read_bytes()))
    plain = iorace_inprocess("compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    packed = iorace_inprocess("compare", str(tmp_path / "a.json.gz"), str(tmp_path / "b.json"))
    assert packed.returncode == plain.returncode == 1, packed.stderr
    assert packed.stdout.replace("a.json.gz", "a.json") == plain.stdout and "regressed: demo tiny c/a@" in packed.stderr
    (tmp_path / "cut.json.gz").write_bytes((tmp_path / "a.json.gz").read_bytes()[:100])  # a truncated gzip: one line, exit 2
    cut = iorace_inprocess("compare", str(tmp_path / "cut.json.gz"), str(tmp_path / "b.json"))
    assert cut.returncode == 2 and "cut.json.gz: cannot read" in cut.stderr


def test_git_revision_picks_the_latest_session_made_there(iorace_inprocess, db, tmp_path):
    out = iorace_inprocess("compare", "git:1111111", "2", "--db", str(db))
    assert out.returncode == 1 and "A = session 1 (git 1111111)" in out.stdout
    out = iorace_inprocess("compare", "1", "git:33333", "--db", str(db))
    assert out.returncode == 0 and "B = session 3 (git 33333)" in out.stdout


def test_instruction_counts_are_compared_exactly(iorace_inprocess, tmp_path):
    path = tmp_path / "db.sqlite"
    save(path, session([cell("a", BASE, instructions=1_000_000)]))
    save(path, session([cell("a", BASE, instructions=1_002_000)]))
    out = iorace_inprocess("compare", "1", "2", "--db", str(path))
    assert out.returncode == 0 and "+0.20%" in out.stdout  # shown, but within the 5% threshold
    out = iorace_inprocess("compare", "1", "2", "--db", str(path), "--threshold", "0.1%")
    assert out.returncode == 1 and "instructions +0.20%" in out.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["7", "1"], "no session 7"),
        (["1", "nosuchfile.json"], "nosuchfile.json: not a session id, a git:REV or an existing JSON export"),
        (["1", "git:abcdef9"], "git:abcdef9: no stored session was made at that revision"),
        (["1", "2", "--threshold", "lots"], "--threshold lots: not a percentage"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(iorace_inprocess, db, args, message):
    out = iorace_inprocess("compare", *args, "--db", str(db))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and message in out.stderr, out.stderr


def test_a_file_that_is_not_an_iorace_export_and_other_suites_are_refused(iorace_inprocess, db, tmp_path):
    (tmp_path / "hyperfine.json").write_text('{"results": [{"command": "sleep 1", "times": [1.0]}]}')
    (tmp_path / "broken.json").write_text("{not json")
    for name, message in (("hyperfine.json", "not an iorace JSON export"), ("broken.json", "not JSON")):
        out = iorace_inprocess("compare", "1", str(tmp_path / name), "--db", str(db))
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and message in out.stderr, out.stderr
    save(db, session([cell("a", BASE, suite="other")]))
    out = iorace_inprocess("compare", "1", "4", "--db", str(db))
    assert out.returncode == 2 and "no suite in common (demo vs other)" in out.stderr, out.stderr


def noisy_sessions(
    path,
    n: int = 10,
    step_at: int | None = 6,
    a: float = 1.2,
    every: float = 1.0,
    seed: int = 0,
    machine_name: str = "toy-box",
    day: int = 1,
):
    """n sessions (git 1111111, 2222222, ...) of cells a, b and c (8 rounds, 3% noise a round): from session
    `step_at` on, a is `a` times slower and every cell `every` times; stored in `path`."""
    rng = np.random.default_rng(seed)
    for i in range(1, n + 1):
        moved = step_at is not None and i >= step_at
        cells = []
        for name, base in (("a", 1.0), ("b", 1.5), ("c", 2.0)):
            factor = base * ((a if name == "a" else 1.0) * every if moved else 1.0)
            cells.append(cell(name, [t * factor * float(np.exp(rng.normal(0, 0.03))) for t in BASE]))
        digit = str(i % 10) if i < 10 else chr(ord("a") + i - 10)
        started = f"2026-11-{day + i:02d}T08:00:00+00:00"
        save(path, session(cells, git=digit * 7, started=started, machine_name=machine_name))
    return path


def test_history_finds_the_change_point_where_a_cell_changed_and_names_its_commits(iorace_inprocess, history_db):
    path = noisy_sessions(history_db)
    out = iorace_inprocess("history", "demo", "--db", str(path))
    assert out.returncode == 0, out.stderr
    rows = table_rows(out.stdout)
    assert "▲+20%" in rows["tiny c/a@gcc:release[passes=1]"] and "▲" not in rows["tiny c/b@gcc:release[passes=1]"], out.stdout
    points = [line for line in out.stdout.splitlines() if line.startswith("• ")]
    assert len(points) == 1, out.stdout
    assert re.match(r"• tiny c/a@gcc:release\[passes=1\]: \+(19|20)\.\d% \[\+1\d\.\d%, \+2\d\.\d%\] \(p ", points[0]), points[0]
    assert "between session 5 (2026-11-06 08:00, git 5555555) and session 6 (2026-11-07 08:00, git 6666666)" in points[0]
    assert "commits 5555555..6666666, on toy-box" in points[0]
    assert "3 cells, 10 sessions; 1 change points beyond 5%" in out.stdout


def test_history_weighs_each_session_by_its_rounds(monkeypatch):
    # a session's level is the mean of its rounds: one of 3 rounds knows it less well than one of 8
    from iorace.compare import history

    seen = []
    real = history.change_points

    def spy(logs, rule, weights=None):
        seen.append(list(weights))
        return real(logs, rule, weights)

    monkeypatch.setattr(history, "change_points", spy)
    rounds = [3 + i % 6 for i in range(10)]
    stored = [session([cell("a", BASE[:n])], sid=i + 1, started=f"2026-11-{i + 1:02d}T08:00:00+00:00") for i, n in enumerate(rounds)]
    history.cell_series(stored)
    assert seen == [rounds]


def test_history_of_three_sessions_claims_no_change_point(iorace_inprocess, db):
    # three sessions are too few to tell a change point from noise: nothing is claimed
    out = iorace_inprocess("history", "demo", "--variant", "a", "--variant", "c/d", "--db", str(db))
    assert out.returncode == 0 and "failed" in table_rows(out.stdout)["tiny c/d@gcc:release[passes=1]"]
    assert "2 cells, 3 sessions; 0 change points beyond 5%" in out.stdout
    out = iorace_inprocess("history", "nosuch", "--db", str(db))
    assert out.returncode == 2 and "nosuch: no stored session has this suite (stored: demo)" in out.stderr


def test_history_of_unchanged_code_is_clean(iorace_inprocess, history_db):
    path = noisy_sessions(history_db, n=12, step_at=None, seed=3)
    out = iorace_inprocess("history", "demo", "--db", str(path))
    assert out.returncode == 0 and "3 cells, 12 sessions; 0 change points beyond 5%" in out.stdout, out.stdout
    assert "▲" not in out.stdout and "▼" not in out.stdout


def test_history_names_a_change_of_every_cell_of_a_table_once(iorace_inprocess, history_db):
    path = noisy_sessions(history_db, a=1.0, every=1.15, seed=4)
    out = iorace_inprocess("history", "demo", "--db", str(path))
    points = [line for line in out.stdout.splitlines() if line.startswith("• ")]
    assert len(points) == 1 and points[0].startswith("• every cell of demo tiny moved (+15"), out.stdout
    assert "over 3 cells) between session 5" in points[0] and "commits 5555555..6666666" in points[0]


def test_history_says_a_change_shows_on_every_machine(iorace_inprocess, history_db):
    path = noisy_sessions(history_db, seed=5)  # toy-box: a +20% from 2026-11-07 on
    noisy_sessions(path, seed=6, machine_name="arm-1", step_at=7, day=0)  # arm-1: the same commit, a day apart
    out = iorace_inprocess("history", "demo", "--db", str(path), "--window", "20")
    points = [line for line in out.stdout.splitlines() if line.startswith("• ") and "c/a@" in line]
    assert len(points) == 2 and all("every other machine with this cell (2)" in p for p in points), out.stdout


def test_history_says_a_change_shows_on_one_machine_only(iorace_inprocess, history_db):
    path = noisy_sessions(history_db, seed=5)
    noisy_sessions(path, seed=6, machine_name="arm-1", step_at=None, day=0)
    out = iorace_inprocess("history", "demo", "--db", str(path), "--window", "20")
    points = [line for line in out.stdout.splitlines() if line.startswith("• ") and "c/a@" in line]
    assert len(points) == 1 and "on toy-box only (1 of 2 machines)" in points[0], out.stdout


def test_history_lists_a_change_of_an_exact_count(iorace_inprocess, history_db):
    path = history_db
    for i, count in enumerate((1_000_000, 1_000_000, 1_100_000), start=1):
        save(path, session([cell("a", BASE, instructions=count)], git=str(i) * 7, started=f"2026-11-0{i}T08:00:00+00:00"))
    out = iorace_inprocess("history", "demo", "--db", str(path))
    line = next(line for line in out.stdout.splitlines() if "instructions" in line)
    assert "instructions +10.00% (exact) between session 2" in line and "commits 2222222..3333333" in line, out.stdout


def synthetic(seed: int, machine: float = 1.0, injected: float = 1.0, sid: int = 1, which: int = 2, **kw):
    """Six cells of one table over 10 rounds: each round drifts alike for every cell (10%), each run has its
    own noise (3%), the whole session runs `machine` times slower (another tenant, the host's clock, a shared
    library), and cell c`which` is `injected` times slower."""
    rng = np.random.default_rng(seed)
    drift = np.exp(rng.normal(0, 0.10, 10)) * machine
    cells = []
    for k, base in enumerate((10, 12, 15, 20, 30, 50)):
        factor = injected if k == which else 1.0
        times = [base * factor * d * float(np.exp(rng.normal(0, 0.03))) / 1000 for d in drift]
        cells.append(cell(f"c{k}", times))
    return session(cells, sid=sid, **kw)


def test_unchanged_sessions_compare_clean():
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    false_alarms = 0
    for seed in range(20):
        cmp = compare(side_from_session(synthetic(seed)), side_from_session(synthetic(100 + seed)))
        false_alarms += len(cmp.regressions) + sum(c.verdict == "improved" for c in cmp.changes) + len(cmp.moves)
    # 20 comparisons of 6 cells, each judged by its ratio and by its own times, and each table as a whole
    assert false_alarms <= 1


@pytest.mark.parametrize("which", range(6))
def test_a_planted_10_percent_slowdown_of_any_cell_is_flagged(which):
    from iorace.compare.judge import compare, references
    from iorace.compare.sides import side_from_session

    for seed in range(5):
        a = side_from_session(synthetic(seed))
        b = side_from_session(synthetic(200 + seed, injected=1.1, which=which))
        cmp = compare(a, b)
        flagged = [c.a.key for c in cmp.changes if c.verdict == "regressed"]
        assert flagged == [f"c/c{which}"], (seed, flagged, [describe_change(c) for c in cmp.changes])
        assert any(f"c/c{which}@" in line for line in cmp.regressions)
        assert not cmp.moves
    assert references(a, b)  # each cell had its turn at being judged against the others' typical mover


def test_the_smallest_slowdown_compare_says_it_could_flag_is_its_bar():
    """power_line's figure is the rule's real bar: a cell slowed 2% beyond it is flagged, 2% short of it not."""
    import math

    from iorace.compare.draw import power_line
    from iorace.compare.judge import compare, smallest_flagged
    from iorace.compare.sides import side_from_session

    a = side_from_session(synthetic(1))
    base = compare(a, side_from_session(synthetic(201)))
    ch = next(c for c in base.changes if c.a.key == "c/c2")
    tested = sum(c.p_value is not None for c in base.changes)
    bar = smallest_flagged(ch, tested, base.threshold)
    assert bar is not None and ch.df is not None and bar > base.threshold
    d0 = math.log(ch.ratio.value)  # the unchanged sessions' own difference
    for k, flagged in ((1.02, True), (0.98, False)):
        slower = side_from_session(synthetic(201, injected=math.exp(k * math.log1p(bar) - d0), which=2))
        c2 = next(c for c in compare(a, slower).changes if c.a.key == "c/c2")
        assert (c2.verdict == "regressed") is flagged, (k, describe_change(c2))
    line = power_line(base)
    assert line is not None and "for the median of the 6 cells that could show one under 2x" in line and f"Holm over {tested}" in line
    # a cell whose rounds disagree wildly (make bench's session 14: a half-width of 33,000%) has no bar, not a crash
    wild = dataclasses.replace(ch, ratio=dataclasses.replace(ch.ratio, se_log=400.0))
    assert smallest_flagged(wild, tested, base.threshold) == math.inf
    base.changes = [wild] * 3 + base.changes[:2]
    line = power_line(base) or ""
    assert "median of the 2 cells that could show one under 2x" in line and "; 3 could not show one under 2x" in line, line
    base.changes = [wild]
    assert "none of the 1 cells could show one under 2x" in (power_line(base) or "")


def describe_change(c):
    from iorace.compare.judge import describe

    return f"{c.a.key} {c.verdict} {describe(c)}"


def two_cells(seed: int, spin: float = 1.0):
    """The reported table: an empty program (0.7 ms, +-30% a run) and a 30 ms spin loop (1% a run)."""
    rng = np.random.default_rng(seed)
    empty = [0.0007 * float(np.exp(rng.normal(0, 0.3))) for _ in range(10)]
    loop = [0.030 * spin * float(np.exp(rng.normal(0, 0.01))) for _ in range(10)]
    return session([cell("empty", empty), cell("spin", loop)])


def test_a_10_percent_slowdown_of_the_reference_of_two_cells_is_flagged():
    """The reported case: the spin loop 10% slower, the empty program's noise moving its median more, so the spin
    loop is the table's reference (the typical mover of two: the smaller change); it is judged by its own times."""
    from iorace.compare.judge import compare, references
    from iorace.compare.sides import side_from_session

    was_reference = 0
    for seed in range(12):
        a, b = side_from_session(two_cells(seed)), side_from_session(two_cells(1000 + seed, spin=1.1))
        was_reference += next(iter(references(a, b).values()))[0][0].key == "c/spin"
        cmp = compare(a, b)
        verdicts = {c.a.key: c.verdict for c in cmp.changes}
        assert verdicts["c/spin"] == "regressed" and verdicts["c/empty"] == "~", (seed, [describe_change(c) for c in cmp.changes])
    assert was_reference >= 4  # the case was met


def test_a_change_of_every_cell_is_named_as_such_and_the_machine_said_when_it_changed():
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    for seed in range(5):
        a = side_from_session(synthetic(seed))
        cmp = compare(a, side_from_session(synthetic(300 + seed, machine=1.25)))  # a shared library, a compiler
        assert [c.a.key for c in cmp.changes if c.verdict in ("regressed", "improved")] == [], seed
        assert len(cmp.moves) == 1 and cmp.moves[0].direction == 1 and cmp.moves[0].cells == 6
        text = cmp.moves[0].text
        assert re.match(r"demo tiny passes=1: every cell moved \+[12]\d\.\d% \[", text) and "(6 cells, each by its own times)" in text, text
        assert [line for line in cmp.regressions if "every cell moved" in line] == [text]
        assert sum(c.verdict == "table moved" for c in cmp.changes) == 1  # the reference's row says it
        kernel = compare(a, side_from_session(synthetic(300 + seed, machine=1.25, facts={"kernel": "6.12"})))
        assert len(kernel.moves) == 1 and "the machine changed, not the code (kernel 6.1 -> 6.12)" in kernel.moves[0].text
        assert kernel.regressions == []


def test_two_contended_sessions_moving_every_cell_are_the_machine_not_a_regression():
    """Two sessions measured on a busy machine: every cell +114% together is the machine, said so, and no
    cell's regression (the gate passes); the same move between quiet sessions stays one."""
    import dataclasses

    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    def busy(s):
        for c in s.cells:  # /proc/stat said other processes used 1.2 CPUs meanwhile: contended
            c.runs = [dataclasses.replace(r, host_busy_ns=int(r.user_ns + r.sys_ns + 1.2 * r.wall_ns), host_steal_ns=0) for r in c.runs]
        return s

    a = side_from_session(busy(synthetic(1)))
    cmp = compare(a, side_from_session(busy(synthetic(301, machine=2.14, sid=2)), "session 2"))
    assert len(cmp.moves) == 1 and cmp.regressions == [], cmp.regressions
    text = cmp.moves[0].text
    assert "every cell moved +" in text and "together" in text and "the machine changed, not the code" in text, text
    assert "session 2 was measured on a busy machine" in text
    quiet = compare(side_from_session(synthetic(1)), side_from_session(synthetic(301, machine=2.14, sid=2)))
    assert len(quiet.regressions) == 1 and "the machine" not in quiet.regressions[0]


def test_every_table_of_a_suite_moving_alike_is_the_machine():
    """Three tables of one suite all 2x slower on an unchanged machine (too few tables to measure the drift):
    what they share is the machine; a single table of them moving alone stays a regression."""
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    a = side_from_session(tables_session(1, [1.0, 1.0, 1.0]))
    cmp = compare(a, side_from_session(tables_session(2, [2.1, 2.2, 2.15], sid=2)))
    assert len(cmp.moves) == 3 and cmp.regressions == [], cmp.regressions
    assert all("every one of suite demo's 3 tables moved the same way" in m.text for m in cmp.moves)
    alone = compare(a, side_from_session(tables_session(2, [2.1, 1.0, 1.0], sid=2)))
    assert len(alone.moves) == 1 and len(alone.regressions) == 1


def tables_session(seed: int, moves: list[float], sid: int = 1):
    """One table of three cells per entry of `moves`, each table's cells `moves[t]` times slower, 10 rounds."""
    rng = np.random.default_rng(seed)
    cells = []
    for t, factor in enumerate(moves):
        for k, base in enumerate((10, 12, 15)):
            times = [base * factor * float(np.exp(rng.normal(0, 0.01))) / 1000 for _ in range(10)]
            cells.append(cell(f"c{k}", times, params={"passes": 1, "table": t}))
    return session(cells, sid=sid)


def test_a_table_that_moved_with_the_machines_drift_is_not_a_move_and_one_beyond_it_is():
    """make bench's session 16: spin's three cells all ran 7.9% slower by their own times, while the 39 tables'
    typical moves spread with an sd of 7% around +5.6%: the VM's speed, not a change of what they share."""
    from iorace.compare.draw import move_lines
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    rng = np.random.default_rng(31)
    drift = [float(np.exp(rng.normal(0.05, 0.07))) for _ in range(12)]
    a = side_from_session(tables_session(1, [1.0] * 12))
    cmp = compare(a, side_from_session(tables_session(2, drift, sid=2)))
    assert cmp.drift is not None and cmp.drift.tables == 12 and cmp.moves == [] and cmp.regressions == []
    assert any(line.startswith("the tables' own times moved a median +") for line in move_lines(cmp))
    shared = compare(a, side_from_session(tables_session(2, [*drift[:-1], 1.6], sid=2)))  # a library 60% slower
    assert [m.cells for m in shared.moves] == [3] and len(shared.regressions) == 1


def test_the_rules_decide_and_the_output_says_which(iorace_inprocess, tmp_path):
    path = tmp_path / "db.sqlite"
    save(path, synthetic(1))
    for i in range(3):
        save(path, synthetic(10 + i, injected=1.1))  # c2 10% slower in sessions 2, 3 and 4
    save(path, synthetic(20, injected=1.1, which=3))  # session 5: c2 back, c3 slower
    out = iorace_inprocess("compare", "1", "4", "--db", str(path))
    assert out.returncode == 1 and "rule z: p < 0.05 (Holm)" in out.stdout and "c/c2@" in out.stderr, out.stdout
    out = iorace_inprocess("compare", "1", "4", "--db", str(path), "--rule", "persist")
    assert out.returncode == 1 and "rule persist: rule z against A in each of the last 3 sessions: B and session 2, session 3" in out.stdout
    assert "c/c2@" in out.stderr, out.stdout + out.stderr
    out = iorace_inprocess("compare", "1", "5", "--db", str(path), "--rule", "persist")
    assert out.returncode == 0 and "c/c3@" not in out.stderr, out.stdout + out.stderr  # one session is not a persisting change
    out = iorace_inprocess("compare", "1", "5", "--db", str(path))
    assert out.returncode == 1 and "c/c3@" in out.stderr
    out = iorace_inprocess("compare", "1", "4", "--db", str(path), "--rule", "interval", "--threshold", "20%")
    assert out.returncode == 0 and "rule interval: the whole 95% interval beyond 20%" in out.stdout, out.stdout
    out = iorace_inprocess("compare", "1", "2", "--db", str(path), "--rule", "persist")
    assert out.returncode == 2 and "--rule persist: 3 sessions wanted" in out.stderr, out.stderr


def test_holm_keeps_a_clear_change_and_drops_a_chance_one():
    """Ten cells judged at once: p = 0.03 is what one in thirty unchanged cells gives by chance (Holm: 0.3), p =
    0.001 is not (Holm: 0.01)."""
    from iorace.analyse.stats import Ratio
    from iorace.compare.judge import Change, _holm
    from iorace.compare.sides import CellSample

    def change(p: float) -> Change:
        s = CellSample("demo", "tiny", {}, "c/x", "gcc", "release", "x", "ok", "inner", [0.01])
        ch = Change(s, s, Ratio(1.2, 1.1, 1.3), p)
        ch.verdict = "regressed"
        return ch

    chance, clear, rest = change(0.03), change(0.001), [change(0.5) for _ in range(8)]
    _holm([chance, clear, *rest], threshold=0.05)
    assert clear.verdict == "regressed" and clear.p_value == pytest.approx(0.01)
    assert chance.verdict == "~" and chance.p_value == pytest.approx(0.27)


def test_cells_sized_anew_in_each_session_are_the_same_cells(iorace_inprocess, tmp_path):
    """--target-ms gives each cell its own passes in each session: compare (sessions and JSON exports alike) must
    still match the cells, leaving their scale parameters out, and judge them per unit of work."""
    from iorace.store.db import Store

    demo = {"demo": {"baseline_languages": [], "scale_params": ["passes"], "throughput": "bytes", "same_language_reference": None}}

    def sized(variant, passes, per_pass):  # each run's inner time is passes x per_pass; the work is passes x 1000 bytes
        return cell(variant, [t * passes for t in per_pass], params={"passes": passes}, units={"bytes": 1000 * passes})

    db = tmp_path / "sized.sqlite"
    save(db, session([sized("a", 10, BASE), sized("b", 4, scaled(2.0))], suites=demo))
    save(db, session([sized("a", 12, scaled(1.2)), sized("b", 5, scaled(2.0))], suites=demo, started="2026-11-22T09:00:00+00:00"))
    out = iorace_inprocess("compare", "1", "2", "--db", str(db))
    assert "appeared in B" not in out.stdout and "disappeared from A" not in out.stdout, out.stdout
    assert out.returncode == 1 and "regressed: demo tiny c/a@gcc:release[passes=10]: +20.0%" in out.stderr
    store = Store(db)
    write_json(build(store.load(1)), tmp_path / "a.json")
    write_json(build(store.load(2)), tmp_path / "b.json")
    out = iorace_inprocess("compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert "appeared in B" not in out.stdout and "regressed: demo tiny c/a@gcc:release[passes=10]: +20.0%" in out.stderr


def test_a_table_of_three_cells_or_more_is_judged_by_its_ratios_not_one_cells_own_times():
    """make bench's sessions 3 and 4 (docs/results/2026-11-26-session-level): the machine ran lines' whole table
    10-25% slower in B; its reference, timed in many rounds, moved significantly by its own times, the other cells,
    raced to three rounds, could not show it, and compare called the reference regressed "while the rest of its
    table held". With three cells or more every cell has a ratio to judge it by, the reference too (against the
    next typical mover), and what moved the machine between sessions is not in a ratio; own times are for a
    table of two, where a ratio cannot tell which cell moved."""
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    def table(rng: np.random.Generator, machine: float):
        drift = np.exp(rng.normal(0, 0.02, 20)) * machine
        cells = [cell("c0", [0.010 * d * float(np.exp(rng.normal(0, 0.02))) for d in drift])]
        for k, base in enumerate((0.012, 0.015, 0.020), start=1):
            cells.append(cell(f"c{k}", [base * d * float(np.exp(rng.normal(0, 0.15))) for d in drift[:3]]))
        return session(cells)

    flagged = 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        cmp = compare(side_from_session(table(rng, 1.0)), side_from_session(table(rng, 1.15)))
        flagged += sum(c.verdict in ("regressed", "improved") for c in cmp.changes)
    assert flagged == 0


def test_an_aa_twin_is_judged_against_its_own_original():
    """make bench's sessions 3-4 (docs/results/2026-11-27-session-level-fit): serialize's fastest cell ran 2.3x
    slower in B, its rivals less, and its A/A twin, judged against the table's typical mover with narrow rounds,
    was flagged +122% while its original, the same program, was not. A twin is its original again: what it can
    show across sessions is whether the two still agree, so it is judged against its original."""
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    def table(rng: np.random.Generator, fast: float):
        drift = np.exp(rng.normal(0, 0.02, 12))
        cells = [
            cell("a", [0.010 * fast * d * float(np.exp(rng.normal(0, 0.01))) for d in drift]),
            cell("a~aa", [0.010 * fast * d * float(np.exp(rng.normal(0, 0.01))) for d in drift], kind="control"),
        ]
        for k, base in enumerate((0.012, 0.015, 0.020)):
            cells.append(cell(f"c{k}", [base * d * float(np.exp(rng.normal(0, 0.01))) for d in drift]))
        return session(cells)

    for seed in range(5):
        rng = np.random.default_rng(seed)
        cmp = compare(side_from_session(table(rng, 1.0)), side_from_session(table(rng, 2.3)))
        verdicts = {c.a.key: c.verdict for c in cmp.changes}
        assert verdicts["c/a~aa"] == "~", [describe_change(c) for c in cmp.changes]
        assert next(c for c in cmp.changes if c.a.key == "c/a~aa").reference == "c/a"
        assert verdicts["c/a"] == "regressed"  # the program itself did move against its table


def raced_table(rng: np.random.Generator, contenders: float = 1.0, raced_out: float = 1.0, planted: float = 1.0):
    """A raced table as make bench leaves one: four contenders (a tiny fixed-size loop in four languages) timed
    over 20 rounds, six cells raced out after their first round; the session runs the contenders `contenders`
    times and the rest `raced_out` times as long, and contender c1 `planted` times longer."""
    drift = np.exp(rng.normal(0, 0.02, 20))
    cells = []
    for k, base in enumerate((0.010, 0.011, 0.012, 0.013)):
        factor = contenders * (planted if k == 1 else 1.0)
        cells.append(cell(f"c{k}", [base * factor * d * float(np.exp(rng.normal(0, 0.02))) for d in drift]))
    for k, base in enumerate((0.020, 0.025, 0.030, 0.040, 0.050, 0.060)):
        cells.append(cell(f"r{k}", [base * raced_out * float(drift[0] * np.exp(rng.normal(0, 0.05)))]))
    return session(cells)


def test_a_raced_tables_contenders_moving_with_the_machine_are_not_a_change():
    """make bench, twice, one commit (docs/results/2026-11-28-make-bench-with-formats): serialize's ser table
    ran 19% faster in B, its four ser-fixed contenders 27-31%; the typical mover, raced out after one round,
    shared no rounds with them, and compare judged them by their own times, the machine's move and all:
    "improved" four times. Each is judged against the typical mover of the cells it ran beside."""
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    for seed in range(5):
        rng = np.random.default_rng(seed)
        cmp = compare(side_from_session(raced_table(rng)), side_from_session(raced_table(rng, 0.70, 0.81)))
        judged = {c.a.key: c for c in cmp.changes}
        assert [k for k, c in judged.items() if c.verdict != "~"] == [], [describe_change(c) for c in cmp.changes]
        assert all(judged[f"c/c{k}"].reference.startswith("c/c") for k in range(4))  # against a contender
        assert all(judged[f"c/r{k}"].unpaired and judged[f"c/r{k}"].p_value is None for k in range(6))
        assert not cmp.regressions


def test_a_planted_10_percent_slowdown_of_one_contender_is_flagged_alone():
    """The same raced table and machine move, one contender 10% slower besides: it, and only it, is flagged (its
    reference is the typical one of the cells it ran beside, not the first of them in the table's order: that
    would be the slowed one, nearest the raced-out cells' move, and the three others would be 'improved')."""
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    for seed in range(5):
        rng = np.random.default_rng(seed)
        cmp = compare(side_from_session(raced_table(rng)), side_from_session(raced_table(rng, 0.70, 0.81, planted=1.10)))
        flagged = {c.a.key: c.verdict for c in cmp.changes if c.verdict != "~"}
        assert flagged == {"c/c1": "regressed"}, [describe_change(c) for c in cmp.changes]
        assert any("c/c1@" in line for line in cmp.regressions)


def levelled_tables(seed: int, sid: int, moved: int | None = None):
    """Five tables of four cells, ten rounds each with 1% noise a run; what stays fixed for a session moves each
    cell by its own factor (sd 3%) drawn anew per session, as this VM's sessions do; cell `moved` of the first
    table 40% slower."""
    rng = np.random.default_rng(seed)
    cells = []
    for t in range(5):
        for k, base in enumerate((0.010, 0.012, 0.015, 0.020)):
            factor = float(np.exp(rng.normal(0, 0.03))) * (1.4 if (t, k) == (0, moved) else 1.0)
            times = [base * factor * float(np.exp(rng.normal(0, 0.01))) for _ in range(10)]
            cells.append(cell(f"c{k}", times, params={"passes": 1, "table": t}))
    return session(cells, sid=sid)


def test_with_no_session_level_on_either_side_the_comparison_fits_one_and_says_so():
    from iorace.analyse.stats import Level
    from iorace.compare import draw
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    flagged = 0
    for seed in range(5):
        cmp = compare(side_from_session(levelled_tables(seed, 1)), side_from_session(levelled_tables(100 + seed, 2)))
        assert cmp.fitted is not None and cmp.fitted["demo"].sd > 0.02, cmp.fitted
        flagged += sum(c.verdict != "~" for c in cmp.changes)
        assert any("fitted on this comparison's own cells" in line for line in draw.level_lines(cmp))
    assert flagged <= 1  # 5 comparisons of 20 cells whose ratios move 4% between sessions, their rounds +-1%
    found = others = 0
    for seed in range(5):  # a cell 40% slower in one table: about 5 sd of its ratio's change, levels included
        cmp = compare(side_from_session(levelled_tables(seed, 1)), side_from_session(levelled_tables(100 + seed, 2, moved=2)))
        changed = [(c.a.key, c.a.params["table"], c.verdict) for c in cmp.changes if c.verdict != "~"]
        found += ("c/c2", "0", "regressed") in changed
        others += len(changed) - (("c/c2", "0", "regressed") in changed)
    assert found >= 3 and others <= 1, (found, others)
    # a side that carries its own session level (fitted on its machine's earlier sessions) is judged with it
    a = side_from_session(levelled_tables(1, 1))
    a.cells = [dataclasses.replace(c, level=Level(sd=0.02)) for c in a.cells]
    cmp = compare(a, side_from_session(levelled_tables(101, 2)))
    assert cmp.fitted is None and "each side's own session level" in draw.level_lines(cmp)[0]


def spin_beside_a_noisy_suite(seed: int, sid: int, planted: float = 1.0):
    """make bench with the spin test suite beside it (docs/results/2026-11-28-layouts-in-turn), in a fresh store:
    a noisy suite (8 tables of 6 cells, 15% a run, each cell moved 3% by each session, 10 rounds) and spin's
    three quiet loops (2% a run, 20 rounds), loop2 `planted` times slower."""
    rng = np.random.default_rng(seed)
    cells = []
    for t in range(8):
        for k in range(6):
            factor = float(np.exp(rng.normal(0, 0.03)))
            times = [0.01 * (1 + k) * factor * float(np.exp(rng.normal(0, 0.15))) for _ in range(10)]
            cells.append(cell(f"n{k}", times, suite="noisy", params={"passes": 1, "table": t}))
    drift = np.exp(rng.normal(0, 0.02, 20))
    for k, name in enumerate(("loop", "loop2", "loop3")):
        factor = planted if name == "loop2" else 1.0
        cells.append(cell(name, [0.003 * (1 + k) * factor * d * float(np.exp(rng.normal(0, 0.02))) for d in drift], suite="spin"))
    return session(cells, sid=sid)


def test_a_planted_10_percent_in_spin_is_flagged_with_the_level_fitted_on_the_comparison():
    """Neither side carries a session level: the noisy suite's is its own fit, spin's (one pair of its three
    cells) the relative one of every pair, a multiple of each pair's per-round sd, so the noisy suite's level is
    not given to spin's quiet loops (session_spread's rule) and the planted 10% stays flagged, alone."""
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    for seed in range(5):
        cmp = compare(
            side_from_session(spin_beside_a_noisy_suite(seed, 1)), side_from_session(spin_beside_a_noisy_suite(100 + seed, 2, 1.10))
        )
        assert cmp.fitted is not None and set(cmp.fitted) == {"noisy", "spin"} and not cmp.fitted["spin"].sd
        flagged = [(c.a.suite, c.a.key, c.verdict) for c in cmp.changes if c.verdict != "~"]
        assert flagged == [("spin", "c/loop2", "regressed")], [describe_change(c) for c in cmp.changes if c.verdict != "~"]


def layout_side(seed: int, slower: float = 1.0, names: tuple[str, ...] = ("as-linked", "s1+16", "s2+32", "s3+48")) -> "object":
    """Three cells of one table over 40 rounds and four code layouts each, used in turn in an order of their own:
    each layout moves its cell by up to 30% (placement, the same programs on both sides when `names` are), each
    run has 3% of noise; c/c1 is `slower` times slower."""
    from iorace.compare.sides import CellSample, Side
    from iorace.core.ids import TableId

    rng = np.random.default_rng(seed)
    placement = {k: np.exp(np.random.default_rng(k).normal(0, 0.15, 4)) for k in range(3)}  # fixed per program
    cells = []
    for k, base in enumerate((10.0, 12.0, 15.0)):
        order = rng.permutation(4)
        layouts = {r: int(order[r % 4]) for r in range(40)}
        rounds = {r: base * (slower if k == 1 else 1.0) * placement[k][layouts[r]] * float(np.exp(rng.normal(0, 0.03))) for r in range(40)}
        cells.append(
            CellSample(
                "s",
                "d",
                {},
                f"c/c{k}",
                "gcc",
                "release",
                f"c/c{k}@gcc:release",
                "ok",
                "wall",
                list(rounds.values()),
                rounds=rounds,
                table=TableId.of("s", "d", {}, ()),
                layouts=layouts,
                layout_set=(f"/build/{k}/prog", "|", *names),
            )
        )
    return Side(f"session {seed}", "", "", cells, {})


def test_a_change_within_the_same_layouts_is_judged_against_the_runs_noise_not_placement():
    """Both sessions ran the same four layouts of each cell: placement (up to 30% a layout) cancels, and a 10%
    slowdown is flagged; unchanged code is not. Over other layouts on one side the change carries placement,
    judged over the rounds as before, and the layouts are not said to be held."""
    from iorace.compare.judge import compare

    for seed in range(5):
        same = compare(layout_side(seed), layout_side(100 + seed, slower=1.1))
        assert [c.a.key for c in same.changes if c.verdict == "regressed"] == ["c/c1"], [describe_change(c) for c in same.changes]
        assert all(c.layouts_held for c in same.changes if c.reference)
        clean = compare(layout_side(seed), layout_side(200 + seed))
        assert not [c for c in clean.changes if c.verdict != "~"], [describe_change(c) for c in clean.changes]
    other = compare(layout_side(1), layout_side(2, slower=1.1, names=("as-linked", "s5+16", "s6+32", "s7+48")))
    assert not any(c.layouts_held for c in other.changes)
