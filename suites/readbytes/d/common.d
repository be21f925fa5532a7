// Shared by every D readbytes variant: argument parsing, errors, timing and the result line.
module common;

import core.stdc.stdlib : exit;
import core.time : MonoTime;
import std.conv : ConvException, to;
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

/// The application observes every byte it is handed. The empty asm statement makes the value
/// "used" without costing an instruction, so the optimiser may neither drop the per-byte work
/// nor vectorise it: without it gdc/ldc2 -O3 turn the mmfile count loop into `end - begin`
/// (0.2 ms for 128 MB, the file never read) and vectorise the sum loops. Same as the C++
/// variants' observe() and benchmark::DoNotOptimize. A template, so it is inlined at every call.
/// (dmd neither folds nor vectorises these loops; it gets no barrier.)
pragma(inline, true)
void observe()(uint b) nothrow @nogc
{
    version (GNU)
        asm nothrow @nogc { "" : : "r" (b); }
    else version (LDC)
        asm nothrow @nogc { "" : : "r" (b); }
}

/// Starts the inner clock (monotonic).
MonoTime startClock()
{
    return MonoTime.currTime;
}

/// Nanoseconds since `start`.
long elapsedNs(MonoTime start)
{
    return (MonoTime.currTime - start).total!"nsecs";
}

/// The human line on stdout, then the machine line, last, on stderr.
void report(const ref Job job, ulong answer, long innerNs)
{
    stdout.writefln("%s %s (%s passes) in %.1f ms", job.sum ? "sum" : "count", answer, job.passes, innerNs / 1e6);
    stdout.flush();
    stderr.writefln(`iorace-result {"answer": %d, "inner_ns": %d}`, answer, innerNs);
}
