// Shared by every D serialize variant: the record, Cerealed's grain templates, the plain file decoder,
// the command line, the timed loops and the result line. A variant supplies only its serializer or
// deserializer design (a type with grainUByte) and the per-op code that uses it.
module common;

import core.memory : GC;
import core.stdc.stdlib : exit, crealloc = realloc;
import core.time : MonoTime;
import std.conv : ConvException, to;
import std.file : FileException, read;
import std.stdio : stderr, stdout;

/// The record every language serializes; field order = wire order. Encoded size = 38 + name.length.
struct Record
{
    uint id;
    ubyte kind;
    short delta;
    long stamp;
    bool active;
    float ratio;
    double value;
    ushort[4] dims;       // a static array: its elements only, no length prefix
    const(char)[] name;   // a ushort big-endian length, then the bytes
}

// --- Cerealed's format as grain templates (v0.5.0's free functions; v0.4.1 had the same as final methods
// of the class). One template both writes and reads: it hands every byte to c.grainUByte(ref ubyte),
// which a serializer appends and a deserializer overwrites with the next input byte. Big-endian;
// signed, bool and floating-point values go as the unsigned type of their size; 64-bit values in
// network byte order (Cerealed's 2015 fix).

/// Whether the grain templates below are forced inline for cerealiser C: only for a type that asks
/// (`enum inlineGrains = true;`, the expert ScopeBuffer variant). The seed's designs leave
/// inlining to the compiler: ldc2 (LLVM 14) then inlines grainUByte but not the multi-byte grains over
/// Phobos' ScopeBuffer (grain!ushort costs 390-400 in its inliner's model against a threshold of 250),
/// so most fields are a call (docs/results/2026-11-23-languages-readbytes-serialize/hot-loops.txt).
template inlineGrains(C)
{
    static if (is(typeof(C.inlineGrains) : bool))
        enum bool inlineGrains = C.inlineGrains;
    else
        enum bool inlineGrains = false;
}

/// Whether cerealiser C grains a string as Cerealed did from v0.4.1 to v0.6.0 (its 2015 commit f9b86d1, released in
/// v0.6.1, ended it): the bytes copied into a new GC array first (`new char[length]`, then `values[] = val[]` when
/// writing), every char of the copy through grainUByte, the copy kept as the string (`enum copyStrings = true;`,
/// the `*-as-written` cells; the seed's program did it whether it wrote or read: v0.5.0's
/// `static if(is(isCerealiser!C))`, meant to skip the copy when writing, is always false).
template copyStrings(C)
{
    static if (is(typeof(C.copyStrings) : bool))
        enum bool copyStrings = C.copyStrings;
    else
        enum bool copyStrings = false;
}

/// Whether cerealiser C grains a record's members as Cerealed v0.4.1/v0.5.0 did (`enum cerealedMembers = true;`, the
/// `*-as-written` deserializers): grain!Record -> grainAllMembers -> grainAllMembersImpl, which calls one
/// grainMemberWithAttr!"member" per data member (`__traits(derivedMembers)`), each the member's own grain; signed, bool
/// and floating-point members through grainReinterpret (a pointer cast to the unsigned type, then its grain). Every one
/// a template function: gdc 12 keeps each out of line (weak symbols), so a member costs the calls it cost in Cerealed's
/// code (docs/results/2026-11-26-seed-fidelity/gaps.md, "Cerealed's per-member dispatch").
template cerealedMembers(C)
{
    static if (is(typeof(C.cerealedMembers) : bool))
        enum bool cerealedMembers = C.cerealedMembers;
    else
        enum bool cerealedMembers = false;
}

void grain(C)(ref C c, ref ubyte val)
{
    static if (inlineGrains!C) pragma(inline, true);
    static if (inlineGrains!C) pragma(inline, true);
    c.grainUByte(val);
}

void grain(C)(ref C c, ref ushort val)
{
    static if (inlineGrains!C) pragma(inline, true);
    ubyte h = cast(ubyte)(val >> 8), l = cast(ubyte) val;
    c.grainUByte(h);
    c.grainUByte(l);
    val = cast(ushort)((h << 8) | l);
}

void grain(C)(ref C c, ref uint val)
{
    static if (inlineGrains!C) pragma(inline, true);
    ubyte b0 = cast(ubyte)(val >> 24), b1 = cast(ubyte)(val >> 16), b2 = cast(ubyte)(val >> 8), b3 = cast(ubyte) val;
    c.grainUByte(b0);
    c.grainUByte(b1);
    c.grainUByte(b2);
    c.grainUByte(b3);
    val = (b0 << 24) | (b1 << 16) | (b2 << 8) | b3;
}

