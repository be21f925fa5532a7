// Strategy: an expert's Go loop: (*os.File).Read fills a 64 KiB []byte chunk, then `for _, b := range chunk` hands the program one byte at a time (no call, no bounds check per byte).
package main

import (
	"io"
	"os"
	"time"

	"iorace/readbytes/common"
)

const chunkSize = 64 * 1024

// orBytes and sumBytes are the per-byte loops: a range over the chunk, which the gc compiler
// compiles without a bounds check (the index never leaves the slice) and inlines into the caller.
func orBytes(chunk []byte, seen byte) byte {
	for _, b := range chunk {
		seen |= b
	}
	return seen
}

func sumBytes(chunk []byte, sum uint64) uint64 {
	for _, b := range chunk {
		sum += uint64(b)
	}
	return sum
}

func main() {
	job := common.ParseArgs()
	var count, sum uint64
	var seen byte // every byte of the count loop ORed together: the count loop consumes each byte
	buf := make([]byte, chunkSize)
	start := time.Now()
	for pass := 0; pass < job.Passes; pass++ {
		file, err := os.Open(job.Path)
		if err != nil {
			common.Fail(1, "%v", err)
		}
		for {
			n, err := file.Read(buf)
			chunk := buf[:n]
			if job.Sum {
				sum = sumBytes(chunk, sum)
			} else {
				seen = orBytes(chunk, seen)
			}
			count += uint64(len(chunk)) // the bytes the loop above was handed, one at a time
			if err == io.EOF {
				break
			}
			if err != nil {
				common.Fail(1, "%v", err)
			}
		}
		file.Close()
	}
	inner := time.Since(start)
	if job.Sum {
		job.Report(sum+count, seen, inner)
	} else {
		job.Report(count, seen, inner)
	}
}
