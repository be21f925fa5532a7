// Strategy (byChunkInRawOut): not line by line: Phobos File.byChunk(128 KiB), each chunk written with stdout.rawWrite.
module byChunkInRawOut;

import std.stdio;

int main(string[] args)
{
    if (args.length != 2)
    {
        stderr.writeln("usage: ", args[0], " FILE");
        return 2;
    }
    try
    {
        foreach (chunk; File(args[1]).byChunk(128 * 1024))
            stdout.rawWrite(chunk);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
