// Strategy (original D #7): fread looked up at run time with dlopen("libc.so.6") + dlsym("fread") and called through that pointer to fill an own 1 KiB buffer; read(ubyte*) returns 1, or 0 at EOF.
import common;
import core.stdc.errno : errno;
import core.stdc.stdio : FILE, fclose, ferror, fopen;
import core.stdc.string : strerror;
import core.sys.posix.dlfcn : dlerror, dlopen, dlsym, RTLD_NOW;
import std.string : fromStringz, toStringz;

alias FreadFn = extern (C) size_t function(void* ptr, size_t size, size_t n, FILE* stream) nothrow @nogc;

/// fread as found in libc by the dynamic loader, not through the linker.
FreadFn lookUpFread()
{
    void* libc = dlopen("libc.so.6", RTLD_NOW);
    if (libc is null)
        fail("dlopen(libc.so.6): " ~ dlerror().fromStringz.idup);
    void* sym = dlsym(libc, "fread");
    if (sym is null)
        fail("dlsym(fread): " ~ dlerror().fromStringz.idup);
    return cast(FreadFn) sym;
}

struct FileReader
{
    private enum BUFFER_SIZE = 1024;
    private FreadFn freadFn;
    private FILE* file;
    private ubyte[BUFFER_SIZE] buffer;
    private ubyte* next;
    private ubyte* end;

    this(string path, FreadFn freadFn)
    {
        this.freadFn = freadFn;
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
    auto freadFn = lookUpFread();
    foreach (pass; 0 .. job.passes)
    {
        auto reader = FileReader(job.path, freadFn);
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
