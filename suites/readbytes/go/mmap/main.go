// Strategy: syscall.Mmap maps the whole file read-only; a mappedReader's ReadByte() returns the byte at a cursor in the mapping, io.EOF at the end.
package main

import (
	"io"
	"os"
	"syscall"
	"time"

	"iorace/readbytes/common"
)

type mappedReader struct {
	data []byte
	pos  int
}

// mapFile maps the whole file; an empty file gets an empty reader (mmap refuses a length of 0).
func mapFile(path string) (*mappedReader, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close() // the mapping outlives the descriptor
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() == 0 {
		return &mappedReader{}, nil
	}
	data, err := syscall.Mmap(int(file.Fd()), 0, int(info.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, &os.PathError{Op: "mmap", Path: path, Err: err}
	}
	return &mappedReader{data: data}, nil
}

// ReadByte returns the next byte, or io.EOF at the end of the mapping.
func (r *mappedReader) ReadByte() (byte, error) {
	if r.pos >= len(r.data) {
		return 0, io.EOF
	}
	b := r.data[r.pos]
	r.pos++
	return b, nil
}

func (r *mappedReader) Close() error {
	if r.data == nil {
		return nil
	}
	return syscall.Munmap(r.data)
}

func main() {
	job := common.ParseArgs()
	var count, sum uint64
	var seen byte // every byte of the count loop ORed together: the count loop consumes each byte
	start := time.Now()
	for pass := 0; pass < job.Passes; pass++ {
		reader, err := mapFile(job.Path)
		if err != nil {
			common.Fail(1, "%v", err)
		}
		for {
			b, err := reader.ReadByte()
			if err != nil {
				break // io.EOF: the only error a mappedReader returns
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
