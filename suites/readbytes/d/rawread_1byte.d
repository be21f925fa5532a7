// Strategy: a 1-byte File.rawRead on a libc-buffered std.stdio.File, one locked fread call per byte (what std.stream.BufferedFile.read(ubyte[1]) becomes in today's Phobos).
import common;
import std.exception : ErrnoException;
import std.stdio : File;

File openFile(string path)
{
    try
        return File(path, "rb");   // a C FILE*, buffered by libc
    catch (ErrnoException e)
        fail(e.msg);
    assert(0);
}

int main(string[] args)
{
    // read() delivers one byte: rawRead returns the slice it filled, empty at EOF.
    return run!(openFile, (ref File file, ref ubyte b) => file.rawRead((&b)[0 .. 1]).length == 1)(args);
}
