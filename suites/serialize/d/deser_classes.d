// Deserializer design "classes" (Cerealed v0.4.1): a new GC-heap Decerealiser object per record, a virtual per-byte primitive that takes the front byte and slices the array.
import common;

abstract class Cereal
{
    enum Type { write, read }
    abstract Type type() const;
    abstract void grainUByte(ref ubyte val);
    abstract const(ubyte)[] takeSlice(size_t n);
}

class Decerealiser : Cereal
{
    const(ubyte)[] bytes;
    this(const(ubyte)[] bytes) { this.bytes = bytes; }
    override Type type() const { return Type.read; }
    override void grainUByte(ref ubyte val) { val = bytes[0]; bytes = bytes[1 .. $]; }
    override const(ubyte)[] takeSlice(size_t n) { auto s = bytes[0 .. n]; bytes = bytes[n .. $]; return s; }
}

const(ubyte)[] deserialize(const(ubyte)[] input, ref Record r)
{
    Cereal dec = new Decerealiser(input);   // a new object per operation, as the benchmark did
    grain(dec, r);
    return (cast(Decerealiser) dec).bytes;
}

void main(string[] args)
{
    runDeser!deserialize(args);
}
