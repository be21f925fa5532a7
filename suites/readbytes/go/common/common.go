// Package common is shared by every Go readbytes program: argument parsing, errors and the result line.
//
// Unlike the C, C++, D and Rust variants, the Go programs need no optimisation barrier per byte:
// the gc compiler neither vectorises loops nor folds a count loop into a length. It does drop a
// load whose value is unused, so the count loops OR every byte into a value that Report prints.
package common

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// Job is the job as given on the command line: prog FILE MODE PASSES.
type Job struct {
	Path   string
	Sum    bool // "sum": every byte value plus the count; "count": the count only
	Passes int  // the file is reopened for every pass
}

// Fail prints one line on stderr and exits (status 2 for a usage error, 1 otherwise).
func Fail(status int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "readbytes: "+format+"\n", args...)
	os.Exit(status)
}

// ParseArgs reads the job from os.Args.
func ParseArgs() Job {
	if len(os.Args) != 4 {
		Fail(2, "usage: %s FILE count|sum PASSES", os.Args[0])
	}
	job := Job{Path: os.Args[1]}
	switch os.Args[2] {
	case "count":
		job.Sum = false
	case "sum":
		job.Sum = true
	default:
		Fail(2, "mode must be count or sum, not '%s'", os.Args[2])
	}
	passes, err := strconv.Atoi(os.Args[3])
	if err != nil || passes <= 0 {
		Fail(2, "passes must be a positive integer, not '%s'", os.Args[3])
	}
	job.Passes = passes
	return job
}

// Report prints the human line on stdout (in count mode with seen, every byte ORed together, so
// that the count loop consumes each byte), then the machine line, last, on stderr.
func (job Job) Report(answer uint64, seen byte, inner time.Duration) {
	mode, check := "count", fmt.Sprintf(", every byte ORed: %#02x", seen)
	if job.Sum {
		mode, check = "sum", ""
	}
	fmt.Printf("%s %d (%d passes%s) in %.1f ms\n", mode, answer, job.Passes, check, float64(inner.Nanoseconds())/1e6)
	fmt.Fprintf(os.Stderr, "iorace-result {\"answer\": %d, \"inner_ns\": %d}\n", answer, inner.Nanoseconds())
}
