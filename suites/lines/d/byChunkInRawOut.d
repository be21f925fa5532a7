// Strategy (byChunkInRawOut): not line by line: as dcat, Phobos File.byChunk(128 KiB), each chunk written with stdout.rawWrite.
module byChunkInRawOut;

import std.stdio;

/// dcat's useByChunkInRawOut.
void useByChunkInRawOut(string filename)
{
    auto ifile = File(filename);
    foreach (ref c; ifile.byChunk(1024 * 128))
        stdout.rawWrite(c);
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
        useByChunkInRawOut(args[1]);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
