// Strategy (byChunkInBufOut): not line by line: as dcat, Phobos File.byChunk over a 128 KiB stack buffer; each chunk append()ed to tsv-utils' BufferedOutputRange (Appender, std.range.put of ubyte[]), then flushIfFull, so every chunk is copied once and written with rawWrite.
module byChunkInBufOut;

import std.stdio;
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
        auto outputStream = BufferedOutputRange(stdout);
        ubyte[1024 * 128] fileRawBuf;
        foreach (ref ubyte[] buffer; File(args[1]).byChunk(fileRawBuf))
        {
            outputStream.append(buffer);
            outputStream.flushIfFull();
        }
        outputStream.flush();
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
