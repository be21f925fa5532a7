// Strategy (original D #6): std.stdio.File.rawRead fills a 1 KiB buffer; read(out ubyte) takes the front of the remaining slice and shrinks it (array slicing), returning 1, or 0 at EOF.
import common;
import std.exception : ErrnoException;
import std.stdio : File;

struct FileReader
{
    private enum BUFFER_SIZE = 1024;
    private File file;
    private ubyte[BUFFER_SIZE] buffer;
    private ubyte[] rest;   // the bytes of `buffer` not yet delivered

    this(string path)
    {
        try
            file = File(path, "rb");
        catch (ErrnoException e)
            fail(e.msg);
    }

    /// The next byte in `b` and 1, or 0 at EOF.
    int read(out ubyte b)
    {
        if (rest.length == 0)
        {
            rest = file.rawRead(buffer[]);
            if (rest.length == 0)
                return 0;
        }
        b = rest[0];
        rest = rest[1 .. $];
        return 1;
    }

    void close()
    {
        file.close();
    }
}

int main(string[] args)
{
    auto job = parseArgs(args);
    ulong count = 0, sum = 0;
    auto start = startClock();
    foreach (pass; 0 .. job.passes)
    {
        auto reader = FileReader(job.path);
        ubyte b;
        try
        {
            if (job.sum)
            {
                while (reader.read(b) == 1)
                {
                    observe(b);
                    sum += b;
                    ++count;
                }
            }
            else
            {
                while (reader.read(b) == 1)
                {
                    observe(b);
                    ++count;
                }
            }
        }
        catch (ErrnoException e)
            fail("read error on " ~ job.path ~ ": " ~ e.msg);
        reader.close();
    }
    auto ns = elapsedNs(start);
    report(job, job.sum ? sum + count : count, ns);
    return 0;
}
