// Strategy: bufio.Scanner with the default ScanLines (max token raised to 1 GiB so long lines fit) + bufio.Writer; ScanLines drops "\n" and a "\r" before it, the writer adds "\n" back.
package main

import (
	"bufio"
	"fmt"
	"os"
)

func run(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<30) // default max token is 64 KiB: a longer line would stop the scan
	out := bufio.NewWriter(os.Stdout)
	for sc.Scan() {
		if _, err := out.Write(sc.Bytes()); err != nil {
			return err
		}
		if err := out.WriteByte('\n'); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
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
