// Strategy (dcat's ten tests in one program, `-t NAME` picks one, as the seed's dcat): each test a different way to copy FILE (or "-", stdin) to stdout line by line with Phobos, iopipe, std.io and tsv-utils.
/*
 * Re-typed from the design of dcat (github.com/jondegenhardt/dcat-perf,
 * source/app.d at c6290e7), the seed's program, not copied: one program whose
 * tests are functions (useByLineInRawOut, ...), chosen by `-t NAME` (getopt;
 * `--names` lists them), each given the file name and, for the five that write
 * to tsv-utils' BufferedOutputRange, the one range that dcat() makes over
 * stdout before it picks a test. It is one program, not ten, because that is
 * what the compiler optimises: with LTO and PGO, helpers that several tests
 * call (BufferedOutputRange.put and append, the bufferedByLine reader) stay
 * out of line in dcat's binary, and a program of one test inlines them
 * (the seed-fidelity study: up to 21% fewer instructions a line than dcat).
 *
 * The DUB packages dcat used come from iopipe_lite.d (iopipe and io) and
 * tsvutils_lite.d (tsv-utils), Phobos only (their headers say how).
 *
 * One departure: the four iopipe tests write '\n' after a line only where the
 * input had one (iopipe's byLineRange drops it; dcat put one after every line,
 * so its copy of a file without a final newline gained one).
 *
 * The tests (input -> output):
 *   byLineInRawOut          File.byLine(Yes.keepTerminator) -> stdout.write(line)
 *   byLineInBufOut          File.byLine(Yes.keepTerminator) -> BufferedOutputRange.put(line)
 *   bufferedByLineInBufOut  tsv-utils' bufferedByLine!(Yes.keepTerminator) -> BufferedOutputRange.put(line)
 *   iopipeByLineInRawOut    iopipe bufd.assumeText.byLineRange -> writeln(line)
 *   iopipeByLineInBufOut    iopipe byLineRange -> BufferedOutputRange.put(line), put('\n')
 *   iopipeByLineInIOOut     iopipe byLineRange -> std.io File.write(line, "\n"): one writev per line
 *   iopipeByLineInBufIOOut  iopipe byLineRange -> dcat's BufferedIOStdout (std.io writes of ~10 KiB)
 *   byChunkInBufOut         File.byChunk(128 KiB stack buffer) -> BufferedOutputRange.append(chunk), flushIfFull
 *   byChunkInRawOut         File.byChunk(128 KiB) -> stdout.rawWrite(chunk)
 *   byChunkInByLineBufOut   File.byChunk(128 KiB stack buffer), splitter('\n') -> put('\n') between pieces, put(piece)
 */
module dcat;

import std.stdio;
import std.typecons : No, Yes;
import iopipe_lite : IOFile, SharedIOFile, assumeText, bufd, byLineRange;
import tsvutils_lite : BufferedOutputRange, bufferedByLine;

/// dcat's tests, in its order.
enum DCatTest
{
    byLineInRawOut,
    byLineInBufOut,
    bufferedByLineInBufOut,
    iopipeByLineInRawOut,
    iopipeByLineInBufOut,
    iopipeByLineInIOOut,
    iopipeByLineInBufIOOut,
    byChunkInBufOut,
    byChunkInRawOut,
    byChunkInByLineBufOut,
}

// As dcat: the GC does not sweep at exit.
extern (C) __gshared string[] rt_options = ["gcopt=cleanup:none"];

int main(string[] args)
{
    import std.getopt : config, getopt;
    import std.traits : EnumMembers;

    auto test = DCatTest.byLineInRawOut;
    bool namesWanted = false;
    try
    {
        getopt(args, config.caseSensitive, "t|test", &test, "n|names", &namesWanted);
    }
    catch (Exception e)
    {
        stderr.writeln("dcat: ", e.msg);
        return 2;
    }
    if (namesWanted)
    {
        writefln("%(%s %)", [EnumMembers!DCatTest]);
        return 0;
    }
    try
        dcat(test, args[1 .. $]);
    catch (Exception e)
    {
        stderr.writeln("dcat: ", e.msg);
        return 1;
    }
    return 0;
}

/// Run one test on the first input file ("-" or none: stdin).
void dcat(DCatTest test, string[] inputFiles)
{
    auto bufferedOutput = BufferedOutputRange!(typeof(stdout))(stdout);
    auto filename = inputFiles.length > 0 ? inputFiles[0] : "-";

    final switch (test)
    {
    case DCatTest.byLineInRawOut:
        useByLineInRawOut(filename);
        break;
    case DCatTest.byLineInBufOut:
        useByLineInBufOut(filename, bufferedOutput);
        break;
    case DCatTest.bufferedByLineInBufOut:
        useBufferedByLineInBufOut(filename, bufferedOutput);
        break;
    case DCatTest.iopipeByLineInRawOut:
        useIopipeByLineInRawOut(filename);
        break;
    case DCatTest.iopipeByLineInBufOut:
        useIopipeByLineInBufOut(filename, bufferedOutput);
        break;
    case DCatTest.iopipeByLineInIOOut:
        useIopipeByLineInIOOut(filename);
        break;
    case DCatTest.iopipeByLineInBufIOOut:
        useIopipeByLineInBufIOOut(filename);
        break;
    case DCatTest.byChunkInRawOut:
        useByChunkInRawOut(filename);
        break;
    case DCatTest.byChunkInBufOut:
        useByChunkInBufOut(filename, bufferedOutput);
        break;
    case DCatTest.byChunkInByLineBufOut:
        useByChunkInByLineBufOut(filename, bufferedOutput);
        break;
    }
}

