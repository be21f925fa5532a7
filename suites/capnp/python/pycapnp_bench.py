# pycapnp (PyPI, bundles libcapnp 1.0): the three cases in Python through Cap'n Proto's dynamic API, schemas loaded at run time; reuse has no effect (no scratch-space API).
"""usage: pycapnp_bench.py CASE CONFIG ITERS_FILE [DIVIDE [SCALE]]

Runs ceil(count * SCALE / (100 * DIVIDE)) iterations of CASE (count from ITERS_FILE; SCALE, a percentage,
default 100, is what iorace's --target-ms sizes; DIVIDE makes Python finish in about the time
the compiled rows take for the whole count; the report compares it per message. Same draws, checks and
checksum as every other row (see the suite's README.md). The pipe configs re-run this script as the server
(`--serve CASE CONFIG N`). CAPNP_BENCH_FAULT=truncate|garbage spoils the first request's bytes.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import capnp

HERE = Path(__file__).resolve().parent
SCHEMA = HERE.parent / "schema"
PROG = "pycapnp"
M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
INT32_MAX = 0x7FFFFFFF
INT32_MIN = -0x80000000
WORDS = ("foo ", "bar ", "baz ", "qux ", "quux ", "corge ", "grault ", "garply ", "waldo ", "fred ", "plugh ", "xyzzy ", "thud ")
URL_PREFIX = "http://example.com/"
MAKES = ("Toyota", "GM", "Ford", "Honda", "Tesla")
MODELS = ("Camry", "Prius", "Volt", "Accord", "Leaf", "Model S")
CASES = ("carsales", "catrank", "eval")


class Failure(Exception):
    """A run's failure, one line."""


class CheckFailed(Failure):
    """A response that differs from the client's expectation (upstream's per-iteration check)."""


def die(msg: str, prog: str = PROG) -> None:
    text = str(msg).split("stack:")[0]  # kj exceptions end with a stack trace
    print(f"{prog}: {' '.join(text.split())}", file=sys.stderr)
    sys.exit(1)


class FastRand:
    """The upstream benchmark's 128-bit xorshift, fixed seeds."""

    def __init__(self) -> None:
        self.x, self.y, self.z, self.w = 0x1D2ACD47, 0x58CA3E14, 0xF563F232, 0x0BC76199

    def next(self) -> int:
        t = (self.x ^ (self.x << 11)) & M32
        self.x, self.y, self.z = self.y, self.z, self.w
        self.w = self.w ^ (self.w >> 19) ^ t ^ (t >> 8)
        return self.w

    def below(self, n: int) -> int:
        return self.next() % n

    def real(self, r: float) -> float:
        return self.next() * r / M32


def wrap32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v > INT32_MAX else v


def div32(a: int, b: int) -> int:
    if b == 0 or (a == INT32_MIN and b == -1):
        return INT32_MAX
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def mod32(a: int, b: int) -> int:
    if b == 0 or (a == INT32_MIN and b == -1):
        return INT32_MAX
    return a - b * div32(a, b)


# --- the cases ------------------------------------------------------------------------------------------


class CarSales:
    def __init__(self) -> None:
        s = capnp.load(str(SCHEMA / "carsales.capnp"), imports=["/usr/include"])
        self.request, self.response = s.ParkingLot, s.TotalValue

    @staticmethod
    def car_value(car) -> int:
        result = car.seats * 200 + car.doors * 350
        for wheel in car.wheels:
            result += wheel.diameter * wheel.diameter + (100 if wheel.snowTires else 0)
        result += car.length * car.width * car.height // 50
        engine = car.engine
        result += engine.horsepower * 40
        if engine.usesElectric:
            result += 5000 if engine.usesGas else 3000
        result += 100 if car.hasPowerWindows else 0
        result += 200 if car.hasPowerSteering else 0
        result += 400 if car.hasCruiseControl else 0
        result += 2000 if car.hasNavSystem else 0
        result += car.cupHolders * 25
        return result

    def setup(self, rng: FastRand, request) -> int:
        below = rng.below
        cars = request.init("cars", below(200))
        total = 0
        for car in cars:
            car.make = MAKES[below(5)]
            car.model = MODELS[below(6)]
            car.color = below(9)
            car.seats = 2 + below(6)
            car.doors = 2 + below(3)
            for wheel in car.init("wheels", 4):
                wheel.diameter = 25 + below(15)
                wheel.airPressure = 30 + rng.real(20)
                wheel.snowTires = below(16) == 0
            length, width, height = 170 + below(150), 48 + below(36), 54 + below(48)
            car.length, car.width, car.height = length, width, height
            car.weight = length * width * height // 200
            engine = car.init("engine")
            engine.horsepower = 100 * below(400)
            engine.cylinders = 4 + 2 * below(3)
            engine.cc = 800 + below(10000)
            engine.usesGas = True
            engine.usesElectric = below(2) == 1
            car.fuelCapacity = 10.0 + rng.real(30.0)
            car.fuelLevel = rng.real(car.fuelCapacity)
            car.hasPowerWindows = below(2) == 1
            car.hasPowerSteering = below(2) == 1
            car.hasCruiseControl = below(2) == 1
            car.cupHolders = below(12)
            car.hasNavSystem = below(2) == 1
            total += self.car_value(car)
        return total

    def handle(self, request, response) -> None:
        response.amount = sum(self.car_value(car) for car in request.cars)

    def check(self, response, expected: int, acc: list[int]) -> None:
        if response.amount != expected:
            raise CheckFailed(f"carsales: expected amount {expected}, got {response.amount}")
        acc[0] += response.amount


