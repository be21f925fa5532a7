// Not a variant: native Go fuzzing (go test -fuzz) of the parser in parser.go, over the bytes of a mutated dump,
// each parsed twice, fields copied out (go/byteslice) and in place (go/inplace): the two must agree.
//
//	cd suites/rdb/go && RDB_FUZZ_SEEDS=DIR go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 60s parser.go fuzz_test.go
//
// The parser may reject a mutant (it panics with an rdbError, which run() turns into one stderr line);
// any other panic (index out of range, nil map, makeslice: len out of range, ...) fails the fuzz run.
// RDB_FUZZ_SEEDS names a directory of seed dumps (suites/rdb/fuzz/rdbfuzz.py seeds DIR writes one).
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

type fuzzSource struct {
	data []byte
	pos  int
}

func (s *fuzzSource) ReadFull(buf []byte) error {
	if len(buf) > len(s.data)-s.pos {
		return io.ErrUnexpectedEOF
	}
	s.pos += copy(buf, s.data[s.pos:])
	return nil
}

// parseBytes parses a whole dump held in memory, its fields copied out through a Source (inPlace false,
// as go/byteslice) or read in place (as go/inplace): the summary's JSON, or the error line's "offset N: msg".
func parseBytes(data []byte, inPlace bool) (answer string, rejected string) {
	p := &parser{src: &fuzzSource{data: data}, size: uint64(len(data)), sum: summary{dbs: map[uint64]uint64{}}}
	if inPlace {
		// capacity cut to the length: an append into a borrowed piece would fail the run, not pass
		p.data = data[:len(data):len(data)]
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(rdbError)
			if !ok {
				panic(r)
			}
			answer, rejected = "", e.msg
		}
	}()
	p.parse()
	return p.sum.json(), ""
}

func FuzzParse(f *testing.F) {
	if dir := os.Getenv("RDB_FUZZ_SEEDS"); dir != "" {
		paths, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, path := range paths {
			if data, err := os.ReadFile(path); err == nil && len(data) <= 1<<20 {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("REDIS0011\xfe\x00\x00\x01k\x01v\xff\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// go test -fuzz has no per-input time limit: a parse that hangs stalls the worker silently.
		// Crash the worker instead, so that the fuzzer records the input.
		slow := time.AfterFunc(10*time.Second, func() {
			panic(fmt.Sprintf("parsing a %d-byte input took more than 10 s", len(data)))
		})
		defer slow.Stop()
		copied, copiedErr := parseBytes(data, false)
		inPlace, inPlaceErr := parseBytes(data, true)
		if copied != inPlace || copiedErr != inPlaceErr {
			t.Fatalf("copied out: %q %q; in place: %q %q", copied, copiedErr, inPlace, inPlaceErr)
		}
	})
}
