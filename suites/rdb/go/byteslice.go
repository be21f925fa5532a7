// The whole file read with os.ReadFile into a []byte; a cursor copies each field out of the slice.
package main

import (
	"io"
	"os"
)

type sliceSource struct {
	data []byte
	pos  int
}

func (s *sliceSource) ReadFull(buf []byte) error {
	if len(buf) > len(s.data)-s.pos {
		return io.ErrUnexpectedEOF
	}
	s.pos += copy(buf, s.data[s.pos:])
	return nil
}

func main() {
	run(func(path string) (Source, uint64, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, 0, err
		}
		return &sliceSource{data: data}, uint64(len(data)), nil
	})
}
