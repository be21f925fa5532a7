// Deserializer design "fixed" (expert): one length check for the 38-byte header, big-endian loads at fixed offsets (std.bitmanip.bigEndianToNative), the bool checked, the name a slice of the input: no allocation.
import common;
import std.bitmanip : bigEndianToNative;

pragma(inline, true)
T load(T)(const(ubyte)* p)
{
    ubyte[T.sizeof] bytes = p[0 .. T.sizeof];
    return bigEndianToNative!T(bytes);
}

const(ubyte)[] deserialize(const(ubyte)[] input, ref Record r)
{
    if (input.length < headerSize)
        fail("a record is truncated: a record needs 38 bytes");
    const(ubyte)* h = input.ptr;
    if (h[15] > 1)
        fail("a bool byte is neither 0 nor 1");
    const size = headerSize + load!ushort(h + 36);
    if (size > input.length)
        fail("a name runs past the end of the input");
    r.id = load!uint(h);
    r.kind = h[4];
    r.delta = load!short(h + 5);
    r.stamp = load!long(h + 7);
    r.active = h[15] == 1;
    r.ratio = load!float(h + 16);
    r.value = load!double(h + 20);
    foreach (i; 0 .. 4)
        r.dims[i] = load!ushort(h + 28 + 2 * i);
    r.name = cast(const(char)[]) input[headerSize .. size];
    return input[size .. $];
}

void main(string[] args)
{
    runDeser!deserialize(args);
}
