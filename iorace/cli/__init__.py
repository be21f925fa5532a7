"""The `iorace` command: new, list, doctor, run, seeds, show, report, compare, dimension, history, push, machines,
compare-machines, site (one module per group of commands; this one holds the group and the entry point)."""

from __future__ import annotations

import os
import signal
import sys

import click

from iorace.cli import compare, fleet, measure, new, show, site, suites
from iorace.core.errors import UsageError
from iorace.store import dialect


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="iorace")
def cli() -> None:
    """Race implementations of the same I/O or serialization job and say which one wins, by how much, and why."""


for _module in (new, suites, measure, show, compare, fleet, site):
    for _command in _module.COMMANDS:
        cli.add_command(_command)


def _stop_like_ctrl_c(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _catch_stop_signals() -> None:
    """kill, a closed terminal or a batch system's time limit end a session the way Ctrl-C does: what was
    measured is stored and the session is marked interrupted, not left "running" forever (only SIGKILL
    cannot be caught)."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop_like_ctrl_c)


def main() -> None:
    """Entry point: usage errors and bad input end with one line on stderr and exit code 2 (every exit code:
    core.errors; a command that measures or exports returns 0, 1 or 4 itself)."""
    _catch_stop_signals()
    try:
        code = cli.main(standalone_mode=False)
        sys.exit(code or 0)
    except click.exceptions.NoArgsIsHelpError as e:  # bare `iorace`: show help, like git does
        click.echo(e.ctx.get_help())
        sys.exit(0)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        ctx = getattr(e, "ctx", None)
        hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        print(f"iorace: error: {e.format_message()}{hint}", file=sys.stderr)
        sys.exit(2)
    except UsageError as e:
        print(f"iorace: error: {e}", file=sys.stderr)
        sys.exit(UsageError.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):
        print("iorace: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except Exception as e:  # a bug in iorace itself: one line, the traceback on request
        if (line := dialect.user_error(e)) is not None:  # the server's or the user's: a lost connection, a denied permission
            print(f"iorace: error: {line}", file=sys.stderr)
            sys.exit(2)
        if os.environ.get("IORACE_DEBUG"):
            raise
        print(f"iorace: internal error: {type(e).__name__}: {e} (set IORACE_DEBUG=1 for the traceback)", file=sys.stderr)
        sys.exit(3)
