// Strategy (bufferedByLineInBufOut): as dcat, tsv-utils' bufferedByLine!(Yes.keepTerminator) (own 128 KiB reads, lines are slices of its buffer, a locked feof per line) into its BufferedOutputRange over stdout.
module bufferedByLineInBufOut;

import std.stdio;
import std.typecons : Yes;
import tsvutils_lite : BufferedOutputRange, bufferedByLine;

/// dcat's useBufferedByLineInBufOut.
void useBufferedByLineInBufOut(OutputRange)(string filename, auto ref OutputRange outputStream)
{
    auto inputStream = File(filename);
    foreach (ref line; inputStream.bufferedByLine!(Yes.keepTerminator))
        outputStream.put(line);
}

int main(string[] args)
{
    if (args.length != 2)
    {
        stderr.writeln("usage: ", args[0], " FILE");
        return 2;
    }
    try
    {
        auto bufferedOutput = BufferedOutputRange!File(stdout);
        useBufferedByLineInBufOut(args[1], bufferedOutput);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
