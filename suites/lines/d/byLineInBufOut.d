// Strategy (byLineInBufOut): as dcat, Phobos File.byLine(Yes.keepTerminator), each line put into tsv-utils' BufferedOutputRange over stdout.
module byLineInBufOut;

import std.stdio;
import std.typecons : Yes;
import tsvutils_lite : BufferedOutputRange;

/// dcat's useByLineInBufOut.
void useByLineInBufOut(OutputRange)(string filename, auto ref OutputRange outputStream)
{
    auto inputStream = File(filename);
    foreach (line; inputStream.byLine(Yes.keepTerminator))
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
        useByLineInBufOut(args[1], bufferedOutput);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
