"""A real PostgreSQL server for the tests, started and stopped by them (no system-wide server): Debian's
initdb into a temporary folder, pg_ctl on a free port of 127.0.0.1 with its unix socket in that folder,
as the `postgres` user when the tests run as root (PostgreSQL refuses to run as root). TCP connections
need the password (scram-sha-256), so a wrong one is refused as on a real shared store."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER, PASSWORD = "iorace", "race-secret"


def bindir() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian keeps them out of PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def why_not() -> str | None:
    """Why no server can be started here (None: it can)."""
    if bindir() is None:
        return "needs PostgreSQL's initdb (Debian's postgresql; scripts/setup installs it)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "needs the psycopg driver (pip install 'iorace[pg]'; scripts/setup installs it)"
    if os.getuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root needs the postgres user to run the server as (Debian's postgresql makes it)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """One server: init() once, then start(), kill() (as a crash: pg_ctl stop -m immediate), start()
    again, stop(); url(db) names a database on it, new_database() makes an empty one."""

    def __init__(self) -> None:
        self.bin = bindir()
        assert self.bin is not None, why_not()
        self.root = Path(tempfile.mkdtemp(prefix="iorace-pg-"))  # in /tmp: the postgres user reaches it
        self.data, self.log = self.root / "data", self.root / "server.log"
        self.port = 0
        self._n = 0
        self._as = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        if self._as:
            shutil.chown(self.root, "postgres")

    def _run(self, *args: str, timeout: float = 120) -> None:
        proc = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            log = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)}: exit {proc.returncode}: {proc.stderr.strip()} {proc.stdout.strip()}\n{log}")

    def init(self) -> PgServer:
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self._as:
            shutil.chown(pwfile, "postgres")
        self._run(
            str(self.bin / "initdb"),
            *("-D", str(self.data), "-U", USER, "--pwfile", str(pwfile), "-E", "UTF8", "--locale", "C"),
            *("--auth-local", "trust", "--auth-host", "scram-sha-256", "--no-sync", "--no-instructions"),
        )
        pwfile.unlink()
        return self

    def start(self) -> PgServer:
        """Start on a free port (the same again after a kill, so that a URL holds across a restart)."""
        for _ in range(5):  # another process may take the free port before the server binds it
            self.port = self.port or free_port()
            options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40"
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "-o", options, "start")
                return self
            except RuntimeError:
                if "could not bind" not in (self.log.read_text() if self.log.exists() else ""):
                    raise
                self.port = 0
        raise RuntimeError(f"no free port for PostgreSQL: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """Stop as a crash does: every server process ends at once, no checkpoint (recovery on the next start)."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, db: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{db}"

    def admin(self):  # -> psycopg.Connection
        import psycopg

        return psycopg.connect(self.url(), autocommit=True)

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        self._n += 1
        name = f"t{os.getpid()}_{self._n}_{int(time.time() * 1000) % 100000}"
        with self.admin() as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)