void grain(C)(ref C c, ref ulong val)
{
    static if (inlineGrains!C) pragma(inline, true);
    ulong result = 0;
    foreach_reverse (i; 0 .. 8)
    {
        ubyte b = cast(ubyte)(val >> (i * 8));
        c.grainUByte(b);
        result |= cast(ulong) b << (i * 8);
    }
    val = result;
}

/// Signed, bool and floating-point values: reinterpreted as the unsigned type of the same size.
void grain(C, T)(ref C c, ref T val) if (is(T == short) || is(T == long) || is(T == bool) || is(T == float) || is(T == double))
{
    static if (inlineGrains!C) pragma(inline, true);
    static if (cerealedMembers!C)
        grainReinterpret(c, val); // Cerealed's "catch all signed numbers and forward to reinterpret"
    else
    {
        alias U = UnsignedOfSize!T;
        U bits = bitsOf!U(val);
        grain(c, bits);
        val = bitsOf!T(bits);
    }
}

/// The unsigned type of T's size (Cerealed's CerealPtrType's target).
template UnsignedOfSize(T)
{
    static if (T.sizeof == 1) alias UnsignedOfSize = ubyte;
    else static if (T.sizeof == 2) alias UnsignedOfSize = ushort;
    else static if (T.sizeof == 4) alias UnsignedOfSize = uint;
    else alias UnsignedOfSize = ulong;
}

/// The same bits as another type of the same size (a union: no pointer cast that strict aliasing may break).
pragma(inline, true)
U bitsOf(U, T)(T value) if (U.sizeof == T.sizeof)
{
    import std.traits : Unqual;
    union Pun { Unqual!T from; U to; }
    Pun p;
    p.from = value;
    return p.to;
}

void grain(C, T, size_t N)(ref C c, ref T[N] val)
{
    static if (inlineGrains!C) pragma(inline, true);
    foreach (ref e; val)
        grain(c, e);
}

/// A char of a copied string (copyStrings, the as-written cells), as Cerealed v0.4.1/v0.5.0 grained it: grain!char
/// forwards to grainReinterpret!char, which grains the same byte as a ubyte (grain!ubyte -> grainUByte). gdc 12
/// keeps each template function out of line (the first two a jump to the next), so a char is a call and two jumps,
/// as in Cerealed's code built here (docs/results/2026-11-26-seed-fidelity/gaps.md).
void grain(C)(ref C c, ref char val)
{
    static if (inlineGrains!C) pragma(inline, true);
    grainReinterpret(c, val);
}

/// Cerealed's grainReinterpret: the value's bytes grained as the unsigned type of its size (a char as a ubyte; with
/// cerealedMembers, a short, long, bool, float or double member as the unsigned type of its size, through a pointer
/// cast as Cerealed's, not bitsOf's union).
void grainReinterpret(C, T)(ref C c, ref T val)
{
    static if (inlineGrains!C) pragma(inline, true);
    auto p = cast(UnsignedOfSize!T*) &val;
    grain(c, *p);
}

/// A string: its ushort length, then its bytes. A writer sends every byte through grainUByte; a reader
/// hands out a slice of its input (no copy, as Cerealed's deserializers).
void grain(C)(ref C c, ref const(char)[] val)
{
    static if (inlineGrains!C) pragma(inline, true);
    ushort length = cast(ushort) val.length;
    grain(c, length);
    static if (copyStrings!C)
    {
        auto values = new char[length];
        if (val.length != 0)
            values[] = val[];
        foreach (ref ch; values)
            grain(c, ch); // Cerealed's path for each char: grain!char -> grainReinterpret!char -> grain!ubyte
        val = values;
    }
    else static if (is(typeof(c.takeSlice(length))))
        val = cast(const(char)[]) c.takeSlice(length);
    else
        foreach (ch; val)
        {
            ubyte b = ch;
            c.grainUByte(b);
        }
}

/// Every member in declaration order (Cerealed's grainAllMembers). By index: gdc 12 loses the write to a
/// bool member through `foreach (ref member; r.tupleof)` (it reads back false). With cerealedMembers, Cerealed's
/// dispatch: grainAllMembers -> grainAllMembersImpl -> grainMemberWithAttr!"member" per member.
void grain(C)(ref C c, ref Record r)
{
    static if (inlineGrains!C) pragma(inline, true);
    static if (cerealedMembers!C)
        grainAllMembers(c, r);
    else
        static foreach (i; 0 .. Record.tupleof.length)
            grain(c, r.tupleof[i]);
}

/// Cerealed's grainAllMembers for a struct: forwards to grainAllMembersImpl!T (which v0.4.1 also called for each base
/// class of a class).
void grainAllMembers(C, T)(ref C c, ref T val) if (is(T == struct))
{
    grainAllMembersImpl!T(c, val);
}

