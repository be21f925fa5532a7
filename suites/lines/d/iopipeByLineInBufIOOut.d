// Strategy (iopipeByLineInBufIOOut): as dcat, iopipe's bufd.assumeText.byLineRange over a RefCounted std.io File; line and '\n' put into dcat's BufferedIOStdout (an Appender reserving 11,264 bytes, written to fd 1 with std.io at >= 10,240; a line that would overflow it goes out with the buffer in one writev).
module iopipeByLineInBufIOOut;

import std.array : Appender, appender;
import std.stdio : stderr;
import iopipe_lite : IOFile, SharedIOFile, assumeText, bufd, byLineRange;

/// dcat's own buffered standard output over std.io (its BufferedIOStdout!ubyte), as it wrote it.
struct BufferedIOStdout
{
    private enum reserveSize = 11_264;
    private enum flushSize = 10_240;

    private IOFile _ioStdout;
    private Appender!(ubyte[]) _buffer;

    static BufferedIOStdout opCall()
    {
        BufferedIOStdout x;
        x._ioStdout = IOFile(1);
        x._buffer.reserve(reserveSize);
        return x;
    }

    ~this()
    {
        flush();
    }

    private void flush()
    {
        if (_buffer.data.length > 0)
        {
            _ioStdout.write(_buffer.data);
            _buffer.clear;
        }
    }

    /// The buffer and `stuff` in one write (a line too long for the buffer).
    private void appendFlush(T)(auto ref T stuff)
    {
        if (_buffer.data.length > 0)
        {
            _ioStdout.write(_buffer.data, cast(const(ubyte)[]) stuff);
            _buffer.clear;
        }
        else
            _ioStdout.write(cast(const(ubyte)[]) stuff);
    }

    private void append(T)(auto ref T stuff)
    {
        import std.range : rangePut = put;

        static if (is(T : const(char)[]))
            rangePut(_buffer, cast(const(ubyte)[]) stuff);
        else static if (is(T == char))
            rangePut(_buffer, cast(ubyte) stuff);
        else
            rangePut(_buffer, stuff);
    }

    /// A string: out with the buffer if it would overflow it, else appended (and the buffer written at
    /// >= 10,240 bytes); a char: appended.
    void put(T)(auto ref T stuff)
    if (is(T : const(char)[]) || is(T : const(ubyte)[]) || is(T : char) || is(T : ubyte))
    {
        static if (is(T : const(char)[]) || is(T : const(ubyte)[]))
        {
            if (_buffer.data.length + stuff.length > reserveSize)
                appendFlush(stuff);
            else
            {
                append(stuff);
                if (_buffer.data.length >= flushSize)
                    flush;
            }
        }
        else
        {
            append(stuff);
            if (_buffer.data.length >= flushSize)
                flush;
        }
    }
}

/// dcat's useIopipeByLineInBufIOOut.
void useIopipeByLineInBufIOOut(string filename)
{
    auto inputStream = SharedIOFile(filename);
    auto outputStream = BufferedIOStdout();
    auto lines = inputStream.bufd.assumeText.byLineRange;
    for (; !lines.empty; lines.popFront())
    {
        auto line = lines.front;
        outputStream.put(line);
        if (lines.terminated) // dcat put '\n' after every line, a last one without it too
            outputStream.put('\n');
    }
}

int main(string[] args)
{
    if (args.length != 2)
    {
        stderr.writeln("usage: ", args[0], " FILE");
        return 2;
    }
    try
    {
        useIopipeByLineInBufIOOut(args[1]);
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
