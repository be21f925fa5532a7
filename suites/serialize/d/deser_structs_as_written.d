// Deserializer design "structs" as the seed's program wrote it (Cerealed v0.5.0 through `Decerealiser(bytes).value!T`): a Decerealiser struct over the caller's slice (v0.5.0's fields: the slice, the original slice, a bit cursor; its templated constructor), templates, Cerealed's per-member dispatch (a template call per member), the name read into a new GC array, the record returned by value.
import common;
import std.traits : isNumeric;

struct Decerealiser
{
    enum copyStrings = true;   // v0.5.0's string grain: a new GC char[] per string (common.copyStrings)
    enum cerealedMembers = true;   // v0.5.0's grainAllMembers -> grainMemberWithAttr!member (common.cerealedMembers)
    const(ubyte)[] originalBytes;
    const(ubyte)[] bytes;
    ubyte currentByte;
    int bitIndex;

    /// v0.5.0's constructor: a template over the element type, through setBytes!T.
    this(T)(in T[] bytes) if (isNumeric!T)
    {
        setBytes(bytes);
    }

    void grainUByte(ref ubyte val) { val = bytes[0]; bytes = bytes[1 .. $]; }

    /// v0.5.0's `value!T`: `T val; grain(this, val); return val;`
    T value(T)()
    {
        T val;
        grain(this, val);
        return val;
    }

    /// v0.5.0's setBytes!T: the slice kept as it is for ubyte, each element converted otherwise.
    void setBytes(T)(in T[] bytes) if (isNumeric!T)
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
    auto dec = Decerealiser(input);
    r = dec.value!Record;
    return dec.bytes;
}

void main(string[] args)
{
    runDeser!deserialize(args);
}
