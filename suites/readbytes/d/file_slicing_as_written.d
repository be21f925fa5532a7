// Strategy: std.stdio.File.rawRead fills a 1 KiB buffer, read(out ubyte) takes the front of the remaining slice and shrinks it, returning 1, or 0 at EOF: the seed's program as written (original D #6, no observation barrier).
import common;
import core.time : MonoTime;
import std.exception : ErrnoException;
import std.stdio : File;

/// std.stdio.File's open, its error one line (out of line: the seed's constructor checked nothing).
pragma(inline, false) File openFile(string path)
{
    try
        return File(path, "rb");
    catch (ErrnoException e)
        fail(e.msg);
    assert(0);
}

/// The seed's FileReader (ratchet freak's version), re-typed: a File, a 1024-byte buffer left
/// uninitialised, the slice of it not yet delivered; the File closes when the reader goes out of scope.
struct FileReader
{
    private File fFile;
    private enum BUFFER_SIZE = 1024;
    private ubyte[BUFFER_SIZE] fBuffer = void;
    private ubyte[] buff;

    this(string fn)
    {
        fFile = openFile(fn);
    }

    int read(out ubyte targetBuffer)
    {
        auto finished = buff.length == 0;
        if (finished)
        {
            finished = fillBuffer();
            if (finished)
                return 0;
        }
        targetBuffer = buff[0];
        buff = buff[1 .. $];
        return 1;
    }

    private bool fillBuffer()
    {
        if (!fFile.isOpen())
            return false;   // as the seed: never taken, the file is open for the whole pass
        buff = fFile.rawRead(fBuffer);
        return buff.length == 0;
    }
}

/// The seed's readBytes(), its two builds (version COUNT and SUM_UP) the two instances: the first read()
/// before the loop, the next at its end, nothing tying the count to the bytes (d/file-slicing is the honest cell).
ulong readBytes(bool sumUp)(string path, uint passes)
{
    size_t count = 0;
    static if (sumUp)
        size_t sum = 0;
    for (uint i = 0; i < passes; i++)
    {
        auto reader = FileReader(path);
        ubyte buffer;
        auto c = reader.read(buffer);
        while (1 == c)
        {
            ++count;
            static if (sumUp)
                sum += buffer;
            c = reader.read(buffer);
        }
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
    ulong answer;
    try
        answer = job.sum ? readBytes!true(job.path, job.passes) : readBytes!false(job.path, job.passes);
    catch (ErrnoException e)
        fail("read error on " ~ job.path ~ ": " ~ e.msg);
    immutable ns = (MonoTime.currTime - start).total!"nsecs";
    report(job, answer, ns);
    return 0;
}
