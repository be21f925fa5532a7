// Serializer design "ScopeBuffer" as the seed's program wrote it (Cerealed v0.5.0's cerealise): a ScopeBuffer over a 32-byte stack array copied into a new CerealiserImpl struct, the record copied by `~=`, the name copied into a new GC array first; cerealise frees the range it made, never grown, so the cerealiser's grown buffer is never freed (a malloc per op kept, as v0.5.0 did until Cerealed's 2017 fix).
import common;
import std.internal.scopebuffer : ScopeBuffer;

/// ScopeBuffer with C's realloc, counted (common.countingRealloc) so the bytes it mallocs show.
alias Buffer = ScopeBuffer!(ubyte, countingRealloc);

/// v0.5.0's ScopeBufferRange: the output range over a ScopeBuffer (its put through `alias this`).
struct ScopeBufferRange
{
    Buffer sbuf;
    alias sbuf this;
    this(ubyte[] buf) { sbuf = Buffer(buf); }
    const(ubyte)[] data() const { return sbuf[]; }
    void free() { sbuf.free(); }
}

alias ScopeBufferCerealiser = CerealiserImpl!ScopeBufferRange;

/// v0.5.0's cerealise!(F, N = 32): F gets the bytes. The range is copied into the cerealiser (ScopeBuffer's
/// copy was not disabled), so `scope(exit) sbufRange.free()` frees the copy that never grew.
void cerealise(alias F, ushort N = 32)(ref Record val)
{
    ubyte[N] buf = void;
    auto sbufRange = ScopeBufferRange(buf);
    scope (exit) sbufRange.free();
    auto enc = ScopeBufferCerealiser(sbufRange);
    enc ~= val;
    F(enc.bytes);
}

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    cerealise!(bytes => sink.consume(n, bytes))(r);
}

void main(string[] args)
{
    runSer!serialize(args);
}
