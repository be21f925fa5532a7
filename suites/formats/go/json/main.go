// Strategy: encoding/json (Go's standard library, reflection): Marshal of the typed structs, Unmarshal into new ones.
package main

import (
	"encoding/json"

	"formats/common"
)

func main() {
	common.Main(
		func(c *common.Catalog) ([]byte, error) { return json.Marshal(c) },
		func(b []byte) (*common.Catalog, error) {
			var c common.Catalog
			err := json.Unmarshal(b, &c)
			return &c, err
		},
	)
}
