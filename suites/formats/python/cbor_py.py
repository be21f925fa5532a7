# Strategy: cbor2 (its C extension): dumps of the plain dicts and lists (ints in their shortest head, dicts in
# insertion order, None as null), loads back to them (str keys and values).
from __future__ import annotations

from typing import Any

import cbor2
import common


def encode(data: Any) -> bytes:
    return cbor2.dumps(data)


def decode(raw: bytes) -> Any:
    # cbor2's errors (CBORDecodeError, CBORDecodeEOF) are not ValueErrors, as msgpack's and json's are: made
    # one here, so common.main refuses them in one line (a try costs nothing on 3.11's clock unless it raises)
    try:
        return cbor2.loads(raw)
    except cbor2.CBORError as e:
        raise ValueError(f"{type(e).__name__}: {e}") from None


common.main(encode, decode)
