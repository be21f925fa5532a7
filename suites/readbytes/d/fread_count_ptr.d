// Strategy (original D #2): C fread into an own 1 KiB buffer; read(ubyte*) stores the byte through a naked pointer and returns the number of bytes (1, or 0 at EOF).
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

    /// Stores the next byte at `dst` and returns 1, or returns 0 at EOF.
    size_t read(ubyte* dst)
    {
        if (next == end && !fill())
            return 0;
        *dst = *next++;
        return 1;
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
        ubyte b;
        if (job.sum)
        {
            while (reader.read(&b) == 1)
            {
                observe(b);
                sum += b;
                ++count;
            }
        }
        else
        {
            while (reader.read(&b) == 1)
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
