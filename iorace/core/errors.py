"""Errors that end a command with one clear line on stderr, and the exit codes a command ends with."""

EXIT_OK = 0
EXIT_BAD_CELL = 1  # some cell failed, answered wrong or timed out (compare: a regression)
EXIT_USAGE = 2
EXIT_BUG = 3
# The session was measured (or shown) and exported, but on a busy machine: the exports are written, marked
# contended, so a long session is never lost; the code is its own so that a script publishing the exports can
# tell "measure again" from "bad usage" (2). A bad cell (1) or an interruption (130) says more and wins.
EXIT_CONTENDED = 4
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Bad usage or bad input (unknown suite, missing file, bad manifest): exit code 2."""

    exit_code = EXIT_USAGE
