// Serializer design "classes" (Cerealed v0.4.1): a new GC-heap Cerealiser object per operation, a virtual per-byte primitive, `~=` per byte onto a dynamic array.
import common;

/// v0.4.1's abstract base: the grain templates call a virtual per-byte primitive.
abstract class Cereal
{
    enum Type { write, read }
    abstract Type type() const;
    abstract void grainUByte(ref ubyte val);
}

/// Appends every byte to a GC dynamic array.
class Cerealiser : Cereal
{
    ubyte[] bytes;
    override Type type() const { return Type.write; }
    override void grainUByte(ref ubyte val) { bytes ~= val; }
}

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    Cereal enc = new Cerealiser;   // the benchmark made a new object per operation
    grain(enc, r);
    sink.consume(n, (cast(Cerealiser) enc).bytes);
}

void main(string[] args)
{
    runSer!serialize(args);
}
