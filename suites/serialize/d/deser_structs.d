// Deserializer design "structs" (Cerealed v0.5.0): a Decerealiser struct over the caller's slice and templates, no virtual call, no allocation.
import common;

struct Decerealiser
{
    const(ubyte)[] bytes;
    void grainUByte(ref ubyte val) { val = bytes[0]; bytes = bytes[1 .. $]; }
    const(ubyte)[] takeSlice(size_t n) { auto s = bytes[0 .. n]; bytes = bytes[n .. $]; return s; }
}

const(ubyte)[] deserialize(const(ubyte)[] input, ref Record r)
{
    auto dec = Decerealiser(input);
    grain(dec, r);
    return dec.bytes;
}

void main(string[] args)
{
    runDeser!deserialize(args);
}