void useByLineInRawOut(string filename)
{
    auto inputStream = (filename == "-") ? stdin : File(filename);
    foreach (line; inputStream.byLine(Yes.keepTerminator))
        stdout.write(line);
}

void useByLineInBufOut(OutputRange)(string filename, auto ref OutputRange outputStream)
{
    auto inputStream = (filename == "-") ? stdin : File(filename);
    foreach (line; inputStream.byLine(Yes.keepTerminator))
        outputStream.put(line);
}

void useBufferedByLineInBufOut(OutputRange)(string filename, auto ref OutputRange outputStream)
{
    auto inputStream = (filename == "-") ? stdin : File(filename);
    foreach (ref line; inputStream.bufferedByLine!(Yes.keepTerminator))
        outputStream.put(line);
}

void useIopipeByLineInRawOut(string filename)
{
    auto inputStream = (filename == "-") ? SharedIOFile(0) : SharedIOFile(filename);
    for (auto lines = inputStream.bufd.assumeText.byLineRange; !lines.empty; lines.popFront())
    {
        auto line = lines.front;
        if (lines.terminated) // ours: '\n' only where the input had it
            writeln(line);
        else
            stdout.rawWrite(line); // (not write(line): a second caller of File.write!(char[]) keeps it out of line)
    }
}

void useIopipeByLineInBufOut(OutputRange)(string filename, auto ref OutputRange outputStream)
{
    auto inputStream = (filename == "-") ? SharedIOFile(0) : SharedIOFile(filename);
    for (auto lines = inputStream.bufd.assumeText.byLineRange; !lines.empty; lines.popFront())
    {
        auto line = lines.front;
        outputStream.put(line);
        if (lines.terminated) // ours: '\n' only where the input had it
            outputStream.put('\n');
    }
}

void useIopipeByLineInIOOut(string filename)
{
    auto inputStream = (filename == "-") ? SharedIOFile(0) : SharedIOFile(filename);
    auto ioStdout = SharedIOFile(1);
    for (auto lines = inputStream.bufd.assumeText.byLineRange; !lines.empty; lines.popFront())
    {
        auto newline = "\n"[0 .. lines.terminated]; // ours: '\n' only where the input had it
        ioStdout.write(cast(const(ubyte)[]) lines.front, cast(const(ubyte)[]) newline);
    }
}

void useIopipeByLineInBufIOOut(string filename)
{
    auto inputStream = (filename == "-") ? SharedIOFile(0) : SharedIOFile(filename);
    auto outputStream = BufferedIOStdout();
    for (auto lines = inputStream.bufd.assumeText.byLineRange; !lines.empty; lines.popFront())
    {
        auto line = lines.front;
        outputStream.put(line);
        if (lines.terminated) // ours: '\n' only where the input had it
            outputStream.put('\n');
    }
}

void useByChunkInRawOut(string filename)
{
    auto ifile = (filename == "-") ? stdin : File(filename);
    foreach (ref c; ifile.byChunk(1024 * 128))
        stdout.rawWrite(c);
}

void useByChunkInBufOut(BufferedOutput)(string filename, auto ref BufferedOutput outputStream)
{
    ubyte[1024 * 128] fileRawBuf;
    auto ifile = (filename == "-") ? stdin : File(filename);
    foreach (ref ubyte[] buffer; ifile.byChunk(fileRawBuf))
    {
        outputStream.append(buffer);
        outputStream.flushIfFull;
    }
    outputStream.flush;
}

void useByChunkInByLineBufOut(OutputRange)(string filename, auto ref OutputRange outputStream)
{
    import std.algorithm : splitter;

    ubyte[1024 * 128] fileRawBuf;
    auto ifile = (filename == "-") ? stdin : File(filename);
    foreach (ref ubyte[] buffer; ifile.byChunk(fileRawBuf))
    {
        // A chunk's last piece is the start of a line that the next chunk's first piece continues (no '\n'
        // goes between them), and a chunk that ends with '\n' ends with an empty piece: the copy is
        // byte-identical, lines across chunks too.
        bool first = true;
        foreach (ref line; buffer.splitter('\n'))
        {
            if (first)
                first = false;
            else
                outputStream.put('\n');
            outputStream.put(line);
        }
    }
}

/// dcat's own buffered standard output over std.io (its BufferedIOStdout!ubyte): an Appender that reserves
/// 11,264 bytes, written at >= 10,240; a string that would overflow it goes out with it in one writev.
struct BufferedIOStdout
{
    import std.array : Appender;

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
