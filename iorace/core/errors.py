"""Errors that end a command with one clear line on stderr."""


class UsageError(Exception):
    """Bad usage or bad input (unknown suite, missing file, bad manifest): exit code 2."""

    exit_code = 2
