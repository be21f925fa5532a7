"""iorace: race implementations of one I/O or serialization job against each other."""

__version__ = "0.1.0"
