// Deserializer design "structs" as the seed's program wrote it (Cerealed v0.5.0 through `Decerealiser(bytes).value!T`): a Decerealiser struct over the caller's slice (v0.5.0's fields: the slice, the original slice, a bit cursor), templates, the name read into a new GC array, the record returned by value.
import common;

struct Decerealiser
{
    enum copyStrings = true;   // v0.5.0's string grain: a new GC char[] per string (common.copyStrings)
    const(ubyte)[] originalBytes;
    const(ubyte)[] bytes;
    ubyte currentByte;
    int bitIndex;

    this(const(ubyte)[] bytes)
    {
        this.bytes = bytes;
        originalBytes = this.bytes;
    }

    void grainUByte(ref ubyte val) { val = bytes[0]; bytes = bytes[1 .. $]; }

    /// v0.5.0's `value!T`: `T val; grain(this, val); return val;`
    Record value()
    {
        Record val;
        grain(this, val);
        return val;
    }
}

const(ubyte)[] deserialize(const(ubyte)[] input, ref Record r)
{
    auto dec = Decerealiser(input);
    r = dec.value();
    return dec.bytes;
}

void main(string[] args)
{
    runDeser!deserialize(args);
}
