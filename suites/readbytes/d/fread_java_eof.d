// Strategy (original D #4): C fread into an own 1 KiB buffer; int read() with Java's semantics: the byte 0..255, or -1 at EOF.
import common;
import core.stdc.errno : errno;
import core.stdc.stdio : FILE, fclose, ferror, fopen, fread;
import core.stdc.string : strerror;
import std.string : fromStringz, toStringz;

struct FileReader
{
    private enum BUFFER_SIZE = 1024;
    private FILE* file;
    private ubyte[BUFFER_SIZE] buffer;
    private ubyte* next;
    private ubyte* end;

    this(string path)
    {
        file = fopen(path.toStringz, "rb");
        if (file is null)
            fail("cannot open " ~ path ~ ": " ~ strerror(errno).fromStringz.idup);
        next = end = buffer.ptr;
    }

    /// The next byte (0..255), or -1 at EOF.
    int read()
    {
        if (next == end && !fill())
            return -1;
        return *next++;
    }

    private bool fill()
    {
        immutable n = fread(buffer.ptr, 1, BUFFER_SIZE, file);
        next = buffer.ptr;
        end = buffer.ptr + n;
        return n != 0;
    }

    void close(string path)
    {
        if (ferror(file))
            fail("read error on " ~ path);
        fclose(file);
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
        if (job.sum)
        {
            for (int b = reader.read(); b != -1; b = reader.read())
            {
                observe(b);
                sum += b;
                ++count;
            }
        }
        else
        {
            for (int b = reader.read(); b != -1; b = reader.read())
            {
                observe(b);
                ++count;
            }
        }
        reader.close(job.path);
    }
    auto ns = elapsedNs(start);
    report(job, job.sum ? sum + count : count, ns);
    return 0;
}