/// Cerealed's grainAllMembersImpl: each of ActualType's own members that is a data member (assignable from its .init),
/// in declaration order, through grainMemberWithAttr!member.
void grainAllMembersImpl(ActualType, C, ValType)(ref C c, ref ValType val)
{
    static foreach (member; __traits(derivedMembers, ActualType))
    {
        static if (is(typeof((inout int = 0) {
                       __traits(getMember, val, member) = __traits(getMember, val, member).init;
                   })))
            grainMemberWithAttr!member(c, val);
    }
}

/// Cerealed's grainMemberWithAttr: one member, by name, taking its attributes into account (@NoCereal skips it,
/// @RawArray and @Bits!N change its grain; the Record has none of them, so every member takes its plain grain).
void grainMemberWithAttr(string member, C, T)(ref C c, ref T val)
{
    static assert(__traits(getAttributes, __traits(getMember, val, member)).length == 0,
                  "Cerealed's member attributes are not re-typed: " ~ member);
    grain(c, __traits(getMember, val, member));
}

/// Cerealed v0.5.0's cerealiser as the seed's program used it (the `*-as-written` serializers): a struct template over
/// its output range R (Cerealed's policy-based design; gdc 12 emits a template's functions as weak symbols, so it
/// does not inline grainUByte into the grains, as it did not in Cerealed), the bit writer's state besides, strings
/// copied (copyStrings), and `enc ~= value` serializing a copy of the value (v0.5.0's opOpAssign(T val) ->
/// write(T val) -> `Unqual!T lval = val; grain(this, lval);`).
struct CerealiserImpl(R)
{
    enum copyStrings = true;
    R output;
    ubyte currentByte; // writeBits' partial byte (unused by the record)
    int bitIndex;

    this(R r)
    {
        output = r;
    }

    void grainUByte(ref ubyte val)
    {
        output.put(val);
    }

    const(ubyte)[] bytes() const
    {
        return output.data;
    }

    ref CerealiserImpl opOpAssign(string op : "~")(Record val)
    {
        write(val);
        return this;
    }

    void write(Record val)
    {
        Record lval = val;
        grain(this, lval);
    }
}

// --- the plain decoder: validates the whole file once, untimed, and gives the records -----------

enum size_t headerSize = 38; // every field but the name's bytes

/// One line on stderr, then exit (2: usage, 1: bad input). No stack trace.
void fail(string message, int status = 1)
{
    stderr.writeln("serialize: ", message);
    exit(status);
}

/// The size of the valid record at data[pos .. $], or a one-line error naming what is wrong.
size_t checkRecord(const(ubyte)[] data, size_t pos, size_t index)
{
    const left = data.length - pos;
    if (left < headerSize)
        fail("record " ~ index.to!string ~ " at byte " ~ pos.to!string ~ " is truncated: " ~ left.to!string
             ~ " bytes left, a record needs 38");
    const active = data[pos + 15];
    if (active > 1)
        fail("record " ~ index.to!string ~ " at byte " ~ pos.to!string ~ ": bool byte " ~ active.to!string
             ~ " is neither 0 nor 1");
    const nameLength = (data[pos + 36] << 8) | data[pos + 37];
    if (nameLength > left - headerSize)
        fail("record " ~ index.to!string ~ " at byte " ~ pos.to!string ~ ": name of " ~ nameLength.to!string
             ~ " bytes runs past the end of the file");
    return headerSize + nameLength;
}

/// A minimal reader over a slice for the plain decoder (checked first by checkRecord).
struct SliceReader
{
    const(ubyte)[] bytes;
    void grainUByte(ref ubyte val) { val = bytes[0]; bytes = bytes[1 .. $]; }
    const(ubyte)[] takeSlice(size_t n) { auto s = bytes[0 .. n]; bytes = bytes[n .. $]; return s; }
}

/// The command line `prog FILE OPS`: the file's bytes (validated) and its records.
struct Job
{
    const(ubyte)[] data;
    Record[] records;
    ulong ops;
}

Job parseArgs(string[] args)
{
    if (args.length != 3)
        fail("usage: " ~ args[0] ~ " FILE OPS", 2);
    Job job;
    try
        job.ops = args[2].to!ulong;
    catch (ConvException)
        fail("OPS must be a positive integer, not '" ~ args[2] ~ "'", 2);
    if (job.ops == 0)
        fail("OPS must be a positive integer, not '" ~ args[2] ~ "'", 2);
    try
        job.data = cast(const(ubyte)[]) read(args[1]);
    catch (FileException e)
        fail(e.msg);
    if (job.data.length == 0)
        fail("empty file: no records");
    for (size_t pos = 0; pos < job.data.length;)
    {
        const size = checkRecord(job.data, pos, job.records.length);
        auto reader = SliceReader(job.data[pos .. pos + size]);
        Record r;
        grain(reader, r);
        job.records ~= r;
        pos += size;
    }
    return job;
}

