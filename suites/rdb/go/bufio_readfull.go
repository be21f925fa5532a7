// bufio.Reader (64 KiB) over the os.File, io.ReadFull per field.
package main

import (
	"bufio"
	"io"
	"os"
)

type bufSource struct{ r *bufio.Reader }

func (s bufSource) ReadFull(buf []byte) error {
	_, err := io.ReadFull(s.r, buf)
	return err
}

func main() {
	run(func(path string) (Source, uint64, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, err
		}
		st, err := f.Stat()
		if err != nil {
			return nil, 0, err
		}
		return bufSource{bufio.NewReaderSize(f, 64<<10)}, uint64(st.Size()), nil
	})
}
