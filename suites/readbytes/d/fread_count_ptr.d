// Strategy (original D #2): C fread into an own 1 KiB buffer; read(ubyte*) stores the byte through a naked pointer and returns the number of bytes (1, or 0 at EOF).
import common;
import core.stdc.errno : errno;
import core.stdc.stdio : FILE, fclose, ferror, fopen, fread;
import core.stdc.string : strerror;
import std.string : fromStringz, toStringz;

struct FileReader
{
    private enum BUFFER_SIZE = 1024;
    private string path;
    private FILE* file;
    private ubyte[BUFFER_SIZE] buffer;
    private ubyte* next;
    private ubyte* end;

    this(string path)
    {
        this.path = path;
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

    void close()
    {
        if (ferror(file))
            fail("read error on " ~ path);
        fclose(file);
    }
}

int main(string[] args)
{
    return run!((string path) => FileReader(path), (ref FileReader r, ref ubyte b) => r.read(&b) == 1)(args);
}
