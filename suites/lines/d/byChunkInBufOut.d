// Strategy (byChunkInBufOut): not line by line: as dcat, Phobos File.byChunk over a 128 KiB stack buffer; each chunk append()ed to tsv-utils' BufferedOutputRange (Appender, std.range.put of ubyte[]), then flushIfFull, so every chunk is copied once and written with rawWrite.
module byChunkInBufOut;

import std.stdio;
import tsvutils_lite : BufferedOutputRange;

/// dcat's useByChunkInBufOut.
void useByChunkInBufOut(BufferedOutput)(string filename, auto ref BufferedOutput outputStream)
{
    ubyte[1024 * 128] fileRawBuf;
    auto ifile = File(filename);
    foreach (ref ubyte[] buffer; ifile.byChunk(fileRawBuf))
    {
        outputStream.append(buffer);
        outputStream.flushIfFull;
    }
    outputStream.flush;
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
        useByChunkInBufOut(args[1], bufferedOutput);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
