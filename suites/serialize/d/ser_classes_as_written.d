// Serializer design "classes" as the seed's program wrote it (Cerealed v0.4.1 through `new Cerealiser; enc ~= record`): a new GC-heap Cerealiser object per operation (v0.4.1's fields: the bytes, a bit cursor), the record copied by `~=`, the name copied into a new GC array first, a virtual per-byte primitive, `~=` per byte onto a dynamic array.
import common;

/// v0.4.1's abstract base: the grain templates call a virtual per-byte primitive.
abstract class Cereal
{
    enum Type { write, read }
    enum copyStrings = true;   // v0.4.1's string grain: a new GC char[] per string (common.copyStrings)
    abstract Type type() const;
    abstract ulong bytesLeft() const;
    abstract void grainUByte(ref ubyte val);
}

/// v0.4.1's Cerealiser: appends every byte to a GC dynamic array; the bit writer's state besides.
class Cerealiser : Cereal
{
    ubyte[] bytes;
    ubyte currentByte;   // writeBits' partial byte (unused by this record)
    int bitIndex;
    override Type type() const { return Type.write; }
    override ulong bytesLeft() const { return bytes.length; }
    override void grainUByte(ref ubyte val) { bytes ~= val; }

    /// `enc ~= val`: opOpAssign(T val) -> write(T val) -> `Unqual!T lval = val; grain(lval);`
    void opOpAssign(string op : "~")(Record val)
    {
        write(val);
    }

    void write(Record val)
    {
        Record lval = val;
        Cereal self = this;
        grain(self, lval);
    }
}

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    auto enc = new Cerealiser;   // the seed's benchmark made a new object per operation
    enc ~= r;
    sink.consume(n, enc.bytes);
}

void main(string[] args)
{
    runSer!serialize(args);
}
