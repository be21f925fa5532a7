// Package crc64clmul folds input for Redis's CRC-64 (CRC-64/Jones: poly 0xad93d23594c935a9, reflected,
// init 0, xorout 0) with carry-less multiplication (PCLMULQDQ), as Go's hash/crc32 does for IEEE: 16-byte
// blocks folded four at a time over 64 bytes (four independent chains keep the multiplier busy), then
// four into one. It does not finish the CRC: Fold returns the last 16-byte value, whose CRC from 0 is
// the CRC of all of p (the CRC has no xorout), and the caller's table code hashes those 16 bytes and any
// tail. The constants are in consts.go, written and checked by gen.go.
package crc64clmul

import (
	"encoding/binary"
	"math/bits"
)

//go:generate go run gen.go

// Fold folds p, whose length must be a multiple of 16 and at least 64, after crc: it returns the 16 bytes
// (as two little-endian words) whose CRC-64 from 0 equals the CRC-64 of p from crc. The incoming crc is
// XORed into p's first 8 bytes, which is what the table code's first step does with it. It uses
// PCLMULQDQ where Available, else FoldGo.
func Fold(crc uint64, p []byte) (lo, hi uint64) {
	if len(p) < 64 || len(p)%16 != 0 {
		panic("crc64clmul: Fold needs a multiple of 16 bytes, at least 64")
	}
	return fold(crc, p)
}

// FoldGo is Fold in Go, one block at a time with a software carry-less multiply: for machines without
// PCLMULQDQ (so slow that callers should use tables there: Available says which) and for tests.
func FoldGo(crc uint64, p []byte) (lo, hi uint64) {
	if len(p) < 64 || len(p)%16 != 0 {
		panic("crc64clmul: FoldGo needs a multiple of 16 bytes, at least 64")
	}
	le := binary.LittleEndian
	lo, hi = le.Uint64(p)^crc, le.Uint64(p[8:])
	for p = p[16:]; len(p) >= 16; p = p[16:] {
		a0, a1 := clmul(lo, fold1[0])
		b0, b1 := clmul(hi, fold1[1])
		lo, hi = a0^b0^le.Uint64(p), a1^b1^le.Uint64(p[8:])
	}
	return lo, hi
}

// clmul: the 128-bit carry-less product of a and b, as PCLMULQDQ computes it (low word, high word).
func clmul(a, b uint64) (lo, hi uint64) {
	for ; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		lo ^= a << i
		hi ^= a >> (64 - i) // a shift by 64 (i = 0) is 0 in Go
	}
	return lo, hi
}
