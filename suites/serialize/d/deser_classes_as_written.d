// Deserializer design "classes" as the seed's program wrote it (Cerealed v0.4.1 through `new Decerealiser(bytes).value!T`): a new GC-heap Decerealiser object per record (v0.4.1's fields: the slice, the original slice, a bit cursor), a virtual per-byte primitive that takes the front byte and slices the array, the name read into a new GC array, the record returned by value.
import common;

abstract class Cereal
{
    enum Type { write, read }
    enum copyStrings = true;   // v0.4.1's string grain: a new GC char[] per string (common.copyStrings)
    abstract Type type() const;
    abstract ulong bytesLeft() const;
    abstract void grainUByte(ref ubyte val);
}

class Decerealiser : Cereal
{
    const(ubyte)[] originalBytes;
    const(ubyte)[] bytes;
    ubyte currentByte;   // readBits' partial byte (unused by this record)
    int bitIndex;

    this(const(ubyte)[] bytes)
    {
        this.bytes = bytes;
        originalBytes = this.bytes;
    }

    override Type type() const { return Type.read; }
    override ulong bytesLeft() const { return bytes.length; }
    override void grainUByte(ref ubyte val) { val = bytes[0]; bytes = bytes[1 .. $]; }

    /// v0.4.1's `value!T`: `T val; grain(val); return val;`
    Record value()
    {
        Record val;
        Cereal self = this;
        grain(self, val);
        return val;
    }
}

const(ubyte)[] deserialize(const(ubyte)[] input, ref Record r)
{
    auto dec = new Decerealiser(input);   // a new object per operation, as the seed's benchmark did
    r = dec.value();
    return dec.bytes;
}

void main(string[] args)
{
    runDeser!deserialize(args);
}
