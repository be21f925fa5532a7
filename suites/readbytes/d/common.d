// Shared by every D readbytes variant: argument parsing, errors, the timed passes loop and the result line.
module common;

import core.stdc.stdlib : exit;
import core.time : MonoTime;
import std.conv : ConvException, to;
import std.exception : ErrnoException;
import std.stdio : stderr, stdout;

/// The job as given on the command line: `prog FILE MODE PASSES`.
struct Job
{
    string path;
    bool sum;       // "sum": every byte value plus the count; "count": the count only
    uint passes;    // the file is reopened for every pass
}

/// One line on stderr, then exit (status 2 for a usage error, 1 otherwise). No stack trace.
void fail(string message, int status = 1)
{
    stderr.writeln("readbytes: ", message);
    exit(status);
}

Job parseArgs(string[] args)
{
    if (args.length != 4)
        fail("usage: " ~ args[0] ~ " FILE count|sum PASSES", 2);
    Job job;
    job.path = args[1];
    switch (args[2])
    {
        case "count": job.sum = false; break;
        case "sum": job.sum = true; break;
        default: fail("mode must be count or sum, not '" ~ args[2] ~ "'", 2);
    }
    try
        job.passes = args[3].to!uint;
    catch (ConvException)
        job.passes = 0;
    if (job.passes == 0)
        fail("passes must be a positive integer, not '" ~ args[3] ~ "'", 2);
    return job;
}

/// The application observes every byte it is handed: `count = observe(count + 1, b)` returns the
/// count unchanged, but an empty asm statement tells the compiler that the result depends on the
/// byte, so the byte must be loaded into a register and the loop can be neither folded nor
/// vectorised: without it gdc/ldc2 -O3 turn the mmfile count loop into `end - begin` (0.2 ms for
/// 128 MB, the file never read) and vectorise the sum loops. It costs no instruction and no memory
/// access under both compilers: gdc gets a GCC asm (no memory operand, no clobber); ldc2 gets the
/// same empty asm as inline LLVM IR marked `readnone`, because LDC makes every `asm { }` statement
/// `sideeffect`, which LLVM treats as reading memory: with the former `asm { "" : : "r" (b); }` ldc2
/// spilled and reloaded the reader's cursor every byte (7 instructions per byte for the mmfile loop
/// against gdc's 4). Same rule as the C, C++ and Rust variants' observe(). A template, so it is
/// inlined at every call. (dmd neither folds nor vectorises these loops; it gets no barrier.)
pragma(inline, true)
ulong observe()(ulong acc, uint b) nothrow @nogc @safe pure
{
    version (GNU)
    {
        asm nothrow @nogc @trusted pure { "" : "+r" (acc) : "r" (b); }
    }
    else version (LDC)
    {
        import ldc.llvmasm : __ir_pure;
        acc = __ir_pure!(`%r = call i64 asm "", "=r,0,r"(i64 %0, i32 %1) readnone nounwind
                         ret i64 %r`, ulong)(acc, b);
    }
    return acc;
}

/// Runs the job, as cpp/common.hpp does for C++: for each pass `open(path)` makes a fresh reader,
/// every byte reaches the application through `next(reader, b)` (false at the end of the file),
/// then `reader.close()`; the passes are timed (the inner time) and the result is reported. A
/// variant supplies only its reader and the one-line `next` that calls the reader's read() the way
/// the original program did (a pointer, an out-parameter, -1 at EOF, ...); both are inlined here.
int run(alias open, alias next)(string[] args)
{
    auto job = parseArgs(args);
    ulong count = 0, sum = 0;
    immutable start = MonoTime.currTime;
    try
    {
        foreach (pass; 0 .. job.passes)
        {
            auto reader = open(job.path);
            ubyte b;
            if (job.sum)
            {
                while (next(reader, b))
                {
                    sum += b;
                    count = observe(count + 1, b);
                }
            }
            else
            {
                while (next(reader, b))
                    count = observe(count + 1, b);
            }
            reader.close();
        }
    }
    catch (ErrnoException e)
        fail("read error on " ~ job.path ~ ": " ~ e.msg);
    immutable ns = (MonoTime.currTime - start).total!"nsecs";
    report(job, job.sum ? sum + count : count, ns);
    return 0;
}

/// The human line on stdout, then the machine line, last, on stderr.
void report(const ref Job job, ulong answer, long innerNs)
{
    stdout.writefln("%s %s (%s passes) in %.1f ms", job.sum ? "sum" : "count", answer, job.passes, innerNs / 1e6);
    stdout.flush();
    stderr.writefln(`iorace-result {"answer": %d, "inner_ns": %d}`, answer, innerNs);
}
