// Serializer design "structs (dynamic array)" as the seed's program wrote it (Cerealed v0.5.0's DynamicArrayCerealiser through `enc ~= record`): a new CerealiserImpl struct over a dynamic-array output range per operation, the record copied by `~=`, the name copied into a new GC array first, `~=` per byte.
import common;

/// v0.5.0's DynamicArrayRange: an output range appending to a GC array.
struct DynamicArrayRange
{
    ubyte[] bytes;
    void put(in ubyte val) { bytes ~= val; }
    const(ubyte)[] data() const { return bytes; }
}

alias DynamicArrayCerealiser = CerealiserImpl!DynamicArrayRange;

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    auto enc = DynamicArrayCerealiser();
    enc ~= r;
    sink.consume(n, enc.bytes);
}

void main(string[] args)
{
    runSer!serialize(args);
}
