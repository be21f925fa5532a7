// Strategy (original D #5): std.mmfile.MmFile maps the file; int read() walks a direct pointer through the mapped slice, -1 at EOF.
import common;
import std.file : getSize;
import std.mmfile : MmFile;

struct MappedReader
{
    private MmFile mapping;
    private const(ubyte)* next;
    private const(ubyte)* end;

    this(string path)
    {
        try
        {
            // mmap(2) refuses a length of 0: an empty file has nothing to map.
            if (getSize(path) == 0)
                return;
            mapping = new MmFile(path);   // read-only, the whole file
        }
        catch (Exception e)
            fail("cannot map " ~ path ~ ": " ~ e.msg);
        const bytes = cast(const(ubyte)[]) mapping[];
        next = bytes.ptr;
        end = bytes.ptr + bytes.length;
    }

    /// The next byte (0..255), or -1 at EOF.
    int read()
    {
        if (next == end)
            return -1;
        return *next++;
    }

    /// Unmaps now rather than whenever the GC finalizes the MmFile.
    void close()
    {
        if (mapping !is null)
            destroy(mapping);
        next = end = null;
    }
}

int main(string[] args)
{
    return run!((string path) => MappedReader(path), (ref MappedReader r, ref ubyte b) {
        immutable c = r.read();   // the byte 0..255, or -1 at EOF
        b = cast(ubyte) c;
        return c != -1;
    })(args);
}