// --- the consumers, the clock and the result line ------------------------------------------

/// Keeps a value "used" without costing a memory operation, so the optimiser cannot drop the work
/// that produced it (an empty asm over a register, as benchmark::DoNotOptimize).
pragma(inline, true)
void observe(T)(ref T value) nothrow @nogc
{
    version (GNU)
        asm nothrow @nogc { "" : "+r" (value); }
    else version (LDC)
        asm nothrow @nogc { "" : "+r" (value); }
}

enum ulong fnvOffset = 0xcbf29ce484222325, fnvPrime = 0x100000001b3;

/// What every serializer does with its output: the spec's length sum, XOR of out[n & 31], FNV-1a of
/// every 64th output.
struct SerSink
{
    ulong ops, bytes, hash = fnvOffset;
    uint x;

    pragma(inline, true)
    void consume(ulong n, const(ubyte)[] output)
    {
        bytes += output.length;
        x ^= output[n & 31];
        if (n % 64 == 0)
            foreach (b; output)
                hash = (hash ^ b) * fnvPrime;
    }
}

/// The deserializers' checksum over every field of a decoded record.
pragma(inline, true)
ulong fold(ulong checksum, const ref Record r)
{
    ulong s = r.id + r.kind + cast(ulong) cast(long) r.delta + cast(ulong) r.stamp + r.active
        + bitsOf!uint(r.ratio) + bitsOf!ulong(r.value)
        + r.dims[0] + r.dims[1] + r.dims[2] + r.dims[3] + r.name.length;
    foreach (ch; r.name)
        s += cast(ubyte) ch;
    return checksum * 1000003 + s;
}

/// Bytes malloc'ed by ScopeBuffer (through countingRealloc) during the timed loop; the GC's own count
/// comes from GC.allocatedInCurrentThread.
__gshared ulong mallocBytes;

/// C's realloc, counting the bytes asked for: ScopeBuffer's `realloc` parameter, so its heap use shows.
void* countingRealloc(void* p, size_t size) nothrow @nogc
{
    mallocBytes += size;
    return crealloc(p, size);
}

/// Heap bytes allocated so far (GC + counted malloc).
ulong allocated()
{
    return GC.allocatedInCurrentThread + mallocBytes;
}

MonoTime startClock() { return MonoTime.currTime; }

long elapsedNs(MonoTime start) { return (MonoTime.currTime - start).total!"nsecs"; }

void reportSer(const ref SerSink sink, long innerNs, ulong allocBytes)
{
    stdout.writefln("serialized %s records, %s bytes in %.1f ms", sink.ops, sink.bytes, innerNs / 1e6);
    stdout.flush();
    stderr.writefln(`iorace-result {"answer": {"ops": %d, "bytes": %d, "xor": %d, "digest": "%016x"}, `
                    ~ `"inner_ns": %d, "extra": {"alloc_bytes_per_op": %.2f}}`,
                    sink.ops, sink.bytes, sink.x, sink.hash, innerNs, cast(double) allocBytes / sink.ops);
}

void reportDeser(ulong ops, ulong checksum, long innerNs, ulong allocBytes)
{
    stdout.writefln("deserialized %s records, checksum %s in %.1f ms", ops, checksum, innerNs / 1e6);
    stdout.flush();
    stderr.writefln(`iorace-result {"answer": {"ops": %d, "checksum": %d}, "inner_ns": %d, `
                    ~ `"extra": {"alloc_bytes_per_op": %.2f}}`, ops, checksum, innerNs, cast(double) allocBytes / ops);
}

/// The serializer benchmark: op n serializes record n mod K with `serialize` (which hands its output to
/// the sink), timed; allocations counted over the loop.
void runSer(alias serialize)(string[] args)
{
    auto job = parseArgs(args);
    SerSink sink;
    sink.ops = job.ops;
    const before = allocated();
    const start = startClock();
    size_t k = 0;
    foreach (n; 0 .. job.ops)
    {
        serialize(job.records[k], n, sink);
        if (++k == job.records.length)
            k = 0;
    }
    const ns = elapsedNs(start);
    reportSer(sink, ns, allocated() - before);
}

/// The deserializer benchmark: `deserialize(bytes, record)` decodes the record at the front of `bytes`
/// and returns what follows; after the last record, back to the start of the file.
void runDeser(alias deserialize)(string[] args)
{
    auto job = parseArgs(args);
    ulong checksum = 0;
    const before = allocated();
    const start = startClock();
    const(ubyte)[] rest = job.data;
    foreach (n; 0 .. job.ops)
    {
        if (rest.length == 0)
            rest = job.data;
        Record r;
        rest = deserialize(rest, r);
        checksum = fold(checksum, r);
    }
    const ns = elapsedNs(start);
    reportDeser(job.ops, checksum, ns, allocated() - before);
}
