// Strategy (byChunkInMemchrLineBufOut, ours, not dcat's code): Phobos File.byChunk(128 KiB) split on '\n' with memchr (instead of dcat's std.algorithm.splitter); each piece into a BufferedOutputRange (tsv-utils) as a char[], then a '\n' after it: two puts per line.
module byChunkInMemchrLineBufOut;

import core.stdc.string : memchr;
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
        auto bufOut = BufferedOutputRange(stdout);
        foreach (chunk; File(args[1]).byChunk(128 * 1024))
        {
            while (true)
            {
                auto nl = cast(ubyte*) memchr(chunk.ptr, '\n', chunk.length);
                if (nl is null)
                {
                    // The chunk ends inside a line: put what is here; the next chunk's first piece
                    // continues it, so the output is still byte-identical to the input.
                    if (chunk.length > 0)
                        bufOut.put(cast(const(char)[]) chunk);
                    break;
                }
                bufOut.put(cast(const(char)[]) chunk[0 .. nl - chunk.ptr]);
                bufOut.put('\n');
                chunk = chunk[(nl - chunk.ptr) + 1 .. $];
            }
        }
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
