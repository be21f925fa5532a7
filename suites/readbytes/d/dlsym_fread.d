// Strategy (original D #7): fread looked up at run time with dlopen("libc.so.6") + dlsym("fread") and called through that pointer to fill an own 1 KiB buffer; read(ubyte*) returns 1, or 0 at EOF.
import common;
import core.stdc.errno : errno;
import core.stdc.stdio : FILE, fclose, ferror, fopen;
import core.stdc.string : strerror;
import core.sys.posix.dlfcn : dlerror, dlopen, dlsym, RTLD_NOW;
import std.string : fromStringz, toStringz;

alias FreadFn = extern (C) size_t function(void* ptr, size_t size, size_t n, FILE* stream) nothrow @nogc;

/// fread as found in libc by the dynamic loader, not through the linker (looked up once, in the
/// first pass, so inside the timed passes as before).
FreadFn libcFread()
{
    static FreadFn found;   // thread-local: one lookup per program
    if (found !is null)
        return found;
    void* libc = dlopen("libc.so.6", RTLD_NOW);
    if (libc is null)
        fail("dlopen(libc.so.6): " ~ dlerror().fromStringz.idup);
    void* sym = dlsym(libc, "fread");
    if (sym is null)
        fail("dlsym(fread): " ~ dlerror().fromStringz.idup);
    found = cast(FreadFn) sym;
    return found;
}

struct FileReader
{
    private enum BUFFER_SIZE = 1024;
    private FreadFn freadFn;
    private string path;
    private FILE* file;
    private ubyte[BUFFER_SIZE] buffer;
    private ubyte* next;
    private ubyte* end;

    this(string path)
    {
        freadFn = libcFread();
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
        immutable n = freadFn(buffer.ptr, 1, BUFFER_SIZE, file);
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
