// Strategy: own reader: (*os.File).Read fills a 64 KiB buffer, its ReadByte() hands out one byte per call (the refill is a separate method).
package main

import (
	"io"
	"os"
	"time"

	"iorace/readbytes/common"
)

const bufferSize = 64 * 1024

type byteReader struct {
	file     *os.File
	buf      []byte
	pos, end int
}

func open(path string) (*byteReader, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &byteReader{file: file, buf: make([]byte, bufferSize)}, nil
}

// ReadByte returns the next byte, or io.EOF at the end (the io.ByteReader contract).
// Go does not inline it (cost 92 > the inliner's budget of 80: the call to fill alone
// costs 57), so every byte is a real call, as with bufio.Reader but without its checks.
func (r *byteReader) ReadByte() (byte, error) {
	if r.pos == r.end {
		if err := r.fill(); err != nil {
			return 0, err
		}
	}
	b := r.buf[r.pos]
	r.pos++
	return b, nil
}

// fill refills the buffer; io.EOF at the end of the file.
func (r *byteReader) fill() error {
	n, err := r.file.Read(r.buf)
	if n == 0 {
		if err == nil {
			err = io.ErrNoProgress
		}
		return err
	}
	r.pos, r.end = 0, n
	return nil
}

func (r *byteReader) Close() error { return r.file.Close() }

func main() {
	job := common.ParseArgs()
	var count, sum uint64
	var seen byte // every byte of the count loop ORed together: the count loop consumes each byte
	start := time.Now()
	for pass := 0; pass < job.Passes; pass++ {
		reader, err := open(job.Path)
		if err != nil {
			common.Fail(1, "%v", err)
		}
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
		reader.Close()
	}
	inner := time.Since(start)
	if job.Sum {
		job.Report(sum+count, seen, inner)
	} else {
		job.Report(count, seen, inner)
	}
}
