"""`iorace new`: a new suite's skeleton, which passes `iorace run NAME --check-only` as written."""

from __future__ import annotations

from pathlib import Path

import click

from iorace.cli.common import console
from iorace.core.errors import UsageError
from iorace.core.paths import REPO_SUITES
from iorace.manifest import skeleton


@click.command("new")
@click.argument("name")
@click.option(
    "--languages",
    default="c,rust,go,python",
    show_default=True,
    help=f"Comma-separated: a variant in each ({', '.join(skeleton.LANGUAGES)}).",
)
@click.option(
    "--dir",
    "parent",
    type=click.Path(path_type=Path),
    default=None,
    help="The folder to make the suite's folder in (default: the checkout's suites/); then run it with --suite-dir DIR.",
)
@click.option("--peer", default="", help='An existing program as a peer, run on the file as its stdin (e.g. "wc -l").')
def new(name: str, languages: str, parent: Path | None, peer: str) -> None:
    """Make a new suite NAME: suite.toml, suite.py, a variant per language on the variant kit, a README and a
    test; its job (count the newlines of a file) passes `iorace run NAME --check-only` at once: replace it."""
    chosen = _languages(languages)
    if not skeleton.NAME_PATTERN.fullmatch(name):
        raise UsageError(f"suite name {name!r}: lower-case letters, digits, '_' and '-', starting with a letter (40 at most)")
    if problem := skeleton.peer_problem(peer) if peer else "":
        raise UsageError(problem)
    root = parent if parent is not None else REPO_SUITES
    if not root.is_dir():
        raise UsageError(f"--dir {root}: not a directory")
    target = root / name
    if target.exists():
        raise UsageError(f"{target} already exists: pick another name or --dir")
    if root.resolve() != REPO_SUITES.resolve() and (REPO_SUITES / name).exists():
        raise UsageError(f"the checkout already has a suite {name!r} (suites/{name}): pick another name")
    written = skeleton.files(name, chosen, target, peer)
    for rel, text in written.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    console.print(f"made {target}: {len(written)} files ({', '.join(sorted(written))})", highlight=False, soft_wrap=True)
    check = f"iorace run {name}{skeleton.suite_dir_option(target)} --size tiny --check-only"
    console.print(f"check it: {check}", highlight=False, soft_wrap=True)


def _languages(text: str) -> list[str]:
    """--languages as a list, each known and named once."""
    chosen = [word.strip() for word in text.split(",") if word.strip()]
    if not chosen:
        raise UsageError("--languages names no language")
    if unknown := [w for w in chosen if w not in skeleton.LANGUAGES]:
        raise UsageError(f"--languages: unknown language {unknown[0]!r} (known: {', '.join(skeleton.LANGUAGES)})")
    if len(set(chosen)) != len(chosen):
        raise UsageError(f"--languages names {next(w for w in chosen if chosen.count(w) > 1)!r} twice")
    return chosen


COMMANDS = [new]
