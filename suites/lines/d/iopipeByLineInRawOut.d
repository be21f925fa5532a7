// Strategy (iopipeByLineInRawOut): as dcat, iopipe's bufd.assumeText.byLineRange over a RefCounted std.io File (lines without '\n'); writeln(line) puts the '\n' back (Phobos stdout, locked per call).
module iopipeByLineInRawOut;

import std.stdio;
import iopipe_lite : SharedIOFile, assumeText, bufd, byLineRange;

/// dcat's useIopipeByLineInRawOut.
void useIopipeByLineInRawOut(string filename)
{
    auto inputStream = SharedIOFile(filename);
    auto lines = inputStream.bufd.assumeText.byLineRange;
    for (; !lines.empty; lines.popFront())
    {
        auto line = lines.front;
        if (lines.terminated) // dcat wrote "\n" after every line, a last one without it too
            writeln(line);
        else
            write(line);
    }
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
        useIopipeByLineInRawOut(args[1]);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
