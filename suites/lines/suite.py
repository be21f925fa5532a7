"""lines: datasets for the line-by-line copy race and the reference answer.

The seed (dcat) copies the Google Books English 1-gram file for "s" to stdout
line by line. That file cannot be fetched here, so `generate` writes a file of
the same shape: `ngram<TAB>year<TAB>match_count<TAB>volume_count\\n`, each
ngram a run of consecutive years, words starting with "s"/"S" of realistic
length, some with a part-of-speech tag (`_NOUN`), some non-ASCII UTF-8.

Deterministic on every machine: every random number comes from numpy's PCG64
bit generator seeded with fixed integers (one independent stream per block of
runs), and is turned into data only with integer arithmetic and the basic IEEE
operations (+ - * /, floor), never with exp/log/pow, whose SIMD implementations
may round differently from one CPU to the next.

Fast: the vocabulary is built once; rows are laid out block by block in a
fixed-width byte matrix (fields padded with NUL bytes, which the data never
contains) and compacted with one boolean mask, so the ~2.6 GB seed file is
written in well under a minute.

The `edge` dataset is made of small hand-written members (generated as
"edge:MEMBER") that trip line readers: an empty file, no final newline, empty
lines, CRLF, a line over 1 MiB, bytes that are not UTF-8 (and a NUL).

The answer of every input is the input itself: `expected` is its sha256.

Run as a script, `python3 suite.py train PATH` writes the PGO training sample
that the ldc2 `lto-pgo` profile runs the instrumented program on: 400,000
lines of the same shape from Python's own PRNG, so that a build needs no numpy
(`train:3150 PATH`: 3,150 such lines, as many as dcat's own training file,
for the `dcat-lto-pgo` profile).
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

try:
    import numpy as np
except ImportError:  # only `suite.py train` (run by the ldc2 lto-pgo build) works without numpy
    np = None

SEED = 0x5EED_D_CA7  # the generator's fixed seed ("seed dcat")

# name -> (number of lines, longest run of years per ngram, stream id)
SIZES = {
    "tiny": (3_150, 8, 1),  # as many lines as the original's cmp test file
    "quick": (2_000_000, 300, 2),  # ~48 MB
    "seed": (110_075_424, 300, 3),  # the published line count of an ngram "s" file, ~2.6 GB
}
EDGE_MEMBERS = ["empty", "no-final-newline", "empty-lines", "crlf", "long-line", "invalid-utf8"]

LAST_YEAR = 2008  # the 2012 1-gram files end in 2008
WORD_BYTES = 19  # widest ngram (UTF-8 bytes) before the tag
TAGS = ["", "_NOUN", "_VERB", "_ADJ", "_ADV", "_PRON", "_DET", "_ADP", "_NUM", "_CONJ", "_PRT", "_X", "_."]
TAG_BYTES = 5
MAX_COUNT = 9_999_999  # match_count and volume_count have at most 7 digits
RUNS_PER_BLOCK = 16_384  # ~1.6 M rows per block for the big sizes

# Words are built from English-like syllables after the initial "s":
# "s" + vowel + coda, then 0-3 more syllables of onset + vowel + coda.
ONSETS = [
    "t",
    "p",
    "c",
    "h",
    "l",
    "m",
    "n",
    "r",
    "st",
    "sh",
    "tr",
    "pl",
    "w",
    "b",
    "d",
    "g",
    "k",
    "f",
    "v",
    "th",
    "ch",
    "sp",
    "sc",
    "pr",
    "gr",
    "bl",
    "cr",
    "qu",
    "",
    "",
]
VOWELS = ["a", "e", "i", "o", "u", "ea", "ou", "ai", "ee", "io", "y", "a", "e", "i", "o", "e"]
CODAS = [
    "",
    "",
    "",
    "n",
    "r",
    "s",
    "t",
    "l",
    "nd",
    "ng",
    "st",
    "ck",
    "m",
    "rt",
    "ss",
    "ed",
    "ing",
    "er",
    "ly",
    "tion",
    "ness",
    "ment",
    "ble",
    "ous",
    "al",
    "es",
]
# Non-ASCII letters a word may carry (2-4 UTF-8 bytes each).
NON_ASCII = ["é", "ü", "ö", "ä", "ñ", "ç", "ß", "æ", "ø", "å", "œ", "ł", "ş", "ž", "í", "á", "ſ", "σ", "я", "中", "語", "𝔰"]
# Real words with non-ASCII letters, placed among the frequent ngrams so that
# even `tiny` carries several of them.
CURATED = [
    "später",
    "société",
    "señor",
    "straße",
    "ſuch",
    "sœur",
    "süß",
    "séance",
    "Schrödinger",
    "Sørensen",
    "Ståhl",
    "smörgåsbord",
    "świat",
    "şehir",
    "sí",
    "slovenščina",
    "sushi寿司",
    "São",
    "Sévigné",
    "słowo",
    "σοφία",
    "слово",
    "Straßburg",
    "soupçon",
]
VOCABULARY = 1 << 16


def _rng(*key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64([SEED, *key]))


def _vocabulary() -> np.ndarray:
    """VOCABULARY ngrams as a (VOCABULARY, WORD_BYTES) uint8 matrix, NUL-padded."""
    rng = _rng(0)
    n = VOCABULARY
    syllables = rng.integers(0, 3, n) + (rng.integers(0, 4, n) == 0)  # 0..3 after the first
    parts = rng.integers(0, 1 << 30, (n, 12))  # onset/vowel/coda picks
    capital = rng.integers(0, 100, n) < 8  # "S..." 8% of the time
    accent_pick = rng.integers(0, 100, n)  # < 4: one non-ASCII letter
    accent_char = rng.integers(0, len(NON_ASCII), n)
    punct = rng.integers(0, 200, n)  # a few "s'il", "self-", "St."
    words = np.zeros((n, WORD_BYTES), dtype=np.uint8)
    for i in range(n):
        p = parts[i]
        chars = VOWELS[p[0] % len(VOWELS)] + CODAS[p[1] % len(CODAS)]
        for k in range(syllables[i]):
            chars += ONSETS[p[2 + 3 * k] % len(ONSETS)] + VOWELS[p[3 + 3 * k] % len(VOWELS)] + CODAS[p[4 + 3 * k] % len(CODAS)]
        if accent_pick[i] < 4:
            at = p[11] % len(chars)
            chars = chars[:at] + NON_ASCII[accent_char[i]] + chars[at + 1 :]
        word = ("S" if capital[i] else "s") + chars
        if punct[i] == 0:
            word = word[:2] + "'" + word[2:]
        elif punct[i] == 1:
            word += "-"
        elif punct[i] == 2:
            word = word[:2] + "."
        b = word.encode("utf-8")[:WORD_BYTES].decode("utf-8", "ignore").encode("utf-8")  # whole characters only
        words[i, : len(b)] = np.frombuffer(b, dtype=np.uint8)
    for k, word in enumerate(CURATED):
        b = word.encode("utf-8")
        row = 3 + 5 * k
        words[row] = 0
        words[row, : len(b)] = np.frombuffer(b, dtype=np.uint8)
    return words


LE64 = "<u8"  # slots are little-endian 64-bit words on every machine, so the bytes are the same


def _slots(values: np.ndarray, text) -> np.ndarray:
    """64-bit little-endian slots holding text(v) for each v, right-aligned, NUL-padded."""
    out = np.zeros(len(values), dtype=LE64)
    for i, v in enumerate(values):
        b = text(int(v)).encode()
        out[i] = int.from_bytes(b.rjust(8, b"\0"), "little")
    return out


class _Tables:
    """Everything a block is assembled from. A row is six 8-byte slots:
    ngram+tag (24 bytes, left-aligned), "\tYEAR\t", match_count + "\t",
    volume_count + "\n" (numbers right-aligned); NUL bytes are padding."""

    def __init__(self) -> None:
        words = _vocabulary()
        tags = [t.encode() for t in TAGS]
        lengths = (words != 0).sum(axis=1)
        wt = np.zeros((VOCABULARY, len(TAGS), 24), dtype=np.uint8)  # every ngram with every tag
        wt[:, :, :WORD_BYTES] = words[:, None, :]
        rows = np.arange(VOCABULARY)
        for t, tag in enumerate(tags):
            for j, byte in enumerate(tag):
                wt[rows, t, lengths + j] = byte
        self.word_tag = wt.reshape(-1, 24).view(LE64)  # (VOCABULARY*len(TAGS), 3)
        self.year = _slots(range(LAST_YEAR + 1), lambda y: f"\t{y}\t")
        # A count v is thousands(v // 1000) | units[v % 1000 (+1000 when v >= 1000: zero-filled)].
        self.thousands = _slots(range(10_000), lambda k: f"{k}" if k else "")
        self.thousands >>= np.uint64(32)  # digits into bytes 0..3
        self.units = np.concatenate([_slots(range(1000), lambda k: f"{k}" if k else ""), _slots(range(1000), lambda k: f"{k:03d}")])
        self.units >>= np.uint64(8)  # digits into bytes 4..6
        years = np.arange(LAST_YEAR + 1, dtype=np.float64)
        t = np.clip((years - 1700.0) / 308.0, 0.0, 1.0)
        self.growth = 0.2 + 0.8 * t * t  # books per year grow over time

    def counts(self, v: np.ndarray, end: int) -> np.ndarray:
        """Slots for counts v (1..MAX_COUNT) followed by the byte `end`."""
        hi = v // 1000
        lo = v - hi * 1000 + np.where(hi > 0, 1000, 0)
        return self.thousands[hi] | self.units[lo] | np.uint64(end << 56)


_TABLES: _Tables | None = None


def _tables() -> _Tables:
    global _TABLES
    if _TABLES is None:
        _TABLES = _Tables()
    return _TABLES


def _block(size_key: int, block: int, max_run: int, tb: _Tables) -> np.ndarray:
    """One block of RUNS_PER_BLOCK ngram runs as a (rows, 48) NUL-padded byte matrix."""
    rng = _rng(size_key, block)
    r = RUNS_PER_BLOCK
    u = rng.random(r)
    word = (u * u * u * VOCABULARY).astype(np.int64)  # Zipf-like: few words are frequent
    tag = rng.integers(0, 40, r)
    tag = np.where(tag >= 28, tag - 27, 0)  # 30% of ngrams carry a tag
    u = rng.random(r)
    run = 1 + (u * u * max_run).astype(np.int64)  # years per ngram, mean ~max/3
    late = rng.integers(0, 8, r) == 0
    end = LAST_YEAR - np.where(late, rng.integers(0, 40, r), 0)
    start = end - run + 1
    u = rng.random(r)
    u2 = u * u
    u4 = u2 * u2
    u8 = u4 * u4
    base = 1.0 + 300_000.0 * (u8 * u8)  # typical count of the ngram, median ~5

    rows = int(run.sum())
    owner = np.repeat(np.arange(r), run)
    first_row = np.cumsum(run) - run
    year = start[owner] + (np.arange(rows) - first_row[owner])
    noise = 0.5 + rng.random(rows)
    match = np.floor(base[owner] * 3.0 * tb.growth[year] * noise).astype(np.int64)
    match = np.clip(match, 1, MAX_COUNT)
    share = 0.2 + 0.8 * rng.random(rows)
    volume = np.clip(np.floor(match * share).astype(np.int64), 1, match)

    m = np.empty((rows, 6), dtype=LE64)
    m[:, 0:3] = tb.word_tag[(word * len(TAGS) + tag)[owner]]
    m[:, 3] = tb.year[year]
    m[:, 4] = tb.counts(match, 9)
    m[:, 5] = tb.counts(volume, 10)
    return m.view(np.uint8)


def _write_ngrams(size: str, path: Path) -> None:
    lines, max_run, key = SIZES[size]
    tb = _tables()
    written = 0
    block = 0
    with open(path, "wb") as f:
        while written < lines:
            m = _block(key, block, max_run, tb)
            if written + len(m) > lines:
                m = m[: lines - written]
            f.write(m[m != 0])
            written += len(m)
            block += 1


def _sample_lines(n: int) -> list[bytes]:
    """The first n lines of `tiny`, as bytes with their newlines."""
    tb = _tables()
    m = _block(SIZES["tiny"][2], 0, SIZES["tiny"][1], tb)[:n]
    return [row[row != 0].tobytes() for row in m]


def _edge(member: str) -> bytes:
    lines = _sample_lines(40)
    if member == "empty":
        return b""
    if member == "no-final-newline":
        return b"".join(lines[:20])[:-1]
    if member == "empty-lines":
        # starts with an empty line, single and repeated empty lines, ends with two
        body = b"\n"
        for i, line in enumerate(lines[:20]):
            body += line + b"\n" * (i % 3)
        return body + b"\n\n"
    if member == "crlf":
        # Windows line ends, one "\r\r\n" and a lone "\r" inside a line
        crlf = [line[:-1] + b"\r\n" for line in lines[:20]]
        crlf[5] = crlf[5][:-2] + b"\r\r\n"
        crlf[9] = crlf[9].replace(b"\t", b"\r", 1)
        return b"".join(crlf)
    if member == "long-line":
        # one line of 1.5 MiB (tab-separated fields, some non-ASCII) between normal lines
        field = "sehr-lange-Zeile_ſ_σ_中\t".encode()
        long = (field * (1_600_000 // len(field) + 1))[:1_600_000] + b"\n"
        return b"".join(lines[:10]) + long + b"".join(lines[10:20]) + long[:70_000] + b"\n" + b"".join(lines[20:25])
    if member == "invalid-utf8":
        # stray continuation, overlong, surrogate, truncated sequence, 0xFF, Latin-1, and a NUL
        bad = [
            b"s\x80x\t1900\t1\t1\n",
            b"s\xc0\xafy\t1901\t2\t1\n",
            b"s\xed\xa0\x80z\t1902\t3\t2\n",
            b"s\xf0\x9f\x98\t1903\t4\t2\n",
            b"s\xff\xfe\t1904\t5\t3\n",
            b"caf\xe9\t1905\t6\t3\n",
            b"s\x00nul\t1906\t7\t4\n",
            b"s\xc3\t1907\t8\t4\n",
        ]
        out = []
        for i, line in enumerate(lines[:16]):
            out.append(line)
            if i % 2 == 1:
                out.append(bad[i // 2])
        return b"".join(out)
    raise ValueError(f"unknown edge member {member!r} (known: {', '.join(EDGE_MEMBERS)})")


def _write_training_sample(path: Path, lines: int = 400_000) -> None:
    """PGO training input: 1-gram-like lines (and one 200 KB line, in the middle) from random.Random, no numpy."""
    rnd = random.Random(SEED)
    out: list[str] = []
    while len(out) < lines:
        word = "s" + rnd.choice(VOWELS) + rnd.choice(CODAS)
        for _ in range(rnd.randrange(3)):
            word += rnd.choice(ONSETS) + rnd.choice(VOWELS) + rnd.choice(CODAS)
        if rnd.randrange(25) == 0:
            word += rnd.choice(NON_ASCII)
        if rnd.randrange(10) < 3:
            word += rnd.choice(TAGS[1:])
        run = 1 + int(rnd.random() ** 2 * 300)
        base = 1.0 + 300_000.0 * rnd.random() ** 16
        for year in range(LAST_YEAR + 1 - run, LAST_YEAR + 1):
            t = (year - 1700) / 308
            match = max(1, int(base * 3.0 * (0.2 + 0.8 * t * t) * (0.5 + rnd.random())))
            volume = max(1, int(match * (0.2 + 0.8 * rnd.random())))
            out.append(f"{word}\t{year}\t{match}\t{volume}\n")
    out = out[:lines]
    out[lines // 2] = "s" + "_lange Zeile\t" * 15_000 + "\n"
    Path(path).write_text("".join(out), encoding="utf-8")


def generate(dataset: str, path: Path) -> None:
    path = Path(path)
    name, _, member = dataset.partition(":")
    if name == "edge":
        path.write_bytes(_edge(member))
    elif name == "train":
        _write_training_sample(path, int(member) if member else 400_000)
    elif name in SIZES:
        _write_ngrams(name, path)
    else:
        raise ValueError(f"unknown dataset {dataset!r}")


def expected(path: Path, params: dict) -> str:
    """The output must be the input, byte for byte: the sha256 of the file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 24):
            h.update(block)
    return h.hexdigest()


def units(path: Path, params: dict) -> dict[str, int]:
    size = 0
    lines = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 24):
            size += len(block)
            lines += block.count(b"\n")
    return {"bytes": size, "lines": lines}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: suite.py DATASET PATH   (e.g. `suite.py train /tmp/train.tsv`, `suite.py edge:crlf x`)")
    generate(sys.argv[1], Path(sys.argv[2]))
