// Serializer design "Appender" as the seed's program wrote it (Cerealed v0.5.0's default Cerealiser through `enc ~= record`): a new CerealiserImpl struct over std.array.Appender!(ubyte[]) per operation, the record copied by `~=`, the name copied into a new GC array first.
import common;
import std.array : Appender;

/// v0.5.0's default: `alias Cerealiser = AppenderCerealiser = CerealiserImpl!(Appender!(ubyte[]))`.
alias Cerealiser = CerealiserImpl!(Appender!(ubyte[]));

void serialize(ref Record r, ulong n, ref SerSink sink)
{
    auto enc = Cerealiser();
    enc ~= r;
    sink.consume(n, enc.bytes);
}

void main(string[] args)
{
    runSer!serialize(args);
}
