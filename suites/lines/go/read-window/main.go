// Strategy (expert): an own buffer window over File.Read (128 KiB reads, grows for long lines), bytes.IndexByte (assembly, SIMD) finds each line, lines copied into an own 128 KiB output buffer written to os.Stdout when full: C's read-window in Go.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

const readSize = 128 * 1024
const outSize = 128 * 1024

type output struct {
	w   io.Writer
	buf []byte
}

func (o *output) flush() error {
	_, err := o.w.Write(o.buf)
	o.buf = o.buf[:0]
	return err
}

// putLine copies one line (with its '\n', if any) into the output buffer; a line longer than
// the buffer goes out directly.
func (o *output) putLine(line []byte) error {
	if len(o.buf)+len(line) > outSize {
		if err := o.flush(); err != nil {
			return err
		}
		if len(line) > outSize {
			_, err := o.w.Write(line)
			return err
		}
	}
	o.buf = append(o.buf, line...)
	return nil
}

func run(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	out := &output{w: os.Stdout, buf: make([]byte, 0, outSize)}
	buf := make([]byte, 2*readSize)
	start, end, scanned := 0, 0, 0 // the window is buf[start:end]; buf[start:scanned] holds no '\n'
	eof := false
	for {
		if i := bytes.IndexByte(buf[scanned:end], '\n'); i >= 0 {
			next := scanned + i + 1
			if err := out.putLine(buf[start:next]); err != nil {
				return err
			}
			start, scanned = next, next
			continue
		}
		scanned = end
		if eof {
			break
		}
		// No '\n' left: move the partial line to the front, grow if a read would not fit.
		if start > 0 {
			copy(buf, buf[start:end])
			end -= start
			scanned -= start
			start = 0
		}
		if len(buf)-end < readSize {
			bigger := make([]byte, 2*len(buf))
			copy(bigger, buf[:end])
			buf = bigger
		}
		n, err := f.Read(buf[end : end+readSize])
		end += n
		if err == io.EOF {
			eof = true
		} else if err != nil {
			return err
		}
	}
	// A last line without '\n' is copied as it is.
	if err := out.putLine(buf[start:end]); err != nil {
		return err
	}
	return out.flush()
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintf(os.Stderr, "usage: %s FILE\n", os.Args[0])
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
