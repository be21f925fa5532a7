"""Where iorace keeps its caches and its database (XDG directories, overridable)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

REPO_SUITES = Path(__file__).resolve().parents[2] / "suites"
# the variant kit: each language's helper for the variant protocol, shared by suites ({kit} in a manifest)
VARIANT_KIT = Path(__file__).resolve().parents[1] / "variant_kit"


def cache_dir() -> Path:
    """Build and data cache: $IORACE_CACHE, else the user's XDG cache dir."""
    root = os.environ.get("IORACE_CACHE")
    path = Path(root) if root else Path(platformdirs.user_cache_dir("iorace"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db() -> Path | str:
    """The session database: $IORACE_DB (a SQLite file or a postgresql:// URL), else iorace.sqlite in the
    user's XDG data dir."""
    env = os.environ.get("IORACE_DB")
    if env and "://" in env:
        return env
    return Path(env) if env else Path(platformdirs.user_data_dir("iorace")) / "iorace.sqlite"
