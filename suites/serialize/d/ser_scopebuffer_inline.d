// Serializer design "ScopeBuffer, grains inlined" (expert): the seed's ScopeBuffer design unchanged (Cerealed's grain templates, every byte through grainUByte, Phobos' std.internal.scopebuffer over a 32-byte stack array), with the grain templates forced inline (pragma(inline, true), asked for by `enum inlineGrains`), which ldc2's inliner otherwise refuses.
import common;
import std.internal.scopebuffer : ScopeBuffer;

/// ScopeBuffer with C's realloc, counted (common.countingRealloc) so the bytes it mallocs show.
alias Buffer = ScopeBuffer!(ubyte, countingRealloc);

struct InlineScopeBufferCerealiser
{
    /// common.grain's templates read this: each is compiled with pragma(inline, true) for this type, so the
    /// whole record is one function and the ScopeBuffer's fields live in registers (see common.inlineGrains).
    enum inlineGrains = true;

    Buffer output;
    void grainUByte(ref ubyte val) { output.put(val); }
}

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    ubyte[32] buf = void;   // cerealise's default: too small for the record, as in the seed
    auto enc = InlineScopeBufferCerealiser(Buffer(buf));
    scope (exit) enc.output.free();
    grain(enc, r);
    sink.consume(n, enc.output[]);
}

void main(string[] args)
{
    runSer!serialize(args);
}
