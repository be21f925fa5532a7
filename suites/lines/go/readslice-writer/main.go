// Strategy: bufio.Reader.ReadSlice('\n') (a slice of the reader's 64 KiB buffer, terminator kept; longer lines arrive in pieces) + bufio.Writer.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
)

func run(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	in := bufio.NewReaderSize(f, 64*1024)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadSlice('\n')
		if _, werr := out.Write(line); werr != nil {
			return werr
		}
		if err == io.EOF {
			break // line held the last bytes, without '\n'
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return err // ErrBufferFull: a long line, the rest follows in the next slices
		}
	}
	return out.Flush()
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
