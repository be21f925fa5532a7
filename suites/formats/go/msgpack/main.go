// Strategy: vmihailenco/msgpack/v5 (reflection): an Encoder with sorted map keys into a new bytes.Buffer per
// op, Unmarshal into new typed structs.
package main

import (
	"bytes"

	"formats/common"

	"github.com/vmihailenco/msgpack/v5"
)

func main() {
	common.Main(
		func(c *common.Catalog) ([]byte, error) {
			var buf bytes.Buffer
			enc := msgpack.NewEncoder(&buf)
			enc.SetSortMapKeys(true)
			err := enc.Encode(c)
			return buf.Bytes(), err
		},
		func(b []byte) (*common.Catalog, error) {
			var c common.Catalog
			err := msgpack.Unmarshal(b, &c)
			return &c, err
		},
	)
}
