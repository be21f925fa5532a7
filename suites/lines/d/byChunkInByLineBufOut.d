// Strategy (byChunkInByLineBufOut): Phobos File.byChunk(128 KiB) split on '\n' with memchr; each line goes into a BufferedOutputRange (tsv-utils); unlike the original, a line crossing a chunk boundary is carried over and joined.
module byChunkInByLineBufOut;

import core.stdc.string : memchr;
import std.array : appender;
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
        auto carry = appender!(ubyte[]); // the start of a line that continues in the next chunk
        foreach (chunk; File(args[1]).byChunk(128 * 1024))
        {
            while (chunk.length > 0)
            {
                auto nl = cast(ubyte*) memchr(chunk.ptr, '\n', chunk.length);
                if (nl is null)
                {
                    carry.put(chunk);
                    break;
                }
                auto line = chunk[0 .. (nl - chunk.ptr) + 1];
                if (carry.data.length > 0)
                {
                    carry.put(line);
                    bufOut.put(carry.data);
                    carry.clear();
                }
                else
                    bufOut.put(line);
                chunk = chunk[line.length .. $];
            }
        }
        bufOut.put(carry.data); // a last line without '\n'
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
