// Not a variant: the CRC-64 of parser.go checked, the carry-less multiply folding (crc64clmul) against the
// slicing-by-8 tables and the check value of CRC-64/Jones. suites/rdb/tests/test_rdb.py runs it in `make test`:
//
//	cd suites/rdb/go && go test -run 'CRC64' parser.go crc64_test.go
package main

import (
	"math/rand"
	"strconv"
	"testing"

	"rdbrace/crc64clmul"
)

// TestCRC64CheckValue: CRC-64/Jones of "123456789" is 0xe9c6d914c4b8d9ca (the catalogue's check value),
// by the tables, by crc64 (folding where the CPU has it, from 64 bytes: the string repeated covers that),
// and by the Go fold.
func TestCRC64CheckValue(t *testing.T) {
	check := []byte("123456789")
	if got := crc64Serial(0, check); got != 0xe9c6d914c4b8d9ca {
		t.Fatalf("tables: crc64(123456789) = %016x, want e9c6d914c4b8d9ca", got)
	}
	if got := crc64(0, check); got != 0xe9c6d914c4b8d9ca {
		t.Fatalf("crc64(123456789) = %016x, want e9c6d914c4b8d9ca", got)
	}
	long := make([]byte, 0, 9*100)
	for i := 0; i < 100; i++ {
		long = append(long, check...)
	}
	want := crc64Serial(0, long)
	if got := crc64(0, long); got != want {
		t.Fatalf("crc64 of 900 bytes = %016x, tables %016x", got, want)
	}
}

// TestCRC64FoldMatchesTables: random lengths 0..4096 at random offsets, random incoming CRCs: crc64 (which
// folds by PCLMULQDQ from 64 bytes when crc64clmul.Available), the Go fold and the three-lane tables all
// equal the one-chain slicing-by-8, and a CRC over pieces equals the CRC over the whole.
func TestCRC64FoldMatchesTables(t *testing.T) {
	if !crc64clmul.Available {
		t.Log("no PCLMULQDQ on this CPU: crc64 runs the tables, only the Go fold is checked against them")
	}
	rng := rand.New(rand.NewSource(23))
	buf := make([]byte, 4096+16+3*crcLane)
	rng.Read(buf)
	for i := 0; i < 3000; i++ {
		n := rng.Intn(4097)
		if i < 200 {
			n = i // every short length, around the thresholds
		}
		off := rng.Intn(16)
		p := buf[off : off+n]
		init := rng.Uint64()
		if i%7 == 0 {
			init = 0
		}
		want := crc64Serial(init, p)
		if got := crc64(init, p); got != want {
			t.Fatalf("crc64(%016x, %d bytes at +%d) = %016x, tables %016x", init, n, off, got, want)
		}
		if n >= 64 {
			m := n &^ 15
			if got := crc64Serial(crcOf16(crc64clmul.FoldGo(init, p[:m])), p[m:]); got != want {
				t.Fatalf("Go fold (%016x, %d bytes) = %016x, tables %016x", init, n, got, want)
			}
			if got := crc64Serial(crcOf16(crc64clmul.Fold(init, p[:m])), p[m:]); got != want {
				t.Fatalf("Fold (%016x, %d bytes) = %016x, tables %016x", init, n, got, want)
			}
		}
		cut := rng.Intn(n + 1)
		if got := crc64(crc64(init, p[:cut]), p[cut:]); got != want {
			t.Fatalf("crc64 in two pieces (%016x, %d+%d bytes) = %016x, tables %016x", init, cut, n-cut, got, want)
		}
	}
	// the three lanes too: from 3 KiB
	p := buf[:3*crcLane+100]
	if got, want := crc64Lanes(7, p), crc64Serial(7, p); got != want {
		t.Fatalf("crc64Lanes = %016x, tables %016x", got, want)
	}
}

// BenchmarkCRC64: the folding against the tables per input size (go test -bench CRC64 parser.go crc64_test.go).
func BenchmarkCRC64(b *testing.B) {
	buf := make([]byte, 64<<10)
	rand.New(rand.NewSource(1)).Read(buf)
	for _, n := range []int{32, 64, 128, 1024, 16 << 10, 64 << 10} {
		b.Run("fold/"+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				crc64(0, buf[:n])
			}
		})
		b.Run("tables/"+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				crc64Lanes(0, buf[:n])
			}
		})
	}
}