class CatRank:
    def __init__(self) -> None:
        s = capnp.load(str(SCHEMA / "catrank.capnp"), imports=["/usr/include"])
        self.request = self.response = s.SearchResultList

    def setup(self, rng: FastRand, request) -> int:
        below = rng.below
        count = below(1000)
        results = request.init("results", count)
        good = 0
        for i, result in enumerate(results):
            result.score = 1000.0 - i
            url_size = below(100)
            result.url = URL_PREFIX + "".join(chr(97 + below(26)) for _ in range(url_size))
            is_cat = below(8) == 0
            is_dog = below(8) == 0
            good += is_cat and not is_dog
            parts = [" "]
            parts += [WORDS[below(13)] for _ in range(below(20))]
            if is_cat:
                parts.append("cat ")
            if is_dog:
                parts.append("dog ")
            parts += [WORDS[below(13)] for _ in range(below(20))]
            result.snippet = "".join(parts)
        return good

    def handle(self, request, response) -> None:
        scored = []
        for result in request.results:
            score = result.score
            snippet = result.snippet
            if " cat " in snippet:
                score *= 10000
            if " dog " in snippet:
                score /= 10000
            scored.append((score, result))
        scored.sort(key=lambda s: -s[0])
        out = response.init("results", len(scored))
        for item, (score, result) in zip(out, scored, strict=True):
            item.score = score
            item.url = result.url
            item.snippet = result.snippet

    def check(self, response, expected: int, acc: list[int]) -> None:
        good = 0
        text_bytes = 0
        for result in response.results:  # upstream's check: stops at the first result that is not good
            if result.score > 1001:
                good += 1
                text_bytes += len(result.url.encode()) + len(result.snippet.encode())
            else:
                break
        if good != expected:
            raise CheckFailed(f"catrank: expected {expected} good results, got {good}")
        acc[0] += (good << 32) + text_bytes


def apply(op: int, left: int, right: int) -> int:
    if op == 0:
        return wrap32(left + right)
    if op == 1:
        return wrap32(left - right)
    if op == 2:
        return wrap32(left * right)
    if op == 3:
        return div32(left, right)
    return mod32(left, right)


class Eval:
    def __init__(self) -> None:
        s = capnp.load(str(SCHEMA / "eval.capnp"), imports=["/usr/include"])
        self.request, self.response = s.Expression, s.EvaluationResult

    def make(self, rng: FastRand, exp, depth: int) -> int:
        op = rng.below(5)
        exp.op = op
        if rng.below(8) < depth:
            left = exp.left.value = rng.below(128) + 1
        else:
            left = self.make(rng, exp.left.init("expression"), depth + 1)
        if rng.below(8) < depth:
            right = exp.right.value = rng.below(128) + 1
        else:
            right = self.make(rng, exp.right.init("expression"), depth + 1)
        return apply(op, left, right)

    def evaluate(self, exp) -> int:
        left = exp.left.value if exp.left.which() == "value" else self.evaluate(exp.left.expression)
        right = exp.right.value if exp.right.which() == "value" else self.evaluate(exp.right.expression)
        return apply(exp.op.raw, left, right)

    def setup(self, rng: FastRand, request) -> int:
        return self.make(rng, request, 0)

    def handle(self, request, response) -> None:
        response.value = self.evaluate(request)

    def check(self, response, expected: int, acc: list[int]) -> None:
        if response.value != expected:
            raise CheckFailed(f"eval: expected {expected}, got {response.value}")
        acc[0] += response.value


# --- modes ------------------------------------------------------------------------------------------------


