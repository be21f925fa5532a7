// Strategy (byLineInBufOut): Phobos File.byLine(Yes.keepTerminator) into a BufferedOutputRange (tsv-utils) over stdout.
module byLineInBufOut;

import std.stdio;
import std.typecons : Yes;
import tsvutils_lite : BufferedOutputRange;

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
        foreach (line; File(args[1]).byLine(Yes.keepTerminator))
            bufOut.put(line);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
