# Strategy: pickle (stdlib, protocol 5, its C accelerator): dumps of the plain dicts and lists, loads back through a
# restricted Unpickler whose find_class refuses every global (dicts, lists, str, int and None need none), so the
# bytes can name no callable to run. Python's own format, read only by this program: not in the interop matrix
# (README, "Native formats").
from __future__ import annotations

import io
import pickle
from typing import Any

import common


class _PlainOnly(pickle.Unpickler):
    """Refuses every class or function a pickle names (GLOBAL, STACK_GLOBAL, the copyreg extension codes): what is
    left builds only builtin containers and scalars, never calls anything."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"global {module}.{name} refused: plain objects only")


def encode(data: Any) -> bytes:
    return pickle.dumps(data, protocol=5)


def decode(raw: bytes) -> Any:
    # pickle's errors are many types (UnpicklingError, EOFError, IndexError, MemoryError, ...): made one ValueError
    # here, so common.main refuses them in one line
    try:
        return _PlainOnly(io.BytesIO(raw)).load()
    except (pickle.UnpicklingError, EOFError, IndexError, MemoryError, OverflowError, AttributeError) as e:
        raise ValueError(f"{type(e).__name__}: {e}") from None


common.main(encode, decode)
