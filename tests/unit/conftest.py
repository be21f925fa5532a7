"""The fast tier's fixture: the `iorace` entry point run in this process (no subprocess: start-up imports
cost seconds on a loaded machine), with its exit code, stdout and stderr."""
import sys
from dataclasses import dataclass

import pytest

from iorace.cli import main


@dataclass
class Out:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def iorace(capsys, monkeypatch):
    """`iorace("compare", "1", "2", "--db", path)` -> Out."""
    def run(*args: str) -> Out:
        monkeypatch.setattr(sys, "argv", ["iorace", *args])
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_:
            main()
        out = capsys.readouterr()
        return Out(exit_.value.code or 0, out.out, out.err)
    return run
