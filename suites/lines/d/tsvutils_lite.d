// Stand-in for the DUB package tsv-utils (module tsv_utils.common.utils): BufferedOutputRange and bufferedByLine, the two helpers dcat took from it.
/*
 * DUB cannot reach its registry from this machine, so this module re-creates
 * the behaviour dcat relied on, from the package's documented design (it is
 * not the package's code):
 *
 *  - BufferedOutputRange: an output range over a File. Data is appended to an
 *    Appender that reserves 11,264 bytes; after a string is put, the buffer is
 *    written to the File when it holds >= 10,240 bytes and ends with '\n' (or
 *    holds >= 4 MiB, so a huge line cannot grow it forever); after a single
 *    '\n' char is put, when it holds >= 10,240 bytes. The destructor flushes.
 *    append(stuff) puts any range into the Appender with std.range.put (for
 *    ubyte[] into char[] Appender.put takes its element-by-element loop, as
 *    `char[] = ubyte[]` slice copy does not compile) and
 *    then flushes by the same rule as a string put; put(ubyte[]) goes through
 *    append, as tsv-utils' put does for anything that is not a char or string.
 *  - bufferedByLine: an input range of lines read from a File with rawRead in
 *    128 KiB blocks into its own buffer (initially 128 KiB + 16 KiB). A line
 *    is a slice of that buffer, valid until popFront. When no '\n' is left,
 *    the partial line moves to the front, the buffer grows in 16 KiB steps
 *    until 128 KiB are free behind it, and the next block is read. As in
 *    tsv-utils 1.4.1, empty() asks the File itself (`_file.eof`, a locked
 *    feof(3) call) on every line rather than a cached flag.
 */
module tsvutils_lite;

import core.stdc.string : memchr;
import std.array : Appender, appender;
import std.stdio : File;
import std.typecons : Flag, Yes, No;

alias KeepTerminator = Flag!"keepTerminator";

/// Buffered output range over a File (tsv_utils.common.utils.BufferedOutputRange).
struct BufferedOutputRange
{
    enum size_t defaultReserveSize = 11_264;
    enum size_t defaultFlushSize = 10_240;
    enum size_t defaultMaxSize = 4_194_304;

    private File _file;
    private Appender!(char[]) _buffer;
    private size_t _flushSize;
    private size_t _maxSize;

    @disable this();
    @disable this(this); // a copy would flush the same data twice

    this(File file, size_t flushSize = defaultFlushSize,
         size_t reserveSize = defaultReserveSize, size_t maxSize = defaultMaxSize)
    {
        _file = file;
        _flushSize = flushSize;
        _maxSize = maxSize >= flushSize ? maxSize : flushSize;
        _buffer = appender!(char[]);
        _buffer.reserve(reserveSize);
    }

    ~this()
    {
        flush();
    }

    void flush()
    {
        if (_buffer.data.length > 0)
            _file.rawWrite(_buffer.data);
        _buffer.clear();
    }

    bool flushIfFull()
    {
        immutable full = _buffer.data.length >= _flushSize;
        if (full)
            flush();
        return full;
    }

    /// A string: flush once the buffer is full and ends a line (or is at the maximum).
    void put(const(char)[] s)
    {
        _buffer.put(s);
        auto data = _buffer.data;
        if (data.length >= _flushSize && (data[$ - 1] == '\n' || data.length >= _maxSize))
            flush();
    }

    /// Anything else (e.g. ubyte[]): std.range.put into the Appender, then the string rule above.
    void append(T)(T stuff)
    {
        import std.range : rangePut = put;

        rangePut(_buffer, stuff);
        auto data = _buffer.data;
        if (data.length >= _flushSize && (data[$ - 1] == '\n' || data.length >= _maxSize))
            flush();
    }

    void put(const(ubyte)[] s)
    {
        append(s);
    }

    /// A single char: a '\n' may flush a full buffer.
    void put(char c)
    {
        _buffer.put(c);
        if (c == '\n')
            flushIfFull();
    }
}

/// Line range over a File with its own read buffer (tsv_utils.common.utils.bufferedByLine).
final class BufferedByLine(KeepTerminator keepTerminator, size_t readSize = 128 * 1024,
                           size_t growSize = 16 * 1024)
{
    private File _file;
    private ubyte[] _buffer;
    private size_t _lineStart; // the current line is _buffer[_lineStart .. _lineEnd]
    private size_t _lineEnd;
    private size_t _dataEnd;   // _buffer[0 .. _dataEnd] holds data read from the file
    private bool _eof;

    this(File file)
    {
        _file = file;
        _buffer = new ubyte[readSize + growSize];
        findLineEnd();
    }

    /// As tsv-utils 1.4.1: `_file.eof` (std.stdio's, a locked feof(3) call) on every line.
    bool empty() const
    {
        return _file.eof && _lineStart == _dataEnd;
    }

    char[] front()
    {
        static if (keepTerminator)
            immutable end = _lineEnd;
        else
            immutable end = (_lineEnd > _lineStart && _buffer[_lineEnd - 1] == '\n') ? _lineEnd - 1 : _lineEnd;
        return cast(char[]) _buffer[_lineStart .. end];
    }

    void popFront()
    {
        _lineStart = _lineEnd;
        findLineEnd();
    }

    /* Set _lineEnd just past the next '\n' after _lineStart, reading blocks as needed;
     * at the end of the file a last line without '\n' ends at _dataEnd. */
    private void findLineEnd()
    {
        size_t searchFrom = _lineStart;
        while (true)
        {
            if (searchFrom < _dataEnd)
            {
                auto p = cast(ubyte*) memchr(_buffer.ptr + searchFrom, '\n', _dataEnd - searchFrom);
                if (p !is null)
                {
                    _lineEnd = (p - _buffer.ptr) + 1;
                    return;
                }
            }
            if (_eof)
            {
                _lineEnd = _dataEnd;
                return;
            }
            /* No '\n' left: move the partial line to the front of the buffer. */
            if (_lineStart > 0)
            {
                immutable remaining = _dataEnd - _lineStart;
                import core.stdc.string : memmove;
                memmove(_buffer.ptr, _buffer.ptr + _lineStart, remaining);
                _lineStart = 0;
                _dataEnd = remaining;
            }
            searchFrom = _dataEnd;
            /* Grow in growSize steps until a full block fits behind the data. */
            immutable available = _buffer.length - _dataEnd;
            if (available < readSize)
            {
                size_t growBy = growSize;
                while (available + growBy < readSize)
                    growBy += growSize;
                _buffer.length += growBy;
            }
            immutable got = _file.rawRead(_buffer[_dataEnd .. _dataEnd + readSize]).length;
            _dataEnd += got;
            if (got < readSize && _file.eof)
                _eof = true;
        }
    }
}

/// `bufferedByLine!(Yes.keepTerminator)(file)` as in tsv-utils.
auto bufferedByLine(KeepTerminator keepTerminator = No.keepTerminator)(File file)
{
    return new BufferedByLine!keepTerminator(file);
}
