// Deserializer design "classes" as the seed's program wrote it (Cerealed v0.4.1 through `new Decerealiser(bytes).value!T`): a new GC-heap Decerealiser object per record (v0.4.1's fields: the slice, the original slice, a bit cursor; its templated constructor), a virtual per-byte primitive that takes the front byte and slices the array, Cerealed's per-member dispatch (a template call per member), the name read into a new GC array, the record returned by value.
import common;
import std.traits : isNumeric;

abstract class Cereal
{
    enum Type { write, read }
    enum copyStrings = true;   // v0.4.1's string grain: a new GC char[] per string (common.copyStrings)
    enum cerealedMembers = true;   // v0.4.1's grainAllMembers -> grainMemberWithAttr!member (common.cerealedMembers)
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

    /// v0.4.1's constructor: a template over the element type, through setBytes!T.
    this(T)(in T[] bytes) if (isNumeric!T)
    {
        setBytes(bytes);
    }

    override Type type() const { return Type.read; }
    override ulong bytesLeft() const { return bytes.length; }
    override void grainUByte(ref ubyte val) { val = bytes[0]; bytes = bytes[1 .. $]; }

    /// v0.4.1's `value!T`: `T val; grain(val); return val;`
    final T value(T)()
    {
        T val;
        Cereal self = this;
        grain(self, val);
        return val;
    }

    /// v0.4.1's setBytes!T: the slice kept as it is for ubyte, each element converted otherwise.
    final void setBytes(T)(in T[] bytes) if (isNumeric!T)
    {
        static if (is(T == ubyte))
            this.bytes = bytes;
        else
            foreach (b; bytes)
                this.bytes ~= cast(ubyte) b;
        originalBytes = this.bytes;
    }
}

const(ubyte)[] deserialize(const(ubyte)[] input, ref Record r)
{
    auto dec = new Decerealiser(input);   // a new object per operation, as the seed's benchmark did
    r = dec.value!Record;
    return dec.bytes;
}

void main(string[] args)
{
    runDeser!deserialize(args);
}
