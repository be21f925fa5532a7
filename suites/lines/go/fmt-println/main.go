// Strategy: bufio.Scanner (ScanLines, max token raised to 1 GiB) + fmt.Println(line) on the unbuffered os.Stdout: one write(2) per line; the line's "\r\n" or missing final "\n" is not kept.
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
	sc.Buffer(make([]byte, 64*1024), 1<<30)
	for sc.Scan() {
		if _, err := fmt.Println(sc.Text()); err != nil {
			return err
		}
	}
	return sc.Err()
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
