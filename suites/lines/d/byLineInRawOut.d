// Strategy (byLineInRawOut): as dcat, Phobos File.byLine(Yes.keepTerminator), each line written with stdout.write (stdio, locked per call).
module byLineInRawOut;

import std.stdio;
import std.typecons : Yes;

/// dcat's useByLineInRawOut.
void useByLineInRawOut(string filename)
{
    auto inputStream = File(filename);
    foreach (line; inputStream.byLine(Yes.keepTerminator))
        stdout.write(line);
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
        useByLineInRawOut(args[1]);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
