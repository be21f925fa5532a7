// Strategy (original D #3): C fread into an own 1 KiB buffer; bool read(out ubyte) returns false at EOF, the byte comes back as an out-parameter.
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

    void close()
    {
        if (ferror(file))
            fail("read error on " ~ path);
        fclose(file);
    }
}

int main(string[] args)
{
    return run!((string path) => FileReader(path), (ref FileReader r, ref ubyte b) => r.read(b))(args);
}
