// Stand-in for the DUB packages iopipe (buffer window + line range) and io (std.io's raw file descriptors), as dcat used them.
/*
 * DUB cannot reach its registry from this machine, so this module re-creates
 * the behaviour of what dcat took from iopipe (Steven Schveighoffer) and from
 * the io package iopipe reads through (Martin Nowak's std.io), following their
 * documented design; it is not their code.
 *
 *  - IOFile: an open file descriptor; read/write are single read(2)/write(2)
 *    calls, no stdio buffer (std.io.File).
 *  - BufferedInput: the buffer window (iopipe's `bufd`). `window` is the
 *    buffered data, `extend(n)` reads more bytes behind it and returns how
 *    many (0 at end of stream), `release(n)` drops n bytes from the front.
 *    As iopipe's BufferedInputSource.extend does, a request (0 = the optimal
 *    read size, 8 KiB) is raised to all the space the buffer has free
 *    (`max(request, avail)`), so each read(2) fills the buffer: iopipe's
 *    8 KiB first buffer is doubled to 16 KiB (its GC block expanded, at most
 *    2x) the first time a line crosses its end, and from then on each read
 *    asks for ~16 KiB, moving the live bytes to the front first. (Until
 *    2026-11-26 this stand-in read 8 KiB each time, twice as many reads as
 *    iopipe: issue 32.)
 *  - LineRange: `byLineRange` - each line is a slice of the window found with
 *    memchr; the window is extended when no '\n' is left, and each line is
 *    released once the range moves past it. With keepDelimiter = false the
 *    '\n' is stripped; `terminated` tells whether the line had one (false
 *    only for a last line without '\n'), so a copy can reproduce it exactly.
 */
module iopipe_lite;

import core.sys.posix.sys.uio : iovec, writev;
import core.stdc.errno : errno, EINTR;
import core.stdc.string : memchr, memmove;
import core.sys.posix.fcntl : open, O_RDONLY;
import core.sys.posix.unistd : close, read, write;
import std.exception : ErrnoException;
import std.string : toStringz;

/// A raw file descriptor (std.io.File).
struct IOFile
{
    int fd = -1;
    private bool owned;

    static IOFile open(string path)
    {
        int fd = .open(path.toStringz, O_RDONLY);
        if (fd < 0)
            throw new ErrnoException("cannot open " ~ path);
        return IOFile(fd, true);
    }

    static IOFile stdout()
    {
        return IOFile(1, false);
    }

    /// One read(2): the number of bytes read, 0 at end of file.
    size_t read(ubyte[] buf)
    {
        while (true)
        {
            auto n = .read(fd, buf.ptr, buf.length);
            if (n >= 0)
                return cast(size_t) n;
            if (errno != EINTR)
                throw new ErrnoException("read error");
        }
    }

    /// write(2) until all of `data` is out.
    void write(const(void)[] data)
    {
        auto p = cast(const(ubyte)[]) data;
        while (p.length > 0)
        {
            auto n = .write(fd, p.ptr, p.length);
            if (n < 0)
            {
                if (errno == EINTR)
                    continue;
                throw new ErrnoException("write error");
            }
            p = p[n .. $];
        }
    }

    /// std.io's File.write(buffers...): one writev(2) for all buffers (more only after a short write).
    void write(const(void)[] first, const(void)[] second)
    {
        iovec[2] iov = [iovec(cast(void*) first.ptr, first.length), iovec(cast(void*) second.ptr, second.length)];
        size_t i = 0;
        while (i < iov.length)
        {
            auto n = writev(fd, iov.ptr + i, cast(int)(iov.length - i));
            if (n < 0)
            {
                if (errno == EINTR)
                    continue;
                throw new ErrnoException("write error");
            }
            // skip what went out: whole buffers first, then part of the next
            for (; i < iov.length && n >= iov[i].iov_len; ++i)
                n -= iov[i].iov_len;
            if (i < iov.length)
            {
                iov[i].iov_base += n;
                iov[i].iov_len -= n;
            }
        }
    }

    void close()
    {
        if (owned && fd >= 0)
            .close(fd);
        fd = -1;
    }
}

