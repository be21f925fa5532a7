// Deserializer design "structs, grains inlined" (expert): d/deser-structs unchanged (a Decerealiser struct over the caller's slice, Cerealed's grain templates, every byte through grainUByte), with the grain templates forced inline (pragma(inline, true), asked for by `enum inlineGrains`), which ldc2's inliner otherwise refuses.
import common;

struct InlineDecerealiser
{
    /// common.grain's templates read this: each is compiled with pragma(inline, true) for this type
    /// (see common.inlineGrains).
    enum inlineGrains = true;

    const(ubyte)[] bytes;
    void grainUByte(ref ubyte val) { val = bytes[0]; bytes = bytes[1 .. $]; }
    const(ubyte)[] takeSlice(size_t n) { auto s = bytes[0 .. n]; bytes = bytes[n .. $]; return s; }
}

const(ubyte)[] deserialize(const(ubyte)[] input, ref Record r)
{
    auto dec = InlineDecerealiser(input);
    grain(dec, r);
    return dec.bytes;
}

void main(string[] args)
{
    runDeser!deserialize(args);
}
