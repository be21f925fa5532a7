// Strategy (original D #1): std.stream.BufferedFile.read(ubyte[1]): a virtual readBlock() per byte copies it out of the stream's own 8 KiB buffer, refilled by read(2).
/*
 * std.stream was removed from Phobos (deprecated in 2.070, gone in 2.075), so this file stands in
 * for it, as tsvutils_lite stands in for tsv-utils: the same design, cut to what the original
 * program used. A Stream's read(ubyte[]) calls the virtual readBlock(); BufferedStream (a
 * FilterStream over an unbuffered File stream) keeps its own 8 KiB buffer and answers each
 * readBlock by copying out of it, refilling it with one readBlock of the source stream (read(2)).
 * Every byte therefore costs a call to Stream.read, a virtual call and a slice copy, and, as in
 * std.stream, readBlock's readable check and (without -release) BufferedStream's invariant on entry
 * and exit. Checked against std.stream itself (dlang/undeaD's copy, the seed's program built
 * with it): without those two checks this stand-in took 13 instructions a byte fewer under gdc -O3
 * and 2 fewer under ldc2 -O3 -release (docs/results/2026-11-26-seed-fidelity).
 */
import common;
import core.stdc.errno : EINTR, errno;
import core.stdc.string : strerror;
import core.sys.posix.fcntl : O_RDONLY, open;
import core.sys.posix.unistd : posixClose = close, posixRead = read;
import std.string : fromStringz, toStringz;

/// std.stream.Stream, reading side: read() goes through the virtual readBlock().
abstract class Stream
{
    bool readable = false;   // std.stream's: set from the source stream, checked by every readBlock

    /// std.stream's check at the start of every readBlock.
    final protected void assertReadable()
    {
        if (!readable)
            fail("stream is not readable");
    }

    /// Reads up to buffer.length bytes, returns how many (0 at the end of the stream).
    abstract size_t readBlock(void* buffer, size_t size);

    /// Reads up to buffer.length bytes into buffer and returns the number read (std.stream's read(ubyte[])).
    size_t read(ubyte[] buffer)
    {
        return readBlock(buffer.ptr, buffer.length);
    }

    abstract void close();
}

/// std.stream.File: an unbuffered stream over a file descriptor.
class FileStream : Stream
{
    private int fd = -1;
    private string path;

    this(string path)
    {
        this.path = path;
        fd = open(path.toStringz, O_RDONLY);
        if (fd < 0)
            fail("cannot open " ~ path ~ ": " ~ strerror(errno).fromStringz.idup);
        readable = true;
    }

    override size_t readBlock(void* buffer, size_t size)
    {
        for (;;)
        {
            immutable n = posixRead(fd, buffer, size);
            if (n >= 0)
                return n;
            if (errno != EINTR)
                fail("read error on " ~ path ~ ": " ~ strerror(errno).fromStringz.idup);
        }
    }

    override void close()
    {
        if (fd >= 0)
            posixClose(fd);
        fd = -1;
    }
}

/// std.stream.BufferedStream's read side: its own buffer (8 KiB by default) in front of a source stream.
class BufferedStream : Stream
{
    enum size_t DefaultBufferSize = 8192;
    private Stream source;
    private ubyte[] buffer;
    private size_t bufferCurPos;      // the next byte of buffer to hand out
    private size_t bufferLen;         // the bytes of buffer that are valid
    private size_t bufferSourcePos;   // where in buffer the source stream's position is

    // std.stream's, checked on entry to and exit from every public method unless compiled -release
    invariant
    {
        assert(bufferSourcePos <= bufferLen);
        assert(bufferCurPos <= bufferLen);
        assert(bufferLen <= buffer.length);
    }

    this(Stream source, size_t bufferSize = DefaultBufferSize)
    {
        this.source = source;
        buffer = new ubyte[bufferSize];
        readable = source.readable;
    }

    /// As std.stream's: copy from the buffer while it has the data, else refill it once.
    override size_t readBlock(void* result, size_t len)
    {
        if (len == 0)
            return 0;
        assertReadable();
        auto outbuf = cast(ubyte*) result;
        if (bufferCurPos + len < bufferLen)
        {
            // the buffer holds all the data: copy it
            outbuf[0 .. len] = buffer[bufferCurPos .. bufferCurPos + len];
            bufferCurPos += len;
            return len;
        }
        size_t readsize = bufferLen - bufferCurPos;
        if (readsize > 0)
        {
            // the buffer holds some of it: copy what is left
            outbuf[0 .. readsize] = buffer[bufferCurPos .. bufferLen];
            outbuf += readsize;
            bufferCurPos += readsize;
            len -= readsize;
        }
        bufferSourcePos = bufferCurPos = bufferLen = 0;   // std.stream's flush(): the buffer is empty now
        if (len >= buffer.length)
        {
            // too big for the buffer: straight into the caller's memory
            readsize += source.readBlock(outbuf, len);
        }
        else
        {
            // a new block into the buffer, then the part asked for
            bufferLen = source.readBlock(buffer.ptr, buffer.length);
            bufferSourcePos = bufferLen;
            if (bufferLen < len)
                len = bufferLen;
            outbuf[0 .. len] = buffer[0 .. len];
            bufferCurPos = len;
            readsize += len;
        }
        return readsize;
    }

    override void close()
    {
        source.close();
    }
}

/// std.stream.BufferedFile: a BufferedStream over a File stream.
class BufferedFile : BufferedStream
{
    this(string path)
    {
        super(new FileStream(path));
    }
}

int main(string[] args)
{
    // the original's loop: read(ubyte[1]) until it returns 0
    return run!((string path) => new BufferedFile(path),
                (BufferedFile stream, ref ubyte b) => stream.read((&b)[0 .. 1]) == 1)(args);
}
