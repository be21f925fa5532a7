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
    return run!((string path) => FileReader(path), (ref FileReader r, ref ubyte b) => r.read(b) == 1)(args);
}
