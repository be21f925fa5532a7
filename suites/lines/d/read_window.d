// Strategy (read-window, ours, not dcat's: the expert line copy): buffer window over read(2) (128 KiB reads, grows for long lines), memchr finds each line, lines memcpy'd into a 128 KiB output buffer that goes out with one write(2) when full; no std.stdio on the hot path.
module read_window;

import core.stdc.errno : errno, EINTR;
import core.stdc.stdlib : malloc, realloc;
import core.stdc.string : memchr, memcpy, memmove, strerror;
import core.sys.posix.fcntl : open, O_RDONLY;
import core.sys.posix.unistd : read, write, close;
import std.stdio : stderr;
import std.string : fromStringz, toStringz;

enum size_t readSize = 128 * 1024;
enum size_t outSize = 128 * 1024;

__gshared ubyte[outSize] outBuf;
__gshared size_t outLen;

bool writeAll(const(ubyte)* p, size_t n)
{
    while (n > 0)
    {
        immutable w = write(1, p, n);
        if (w < 0)
        {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += w;
        n -= cast(size_t) w;
    }
    return true;
}

bool flushOut()
{
    immutable ok = writeAll(outBuf.ptr, outLen);
    outLen = 0;
    return ok;
}

/// One line (with its '\n', if any) into the output buffer; a line longer than the buffer goes out directly.
bool putLine(const(ubyte)* p, size_t n)
{
    if (outLen + n > outSize)
    {
        if (!flushOut())
            return false;
        if (n > outSize)
            return writeAll(p, n);
    }
    memcpy(outBuf.ptr + outLen, p, n);
    outLen += n;
    return true;
}

int main(string[] args)
{
    if (args.length != 2)
    {
        stderr.writeln("usage: ", args[0], " FILE");
        return 2;
    }
    immutable fd = open(args[1].toStringz, O_RDONLY);
    if (fd < 0)
    {
        stderr.writeln(args[1], ": ", strerror(errno).fromStringz);
        return 1;
    }
    size_t cap = 2 * readSize;
    auto buf = cast(ubyte*) malloc(cap);
    if (buf is null)
    {
        stderr.writeln("out of memory");
        return 1;
    }
    size_t start = 0, end = 0; // the window is buf[start .. end]
    size_t scanned = 0;        // buf[start .. scanned] holds no '\n'
    bool eof = false;
    for (;;)
    {
        auto nl = scanned < end ? cast(const(ubyte)*) memchr(buf + scanned, '\n', end - scanned) : null;
        if (nl !is null)
        {
            immutable len = cast(size_t)(nl - (buf + start)) + 1;
            if (!putLine(buf + start, len))
                goto writeError;
            start += len;
            scanned = start;
            continue;
        }
        scanned = end;
        if (eof)
            break;
        // No '\n' left: move the partial line to the front, grow if a read would not fit.
        if (start > 0)
        {
            memmove(buf, buf + start, end - start);
            end -= start;
            scanned -= start;
            start = 0;
        }
        if (cap - end < readSize)
        {
            cap *= 2;
            auto bigger = cast(ubyte*) realloc(buf, cap);
            if (bigger is null)
            {
                stderr.writeln("out of memory");
                return 1;
            }
            buf = bigger;
        }
        immutable r = read(fd, buf + end, readSize);
        if (r < 0)
        {
            if (errno == EINTR)
                continue;
            stderr.writeln(args[1], ": ", strerror(errno).fromStringz);
            return 1;
        }
        if (r == 0)
            eof = true;
        end += cast(size_t) r;
    }
    // A last line without '\n' is copied as it is.
    if (!putLine(buf + start, end - start) || !flushOut())
        goto writeError;
    close(fd);
    return 0;
writeError:
    stderr.writeln("write error: ", strerror(errno).fromStringz);
    return 1;
}
