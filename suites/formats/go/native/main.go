// Strategy: encoding/gob (stdlib, reflection): a new Encoder per pass writes the type descriptions then the typed
// structs into a bytes.Buffer; a new Decoder reads them back into new structs. Go's own format, read only by this
// program: not in the interop matrix (README, "Native formats"). gob flattens pointers and leaves zero values
// out, so a present empty optional string comes back absent (the catalogue has none).
package main

import (
	"bytes"
	"encoding/gob"
	"errors"
	"io"

	"formats/common"
)

func main() {
	common.Main(
		func(c *common.Catalog) ([]byte, error) {
			var buf bytes.Buffer
			err := gob.NewEncoder(&buf).Encode(c)
			return buf.Bytes(), err
		},
		func(b []byte) (*common.Catalog, error) {
			var c common.Catalog
			r := bytes.NewReader(b)
			if err := gob.NewDecoder(r).Decode(&c); err != nil {
				if errors.Is(err, io.EOF) {
					return nil, io.ErrUnexpectedEOF // no value at all: gob says EOF, which is no error for a stream
				}
				return nil, err
			}
			if r.Len() != 0 {
				return nil, errors.New("gob: bytes left after the catalogue")
			}
			return &c, nil
		},
	)
}
