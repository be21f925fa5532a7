// Strategy (iopipeByLineInIOOut): as dcat, iopipe's bufd.assumeText.byLineRange over a RefCounted std.io File (lines without '\n'); std.io's File.write(line, "\n") to fd 1: one writev(2) per line through the driver.
module iopipeByLineInIOOut;

import std.stdio : stderr;
import iopipe_lite : SharedIOFile, assumeText, bufd, byLineRange;

/// dcat's useIopipeByLineInIOOut.
void useIopipeByLineInIOOut(string filename)
{
    auto inputStream = SharedIOFile(filename);
    auto ioStdout = SharedIOFile(1);
    auto lines = inputStream.bufd.assumeText.byLineRange;
    for (; !lines.empty; lines.popFront())
    {
        // dcat wrote "\n" after every line, a last one without it too: ours only where it was
        auto newline = "\n"[0 .. lines.terminated];
        ioStdout.write(cast(const(ubyte)[]) lines.front, cast(const(ubyte)[]) newline);
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
        useIopipeByLineInIOOut(args[1]);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
