// Strategy (iopipeByLineInBufOut): as dcat, iopipe's bufd.assumeText.byLineRange over a RefCounted std.io File (lines without '\n'); put(line) and put('\n') into tsv-utils' BufferedOutputRange over stdout.
module iopipeByLineInBufOut;

import std.stdio;
import iopipe_lite : SharedIOFile, assumeText, bufd, byLineRange;
import tsvutils_lite : BufferedOutputRange;

/// dcat's useIopipeByLineInBufOut.
void useIopipeByLineInBufOut(OutputRange)(string filename, auto ref OutputRange outputStream)
{
    auto inputStream = SharedIOFile(filename);
    auto lines = inputStream.bufd.assumeText.byLineRange;
    for (; !lines.empty; lines.popFront())
    {
        auto line = lines.front;
        outputStream.put(line);
        if (lines.terminated) // dcat put '\n' after every line, a last one without it too
            outputStream.put('\n');
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
        auto bufferedOutput = BufferedOutputRange!File(stdout);
        useIopipeByLineInBufOut(args[1], bufferedOutput);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
