// Stand-in for the DUB packages iopipe (bufd, assumeText, byLineRange) and io (std.io's File over a driver), re-typed from their design as dcat used them.
/*
 * DUB cannot reach its registry from this machine, so this module re-creates
 * what dcat took from iopipe 0.2.3 (Steven Schveighoffer) and from io 0.3.2
 * (Martin Nowak's std.io), the versions dub resolved when dcat's last commit
 * was made. It follows their design layer by layer, because each layer is a
 * call or a field access in the compiled loop (the seed-fidelity study: the earlier, flatter
 * stand-in took 7-38% fewer instructions a line than dcat built with the real
 * packages); it is written here, not copied from them.
 *
 * std.io:
 *  - Driver: an interface whose `shared` methods do the system calls; the
 *    thread's driver (`driver`) is a thread-local one if set, else a global
 *    SyncDriver made once. Every File operation is a call through it.
 *  - IOFile (std.io.File): an opaque handle and whether to close it. read is one
 *    read(2); write(bufs...) copies the slices into a temporary iovec array
 *    (four on the stack, malloc'd beyond) and makes one writev(2). As with
 *    std.io, a write returns the count and dcat does not look at it: a blocking
 *    write to a pipe, /dev/null or a file (short of a full disk) is never short,
 *    and a short one would show as a wrong answer in verification. (Finishing
 *    short writes cost 10 instructions a line here, 5% of iopipeByLineInIOOut.)
 *  - dcat holds its files in std.typecons.RefCounted (`File(path).refCounted`).
 *
 * iopipe:
 *  - AllocatedBuffer: a GC block (no pointers in it) with `released` and
 *    `valid` offsets; window = buffer[released .. valid]. extend(n) takes free
 *    space at the back, else moves the live bytes to the front, else expands
 *    the GC block in place (by at most 2x), else allocates a new block at least
 *    1.4x as big (the GC's good size) and copies.
 *  - BufferedInput (bufd): an extend asks for the optimal 8 KiB (or a capped
 *    request), raised to all the space the buffer has free, extends the buffer
 *    by that, reads into the new part with one read and gives back what the
 *    read did not fill.
 *  - CharWindow (assumeText: iopipe's ArrayCastPipe from ubyte to char): the
 *    same window as char[], extend and release passed through.
 *  - Delimited (delimitedText('\n')): each extend finds the next delimiter
 *    after `checked` with memchr (the delimiter is kept as UTF-8 code units and
 *    their count, so '\n' is checked as a sequence of one), extends the chain
 *    until one is found or the input ends, and counts the segments.
 *  - NoDelimLines (byLineRange!false): front is the window less the delimiter
 *    at its end; popFront releases the whole window and extends by one line.
 *    `terminated` says whether the line had its '\n' (iopipe hides that; dcat
 *    wrote a '\n' after every line, so the copy of a file without a final
 *    newline gained one: ours writes it back only where it was).
 */
module iopipe_lite;

import core.atomic : atomicLoad, cas, MemoryOrder;
import core.memory : GC;
import core.stdc.stdlib : free, malloc;
import core.stdc.string : memchr;
import core.sys.posix.fcntl : open, O_RDONLY;
import core.sys.posix.sys.uio : iovec, writev;
import core.sys.posix.unistd : close, read, write;
import std.exception : ErrnoException;
import std.typecons : RefCounted, RefCountedAutoInitialize;

// ---------------------------------------------------------------- std.io ----

/// A file as the driver sees it (std.io's OpaqueHandle: the descriptor in a pointer).
struct OpaqueHandle
{
    enum OpaqueHandle invalid = OpaqueHandle(cast(void*) -1);
    void* handle;
}

/// The system calls behind every IOFile (std.io.driver.Driver).
interface Driver
{
shared:
    OpaqueHandle createFile(const(char)[] path);
    OpaqueHandle fileFromHandle(int fd);
    void closeFile(OpaqueHandle f);
    size_t read(OpaqueHandle f, scope ubyte[] buf);
    size_t write(OpaqueHandle f, const scope ubyte[] buf);
    size_t write(OpaqueHandle f, const scope ubyte[][] bufs);
}

private int toFd(OpaqueHandle f) @trusted
{
    return cast(int) cast(size_t) f.handle;
}

