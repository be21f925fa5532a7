"""capnp: the Cap'n Proto benchmark's three cases (carsales, catrank, eval); datasets and the reference answer.

A dataset is a tiny text file naming the number of request/response iterations per case:

    # comment lines and blank lines are ignored
    carsales 10000
    catrank 1000
    eval 200000

Every program builds its requests from the upstream benchmark's 128-bit xorshift generator with its fixed
seeds, drawing the very same numbers in the very same order, so the requests (and therefore the answers)
are fixed by the case and the iteration count alone. This module replays those draws in plain Python and
computes, per case, the checksum the programs report over what their client decoded from the responses:

    carsales  sum of the response amounts (TotalValue.amount), wrapping at 2**64
    catrank   sum over responses of (leading results with score > 1001) * 2**32
              + the bytes of those leading results' urls and snippets, wrapping at 2**64 (upstream's
              check stops at the first result that is not good, and so do the programs')
    eval      sum of the response values (EvaluationResult.value, int32) as a wrapping int64

The answer is {"iterations": N, "checksum": C}. It does not depend on the config (object, bytes, pipe,
packed, reuse): every config carries the same requests and must decode the same responses.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

CASES = ("carsales", "catrank", "eval")
CONFIGS = (
    "object-reuse",
    "object",
    "bytes-reuse",
    "bytes",
    "bytes-packed-reuse",
    "bytes-packed",
    "pipe-reuse",
    "pipe",
    "pipe-packed-reuse",
    "pipe-packed",
)

# iterations per case per dataset; `seed` is the seed's own run (carsales 10,000, catrank 1,000, eval 200,000)
DATASETS = {
    "tiny": {"carsales": 40, "catrank": 8, "eval": 400},
    "quick": {"carsales": 2_000, "catrank": 200, "eval": 4_000},  # eval: a pipe run of 40,000 took 4 s here
    "seed": {"carsales": 10_000, "catrank": 1_000, "eval": 200_000},
}
MAX_ITERATIONS = 10**12

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
INT32_MAX = 0x7FFFFFFF
INT32_MIN = -0x80000000

WORDS = ("foo ", "bar ", "baz ", "qux ", "quux ", "corge ", "grault ", "garply ", "waldo ", "fred ", "plugh ", "xyzzy ", "thud ")
WORD_LENGTHS = tuple(len(w) for w in WORDS)
URL_PREFIX = "http://example.com/"  # 19 bytes, one prefix for every implementation


class FastRand:
    """The upstream benchmark's 128-bit xorshift (common.h / common.rs), all arithmetic on uint32."""

    __slots__ = ("w", "x", "y", "z")

    def __init__(self) -> None:
        self.x, self.y, self.z, self.w = 0x1D2ACD47, 0x58CA3E14, 0xF563F232, 0x0BC76199

    def next(self) -> int:
        t = (self.x ^ (self.x << 11)) & M32
        self.x, self.y, self.z = self.y, self.z, self.w
        w = self.w
        self.w = w ^ (w >> 19) ^ t ^ (t >> 8)
        return self.w

    def below(self, n: int) -> int:
        """fastRand(n): next % n."""
        return self.next() % n

    def skip(self, n: int) -> None:
        """n draws whose values do not matter for the answer (url letters, floats)."""
        x, y, z, w = self.x, self.y, self.z, self.w
        for _ in range(n):
            t = (x ^ (x << 11)) & M32
            x, y, z = y, z, w
            w = w ^ (w >> 19) ^ t ^ (t >> 8)
        self.x, self.y, self.z, self.w = x, y, z, w


def _wrap32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v > INT32_MAX else v


def _div(a: int, b: int) -> int:
    """C's int32 division, INT32_MAX for a zero divisor and for INT32_MIN / -1 (as upstream)."""
    if b == 0 or (a == INT32_MIN and b == -1):
        return INT32_MAX
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _mod(a: int, b: int) -> int:
    """C's int32 remainder (sign of the dividend), INT32_MAX for a zero divisor and for INT32_MIN % -1."""
    if b == 0 or (a == INT32_MIN and b == -1):
        return INT32_MAX
    return a - b * _div(a, b)


# --- carsales ------------------------------------------------------------------------------------------


def carsales_request(rng: FastRand) -> int:
    """Draw one ParkingLot in upstream's order; returns the expected TotalValue.amount (sum of car values)."""
    total = 0
    below = rng.below
    for _ in range(below(200)):
        below(5)  # make
        below(6)  # model
        below(9)  # color
        value = (2 + below(6)) * 200  # seats
        value += (2 + below(3)) * 350  # doors
        for _ in range(4):  # wheels: diameter, airPressure, snowTires
            d = 25 + below(15)
            rng.next()
            value += d * d + (100 if below(16) == 0 else 0)
        length, width, height = 170 + below(150), 48 + below(36), 54 + below(48)
        value += length * width * height // 50
        value += 100 * below(400) * 40  # horsepower
        below(3)  # cylinders
        below(10000)  # cc
        if below(2):  # usesElectric (usesGas is always true: a hybrid)
            value += 5000
        rng.next()  # fuelCapacity
        rng.next()  # fuelLevel
        value += 100 if below(2) else 0  # hasPowerWindows
        value += 200 if below(2) else 0  # hasPowerSteering
        value += 400 if below(2) else 0  # hasCruiseControl
        value += below(12) * 25  # cupHolders
        value += 2000 if below(2) else 0  # hasNavSystem
        total += value
    return total


