// Strategy (original D #3): C fread into an own 1 KiB buffer; bool read(out ubyte) returns false at EOF, the byte comes back as an out-parameter.
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

    /// The next byte in `b`, or false at EOF.
    bool read(out ubyte b)
    {
        if (next == end && !fill())
            return false;
        b = *next++;
        return true;
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
            while (reader.read(b))
            {
                observe(b);
                sum += b;
                ++count;
            }
        }
        else
        {
            while (reader.read(b))
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