/// The synchronous driver: one system call per operation (std.io.driver.sync.SyncDriver).
class SyncDriver : Driver
{
shared:
    override OpaqueHandle createFile(const(char)[] path) @trusted
    {
        import std.string : toStringz;

        immutable fd = .open(path.toStringz, O_RDONLY);
        if (fd == -1)
            throw new ErrnoException("cannot open " ~ path.idup);
        return OpaqueHandle(cast(void*) cast(size_t) fd);
    }

    override OpaqueHandle fileFromHandle(int fd) @trusted
    {
        return OpaqueHandle(cast(void*) cast(size_t) fd);
    }

    override void closeFile(OpaqueHandle f)
    {
        if (.close(toFd(f)) != 0)
            throw new ErrnoException("close failed");
    }

    override size_t read(OpaqueHandle f, scope ubyte[] buf) @trusted
    {
        immutable got = .read(toFd(f), buf.ptr, buf.length);
        if (got == -1)
            throw new ErrnoException("read failed");
        return got;
    }

    override size_t write(OpaqueHandle f, const scope ubyte[] buf) @trusted
    {
        immutable put = .write(toFd(f), buf.ptr, buf.length);
        if (put == -1)
            throw new ErrnoException("write failed");
        return put;
    }

    /// One writev(2) of all the buffers, their slices copied into a temporary iovec array.
    override size_t write(OpaqueHandle f, const scope ubyte[][] bufs) @trusted
    {
        auto vecs = IOVecs(bufs);
        immutable put = .writev(toFd(f), vecs.ptr, cast(int) vecs.length);
        if (put == -1)
            throw new ErrnoException("write failed");
        return put;
    }
}

/// iovecs for a list of slices: four on the stack, malloc'd beyond (std.io's TempIOVecs).
private struct IOVecs
{
    private enum iovec* onStack = cast(iovec*) size_t.max;
    private iovec* _ptr;
    private size_t _length;
    private iovec[4] _stack;

    @disable this();
    @disable this(this);

    this(const scope ubyte[][] bufs) @trusted nothrow
    {
        import core.exception : onOutOfMemoryError;

        if (bufs.length > _stack.length)
        {
            _ptr = cast(iovec*) malloc(bufs.length * iovec.sizeof);
            if (_ptr is null)
                onOutOfMemoryError();
        }
        else
            _ptr = _stack.ptr;
        foreach (i, b; bufs)
            _ptr[i] = iovec(cast(void*) b.ptr, b.length);
        if (_ptr is _stack.ptr)
            _ptr = onStack; // the struct may move: mark "on the stack", not its address
        _length = bufs.length;
    }

    ~this() @trusted nothrow
    {
        if (_ptr !is onStack)
            free(_ptr);
        _ptr = null;
    }

    inout(iovec)* ptr() inout return
    {
        return _ptr is onStack ? _stack.ptr : _ptr;
    }

    size_t length() const
    {
        return _length;
    }
}

private Driver _threadDriver;          // thread-local; null: the global one
private shared Driver _globalDriver;   // made on first use

/// The driver of this thread (std.io's `driver`).
@property shared(Driver) driver() nothrow @trusted
{
    if (auto d = _threadDriver)
        return cast(shared(Driver)) d;
    return globalDriver;
}

/// The process's driver: a SyncDriver, set once.
@property shared(Driver) globalDriver() nothrow @trusted
{
    static immutable Driver sync = new SyncDriver;
    auto d = atomicLoad!(MemoryOrder.raw)(_globalDriver);
    if (d is null)
    {
        cas(&_globalDriver, cast(shared(Driver)) null, cast(shared(Driver)) sync);
        d = atomicLoad!(MemoryOrder.raw)(_globalDriver);
    }
    return d;
}

/// An open file used through the driver (std.io.File); not copyable (dcat wraps it in RefCounted).
struct IOFile
{
    private OpaqueHandle f = OpaqueHandle.invalid;
    private bool closeOnDestroy;

    /// Open a file for reading.
    this(string path)
    {
        closeOnDestroy = true;
        f = driver.createFile(path);
    }

    /// An open descriptor (0, 1, 2), closed at the end only if takeOwnership.
    this(int fd, bool takeOwnership = false)
    {
        closeOnDestroy = takeOwnership;
        f = driver.fileFromHandle(fd);
    }

    @disable this(this);

    ~this()
    {
        if (closeOnDestroy)
            close();
    }

