// Strategy: hamba/avro/v2 v2.30.0 (reflection, the typed structs' json tags naming the fields, *string for the
// ["null", string] unions): Marshal against avro/catalogue.avsc (copied beside the program by the build, read and parsed
// once, untimed) into new bytes; decode: a flat walk of the bytes against the schema first (every block count and string
// length checked against the bytes left, the datum ending at the last byte: the library grows a slice to a block's
// claimed count before reading an item), then Unmarshal into new structs.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"formats/common"

	"github.com/hamba/avro/v2"
)

// schemaFile lies beside the program: the build copies avro/catalogue.avsc there (suite.toml's go toolchain). Not a
// path baked in at build time: a build is cached by its sources, not by the checkout it was made from, and its
// code layouts (go build -ldflags=-randlayout) need the command line's -ldflags free.
func schemaFile() string {
	exe, err := os.Executable()
	if err != nil {
		common.Fail(1, "cannot find the program's own path: %v", err)
	}
	return filepath.Join(filepath.Dir(exe), "catalogue.avsc")
}

type walker struct {
	b  []byte
	at int
}

// long reads Avro's zigzag varint (at most 10 bytes).
func (w *walker) long() (int64, error) {
	var v uint64
	for shift := uint(0); shift < 70; shift += 7 {
		if w.at >= len(w.b) {
			return 0, errors.New("a long past the end")
		}
		c := w.b[w.at]
		w.at++
		if shift == 63 && c > 1 {
			return 0, errors.New("a long of more than 64 bits")
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int64(v>>1) ^ -int64(v&1), nil
		}
	}
	return 0, errors.New("a long of more than 10 bytes")
}

// size reads a length or count: not negative, no more than the bytes left (every item here takes a byte at least).
func (w *walker) size(what string) (int, error) {
	n, err := w.long()
	if err != nil {
		return 0, err
	}
	if left := len(w.b) - w.at; n < 0 || n > int64(left) {
		return 0, fmt.Errorf("%s of %d at byte %d with %d bytes left", what, n, w.at, left)
	}
	return int(n), nil
}

func (w *walker) str() error {
	n, err := w.size("a string")
	if err != nil {
		return err
	}
	if !utf8.Valid(w.b[w.at : w.at+n]) {
		return fmt.Errorf("a string at byte %d is not UTF-8", w.at)
	}
	w.at += n
	return nil
}

// blocks walks an array's or a map's blocks: a count (a negative one followed by the block's size in bytes), its
// items, until a count of 0.
func (w *walker) blocks(items avro.Schema, isMap bool) error {
	for {
		n, err := w.long()
		if err != nil || n == 0 {
			return err
		}
		if n < 0 {
			if n = -n; n < 0 {
				return errors.New("a block count of -2^63")
			}
			if _, err := w.size("a block's size"); err != nil {
				return err
			}
		}
		if left := len(w.b) - w.at; n > int64(left) {
			return fmt.Errorf("a block of %d items at byte %d with %d bytes left", n, w.at, left)
		}
		for ; n > 0; n-- {
			if isMap {
				if err := w.str(); err != nil {
					return err
				}
			}
			if err := w.walk(items); err != nil {
				return err
			}
		}
	}
}

// walk checks the datum's bytes against the schema (the kinds this schema uses), nothing built.
func (w *walker) walk(s avro.Schema) error {
	switch s := s.(type) {
	case *avro.RecordSchema:
		for _, f := range s.Fields() {
			if err := w.walk(f.Type()); err != nil {
				return err
			}
		}
		return nil
	case *avro.ArraySchema:
		return w.blocks(s.Items(), false)
	case *avro.MapSchema:
		return w.blocks(s.Values(), true)
	case *avro.UnionSchema:
		i, err := w.long()
		if err != nil {
			return err
		}
		if i < 0 || i >= int64(len(s.Types())) {
			return fmt.Errorf("union branch %d at byte %d", i, w.at)
		}
		return w.walk(s.Types()[i])
	case *avro.NullSchema:
		return nil
	case *avro.PrimitiveSchema:
		switch s.Type() {
		case avro.Long:
			_, err := w.long()
			return err
		case avro.String:
			return w.str()
		}
	}
	return fmt.Errorf("a schema kind the catalogue does not use: %s", s.Type())
}

func main() {
	path := schemaFile()
	text, err := os.ReadFile(path)
	if err != nil {
		common.Fail(1, "%v", err)
	}
	schema, err := avro.Parse(string(text))
	if err != nil {
		common.Fail(1, "%s: %v", path, err)
	}
	api := avro.Config{TagKey: "json"}.Freeze()
	common.Main(
		func(c *common.Catalog) ([]byte, error) { return api.Marshal(schema, c) },
		func(b []byte) (*common.Catalog, error) {
			w := walker{b: b}
			if err := w.walk(schema); err != nil {
				return nil, err
			}
			if w.at != len(b) {
				return nil, fmt.Errorf("%d bytes after the datum", len(b)-w.at)
			}
			var c common.Catalog
			err := api.Unmarshal(schema, b, &c)
			return &c, err
		},
	)
}
