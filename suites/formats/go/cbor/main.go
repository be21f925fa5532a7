// Strategy: fxamacker/cbor/v2 (reflection, library defaults): Marshal of the typed structs (their json tags name
// the keys; ints in their shortest head; maps in Go's map order, SortNone), Unmarshal into new ones (it checks the
// bytes are well-formed first, and caps arrays and maps at 131,072 items and nesting at 32 levels).
package main

import (
	"formats/common"

	"github.com/fxamacker/cbor/v2"
)

func main() {
	common.Main(
		func(c *common.Catalog) ([]byte, error) { return cbor.Marshal(c) },
		func(b []byte) (*common.Catalog, error) {
			var c common.Catalog
			err := cbor.Unmarshal(b, &c)
			return &c, err
		},
	)
}