    void close()
    {
        if (f is OpaqueHandle.invalid)
            return;
        driver.closeFile(f);
        f = OpaqueHandle.invalid;
        closeOnDestroy = false;
    }

    /// One read: the bytes read, 0 at end of file.
    size_t read(scope ubyte[] buf)
    {
        return driver.read(f, buf);
    }

    /// One write: the bytes written.
    size_t write(const scope ubyte[] buf)
    {
        return driver.write(f, buf);
    }

    /// One writev of all the buffers: the bytes written.
    size_t write(const scope ubyte[][] bufs...)
    {
        return driver.write(f, bufs);
    }
}

/// An IOFile held by reference count, as dcat held its std.io files (`File(path).refCounted`).
alias SharedIOFile = RefCounted!(IOFile, RefCountedAutoInitialize.no);

// ---------------------------------------------------------------- iopipe ----

/// A GC buffer with a window of valid data (iopipe's AllocatedBuffer over GCNoPointerAllocator).
struct AllocatedBuffer
{
    private enum size_t initialLength = 128;
    private ubyte[] buffer;
    private size_t valid;
    private size_t released;

    void releaseFront(size_t elements)
    {
        released += elements;
    }

    void releaseBack(size_t elements)
    {
        valid -= elements;
    }

    ubyte[] window() @trusted
    {
        return buffer.ptr[released .. valid];
    }

    /// Free elements an extend can take without allocating.
    size_t avail()
    {
        return buffer.length - (valid - released);
    }

    size_t capacity()
    {
        return buffer.length;
    }

    /// Make `request` more elements valid behind the window: the number made valid, 0 if none.
    size_t extend(size_t request) @trusted
    {
        import std.experimental.allocator.gc_allocator : GCAllocator;

        immutable validElems = valid - released;
        if (validElems == 0)
            valid = released = 0;

        if (buffer.length - valid >= request)
        {
            valid += request; // free space at the back
            return request;
        }

        if (buffer.length - validElems >= request)
        {
            memmoveFront(validElems); // room once the live bytes are at the front
            valid = validElems + request;
            return request;
        }

        // grow: expand the block in place (to at most twice its size), else a new block
        immutable maxLength = buffer.length * 2 > initialLength ? buffer.length * 2 : initialLength;
        if (buffer.ptr)
        {
            void[] block = buffer;
            immutable missing = request - (buffer.length - valid);
            immutable want = maxLength - buffer.length < missing ? maxLength - buffer.length : missing;
            if (GCAllocator.instance.expand(block, want))
            {
                immutable newElems = buffer.length - valid + want;
                valid += newElems;
                buffer = cast(ubyte[]) block;
                return newElems;
            }
        }

        immutable oldLength = buffer.length;
        if (request > maxLength - validElems)
            request = maxLength - validElems;
        size_t newLength = validElems + request;
        if (newLength < oldLength * 14 / 10)
            newLength = oldLength * 14 / 10;
        if (newLength < initialLength)
            newLength = initialLength;
        newLength = GCAllocator.instance.goodAllocSize(newLength);
        auto p = cast(ubyte*) GC.malloc(newLength, GC.BlkAttr.NO_SCAN);
        if (p is null)
            return 0;
        auto bigger = p[0 .. newLength];
        if (validElems > 0)
            bigger[0 .. validElems] = buffer[released .. valid];
        valid = validElems + request;
        released = 0;
        buffer = bigger;
        return request;
    }

    private void memmoveFront(size_t validElems) @trusted
    {
        import core.stdc.string : memmove;

        memmove(buffer.ptr, buffer.ptr + released, validElems);
        released = 0;
    }
}

/// A buffered source (iopipe's bufd): the window over an AllocatedBuffer filled by dev.read.
struct BufferedInput(Source, size_t optimalReadSize = 8 * 1024)
{
    Source dev;
    AllocatedBuffer buffer;

    ubyte[] window()
    {
        return buffer.window;
    }

    void release(size_t elements)
    {
        buffer.releaseFront(elements);
    }

    /// Read more behind the window: the bytes read, 0 at end of input.
    size_t extend(size_t elements)
    {
        immutable oldLength = buffer.window.length;
        if (elements == 0 || (elements < optimalReadSize && buffer.capacity == 0))
            elements = optimalReadSize; // the optimal read, or the first
        else
        {
            // a request: at most twice what is buffered, or the optimal size
            immutable cap = optimalReadSize > oldLength * 2 ? optimalReadSize : oldLength * 2;
            if (elements > cap)
                elements = cap;
        }
        immutable free = buffer.avail();
        if (elements < free)
            elements = free; // use all the buffer has

        if (buffer.extend(elements) == 0)
            return 0;
        immutable got = dev.read(buffer.window[oldLength .. $]);
        buffer.releaseBack(buffer.window.length - oldLength - got);
        return got;
    }
}

