// Strategy (iopipeByLineInRawOut): iopipe-style buffer window, byLineRange without the newline; writeln(line) puts it back (a last line without one is written as it is).
module iopipeByLineInRawOut;

import std.stdio;
import iopipe_lite : IOFile, byLineRange;

int main(string[] args)
{
    if (args.length != 2)
    {
        stderr.writeln("usage: ", args[0], " FILE");
        return 2;
    }
    try
    {
        auto lines = byLineRange!false(IOFile.open(args[1]));
        for (; !lines.empty; lines.popFront())
        {
            if (lines.terminated)
                writeln(lines.front);
            else
                write(lines.front);
        }
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