# --- catrank -------------------------------------------------------------------------------------------


def catrank_request(rng: FastRand) -> tuple[int, int]:
    """Draw one SearchResultList; returns (results that are cat and not dog, bytes of their urls and snippets).

    The server ranks exactly these first (score x 10000 > 1001; every other score is at most 1000), so they
    are the leading results the client's check reads."""
    below = rng.below
    good = 0
    text_bytes = 0
    for _ in range(below(1000)):
        url_size = below(100)
        rng.skip(url_size)  # the url's letters
        is_cat = below(8) == 0
        is_dog = below(8) == 0
        snippet = 1 + 4 * is_cat + 4 * is_dog  # the leading space, "cat ", "dog "
        for _ in range(below(20)):
            snippet += WORD_LENGTHS[below(13)]
        for _ in range(below(20)):
            snippet += WORD_LENGTHS[below(13)]
        if is_cat and not is_dog:
            good += 1
            text_bytes += len(URL_PREFIX) + url_size + snippet
    return good, text_bytes


# --- eval ----------------------------------------------------------------------------------------------


def eval_expression(rng: FastRand, depth: int = 0) -> int:
    """Draw one Expression tree (op, then left, then right); returns its value with wrapping int32 math."""
    op = rng.below(5)
    left = rng.below(128) + 1 if rng.below(8) < depth else eval_expression(rng, depth + 1)
    right = rng.below(128) + 1 if rng.below(8) < depth else eval_expression(rng, depth + 1)
    if op == 0:
        return _wrap32(left + right)
    if op == 1:
        return _wrap32(left - right)
    if op == 2:
        return _wrap32(left * right)
    if op == 3:
        return _div(left, right)
    return _mod(left, right)


# --- answers -------------------------------------------------------------------------------------------


def _request_value(case: str) -> Callable[[FastRand], int]:
    """What one request of `case` adds to the checksum (the next draws of the generator)."""
    if case == "carsales":
        return carsales_request
    if case == "catrank":

        def catrank(rng: FastRand) -> int:
            good, text_bytes = catrank_request(rng)
            return (good << 32) + text_bytes

        return catrank
    if case == "eval":
        return eval_expression
    raise ValueError(f"unknown case {case!r} (known: {', '.join(CASES)})")


# case -> (the generator after the requests drawn so far, the running totals: totals[n] = the first n requests').
# The checksum of n requests is a running sum, so one pass serves every n: `run --target-ms` gives each cell
# its own count, and drawing each from the start again took minutes of Python for capnp's 420 cells.
_RUNNING: dict[str, tuple[FastRand, list[int]]] = {}


def checksum(case: str, iterations: int) -> int:
    """The checksum a correct program reports for `iterations` requests of `case`."""
    value = _request_value(case)
    rng, totals = _RUNNING.setdefault(case, (FastRand(), [0]))
    while len(totals) <= iterations:
        totals.append((totals[-1] + value(rng)) & M64)  # kept to 64 bits: the sum is taken modulo 2^64
    total = totals[iterations]
    if case == "eval":
        return total - (1 << 64) if total >= 1 << 63 else total
    return total


def read_counts(path: Path) -> dict[str, int]:
    """Parse an iterations file: lines `CASE COUNT`; blank lines and lines starting with # are ignored."""
    counts: dict[str, int] = {}
    for n, raw in enumerate(Path(path).read_text(encoding="ascii").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 2 or fields[0] not in CASES or not fields[1].isdigit():
            raise ValueError(f"line {n}: expected `CASE COUNT` with CASE one of {', '.join(CASES)}: {raw!r}")
        if fields[0] in counts:
            raise ValueError(f"line {n}: {fields[0]} given twice")
        count = int(fields[1])
        if count > MAX_ITERATIONS:
            raise ValueError(f"line {n}: count {count} above {MAX_ITERATIONS}")
        counts[fields[0]] = count
    return counts


def iterations(path: Path, case: str) -> int:
    counts = read_counts(path)
    if case not in counts:
        raise ValueError(f"no iteration count for {case}")
    return counts[case]


def generate(dataset: str, path: Path) -> None:
    if dataset not in DATASETS:
        raise ValueError(f"unknown dataset {dataset!r}")
    text = "".join(f"{case} {n}\n" for case, n in DATASETS[dataset].items())
    path.write_text(f"# iterations per case (capnp suite, dataset {dataset})\n{text}", encoding="ascii")


def _run_iterations(path: Path, params: dict) -> int:
    """The iterations one run does: ceil(count * scale / (100 * divide)) (divide = 1 except for the slow Python
    row; scale, a percentage, is what `run --target-ms` sizes)."""
    divide, scale = int(params.get("divide", 1)), int(params.get("scale", 100))
    if divide < 1:
        raise ValueError(f"divide must be >= 1, got {divide}")
    if not 1 <= scale <= 100_000:
        raise ValueError(f"scale must be 1 to 100000 (a percentage), got {scale}")
    return -(-iterations(path, params["case"]) * scale // (100 * divide))


def expected(path: Path, params: dict) -> dict:
    if params["config"] not in CONFIGS:
        raise ValueError(f"unknown config {params['config']!r}")
    n = _run_iterations(path, params)
    return {"iterations": n, "checksum": checksum(params["case"], n)}


def units(path: Path, params: dict) -> dict[str, int]:
    """One message = one request and its response."""
    return {"messages": _run_iterations(path, params)}
