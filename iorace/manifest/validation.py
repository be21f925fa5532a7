"""A manifest's validation errors as one line that points at the fix: the variant named, not numbered, and an
unknown key (a typo) said first, with the field it was probably meant to be; the "Field required" its typo
causes is then the same problem, not one more."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError


def _where(loc: tuple[Any, ...], data: Any) -> str:
    """The location in the manifest's words: `variant 'c/getc'` for variants.N (its language/name as the
    manifest spells them), the dotted path for the rest."""
    parts: list[str] = []
    rest = list(loc)
    if len(rest) >= 2 and rest[0] == "variants" and isinstance(rest[1], int):
        variants = data.get("variants") if isinstance(data, dict) else None
        entry = variants[rest[1]] if isinstance(variants, list) and rest[1] < len(variants) else None
        if isinstance(entry, dict) and "name" in entry:
            parts.append(f"variant '{entry.get('language', '?')}/{entry['name']}'")
            rest = rest[2:]
    if rest:
        parts.append(".".join(str(p) for p in rest))
    return ": ".join(parts)


def one_line(path: Path, err: ValidationError, data: Any, known_fields: Iterable[str]) -> str:
    """`PATH: WHERE: WHAT`, the most telling problem first: an unknown key before a missing one, since a
    misspelt key causes both."""
    errors = err.errors()
    unknown = [e for e in errors if e["type"] == "extra_forbidden"]
    first = unknown[0] if unknown else errors[0]
    loc = tuple(first["loc"])
    explained = {id(first)}
    if first["type"] == "extra_forbidden":
        key = str(loc[-1])
        parent = loc[:-1]
        missing = [e for e in errors if e["type"] == "missing" and tuple(e["loc"][:-1]) == parent]
        # the fields missing beside the unknown key are the likeliest meaning; any field of the schema next
        guess = difflib.get_close_matches(key, [str(e["loc"][-1]) for e in missing], n=1, cutoff=0.6)
        guess = guess or difflib.get_close_matches(key, sorted(set(known_fields)), n=1, cutoff=0.75)
        what = f"unknown key '{key}'" + (f" (did you mean '{guess[0]}'?)" if guess else "")
        explained |= {id(e) for e in missing if guess and str(e["loc"][-1]) == guess[0]}
        where = _where(parent, data)
    else:
        what = first["msg"].removeprefix("Value error, ")
        where = _where(loc, data) or "(top level)"
    others = len(errors) - len(explained)
    more = f" (and {others} more problem{'s' if others > 1 else ''})" if others else ""
    return f"{path}: {where + ': ' if where else ''}{what}{more}"
