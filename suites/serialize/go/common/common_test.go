package common

import (
	"math"
	"math/rand"
	"testing"
)

// Fold (the name a word at a time) against the spec's sum, a byte at a time: every name length up to 70,
// random bytes and all 0xff.
func TestFold(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n <= 70; n++ {
		for trial := 0; trial < 50; trial++ {
			r := Record{ID: rng.Uint32(), Kind: uint8(rng.Intn(256)), Delta: int16(rng.Intn(65536) - 32768),
				Stamp: int64(rng.Uint64()), Active: trial%2 == 1, Ratio: rng.Float32(), Value: rng.NormFloat64(),
				Dims: [4]uint16{uint16(rng.Intn(65536)), 2, 3, math.MaxUint16}, Name: make([]byte, n)}
			for i := range r.Name {
				r.Name[i] = byte(rng.Intn(256))
				if trial == 0 {
					r.Name[i] = 0xff
				}
			}
			checksum := rng.Uint64()
			s := uint64(r.ID) + uint64(r.Kind) + uint64(int64(r.Delta)) + uint64(r.Stamp) + uint64(boolByte(r.Active)) +
				uint64(math.Float32bits(r.Ratio)) + math.Float64bits(r.Value) +
				uint64(r.Dims[0]) + uint64(r.Dims[1]) + uint64(r.Dims[2]) + uint64(r.Dims[3]) + uint64(len(r.Name))
			for _, c := range r.Name {
				s += uint64(c)
			}
			if got, want := Fold(checksum, &r), checksum*1000003+s; got != want {
				t.Fatalf("Fold(%d, name %x) = %d, want %d", checksum, r.Name, got, want)
			}
		}
	}
}
