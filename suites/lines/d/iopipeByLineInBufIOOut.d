// Strategy (iopipeByLineInBufIOOut): iopipe-style buffer window, byLineRange without the newline; line and '\n' go into an own 11,264-byte buffer written to fd 1 with write(2) at >= 10,240 bytes (data that would overflow it goes out directly).
module iopipeByLineInBufIOOut;

import std.stdio : stderr;
import iopipe_lite : IOFile, byLineRange;

/// dcat's own output buffer over a raw file descriptor.
struct BufferedIOOutput
{
    enum size_t reserveSize = 11_264;
    enum size_t flushSize = 10_240;

    private IOFile _output;
    private ubyte[] _buffer;
    private size_t _length;

    this(IOFile output)
    {
        _output = output;
        _buffer = new ubyte[reserveSize];
    }

    void put(const(char)[] data)
    {
        if (_length + data.length > _buffer.length)
        {
            flush();
            if (data.length > _buffer.length)
            {
                _output.write(data);
                return;
            }
        }
        _buffer[_length .. _length + data.length] = cast(const(ubyte)[]) data;
        _length += data.length;
        if (_length >= flushSize)
            flush();
    }

    void flush()
    {
        _output.write(_buffer[0 .. _length]);
        _length = 0;
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
        auto output = BufferedIOOutput(IOFile.stdout());
        auto lines = byLineRange!false(IOFile.open(args[1]));
        for (; !lines.empty; lines.popFront())
        {
            output.put(lines.front);
            if (lines.terminated)
                output.put("\n");
        }
        output.flush();
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
