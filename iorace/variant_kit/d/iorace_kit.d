/* iorace's variant kit for D: the argument checks, the passes loop, the monotonic timer and the result line
 * of the variant protocol (docs/ARCHITECTURE.md), so that a variant is its loop:
 *
 *   import iorace_kit;
 *   int main(string[] args) { return runJob(args, (ref const Job job) { ...; return count; }); }
 *
 * The program takes `FILE PASSES [PARAM...]`; the pass runs PASSES times, timed as one block, and every pass
 * must give the same answer. A variant lists this file after its own in `sources` (what `iorace new` writes). */
module iorace_kit;

import core.time : MonoTime;
import std.conv : to, ConvException;
import std.stdio : stderr;

/// What one run was asked to do.
struct Job {
    string input; /// the input file
    long passes; /// how many times the pass runs (the suite's work parameter)
    string[] params; /// the arguments after PASSES, as given
}

/// Thrown by a pass for bad input: its message is the one line printed.
class JobError : Exception {
    this(string message) { super(message); }
}

/// Parse FILE PASSES [PARAM...], run the pass PASSES times, print the result line; the exit code.
int runJob(string[] args, long delegate(ref const Job) pass) {
    if (args.length < 3) {
        stderr.writefln("usage: %s FILE PASSES [PARAM...]", args[0]);
        return 2;
    }
    long passes = 0;
    try
        passes = args[2].to!long;
    catch (ConvException)
        passes = 0;
    if (passes < 1) {
        stderr.writefln("error: PASSES must be a positive integer, not '%s'", args[2]);
        return 2;
    }
    const job = Job(args[1], passes, args[3 .. $]);
    const start = MonoTime.currTime;
    long answer;
    try {
        answer = pass(job);
        foreach (p; 2 .. passes + 1) {
            const again = pass(job);
            if (again != answer) {
                stderr.writefln("error: pass %d answered %d, the first pass %d", p, again, answer);
                return 1;
            }
        }
    } catch (Exception e) {  // std.stdio's ErrnoException, a JobError: one line, not a stack trace
        stderr.writefln("error: %s", e.msg);
        return 1;
    }
    const innerNs = (MonoTime.currTime - start).total!"nsecs";
    stderr.writefln("iorace-result {\"answer\": %d, \"inner_ns\": %d}", answer, innerNs);
    return 0;
}
