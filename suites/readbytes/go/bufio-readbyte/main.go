// Strategy: bufio.Reader (default 4 KiB buffer) over an *os.File, ReadByte() per byte, io.EOF at the end.
package main

import (
	"bufio"
	"io"
	"os"
	"time"

	"iorace/readbytes/common"
)

func main() {
	job := common.ParseArgs()
	var count, sum uint64
	var seen byte // every byte of the count loop ORed together: the count loop consumes each byte
	start := time.Now()
	for pass := 0; pass < job.Passes; pass++ {
		file, err := os.Open(job.Path)
		if err != nil {
			common.Fail(1, "%v", err)
		}
		reader := bufio.NewReader(file)
		for {
			b, err := reader.ReadByte()
			if err != nil {
				if err != io.EOF {
					common.Fail(1, "%v", err)
				}
				break
			}
			if job.Sum {
				sum += uint64(b)
			} else {
				seen |= b
			}
			count++
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
