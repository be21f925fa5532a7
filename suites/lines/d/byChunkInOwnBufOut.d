// Strategy (byChunkInOwnBufOut, ours, not dcat's code): not line by line: Phobos File.byChunk(128 KiB), chunks copied with a slice copy (memcpy) into an own 128 KiB buffer that is written with stdout.rawWrite whenever it is full, so every write is exactly 128 KiB.
module byChunkInOwnBufOut;

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
        enum size_t size = 128 * 1024;
        auto buffer = new ubyte[size];
        size_t length = 0;
        foreach (chunk; File(args[1]).byChunk(size))
        {
            while (chunk.length > 0)
            {
                immutable n = chunk.length < size - length ? chunk.length : size - length;
                buffer[length .. length + n] = chunk[0 .. n];
                length += n;
                chunk = chunk[n .. $];
                if (length == size)
                {
                    stdout.rawWrite(buffer);
                    length = 0;
                }
            }
        }
        stdout.rawWrite(buffer[0 .. length]);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
