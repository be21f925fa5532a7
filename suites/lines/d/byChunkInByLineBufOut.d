// Strategy (byChunkInByLineBufOut): as dcat, Phobos File.byChunk over a 128 KiB stack buffer, each chunk split on '\n' with std.algorithm.splitter; a '\n' is put before every piece but a chunk's first, each piece (ubyte[]) put into tsv-utils' BufferedOutputRange.
module byChunkInByLineBufOut;

import std.stdio;
import tsvutils_lite : BufferedOutputRange;

/// dcat's useByChunkInByLineBufOut.
void useByChunkInByLineBufOut(OutputRange)(string filename, auto ref OutputRange outputStream)
{
    import std.algorithm : splitter;

    ubyte[1024 * 128] fileRawBuf;
    auto ifile = File(filename);
    foreach (ref ubyte[] buffer; ifile.byChunk(fileRawBuf))
    {
        // A chunk's last piece is the start of a line that the next chunk's first piece continues
        // (no '\n' is put between them), and a chunk that ends with '\n' ends with an empty piece,
        // so the output is byte-identical to the input, lines across chunks too.
        bool first = true;
        foreach (ref line; buffer.splitter('\n'))
        {
            if (first)
                first = false;
            else
                outputStream.put('\n');
            outputStream.put(line);
        }
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
        useByChunkInByLineBufOut(args[1], bufferedOutput);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
