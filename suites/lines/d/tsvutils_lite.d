// Stand-in for the DUB package tsv-utils (module tsv_utils.common.utils): BufferedOutputRange and bufferedByLine, the two helpers dcat took from it, re-typed from their design.
/*
 * DUB cannot reach its registry from this machine, so this module re-creates
 * what dcat took from tsv-utils 2.1.2 (the version dub resolved when dcat's
 * last commit was made), following its design method by method, because each
 * method is a call or an inlined body in the compiled loop; it is
 * written here, not copied from the package.
 *
 *  - BufferedOutputRange!File: an output range over a File. Data goes into an
 *    Appender!(char[]) that reserves 11,264 bytes. put(string) appends, then
 *    maybeFlush: the buffer is written (File.rawWrite) when it holds >= 10,240
 *    bytes and ends with '\n', or holds >= 4 MiB, so a huge line cannot grow it
 *    forever; a put of "\n" or '\n' is appendln: append the newline, then
 *    flushIfFull (>= 10,240 bytes); put of another char appends it; put of
 *    anything else (ubyte[]) is append: std.range.put into the Appender (for
 *    ubyte[] into char[] that is Appender.put's element-by-element loop), then
 *    maybeFlush. The destructor flushes (rawWrite, even of nothing).
 *  - bufferedByLine!(keepTerminator): an input range of lines (slices of its own
 *    buffer, valid until popFront) read from a File with rawRead in 128 KiB
 *    blocks into a buffer of 128 KiB + 16 KiB. popFront finds the next '\n'
 *    with std.algorithm's find (memchr for bytes); when none is left and the
 *    File is not at its end, the partial line moves to the front
 *    (std.algorithm's copy), the buffer grows in 16 KiB steps until 128 KiB are
 *    free behind it, and blocks are read until a '\n' comes or the File ends.
 *    empty() asks the File itself (`_file.eof`, a locked feof(3) call) on every
 *    line, and popFront asks again when the buffer holds no '\n'.
 */
module tsvutils_lite;

import std.range : isOutputRange;
import std.stdio : File, isFileHandle;
import std.traits : isSomeChar, isSomeString, Unqual;
import std.typecons : Flag, No, Yes;

alias KeepTerminator = Flag!"keepTerminator";

/// Buffered output range over a File or an output range (tsv_utils.common.utils.BufferedOutputRange).
struct BufferedOutputRange(OutputTarget)
if (isFileHandle!(Unqual!OutputTarget) || isOutputRange!(Unqual!OutputTarget, char))
{
    import std.array : appender;

    alias C = char;

    private enum defaultReserveSize = 11_264;
    private enum defaultFlushSize = 10_240;
    private enum defaultMaxSize = 4_194_304;

    private OutputTarget target;
    private auto buffered = appender!(C[]);
    private immutable size_t _flushSize;
    private immutable size_t _maxSize;

    this(OutputTarget outputTarget, size_t flushSize = defaultFlushSize,
         size_t reserveSize = defaultReserveSize, size_t maxSize = defaultMaxSize)
    {
        target = outputTarget;
        _flushSize = flushSize;
        _maxSize = (flushSize <= maxSize) ? maxSize : flushSize;
        buffered.reserve(reserveSize);
    }

    ~this()
    {
        flush();
    }

    /// Write the buffer out (rawWrite for a File) and empty it.
    void flush()
    {
        static if (isFileHandle!OutputTarget)
            target.rawWrite(buffered.data);
        else
            target.put(buffered.data);
        buffered.clear;
    }

    /// Flush once the buffer holds flushSize bytes.
    bool flushIfFull()
    {
        immutable full = buffered.data.length >= _flushSize;
        if (full)
            flush();
        return full;
    }

    /// Flush a buffer full at flushSize that ends a line, or one at the maximum size.
    private bool maybeFlush()
    {
        immutable doFlush = buffered.data.length >= _flushSize &&
            (buffered.data[$ - 1] == '\n' || buffered.data.length >= _maxSize);
        if (doFlush)
            flush();
        return doFlush;
    }

    private void appendRaw(T)(T stuff)
    {
        import std.range : rangePut = put;

        rangePut(buffered, stuff);
    }

    /// Append, then maybeFlush.
    void append(T)(T stuff)
    {
        appendRaw(stuff);
        maybeFlush();
    }

    /// Append a newline, then flushIfFull.
    bool appendln()
    {
        appendRaw('\n');
        return flushIfFull();
    }

    /// The output range's put: a newline (char or "\n") is appendln, another char appended, the rest append.
    void put(T)(T stuff)
    {
        static if (isSomeChar!T)
        {
            if (stuff == '\n')
                appendln();
            else
                appendRaw(stuff);
        }
        else static if (isSomeString!T)
        {
            if (stuff == "\n")
                appendln();
            else
                append(stuff);
        }
        else
            append(stuff);
    }
}

