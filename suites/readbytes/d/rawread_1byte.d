// Strategy (original D #1): std.stream.BufferedFile.read(ubyte[1]) is gone from Phobos; its closest modern equivalent is a 1-byte File.rawRead on a buffered std.stdio.File (one fread call per byte).
import common;
import std.exception : ErrnoException;
import std.stdio : File;

int main(string[] args)
{
    auto job = parseArgs(args);
    ulong count = 0, sum = 0;
    auto start = startClock();
    foreach (pass; 0 .. job.passes)
    {
        File file;
        try
            file = File(job.path, "rb");   // a C FILE*, buffered by libc
        catch (ErrnoException e)
            fail(e.msg);
        ubyte[1] buffer;
        // read() delivers one byte: rawRead returns the slice it filled, empty at EOF.
        try
        {
            if (job.sum)
            {
                while (file.rawRead(buffer[]).length == 1)
                {
                    observe(buffer[0]);
                    sum += buffer[0];
                    ++count;
                }
            }
            else
            {
                while (file.rawRead(buffer[]).length == 1)
                {
                    observe(buffer[0]);
                    ++count;
                }
            }
        }
        catch (ErrnoException e)
            fail("read error on " ~ job.path ~ ": " ~ e.msg);
        file.close();
    }
    auto ns = elapsedNs(start);
    report(job, job.sum ? sum + count : count, ns);
    return 0;
}