/// The buffer window over an IOFile (iopipe's bufd).
struct BufferedInput
{
    enum size_t defaultReadSize = 8 * 1024;

    private IOFile _source;
    private ubyte[] _buffer;
    private size_t _start; // window = _buffer[_start .. _end]
    private size_t _end;

    this(IOFile source)
    {
        _source = source;
    }

    ubyte[] window()
    {
        return _buffer[_start .. _end];
    }

    /// Read more behind the window, as iopipe does: `request` (0 = the optimal 8 KiB) raised to all the
    /// free space of the buffer; the bytes read, 0 at end of stream.
    size_t extend(size_t request)
    {
        if (request == 0 || (request < defaultReadSize && _buffer.length == 0))
            request = defaultReadSize;
        else if (request > defaultReadSize && request > 2 * (_end - _start))
            request = defaultReadSize > 2 * (_end - _start) ? defaultReadSize : 2 * (_end - _start);
        immutable live = _end - _start;
        immutable avail = _buffer.length - live;
        if (request < avail)
            request = avail; // fill the buffer
        if (live == 0)
            _start = _end = 0;
        if (_buffer.length - _end < request)
        {
            if (_buffer.length >= live + request)
            {
                // moving the live data to the front makes room (iopipe copies it forward)
                memmove(_buffer.ptr, _buffer.ptr + _start, live);
                _start = 0;
                _end = live;
            }
            else
            {
                // iopipe first expands its GC block in place, by what is missing but to at most 2x; we
                // allocate and copy (once or twice a run); a block that cannot expand grows by >= 1.4x
                immutable maxLength = _buffer.length * 2 > 128 ? _buffer.length * 2 : 128;
                immutable missing = request - (_buffer.length - _end);
                size_t newLength = _buffer.length + (missing < maxLength - _buffer.length ? missing : maxLength - _buffer.length);
                if (_buffer.length == 0)
                    newLength = request;
                auto bigger = new ubyte[newLength];
                bigger[0 .. _end] = _buffer[0 .. _end];
                _buffer = bigger;
                request = _buffer.length - _end;
            }
        }
        immutable got = _source.read(_buffer[_end .. _end + request]);
        _end += got;
        return got;
    }

    /// Drop `n` bytes from the front of the window.
    void release(size_t n)
    {
        assert(n <= _end - _start);
        _start += n;
        if (_start == _end)
            _start = _end = 0;
    }
}

/// Lines of a BufferedInput, each a slice of its window (iopipe's byLineRange).
final class LineRange(bool keepDelimiter)
{
    private BufferedInput _input;
    private size_t _lineLength; // bytes of the current line in the window, with its '\n'
    private bool _terminated;
    private bool _empty;

    this(IOFile source)
    {
        _input = BufferedInput(source);
        nextLine();
    }

    bool empty() const
    {
        return _empty;
    }

    /// The current line; without its '\n' unless keepDelimiter.
    char[] front()
    {
        immutable n = (keepDelimiter || !_terminated) ? _lineLength : _lineLength - 1;
        return cast(char[]) _input.window[0 .. n];
    }

    /// Whether the current line ended with '\n' (false only for a last line without one).
    bool terminated() const
    {
        return _terminated;
    }

    void popFront()
    {
        _input.release(_lineLength);
        nextLine();
    }

    private void nextLine()
    {
        size_t scanned = 0; // window bytes known to hold no '\n'
        while (true)
        {
            auto w = _input.window;
            if (scanned < w.length)
            {
                auto p = cast(ubyte*) memchr(w.ptr + scanned, '\n', w.length - scanned);
                if (p !is null)
                {
                    _lineLength = (p - w.ptr) + 1;
                    _terminated = true;
                    return;
                }
                scanned = w.length;
            }
            if (_input.extend(0) == 0)
            {
                _lineLength = _input.window.length;
                _terminated = false;
                _empty = _lineLength == 0;
                return;
            }
        }
    }
}

/// `byLineRange!keepDelimiter` over a file descriptor.
auto byLineRange(bool keepDelimiter)(IOFile source)
{
    return new LineRange!keepDelimiter(source);
}
