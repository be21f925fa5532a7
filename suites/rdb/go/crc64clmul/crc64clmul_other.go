//go:build !amd64

package crc64clmul

// Available is false: no assembly for this architecture, and FoldGo is slower than tables.
var Available = false

func fold(crc uint64, p []byte) (lo, hi uint64) { return FoldGo(crc, p) }
