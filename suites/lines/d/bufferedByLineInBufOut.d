// Strategy (bufferedByLineInBufOut): bufferedByLine(Yes.keepTerminator) (tsv-utils: own 128 KiB reads, lines are buffer slices) into a BufferedOutputRange over stdout.
module bufferedByLineInBufOut;

import std.stdio;
import std.typecons : Yes;
import tsvutils_lite : BufferedOutputRange, bufferedByLine;

int main(string[] args)
{
    if (args.length != 2)
    {
        stderr.writeln("usage: ", args[0], " FILE");
        return 2;
    }
    try
    {
        auto bufOut = BufferedOutputRange(stdout);
        foreach (line; bufferedByLine!(Yes.keepTerminator)(File(args[1])))
            bufOut.put(line);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
