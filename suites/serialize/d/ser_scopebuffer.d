// Serializer design "ScopeBuffer" (Cerealed v0.5.0's cerealise): a struct and templates over Phobos' std.internal.scopebuffer on a 32-byte stack array, which the 46-48 byte records overflow onto the C heap.
import common;
import std.internal.scopebuffer : ScopeBuffer;

/// ScopeBuffer with C's realloc, counted (common.countingRealloc) so the bytes it mallocs show.
alias Buffer = ScopeBuffer!(ubyte, countingRealloc);

struct ScopeBufferCerealiser
{
    Buffer output;
    void grainUByte(ref ubyte val) { output.put(val); }
}

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    ubyte[32] buf = void;   // cerealise's default: too small for the record, as in the seed
    auto enc = ScopeBufferCerealiser(Buffer(buf));
    scope (exit) enc.output.free();
    grain(enc, r);
    sink.consume(n, enc.output[]);
}

void main(string[] args)
{
    runSer!serialize(args);
}