/// Lines read from a File in 128 KiB blocks into an own buffer (tsv_utils.common.utils.bufferedByLine).
auto bufferedByLine(KeepTerminator keepTerminator = No.keepTerminator, Char = char,
                    ubyte terminator = '\n', size_t readSize = 1024 * 128, size_t growSize = 1024 * 16)
    (File file)
if (is(Char == char) || is(Char == ubyte))
{
    static assert(0 < growSize && growSize <= readSize);

    static final class LineReader
    {
        /* _buffer.length: all of the buffer; dataEnd: the end of what was read;
         * the current line: _buffer[lineBegin .. lineEnd]. */
        private File _file;
        private ubyte[] _buffer;
        private size_t lineBegin = 0;
        private size_t lineEnd = 0;
        private size_t dataEnd = 0;

        this(File f)
        {
            _file = f;
            _buffer = new ubyte[readSize + growSize];
        }

        /// The File at its end (a locked feof) and no line left.
        bool empty() const
        {
            return _file.eof && lineBegin == dataEnd;
        }

        Char[] front()
        {
            static if (keepTerminator == Yes.keepTerminator)
                return cast(Char[]) _buffer[lineBegin .. lineEnd];
            else
            {
                immutable end = (_buffer[lineEnd - 1] == terminator) ? lineEnd - 1 : lineEnd;
                return cast(Char[]) _buffer[lineBegin .. end];
            }
        }

        /// The next line: up to the next terminator in the buffer, else read until one comes (or the end).
        void popFront()
        {
            import std.algorithm : copy, find;
            import std.range.primitives : empty;

            lineBegin = lineEnd;

            // find: the rest from the first terminator on, or nothing; lineEnd is dataEnd when the
            // buffer holds no terminator and when it ends with one
            auto found = _buffer[lineBegin .. dataEnd].find(terminator);
            lineEnd = found.empty ? dataEnd : dataEnd - found.length + 1;

            if (found.empty && !_file.eof)
            {
                if (lineBegin > 0)
                {
                    // the partial line to the front of the buffer
                    immutable partial = dataEnd - lineBegin;
                    copy(_buffer[lineBegin .. dataEnd], _buffer[0 .. partial]);
                    lineBegin = 0;
                    lineEnd = dataEnd = partial;
                }

                do
                {
                    // grow by growSize steps until readSize is free behind the data
                    immutable free = _buffer.length - dataEnd;
                    if (free < readSize)
                    {
                        size_t growBy = growSize;
                        while (free + growBy < readSize)
                            growBy += growSize;
                        _buffer.length += growBy;
                    }

                    dataEnd += _file.rawRead(_buffer[dataEnd .. dataEnd + readSize]).length;

                    found = _buffer[lineEnd .. dataEnd].find(terminator);
                    lineEnd = found.empty ? dataEnd : dataEnd - found.length + 1;
                }
                while (found.empty && !_file.eof);
            }
        }
    }

    auto r = new LineReader(file);
    if (!r.empty)
        r.popFront;
    return r;
}
