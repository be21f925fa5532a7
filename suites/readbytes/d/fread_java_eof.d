// Strategy (original D #4): C fread into an own 1 KiB buffer; int read() with Java's semantics: the byte 0..255, or -1 at EOF.
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

    void close()
    {
        if (ferror(file))
            fail("read error on " ~ path);
        fclose(file);
    }
}

int main(string[] args)
{
    return run!((string path) => FileReader(path), (ref FileReader r, ref ubyte b) {
    immutable c = r.read();   // the byte 0..255, or -1 at EOF
    b = cast(ubyte) c;
    return c != -1;
})(args);
}
