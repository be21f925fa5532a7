// Strategy (iopipeByLineInBufOut): iopipe-style buffer window, byLineRange without the newline; put(line) and put('\n') into a BufferedOutputRange (tsv-utils) over stdout.
module iopipeByLineInBufOut;

import std.stdio;
import iopipe_lite : IOFile, byLineRange;
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
        auto lines = byLineRange!false(IOFile.open(args[1]));
        for (; !lines.empty; lines.popFront())
        {
            bufOut.put(lines.front);
            if (lines.terminated)
                bufOut.put('\n');
        }
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
