// Strategy: C fread into an own 1 KiB buffer, read(ubyte*) stores the byte through a naked pointer and returns 1, or 0 at EOF: the seed's program as written (original D #2, no observation barrier).
import common;
import core.stdc.errno : errno;
import core.stdc.stdio : FILE, fclose, ferror, fopen, fread;
import core.stdc.string : strerror;
import core.time : MonoTime;
import std.string : fromStringz, toStringz;

/// Out of line, so the reader's constructor stays as small as the seed's (which checked nothing).
pragma(inline, false) void cannotOpen(string path)
{
    fail("cannot open " ~ path ~ ": " ~ strerror(errno).fromStringz.idup);
}

/// The seed's FileReader, re-typed: its fields, its 1024-byte buffer, its read() and fillBuffer().
struct FileReader
{
    private FILE* fFile;
    private static const BUFFER_SIZE = 1024;
    private ubyte[BUFFER_SIZE] fBuffer;
    private ubyte* fBufferPtr;
    private ubyte* fBufferEnd;

    this(string fn)
    {
        fFile = fopen(fn.toStringz, "rb");
        if (fFile is null)
            cannotOpen(fn);
        fBufferPtr = fBuffer.ptr;
        fBufferEnd = fBuffer.ptr;
    }

    int read(ubyte* targetBuffer)
    {
        auto finished = fBufferPtr == fBufferEnd;
        if (finished)
        {
            finished = fillBuffer();
            if (finished)
                return 0;
        }
        *targetBuffer = *fBufferPtr++;
        return 1;
    }

    private bool fillBuffer()
    {
        fBufferPtr = fBuffer.ptr;
        auto l = fread(fBufferPtr, 1, BUFFER_SIZE, fFile);
        fBufferEnd = fBufferPtr + l;
        return l == 0;
    }

    /// Not in the seed (its FILEs stayed open): the read error check and fclose, after the pass.
    void close(string path)
    {
        if (ferror(fFile))
            fail("read error on " ~ path);
        fclose(fFile);
    }
}

/// The seed's readBytes(), its two builds (version COUNT and SUM_UP) the two instances: the first read()
/// before the loop, the next at its end, nothing tying the count to the bytes (d/fread-count-ptr is the honest cell).
ulong readBytes(bool sumUp)(string path, uint passes)
{
    size_t count = 0;
    static if (sumUp)
        size_t sum = 0;
    for (uint i = 0; i < passes; i++)
    {
        auto reader = FileReader(path);
        ubyte[1] buffer;
        ubyte* p = buffer.ptr;
        auto c = reader.read(p);
        while (1 == c)
        {
            ++count;
            static if (sumUp)
                sum += *p;
            c = reader.read(p);
        }
        reader.close(path);
    }
    static if (sumUp)
        return count + sum;
    else
        return count;
}

int main(string[] args)
{
    auto job = parseArgs(args);
    immutable start = MonoTime.currTime;
    immutable answer = job.sum ? readBytes!true(job.path, job.passes) : readBytes!false(job.path, job.passes);
    immutable ns = (MonoTime.currTime - start).total!"nsecs";
    report(job, answer, ns);
    return 0;
}
