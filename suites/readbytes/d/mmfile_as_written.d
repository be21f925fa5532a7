// Strategy: std.mmfile.MmFile maps the file, int read() walks a direct pointer through the mapped slice, -1 at EOF: the seed's program as written (original D #5, no observation barrier).
import common;
import core.time : MonoTime;
import std.file : getSize;
import std.mmfile : MmFile;

/// The whole file mapped read-only, or null for an empty file (mmap(2) refuses a length of 0); out of
/// line, so the reader's constructor stays as small as the seed's (which checked nothing).
pragma(inline, false) MmFile mapWhole(string path)
{
    try
    {
        if (getSize(path) == 0)
            return null;
        return new MmFile(path);
    }
    catch (Exception e)
        fail("cannot map " ~ path ~ ": " ~ e.msg);
    assert(0);
}

/// The seed's MemoryMappedFileReader, re-typed: the mapping, its length, a pointer walked to its end.
struct MemoryMappedFileReader
{
    MmFile fFile;
    size_t fLength;
    ubyte* fEnd;
    ubyte* fBuffer;

    this(string fn)
    {
        fFile = mapWhole(fn);
        if (fFile is null)
            return;   // an empty file: nothing mapped, read() returns -1 at once
        fLength = fFile.length;
        fBuffer = cast(ubyte*)(fFile[].ptr);
        fEnd = fBuffer + fLength;
    }

    int read()
    {
        if (fBuffer >= fEnd)
            return -1;
        return *fBuffer++;
    }

    /// Not in the seed (it left its mappings to the garbage collector): unmap after the pass.
    void close()
    {
        if (fFile !is null)
            destroy(fFile);
    }
}

/// The seed's readBytes(), its two builds (version COUNT and SUM_UP) the two instances: the first read()
/// before the loop, the next at its end, nothing tying the count to the bytes (d/mmfile is the honest cell).
ulong readBytes(bool sumUp)(string path, uint passes)
{
    size_t count = 0;
    static if (sumUp)
        size_t sum = 0;
    for (uint i = 0; i < passes; i++)
    {
        auto reader = MemoryMappedFileReader(path);
        auto b = reader.read();
        while (-1 != b)
        {
            ++count;
            static if (sumUp)
                sum += b;
            b = reader.read();
        }
        reader.close();
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