def spoil(data: bytes, fault: str) -> bytes:
    if fault == "truncate":
        return data[: (len(data) // 2) & ~7]
    return b"\xff" * min(8, len(data)) + data[8:]


def encode(message, packed: bool) -> bytes:
    return message.to_bytes_packed() if packed else message.to_bytes()


def decode(struct, data: bytes, packed: bool, use):
    """Read `data` back as `struct` and hand the reader to `use`."""
    if packed:
        return use(struct.from_bytes_packed(data))
    with struct.from_bytes(data) as reader:
        return use(reader)


def by_object(t, n: int, acc: list[int], sizes: dict) -> None:
    rng = FastRand()
    for _ in range(n):
        request = t.request.new_message()
        expected = t.setup(rng, request)
        response = t.response.new_message()
        t.handle(request.as_reader(), response)
        t.check(response.as_reader(), expected, acc)


def by_bytes(t, n: int, packed: bool, fault: str, acc: list[int], sizes: dict) -> None:
    rng = FastRand()
    for i in range(n):
        request = t.request.new_message()
        expected = t.setup(rng, request)
        data = encode(request, packed)
        sizes["request"] += len(data)
        if i == 0 and fault:
            data = spoil(data, fault)
        response = t.response.new_message()
        decode(t.request, data, packed, lambda r, response=response: t.handle(r, response))
        data = encode(response, packed)
        sizes["response"] += len(data)
        decode(t.response, data, packed, lambda r, expected=expected: t.check(r, expected, acc))


# pycapnp's own stream readers (Struct.read / read_packed) abort the whole process (std::terminate) on a
# message that ends early, so each message's bytes are framed here from the segment table and handed to
# from_bytes / from_bytes_packed, which fail with a clean exception.


def _take(f, n: int) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise Failure(f"premature EOF: wanted {n} bytes, got {len(data)}")
    return data


def _table_words(first_word: bytes) -> tuple[int, int]:
    """(segment count, words of the segment table) from the message's first word."""
    count = int.from_bytes(first_word[:4], "little") + 1
    if count > 512:
        raise Failure(f"bad segment count {count}")
    return count, (count + 2) // 2


def read_frame(f) -> bytes:
    """The bytes of one unpacked message: segment table, then the segments it announces."""
    first = _take(f, 8)
    count, table_words = _table_words(first)
    rest = _take(f, 8 * table_words - 8)
    table = first + rest
    body = sum(int.from_bytes(table[4 + 4 * i : 8 + 4 * i], "little") for i in range(count))
    if body > 1 << 24:
        raise Failure(f"message too large ({body} words)")
    return table + _take(f, 8 * body)


def read_packed_frame(f) -> bytes:
    """The packed bytes of one packed message: follow the packing tags word by word until all the words
    the segment table announces are there."""
    out = bytearray()  # packed bytes taken
    head = bytearray()  # the first unpacked words, for the segment table
    words = 0
    count = table_words = total = None
    while total is None or words < total:
        tag = _take(f, 1)[0]
        out.append(tag)
        if tag == 0:  # a zero word, then a count of more zero words
            run = _take(f, 1)[0]
            out.append(run)
            new = bytes(8 * (1 + run))
        else:
            present = [bit for bit in range(8) if tag & (1 << bit)]
            data = _take(f, len(present))
            out += data
            word = bytearray(8)
            for bit, byte in zip(present, data, strict=False):
                word[bit] = byte
            new = bytes(word)
            if tag == 0xFF:  # a full word, then a count of words copied verbatim
                run = _take(f, 1)[0]
                out.append(run)
                raw = _take(f, 8 * run)
                out += raw
                new += raw
        words += len(new) // 8
        if total is None:
            head += new
            if count is None:
                count, table_words = _table_words(head)
            if len(head) >= 8 * table_words:
                total = table_words + sum(int.from_bytes(head[4 + 4 * i : 8 + 4 * i], "little") for i in range(count))
    if words != total:
        raise Failure("packed input did not end on the message's last word")
    return bytes(out)


def read_message(f, packed: bool) -> bytes:
    return read_packed_frame(f) if packed else read_frame(f)


def serve(t, n: int, packed: bool) -> None:
    inp = os.fdopen(sys.stdin.fileno(), "rb", closefd=False)
    out = os.fdopen(sys.stdout.fileno(), "wb", closefd=False)
    for _ in range(n):
        data = read_message(inp, packed)
        response = t.response.new_message()
        decode(t.request, data, packed, lambda r, response=response: t.handle(r, response))
        out.write(encode(response, packed))
        out.flush()


def by_pipe(t, c: dict, fault: str, acc: list[int], sizes: dict) -> None:
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", c["case"], c["config"], str(c["n"])], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    failure = None
    try:
        rng = FastRand()
        for i in range(c["n"]):
            request = t.request.new_message()
            expected = t.setup(rng, request)
            data = encode(request, c["packed"])
            if i == 0 and fault:
                data = spoil(data, fault)
            sizes["request"] += len(data)
            server.stdin.write(data)
            server.stdin.flush()
            if i == 0 and fault == "truncate":
                server.stdin.close()  # the server sees the message end early
            data = read_message(server.stdout, c["packed"])
            sizes["response"] += len(data)
            decode(t.response, data, c["packed"], lambda r, expected=expected: t.check(r, expected, acc))
    except Exception as e:  # capnp.KjException, BrokenPipeError, CheckFailed: one line each
        failure = e
    if isinstance(failure, CheckFailed):
        server.kill()  # the client's own failure
    for f in (server.stdin, server.stdout):
        with contextlib.suppress(OSError):
            f.close()
    status = server.wait()
    if failure is not None:
        if status > 0:
            sys.exit(1)  # the server said why
        if status < 0:
            die(f"server killed by signal {-status} ({failure})")
        die(failure)
    if status < 0:
        die(f"server killed by signal {-status}")
    if status > 0:
        sys.exit(1)


# --- command line -----------------------------------------------------------------------------------------


def read_iterations(path: str, case: str) -> int:
    try:
        text = Path(path).read_bytes().decode("ascii", "replace")
    except OSError as e:
        die(f"{path}: {e.strerror}")
    found = None
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2:
            die(f"{path}: expected lines `CASE COUNT`, got: {line}")
        if fields[0] == case:
            if not fields[1].isdigit() or int(fields[1]) > 10**12:
                die(f"{path}: bad count for {case}: {fields[1]}")
            found = int(fields[1])
    if found is None:
        die(f"{path}: no iteration count for {case}")
    return found


def parse_config(name: str) -> tuple[str, bool]:
    base = name.removesuffix("-reuse")
    packed = base.endswith("-packed")
    base = base.removesuffix("-packed")
    if base not in ("object", "bytes", "pipe") or (base == "object" and packed):
        die(f"unknown config {name}")
    return base, packed


def main(argv: list[str]) -> None:
    serving = len(argv) == 5 and argv[1] == "--serve"
    if not serving and len(argv) not in (4, 5, 6):
        print(__doc__.splitlines()[0], file=sys.stderr)
        sys.exit(2)
    args = argv[2:] if serving else argv[1:]
    case, config = args[0], args[1]
    if case not in CASES:
        die(f"unknown case {case} (carsales, catrank, eval)")
    mode, packed = parse_config(config)
    fault = os.environ.get("CAPNP_BENCH_FAULT", "")
    if fault not in ("", "truncate", "garbage"):
        die(f"CAPNP_BENCH_FAULT: unknown fault {fault} (truncate, garbage)")
    t = {"carsales": CarSales, "catrank": CatRank, "eval": Eval}[case]()
    if serving:
        try:
            serve(t, int(args[2]), packed)
        except Exception as e:
            die(e, f"{PROG} server")
        return
    divide = 1
    if len(args) >= 4:
        if not args[3].isdigit() or int(args[3]) < 1:
            die(f"bad DIVIDE {args[3]}")
        divide = int(args[3])
    scale = 100
    if len(args) == 5:  # iorace's --target-ms sizes a run's work by this percentage (the suite's work_param)
        if not args[4].isdigit() or not 1 <= int(args[4]) <= 100_000:
            die(f"bad SCALE {args[4]} (a percentage, 1 to 100000)")
        scale = int(args[4])
    count = read_iterations(args[2], case)
    n = -(-count * scale // (100 * divide))
    acc = [0]
    sizes = {"request": 0, "response": 0}
    start = time.perf_counter_ns()
    try:
        if mode == "object":
            by_object(t, n, acc, sizes)
        elif mode == "bytes":
            by_bytes(t, n, packed, fault, acc, sizes)
        else:
            by_pipe(t, {"case": case, "config": config, "n": n, "packed": packed}, fault, acc, sizes)
    except Exception as e:
        die(e)
    ns = time.perf_counter_ns() - start
    checksum = acc[0] & M64
    if case == "eval" and checksum >= 1 << 63:
        checksum -= 1 << 64
    print(f"{case} {config}: {n} iterations, checksum {checksum}")
    extra = ""
    if mode != "object" and n:
        extra = f', "extra": {{"request_bytes": {sizes["request"] / n:.1f}, "response_bytes": {sizes["response"] / n:.1f}}}'
    print(f'iorace-result {{"answer": {{"iterations": {n}, "checksum": {checksum}}}, "inner_ns": {ns}{extra}}}', file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
