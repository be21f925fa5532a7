// Serializer design "structs (dynamic array)" (Cerealed v0.5.0's DynamicArrayCerealiser): a struct and templates, no virtual call, still `~=` per byte onto a new GC dynamic array per operation.
import common;

struct DynamicArrayCerealiser
{
    ubyte[] bytes;
    void grainUByte(ref ubyte val) { bytes ~= val; }
}

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    DynamicArrayCerealiser enc;
    grain(enc, r);
    sink.consume(n, enc.bytes);
}

void main(string[] args)
{
    runSer!serialize(args);
}
