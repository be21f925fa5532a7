// Serializer design "fixed" (expert): one buffer reused for every op, each field stored big-endian at its fixed offset (std.bitmanip.nativeToBigEndian: a byte swap and one store, not a byte at a time), the name copied once: no allocation.
import common;
import std.bitmanip : nativeToBigEndian;

/// Room for the header and the longest name the format allows (a ushort length).
__gshared ubyte[headerSize + ushort.max] buffer;

pragma(inline, true)
void store(T)(ubyte* p, T value)
{
    const bytes = nativeToBigEndian(value);
    p[0 .. T.sizeof] = bytes[];
}

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    if (r.name.length > ushort.max)
        fail("a name longer than 65535 bytes");
    ubyte* p = buffer.ptr;
    store(p, r.id);
    p[4] = r.kind;
    store(p + 5, r.delta);
    store(p + 7, r.stamp);
    p[15] = r.active;
    store(p + 16, r.ratio);
    store(p + 20, r.value);
    foreach (i; 0 .. 4)
        store(p + 28 + 2 * i, r.dims[i]);
    store(p + 36, cast(ushort) r.name.length);
    const size = headerSize + r.name.length;
    p[headerSize .. size] = cast(const(ubyte)[]) r.name;
    sink.consume(n, buffer[0 .. size]);
}

void main(string[] args)
{
    runSer!serialize(args);
}
