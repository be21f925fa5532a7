// Strategy: bytedance/sonic (JIT-compiled codecs per type, SIMD scanning; amd64 on Go 1.17 to 1.27): Marshal of the
// typed structs, Unmarshal into new ones, with sonic's default config (the usual sonic.Marshal / sonic.Unmarshal:
// map keys in Go's map order, not sorted as encoding/json sorts them; no HTML escaping; strings not UTF-8-checked).
package main

import (
	"strings"

	"github.com/bytedance/sonic"

	"formats/common"
)

// oneLine: sonic's syntax errors quote the input around the fault with a caret, over several lines; a refusal is
// one line.
func oneLine(err error) error {
	if err == nil {
		return nil
	}
	return lineError(strings.Join(strings.Fields(err.Error()), " "))
}

type lineError string

func (e lineError) Error() string { return string(e) }

func main() {
	common.Main(
		func(c *common.Catalog) ([]byte, error) {
			b, err := sonic.Marshal(c)
			return b, oneLine(err)
		},
		func(b []byte) (*common.Catalog, error) {
			var c common.Catalog
			err := sonic.Unmarshal(b, &c)
			return &c, oneLine(err)
		},
	)
}