/// `source.bufd`: a buffered input over a source with read(ubyte[]).
auto bufd(Source)(Source dev)
{
    return BufferedInput!Source(dev);
}

/// The window as char[] (iopipe's assumeText: ArrayCastPipe from ubyte to char, element for element).
struct CharWindow(Chain)
{
    Chain chain;

    char[] window() @trusted
    {
        return cast(char[]) chain.window;
    }

    size_t extend(size_t elements)
    {
        return chain.extend(elements);
    }

    void release(size_t elements)
    {
        chain.release(elements);
    }
}

/// `chain.assumeText`: the window read as UTF-8.
auto assumeText(Chain)(Chain chain)
{
    return CharWindow!Chain(chain);
}

/// The window extended one delimited segment at a time (iopipe's delimitedText).
struct Delimited(Chain)
{
    private Chain chain;
    private size_t checked;      // the window's first `checked` elements end with a delimiter (or the input)
    private size_t _segments;
    private bool endsWithDelim;
    private char[4] delimElems;  // the delimiter as UTF-8 code units
    private ubyte validDelimElems;

    this(Chain chain, dchar delim)
    {
        import std.utf : encode;

        this.chain = chain;
        validDelimElems = cast(ubyte) encode(delimElems, delim);
    }

    char[] window()
    {
        return chain.window[0 .. checked];
    }

    /// Code units of the delimiter at the end of the window (0 if it ends the input instead).
    ubyte delimTrailer()
    {
        return endsWithDelim ? validDelimElems : 0;
    }

    void release(size_t elements)
    {
        checked -= elements;
        chain.release(elements);
    }

    size_t segments()
    {
        return _segments;
    }

    /// Extend the window to the end of the next delimiter: the elements added.
    size_t extend(size_t elements = 0)
    {
        auto newChecked = checked;
        endsWithDelim = false;
        immutable ve = validDelimElems;
    search:
        do
        {
            auto w = chain.window;
            if (newChecked + ve > w.length)
                continue; // too few elements to hold a delimiter: read more

            bool firstUnit() @trusted
            {
                auto p = w.ptr + newChecked;
                auto hit = cast(char*) memchr(p, delimElems[0], w.length - newChecked - (ve - 1));
                if (hit is null)
                    return false;
                newChecked = hit + 1 - w.ptr;
                return true;
            }

            if (firstUnit())
            {
                if (ve == 1)
                {
                    endsWithDelim = true; // a one-unit delimiter ('\n'): found
                    break search;
                }
                // the delimiter's other code units
                size_t i = 1;
                while (i < ve && w[newChecked] == delimElems[i])
                {
                    ++newChecked;
                    ++i;
                }
                if (i == ve)
                {
                    endsWithDelim = true;
                    break search;
                }
            }
            else
                newChecked = w.length - (ve - 1);
        }
        while (chain.extend(elements) != 0);

        if (!endsWithDelim)
            newChecked = chain.window.length; // the input ended

        immutable previous = checked;
        if (checked != newChecked)
        {
            ++_segments;
            checked = newChecked;
        }
        return checked - previous;
    }
}

/// Lines of a text chain without their '\n' (iopipe's byLineRange!false, its NoDelimRange).
struct NoDelimLines(Chain)
{
    private Delimited!Chain chain;
    private ubyte delimElems;

    bool empty()
    {
        return chain.window.length == 0;
    }

    char[] front()
    {
        return chain.window[0 .. $ - delimElems];
    }

    /// Whether the current line ended with '\n' (false only for a last line without one).
    bool terminated()
    {
        return delimElems != 0;
    }

    void popFront()
    {
        chain.release(chain.window.length);
        chain.extend(0);
        delimElems = chain.delimTrailer;
    }
}

/// `chain.byLineRange`: the lines of a text chain, the first already read.
auto byLineRange(Chain)(Chain chain)
{
    auto r = NoDelimLines!Chain(Delimited!Chain(chain, '\n'));
    r.popFront();
    return r;
}

