// Serializer design "Appender" (Cerealed v0.5.0's default Cerealiser): a struct and templates over a new std.array.Appender!(ubyte[]) per operation.
import common;
import std.array : Appender;

struct AppenderCerealiser
{
    Appender!(ubyte[]) output;
    void grainUByte(ref ubyte val) { output.put(val); }
}

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    AppenderCerealiser enc;
    grain(enc, r);
    sink.consume(n, enc.output.data);
}

void main(string[] args)
{
    runSer!serialize(args);
}
