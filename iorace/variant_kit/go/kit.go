// Package kit is iorace's variant kit for Go: the argument checks, the passes loop, the monotonic timer and
// the result line of the variant protocol (docs/ARCHITECTURE.md), so that a variant is its loop:
//
//	func main() { kit.Run(func(job *kit.Job) (any, error) { ...; return count, nil }) }
//
// The program takes `FILE PASSES [PARAM...]`; the function runs PASSES times, timed as one block, and every
// pass must give the same answer (a pass cut short would not). A suite's go.mod requires iorace.local/kit
// and replaces it with this folder (what `iorace new` writes).
package kit

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"time"
)

// Job is what one run was asked to do.
type Job struct {
	Input  string   // the input file
	Passes int64    // how many times the function runs (the suite's work parameter)
	Params []string // the arguments after PASSES, as given
}

// Fail prints one line on stderr and exits with code: for bad input and failed I/O.
func Fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "error: "+format+"\n", args...)
	os.Exit(code)
}

// Run parses `FILE PASSES [PARAM...]`, runs pass PASSES times and prints the result line; it does not return.
func Run(pass func(job *Job) (any, error)) {
	if len(os.Args) < 3 {
		Fail(2, "usage: %s FILE PASSES [PARAM...]", os.Args[0])
	}
	passes, err := strconv.ParseInt(os.Args[2], 10, 64)
	if err != nil || passes < 1 {
		Fail(2, "PASSES must be a positive integer, not '%s'", os.Args[2])
	}
	job := &Job{Input: os.Args[1], Passes: passes, Params: os.Args[3:]}
	start := time.Now() // Go's time.Now carries the monotonic clock; Since reads it
	answer, err := pass(job)
	for p := int64(2); err == nil && p <= passes; p++ {
		var again any
		if again, err = pass(job); err == nil && !reflect.DeepEqual(again, answer) {
			Fail(1, "pass %d answered %v, the first pass %v", p, again, answer)
		}
	}
	innerNs := time.Since(start).Nanoseconds()
	if err != nil {
		Fail(1, "%v", err)
	}
	text, err := json.Marshal(answer)
	if err != nil {
		Fail(1, "the answer is not a JSON value: %v", err)
	}
	fmt.Fprintf(os.Stderr, "iorace-result {\"answer\": %s, \"inner_ns\": %d}\n", text, innerNs)
	os.Exit(0)
}
