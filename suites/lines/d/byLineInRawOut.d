// Strategy (byLineInRawOut): Phobos File.byLine(Yes.keepTerminator), each line written with stdout.write (stdio, locked per call).
module byLineInRawOut;

import std.stdio;
import std.typecons : Yes;

int main(string[] args)
{
    if (args.length != 2)
    {
        stderr.writeln("usage: ", args[0], " FILE");
        return 2;
    }
    try
    {
        foreach (line; File(args[1]).byLine(Yes.keepTerminator))
            stdout.write(line);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
