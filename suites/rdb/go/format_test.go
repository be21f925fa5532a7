// Not a variant: the digest's hand-written number formatting in parser.go (putInt, putUint, hex8) against
// strconv and fmt. suites/rdb/tests/test_rdb.py runs it in `make test`:
//
//	cd suites/rdb/go && go test -run 'PutInt|Hex8' parser.go format_test.go
package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// TestPutInt: every power of ten and its neighbours (where the digit count changes), the extremes, and
// random values of every magnitude, signed and unsigned.
func TestPutInt(t *testing.T) {
	var b [32]byte
	check := func(v int64) {
		if got, want := string(b[:putInt(b[:], v)]), strconv.FormatInt(v, 10); got != want {
			t.Fatalf("putInt(%d) = %q", v, got)
		}
		if got, want := string(b[:putUint(b[:], uint64(v))]), strconv.FormatUint(uint64(v), 10); got != want {
			t.Fatalf("putUint(%d) = %q", uint64(v), got)
		}
	}
	for _, v := range []int64{0, 1, 9, 10, 99, 100, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		check(v)
	}
	for p := int64(1); p <= math.MaxInt64/10; p *= 10 {
		check(p - 1)
		check(p)
		check(p + 1)
		check(-p)
	}
	if got := string(b[:putUint(b[:], math.MaxUint64)]); got != "18446744073709551615" {
		t.Fatalf("putUint(MaxUint64) = %q", got)
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 200000; i++ {
		check(int64(rng.Uint64()) >> rng.Intn(64))
	}
}

// TestHex8: hex8 against fmt's %08x.
func TestHex8(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 200000; i++ {
		v := rng.Uint32()
		if i < 4096 {
			v = uint32(i) * 0x00F0F0F1 // every nibble value in every position
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], hex8(v))
		if want := fmt.Sprintf("%08x", v); string(b[:]) != want {
			t.Fatalf("hex8(%08x) = %q", v, b[:])
		}
	}
}
