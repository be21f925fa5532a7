// The file mapped with syscall.Mmap and parsed in place: strings and compact blobs are sub-slices of the mapping, never copied; the CRC-64 from the file, caught up after a key once 64 KiB behind.
package main

import (
	"errors"
	"os"
	"syscall"
)

type mapped struct{ data []byte }

// ReadFull is never called: the parser reads a WholeFile's Bytes in place.
func (m mapped) ReadFull([]byte) error {
	return errors.New("an in-place source is read through Bytes()")
}

func (m mapped) Bytes() []byte { return m.data }

func main() {
	run(func(path string) (Source, uint64, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil, 0, err
		}
		size := st.Size()
		if size == 0 { // mmap refuses an empty mapping
			return mapped{data: []byte{}}, 0, nil
		}
		if int64(int(size)) != size {
			return nil, 0, errors.New("file too large to map")
		}
		data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
		if err != nil {
			return nil, 0, err
		}
		return mapped{data: data}, uint64(size), nil
	})
}
