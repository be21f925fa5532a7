"""Exports of a stored session into formats users already use: hyperfine JSON, per-run TSV, Markdown."""
from iorace.export.json_export import write_json
from iorace.export.markdown import write_markdown
from iorace.export.tsv import write_tsv

__all__ = ["write_json", "write_markdown", "write_tsv"]
